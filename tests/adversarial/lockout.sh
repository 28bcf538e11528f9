# shellcheck shell=bash disable=SC2154,SC2034
# (Sourced by tests/adversarial/run: it reads variables set there and sets some read
# there, such as $detail for check(); checked alone, shellcheck sees neither.)
# Slow clients and a password flood against a scraper (lockout.py says how).

# lockout NAME WEB-YML SECONDS SLOW FLOOD [CA]
lockout() {
	local name=$1 d=$work/$1 port daemon rc
	mkdir -p "$d"
	port=$(free_port)
	cp "$2" "$d/web.yml"
	printf 'listen: ["127.0.0.1:%s"]\nweb_config_file: web.yml\n' "$port" >"$d/cgacctd.yml"
	# the packaged unit's limit (LimitNOFILE=): the attack does not run out of descriptors
	(ulimit -n "$(ulimit -Hn)" && exec "$bin" --config "$d/cgacctd.yml" --mountinfo "$tree/mountinfo" \
		--root "$tree" >"$logs/$name.log" 2>&1) &
	daemon=$!
	started+=("$daemon")
	wait_listening "$port" || { result fail "$name/start" "$(cat "$logs/$name.log")"; return; }
	(ulimit -n "$(ulimit -Hn)" && exec /usr/bin/python3 "$here/lockout.py" "$port" prom secret "$3" "$4" \
		"$5" ${6:+"$6"}) >"$logs/$name.txt" 2>&1
	rc=$?
	cat "$logs/$name.txt"
	detail=$(grep "^figure" "$logs/$name.txt" | head -2 | tr "\n" " ")
	check "$name/both-scrapers-get-99-percent-within-10s" test "$rc" = 0
	stop "$daemon"
	detail=$(grep -m3 -E 'ERROR: |runtime error:' "$logs/$name.log")
	check "$name/no-sanitizer-report" sanitizer_clean "$logs/$name.log"
}

test_lockout() {
	local hash
	hash=$(htpasswd -nbBC 10 prom secret | cut -d: -f2-)
	printf "basic_auth_users:\n  prom: '%s'\n" "$hash" >"$work/lockout-web.yml"
	lockout lockout "$work/lockout-web.yml" "${LOCKOUT_SECONDS:-120}" 2000 200
	printf "tls_server_config:\n  cert_file: %s\n  key_file: %s\nbasic_auth_users:\n  prom: '%s'\n" \
		"$work/pki/server.pem" "$work/pki/server.key" "$hash" >"$work/lockout-tls-web.yml"
	lockout lockout-tls "$work/lockout-tls-web.yml" "$(((${LOCKOUT_SECONDS:-120} + 3) / 4))" \
		1000 100 "$work/pki/ca.pem"
}
