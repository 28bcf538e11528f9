# shellcheck shell=bash disable=SC2154,SC2034
# (Sourced by tests/service/run: it reads variables set there and sets some read
# there, such as $detail for check(); checked alone, shellcheck sees neither.)
# The plain HTTP contract of one daemon with the built-in configuration.

test_http() {
	local port url out=$work/http
	port=$(free_port)
	url=http://127.0.0.1:$port
	mkdir -p "$out"
	start_daemon "$logs/http.log" "$tree" --listen "127.0.0.1:$port"
	local daemon=$pid
	wait_listening "$port" || { result fail http/start "$(cat "$logs/http.log")"; return; }

	curl -s -D "$out/text.h" -o "$out/text" "$url/metrics"
	check http/text-content-type grep -qx $'Content-Type: text/plain; version=0.0.4; charset=utf-8\r' "$out/text.h"
	detail=$(promtool check metrics <"$out/text" 2>&1)
	check http/text-passes-promtool test $? = 0
	check http/text-has-every-cgroup grep -q 'cgroup_info{cgroup="/a/c"' "$out/text"

	curl -s -H "Accept: $prom_accept" -D "$out/om.h" -o "$out/om" "$url/metrics"
	check http/openmetrics-for-prometheus-accept grep -qx $'Content-Type: application/openmetrics-text; version=1.0.0; charset=utf-8\r' "$out/om.h"
	check http/openmetrics-ends-with-eof test "$(tail -n 1 "$out/om")" = "# EOF"
	check http/openmetrics-counter-family-without-total grep -qx '# TYPE cgroup_cpu_usage_seconds counter' "$out/om"
	detail=$(/usr/bin/python3 "$here/om-parse.py" <"$out/om" 2>&1)
	check http/openmetrics-parses-strictly test $? = 0

	curl -s -H 'Accept-Encoding: gzip' -D "$out/gz.h" -o "$out/gz" "$url/metrics"
	check http/gzip-content-encoding grep -qix $'Content-Encoding: gzip\r' "$out/gz.h"
	check http/gzip-vary grep -qi '^Vary:.*Accept-Encoding' "$out/gz.h"
	gunzip -c <"$out/gz" >"$out/gunzipped" 2>/dev/null
	check http/gzip-decodes-to-valid-exposition promtool check metrics <"$out/gunzipped"
	check http/no-gzip-unless-asked bash -c "! grep -qi '^Content-Encoding' '$out/text.h'"

	check http/unknown-path-404 test "$(status "$url/nope")" = 404
	curl -s -X POST -D "$out/post.h" -o /dev/null --max-time 10 "$url/metrics"
	check http/post-405 grep -q '^HTTP/1.1 405' "$out/post.h"
	check http/405-allows-get-head grep -qx $'Allow: GET, HEAD\r' "$out/post.h"
	check http/delete-405 test "$(status "$url/" -X DELETE)" = 405
	curl -s -I -o "$out/head.h" --max-time 10 "$url/metrics"
	check http/head-200-with-type grep -q 'Content-Type: text/plain; version=0.0.4' "$out/head.h"
	check http/head-has-no-body test "$(curl -s --head --max-time 10 "$url/metrics" -o /dev/null -w '%{size_download}')" = 0

	# MHD's per-connection memory (64 KiB) bounds the request head.
	local big code
	big=$(head -c 100000 /dev/zero | tr '\0' a)
	code=$(status "$url/metrics" -H "X-Big: $big")
	detail="status $code"
	check http/oversized-headers-refused-431 test "$code" = 431

	# Idle connections and ones that never finish their headers do not
	# keep Prometheus from being served.
	local fds=() i fd
	for i in $(seq 20); do
		exec {fd}<>"/dev/tcp/127.0.0.1/$port" && fds+=("$fd")
		[ $((i % 2)) = 0 ] && printf 'GET /metrics HTTP/1.1\r\nHost: x\r\n' >&"$fd"
	done
	# status() gives up after 10 s: a starved scrape shows as no 200.
	local t0=$SECONDS
	code=$(status "$url/metrics")
	detail="status $code after $((SECONDS - t0)) s with ${#fds[@]} idle/slow connections"
	check http/slow-clients-do-not-starve-scrape test "$code" = 200
	for fd in "${fds[@]}"; do exec {fd}>&-; done

	curl -s -D "$out/landing.h" -o "$out/landing" "$url/"
	check http/landing-is-html grep -qx $'Content-Type: text/html; charset=utf-8\r' "$out/landing.h"
	check http/landing-links-metrics grep -q 'href="/metrics"' "$out/landing"
	check http/landing-escapes-html grep -q '&lt;b&gt;&amp;x' "$out/landing"
	check http/landing-has-no-raw-markup-from-tree bash -c "! grep -q '<b>&x' '$out/landing'"
	check http/landing-shows-memory-bar grep -q 'class=bar' "$out/landing"
	detail=$(grep -o 'title="/[^"]*"' "$out/landing" | tr '\n' ' ')
	check http/landing-tree-order-children-after-parent \
		test "$detail" = 'title="/" title="/&lt;b&gt;&amp;x" title="/a" title="/a/c" title="/a.slice" title="/b" '

	curl -s -o "$out/after" "$url/metrics"
	check http/request-counters grep -q 'cgacct_http_requests_total{code="404"} 1' "$out/after"

	stop "$daemon"
	check http/sigterm-clean-exit test $? = 0
	check http/sigterm-logged grep -q 'SIGTERM received, stopping' "$logs/http.log"
}
