# shellcheck shell=bash disable=SC2154,SC2034
# (Sourced by tests/reliability/run: it reads variables set there and sets some read
# there, such as $detail for check(); checked alone, shellcheck sees neither.)
# The load test, on the host against the fake tree of tests/service: wrk
# with 64 connections, then 500 idle or slow connections held open while a
# Prometheus scrapes every second.  Figures only are printed for speed;
# what is asserted is that nothing failed.

# wrk_fields FILE: the figures of wrk --latency's report as
# "REQUESTS ERRORS NON2XX REQ/S P50 P99" (errors: socket errors of any kind).
wrk_fields() {
	awk '
		/ requests in / { requests = $1 }
		/Socket errors:/ { gsub(",", ""); errors = $4 + $6 + $8 + $10 }
		/Non-2xx or 3xx responses:/ { non2xx = $5 }
		/^Requests\/sec:/ { rps = $2 }
		$1 == "50%" { p50 = $2 } $1 == "99%" { p99 = $2 }
		END { print requests + 0, errors + 0, non2xx + 0, rps, p50, p99 }' "$1"
}

test_load() {
	local out=$art/wrk.txt requests errors non2xx rps p50 p99 served
	serve load || return
	wrk --threads 2 --connections 64 --duration "${LOAD_SECONDS:-60}s" --timeout 10s --latency \
		"http://127.0.0.1:$port/metrics" >"$out" 2>&1
	cat "$out"
	read -r requests errors non2xx rps p50 p99 < <(wrk_fields "$out")
	detail="$requests requests, $errors socket errors, $non2xx non-2xx"
	check load/wrk-64-connections-no-errors test "$requests" -gt 0 -a "$errors" = 0 -a "$non2xx" = 0
	# wrk's count must be answers the daemon gave, not something in between
	served=$(curl -s --max-time 10 "http://127.0.0.1:$port/metrics" |
		awk '$1 == "cgacct_http_requests_total{code=\"200\"}" { print $2 }')
	detail="daemon counted ${served:-none} answers with 200"
	check load/daemon-served-every-wrk-request test "${served:-0}" -ge "$requests"
	echo "figure load/wrk 64 connections, ${LOAD_SECONDS:-60} s: $requests requests," \
		"$rps requests/s, latency p50 $p50 p99 $p99, $errors errors, $non2xx non-2xx"

	/usr/bin/python3 "$here/slow_clients.py" "$port" 500 >"$art/slow-clients.txt" 2>&1 &
	local holder=$!
	started+=("$holder")
	for _ in $(seq 120); do
		grep -q '^ready' "$art/slow-clients.txt" && break
		kill -0 "$holder" 2>/dev/null || break
		sleep 0.5
	done
	if ! grep -qx 'ready 500' "$art/slow-clients.txt"; then
		result fail load/500-slow-clients-connected "$(tail -n 3 "$art/slow-clients.txt")"
		stop "$holder"
		stop "$daemon"
		return
	fi
	result pass load/500-slow-clients-connected
	echo "figure load/server-side cgacctd holds $(find "/proc/$daemon/fd" -lname 'socket:*' | wc -l) sockets"
	start_prometheus load "127.0.0.1:$port" || return
	sleep "${SLOW_SECONDS:-20}"
	check_prometheus_scrapes load
	stop "$prom_pid"
	stop "$holder"
	cat "$art/slow-clients.txt"
	stop "$daemon"
}
