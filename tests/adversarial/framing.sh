# shellcheck shell=bash disable=SC2154,SC2034
# (Sourced by tests/adversarial/run: it reads variables set there and sets some read
# there, such as $detail for check(); checked alone, shellcheck sees neither.)
# HTTP/1.1 framing (RFC 9112 section 6) over plain HTTP and TLS: what a
# proxy in front could read differently is answered once and the
# connection closed, so the request after it on the connection is never
# served; what cannot be framed gets an answer at once, not a timeout.

# exchange NAME PORT [CA] REQUEST: the answer in $d/NAME, its status codes
# in order in $d/NAME.status, how the client ended in $d/NAME.rc (124: the
# server kept the connection open for 10 s), and in how many whole seconds
# in $d/NAME.seconds: "at once" is well before the server's 10-second head
# deadline, which would close the connection anyway.
exchange() {
	local name=$1 port=$2 ca=$3 request=$4 start=$SECONDS
	printf '%b' "$request" | /usr/bin/python3 "$top/tests/service/raw-http.py" "$port" ${ca:+"$ca"} \
		>"$d/$name" 2>"$d/$name.err"
	echo $? >"$d/$name.rc"
	echo $((SECONDS - start)) >"$d/$name.seconds"
	tr -d '\r' <"$d/$name" | grep -a '^HTTP/1\.[01] [0-9]' | cut -d' ' -f2 | tr '\n' ' ' >"$d/$name.status"
}

# framing_cases KIND PORT [CA]
framing_cases() {
	local kind=$1 port=$2 ca=${3:-} name request want case
	local -a cases=(
		"two-lengths|400|POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabcGET / HTTP/1.1\r\nHost: x\r\n\r\n"
		"conflicting-lengths|400|POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 30\r\n\r\nabcGET / HTTP/1.1\r\nHost: x\r\n\r\n"
		"length-and-chunked|400|POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n"
		"unknown-coding|400|POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\nabc"
		"unknown-coding-then-chunked|501|POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n"
	)
	local blank="GET /metrics /x HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n"
	# libmicrohttpd reads a TLS head itself: of a head it cannot parse
	# (no request line, a blank in the target in its strict mode, a query
	# longer than its connection's memory) it
	# answers nothing and closes at once; a malformed length 0.9.75 answers
	# on its own, twice. cgacctd reads plain heads itself and answers them.
	if [ -z "$ca" ]; then
		cases+=("query-list-of-2000|414|GET /metrics?$(printf 'a&%.0s' $(seq 2000)) HTTP/1.1\r\nHost: x\r\n\r\n"
			"garbage|400|BLAH\r\n\r\n"
			"malformed-length|400|GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n"
			"blank-in-target|400|$blank")
	else
		cases+=("query-list-of-2000|closed|GET /metrics?$(printf 'a&%.0s' $(seq 2000)) HTTP/1.1\r\nHost: x\r\n\r\n"
			"garbage|closed|BLAH\r\n\r\n"
			"blank-in-target|closed|$blank")
	fi
	for case in "${cases[@]}"; do
		IFS='|' read -r name want request <<<"$case"
		exchange "$kind-$name" "$port" "$ca" "$request"
		detail="statuses '$(cat "$d/$kind-$name.status")', client exit $(cat "$d/$kind-$name.rc")"
		detail+=" after $(cat "$d/$kind-$name.seconds") s"
		if [ "$want" = closed ]; then
			check "framing/$kind/$name-closed-at-once" \
				test -z "$(cat "$d/$kind-$name.status")" -a "$(cat "$d/$kind-$name.rc")" = 0 \
				-a "$(cat "$d/$kind-$name.seconds")" -lt 5
		else
			check "framing/$kind/$name-$want-once-and-closed" \
				test "$(cat "$d/$kind-$name.status")" = "$want " -a "$(cat "$d/$kind-$name.rc")" = 0
		fi
	done
	# HEAD: GET's headers, its length, and not one byte of body
	exchange "$kind-head" "$port" "$ca" 'HEAD /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'
	detail="$(head -c 300 "$d/$kind-head" | tr -d '\r' | tr '\n' '|')"
	check "framing/$kind/head-has-length-and-no-body" /usr/bin/python3 - "$d/$kind-head" <<'PY'
import sys
head, _, body = open(sys.argv[1], "rb").read().partition(b"\r\n\r\n")
lines = head.decode().split("\r\n")
sys.exit(0 if lines[0].startswith("HTTP/1.1 200") and body == b"" and
         any(l.lower().startswith("content-length: ") and int(l.split(":")[1]) > 0
             for l in lines) else 1)
PY
	# and a plain scrape still works on the same server
	exchange "$kind-after" "$port" "$ca" 'GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'
	check "framing/$kind/still-serving" test "$(cat "$d/$kind-after.status")" = "200 "
}

test_framing() {
	local d=$work/framing plain tls daemon_plain daemon_tls
	mkdir -p "$d"
	plain=$(free_port)
	start_daemon "$logs/framing-plain.log" "$tree" --listen "127.0.0.1:$plain"
	daemon_plain=$pid
	tls=$(free_port $((plain + 1)))
	printf 'tls_server_config:\n  cert_file: %s\n  key_file: %s\n' "$work/pki/server.pem" \
		"$work/pki/server.key" >"$d/web.yml"
	printf 'listen: ["127.0.0.1:%s"]\nweb_config_file: web.yml\n' "$tls" >"$d/cgacctd.yml"
	start_daemon "$logs/framing-tls.log" "$tree" --config "$d/cgacctd.yml"
	daemon_tls=$pid
	if ! wait_listening "$plain" || ! wait_listening "$tls"; then
		result fail framing/start
		return
	fi
	framing_cases plain "$plain"
	framing_cases tls "$tls" "$work/pki/ca.pem"
	stop "$daemon_plain"
	stop "$daemon_tls"
	check framing/no-sanitizer-report sanitizer_clean "$logs/framing-plain.log"
	check framing/tls-no-sanitizer-report sanitizer_clean "$logs/framing-tls.log"
}
