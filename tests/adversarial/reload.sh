# shellcheck shell=bash disable=SC2154,SC2034
# (Sourced by tests/adversarial/run: it reads variables set there and sets some read
# there, such as $detail for check(); checked alone, shellcheck sees neither.)
# A reload storm under scrapes (reload_storm.py says how it judges).

test_reload() {
	local d=$work/reload plain tls daemon rc
	mkdir -p "$d"
	plain=$(free_port)
	tls=$(free_port $((plain + 1)))
	printf 'tls_server_config:\n  cert_file: %s\n  key_file: %s\n' "$work/pki/server.pem" \
		"$work/pki/server.key" >"$d/web.yml"
	printf 'listen: ["127.0.0.1:%s"]\n' "$plain" >"$d/a.yml"
	printf 'listen: ["127.0.0.1:%s"]\nweb_config_file: web.yml\n' "$tls" >"$d/b.yml"
	cp "$d/a.yml" "$d/cgacctd.yml"
	start_daemon "$logs/reload.log" "$tree" --config "$d/cgacctd.yml"
	daemon=$pid
	wait_listening "$plain" || { result fail reload/start "$(cat "$logs/reload.log")"; return; }
	/usr/bin/python3 "$here/reload_storm.py" "$daemon" "$d/cgacctd.yml" "$d/a.yml" "$d/b.yml" \
		"$logs/reload.log" "$plain" "$tls" "$work/pki/ca.pem" "${RELOADS:-1000}" 8 \
		>"$logs/reload-storm.txt" 2>&1
	rc=$?
	cat "$logs/reload-storm.txt"
	detail=$(grep -v '^figure' "$logs/reload-storm.txt" | head -5)
	check reload/every-scrape-complete-or-refused-cleanly test "$rc" = 0
	stop "$daemon"
	detail="exit $?; $(grep -m3 -E 'ERROR: |runtime error:' "$logs/reload.log")"
	check reload/daemon-stops-cleanly test "$(tail -n 1 "$logs/reload.log")" = "cgacctd: SIGTERM received, stopping"
	check reload/no-sanitizer-report sanitizer_clean "$logs/reload.log"
}
