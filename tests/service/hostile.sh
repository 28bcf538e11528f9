# shellcheck shell=bash disable=SC2154,SC2034
# (Sourced by tests/service/run: it reads variables set there and sets some read
# there, such as $detail for check(); checked alone, shellcheck sees neither.)
# Hostile HTTP: path tricks, methods we do not serve, HTTP/1.0, pipelining,
# a missing or doubled Host header,
# bad versions and garbage, oversized request lines and headers; and basic
# auth that takes as long to refuse an unknown user as a wrong password.

# raw NAME REQUEST: sends REQUEST (printf escapes) as it is; the response
# goes to $out/NAME, its status lines to $out/NAME.status.
raw() {
	printf '%b' "$2" | /usr/bin/python3 "$here/raw-http.py" "$port" >"$out/$1"
	raw_status=$?
	tr -d '\r' <"$out/$1" | grep -a '^HTTP/1\.[01] [0-9]' | cut -d' ' -f2 | tr '\n' ' ' >"$out/$1.status"
}

test_hostile() {
	local port url out=$work/hostile path code
	mkdir -p "$out"
	port=$(free_port)
	url=http://127.0.0.1:$port
	start_daemon "$logs/hostile.log" "$tree" --listen "127.0.0.1:$port"
	local daemon=$pid
	wait_listening "$port" || { result fail hostile/start "$(cat "$logs/hostile.log")"; return; }

	# No path is normalised or decoded into another: only /metrics and /
	# exist. A %00 must not cut the path short into "/metrics".
	for path in '/metrics/../' '/metrics/..' '/./metrics' '//metrics' '/metrics/' '/metrics%00' \
		'/metrics%00.html' '/%2e%2e/metrics' '/metrics%2f'; do
		code=$(status "$url$path" --path-as-is)
		detail="status $code"
		check "hostile/path-${path//\//_}-404" test "$code" = 404
	done
	# An encoded letter is the same path (RFC 3986 6.2.2.2); a query is ignored.
	check hostile/path-encoded-letter-200 test "$(status "$url/%6detrics")" = 200
	check hostile/path-query-ignored-200 test "$(status "$url/metrics?x=%00&y=../..")" = 200

	local method
	for method in PUT PATCH OPTIONS TRACE CONNECT FOO; do
		curl -s -X "$method" -D "$out/$method.h" -o /dev/null --max-time 10 "$url/metrics"
		detail=$(head -n 1 "$out/$method.h")
		check "hostile/method-$method-405-allows-get-head" \
			grep -qx $'Allow: GET, HEAD\r' "$out/$method.h"
	done

	raw http10 'GET /metrics HTTP/1.0\r\n\r\n'
	detail="statuses $(cat "$out/http10.status"), client exit $raw_status"
	check hostile/http10-200-then-closed test "$(cat "$out/http10.status")" = "200 " -a "$raw_status" = 0
	check hostile/http10-not-chunked bash -c "! grep -qai '^Transfer-Encoding' '$out/http10'"
	sed '1,/^\r$/d' "$out/http10" >"$out/http10.body"
	detail=$(promtool check metrics <"$out/http10.body" 2>&1)
	check hostile/http10-body-passes-promtool test $? = 0

	# Three requests in one write: three answers, in order.
	raw pipelined 'GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /nope HTTP/1.1\r\nHost: x\r\n\r\nGET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'
	detail="statuses $(cat "$out/pipelined.status"), client exit $raw_status"
	check hostile/pipelined-answers-in-order test "$(cat "$out/pipelined.status")" = "200 404 200 "
	check hostile/pipelined-last-is-exposition grep -q '^cgacct_build_info' "$out/pipelined"

	# RFC 9112 section 3.2: HTTP/1.1 needs one Host header, no request may have two.
	raw no-host 'GET /metrics HTTP/1.1\r\nConnection: close\r\n\r\n'
	detail="statuses $(cat "$out/no-host.status")"
	check hostile/http11-without-host-400 test "$(cat "$out/no-host.status")" = "400 "
	raw two-hosts 'GET /metrics HTTP/1.1\r\nHost: x\r\nHost: y\r\nConnection: close\r\n\r\n'
	detail="statuses $(cat "$out/two-hosts.status")"
	check hostile/two-host-headers-400 test "$(cat "$out/two-hosts.status")" = "400 "

	raw bad-version 'GET /metrics HTTP/9.9\r\nHost: x\r\n\r\n'
	detail="statuses $(cat "$out/bad-version.status")"
	check hostile/http-version-9.9-505 test "$(cat "$out/bad-version.status")" = "505 "
	# A request line that is none gets 400 and the end of the connection.
	raw garbage 'BLAH\r\n\r\n'
	detail="statuses '$(cat "$out/garbage.status")', client exit $raw_status"
	check hostile/garbage-request-400-and-closed test "$raw_status" = 0 -a "$(cat "$out/garbage.status")" = "400 "
	raw long-line "GET /$(head -c 100000 /dev/zero | tr '\0' a) HTTP/1.1\r\nHost: x\r\n\r\n"
	detail="statuses $(cat "$out/long-line.status")"
	check hostile/request-line-over-64k-414 test "$(cat "$out/long-line.status")" = "414 "
	raw many-headers "GET /metrics HTTP/1.1\r\nHost: x\r\n$(for i in $(seq 3000); do printf 'X-H%d: %020d\\r\\n' "$i" 0; done)\r\n"
	detail="statuses $(cat "$out/many-headers.status")"
	check hostile/3000-headers-431 test "$(cat "$out/many-headers.status")" = "431 "

	code=$(status "$url/metrics")
	detail="status $code"
	check hostile/still-serving-after-all-that test "$code" = 200
	stop "$daemon"
	test_auth_timing
}

# A wrong password for a known user and any password for an unknown one get
# the same 401 after the same work: the unit test test-config-web.c proves
# exactly one bcrypt of the highest cost either way (through a crypt_ra
# hook). Here the times are measured and printed; the bound asserted is
# loose on purpose: a daemon that skipped bcrypt for unknown users would
# answer them in about 1 ms against tens of ms, a ratio far outside 0.5-2,
# while machine noise on interleaved medians stays well inside it.
test_auth_timing() {
	local dir port daemon url tries=${AUTH_TRIES:-25} i who code t bad="" figures
	mkdir -p "$work/auth-timing"
	printf "basic_auth_users:\n  prom: '%s'\n" "$(htpasswd -nbBC 10 prom secret | cut -d: -f2-)" \
		>"$work/auth-timing/web.yml"
	serve auth-timing $'web_config_file: web.yml\n' || return
	url=http://127.0.0.1:$port/metrics
	: >"$work/auth-known"
	: >"$work/auth-unknown"
	# interleaved, so that whatever else the machine does hits both alike
	for i in $(seq "$tries"); do
		for who in known:prom unknown:nobody; do
			read -r code t < <(curl -s -o /dev/null -w '%{http_code} %{time_total}\n' \
				--max-time 10 -u "${who#*:}:wrong" "$url")
			[ "$code" = 401 ] || bad+=" ${who%%:*}:$code"
			echo "$t" >>"$work/auth-${who%%:*}"
		done
	done
	detail="not 401:${bad:- none}"
	check auth-timing/wrong-password-and-unknown-user-both-401 test -z "$bad"
	figures=$(/usr/bin/python3 - "$work/auth-known" "$work/auth-unknown" <<'PY'
import statistics, sys
known, unknown = (statistics.median(float(l) for l in open(f)) * 1000 for f in sys.argv[1:])
print("%.1f %.1f %+.1f %d" % (known, unknown, (unknown - known) / known * 100,
                              0.5 <= unknown / known <= 2))
PY
)
	read -r known unknown diff within <<<"$figures"
	echo "figure auth-timing: medians of $tries tries: known user with a wrong password" \
		"$known ms, unknown user $unknown ms, difference $diff %"
	detail="known $known ms, unknown $unknown ms ($diff %)"
	check auth-timing/unknown-user-takes-as-long-as-wrong-password test "$within" = 1
	stop "$daemon"
}
