# shellcheck shell=bash disable=SC2154,SC2034
# (Sourced by tests/reliability/run: it reads variables set there and sets some read
# there, such as $detail for check(); checked alone, shellcheck sees neither.)
# Helpers for the reliability suite (sourced, after tests/service/lib.sh):
# what a Prometheus of ours (start_prometheus) says about its scrapes, and
# the handshake with a guest that waits for the host.

# prom_value EXPR [TIME]: the value of a query that gives one sample, or
# "none"; evaluated at TIME (Unix seconds) if given, else now.
prom_value() {
	curl -s --max-time 10 "$prom_url/api/v1/query" --data-urlencode "query=$1" \
		${2:+--data-urlencode "time=$2"} |
		/usr/bin/python3 -c 'import json, sys
r = json.load(sys.stdin)["data"]["result"]
print(r[0]["value"][1] if r else "none")' 2>/dev/null || echo none
}

# prom_self NAME: a counter of Prometheus's own /metrics (0 when absent).
prom_self() {
	curl -s --max-time 10 "$prom_url/metrics" | awk -v n="$1" '$1 == n { v += $2 } END { print v + 0 }'
}

# check_prometheus_scrapes NAME [tcg]: every scrape the Prometheus of
# start_prometheus NAME made since it started succeeded, and none had samples
# it dropped as duplicates or out of order; prints the counts; sets
# prom_scrapes. With "tcg" the target is a TCG guest, where a collection of
# a churning tree takes up to about a second of emulated CPU on a shared
# host: scrapes that missed Prometheus's 1 s deadline are counted and
# printed, not judged (tests assert behaviour, never speed), and any other
# failure still fails.
check_prometheus_scrapes() {
	local name=$1 ok dup order failures misses other at
	# Both counts at one instant: a scrape landing between two queries
	# evaluated "now" once made 16 of 15 scrapes up.
	at=$(date +%s.%N)
	prom_scrapes=$(prom_value 'count_over_time(up{job="cgacct"}[1h])' "$at")
	ok=$(prom_value 'sum_over_time(up{job="cgacct"}[1h])' "$at")
	failures=$(grep 'msg="Scrape failed"' "$logs/$name-prometheus.log")
	misses=$(grep -c 'context deadline exceeded' <<<"$failures")
	other=$(grep -v 'context deadline exceeded' <<<"$failures" | sed -n 's/.* err="\([^"]*\)".*/\1/p')
	dup=$(prom_self prometheus_target_scrapes_sample_duplicate_timestamp_total)
	order=$(prom_self prometheus_target_scrapes_sample_out_of_order_total)
	echo "figure $name/prometheus $ok of $prom_scrapes scrapes up, $misses missed the 1 s deadline," \
		"slowest $(prom_value 'max_over_time(scrape_duration_seconds{job="cgacct"}[1h])') s"
	detail="${other:-none}"
	check "$name/prometheus-scrapes-fail-for-no-reason-but-time" \
		test "$prom_scrapes" != none -a -z "$other"
	if [ "${2:-}" != tcg ]; then
		detail="$ok of $prom_scrapes scrapes up"
		check "$name/prometheus-every-scrape-succeeds" test "$ok" = "$prom_scrapes"
	fi
	detail="duplicate samples $dup, out of order $order"
	check "$name/prometheus-no-duplicate-series" test "$dup" = 0 -a "$order" = 0
}

# guest_handshake PORT: waits (up to 5 minutes) until the guest, listening
# with `echo ready | nc -l -p GUEST-PORT` behind the forwarded PORT, takes a
# connection. QEMU accepts on the host side before the guest listens, so
# only the guest's "ready" counts.
guest_handshake() {
	local line
	for _ in $(seq 300); do
		line=
		if exec 3<>"/dev/tcp/127.0.0.1/$1"; then
			read -r -t 5 line <&3
			exec 3>&-
		fi 2>/dev/null
		[ "$line" = ready ] && return 0
		sleep 1
	done
	return 1
}

# report_lines: turns "pass|fail|skip NAME DETAIL" lines into results and
# prints the rest ("figure ..." lines) as they are.
report_lines() {
	local status name detail
	while read -r status name detail; do
		case "$status" in
		pass | fail | skip) result "$status" "$name" ${detail:+"$detail"} ;;
		esac
	done
}
