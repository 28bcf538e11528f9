# shellcheck shell=bash disable=SC2154,SC2034
# (Sourced by tests/adversarial/run: it reads variables set there and sets some read
# there, such as $detail for check(); checked alone, shellcheck sees neither.)
# Configurations a careless or hostile hand writes: refused at once with a
# clear error, by --check-config and by a reload alike, while the running
# daemon keeps serving; and what only shows at run time said in the log.

# check_config NAME YAML PATTERN: --check-config of YAML fails within 5 s
# with PATTERN (a grep -E) in its message.
check_config() {
	local f=$work/config/$1.yml out start=$SECONDS rc
	printf '%s\n' "$2" >"$f"
	out=$(timeout 5 "$bin" --check-config --config "$f" --mountinfo "$tree/mountinfo" --root "$tree" 2>&1)
	rc=$?
	detail="exit $rc after $((SECONDS - start)) s: $out"
	# shellcheck disable=SC2016 # (the script's arguments expand in its own shell)
	check "config/$1" bash -c '[ "$1" = 1 ] && grep -qE -- "$2" <<<"$3"' _ "$rc" "$3" "$out"
}

test_config() {
	local d=$work/config port daemon start took fifo
	mkdir -p "$d"
	# 100,000 nested [ in 200 KB: refused where the nesting passes the bound
	/usr/bin/python3 -c "print('controllers: ' + '[' * 100000)" >"$d/nested.yml"
	start=$(date +%s%N)
	detail=$("$bin" --check-config --config "$d/nested.yml" 2>&1)
	took=$((($(date +%s%N) - start) / 1000000))
	echo "figure config: 100,000 nested [ refused in $took ms: $detail"
	check config/nesting-bomb-refused-with-position grep -qE "nested.yml:1:[0-9]+: nested deeper than" <<<"$detail"
	# a FIFO is no configuration: refused, not waited on
	fifo=$d/fifo.yml
	mkfifo "$fifo"
	detail=$(timeout 5 "$bin" --check-config --config "$fifo" 2>&1)
	check config/fifo-refused-at-once grep -q 'fifo.yml: not a regular file' <<<"$detail"
	check_config unresolvable-listen-host 'listen: ["no-such-host.invalid:9999"]' \
		'listen: no-such-host.invalid:9999 does not resolve'
	check_config root-outside-cgroups 'cgroup_roots: [/etc]' \
		'cgroup_roots: /etc is in no mounted cgroup hierarchy'
	check_config missing-root 'cgroup_roots: [/sys/fs/cgroup/nope]' \
		'cgroup_roots: /sys/fs/cgroup/nope does not exist'

	# at run time: a root that goes missing fails the walk, and the log says so once
	mkdir -p "$tree/sys/fs/cgroup/gone"
	: >"$tree/sys/fs/cgroup/gone/cgroup.procs"
	port=$(free_port)
	printf 'listen: ["127.0.0.1:%s"]\ncgroup_roots: [/sys/fs/cgroup/gone]\n' "$port" >"$d/roots.yml"
	start_daemon "$logs/config.log" "$tree" --config "$d/roots.yml"
	daemon=$pid
	wait_listening "$port" || { result fail config/start "$(cat "$logs/config.log")"; return; }
	curl -s -o "$d/before" "http://127.0.0.1:$port/metrics"
	check config/root-there-walk-succeeds grep -qx 'cgacct_collector_success{collector="walk"} 1' "$d/before"
	rm -r "$tree/sys/fs/cgroup/gone"
	curl -s -o "$d/after" "http://127.0.0.1:$port/metrics"
	curl -s -o /dev/null "http://127.0.0.1:$port/metrics"
	detail=$(grep 'walk' "$d/after")
	check config/root-gone-walk-fails grep -qx 'cgacct_collector_success{collector="walk"} 0' "$d/after"
	detail=$(grep cgroup_roots "$logs/config.log")
	check config/root-gone-said-once-in-the-log test "$(grep -c 'cgroup_roots: /sys/fs/cgroup/gone does not exist' "$logs/config.log")" = 1

	# a reload of the nesting bomb: refused at once, the same process serving on
	cp "$d/nested.yml" "$d/roots.yml"
	start=$(date +%s%N)
	hup_and_wait "$daemon" "$logs/config.log" "reload failed"
	took=$((($(date +%s%N) - start) / 1000000))
	echo "figure config: a reload of the nesting bomb refused in $took ms"
	detail="$took ms; $(grep 'reload failed' "$logs/config.log")"
	check config/reload-of-nesting-bomb-refused-at-once grep -q 'nested deeper than' "$logs/config.log"
	check config/still-serving-after-the-bad-reload test "$(status "http://127.0.0.1:$port/metrics")" = 200
	kill -0 "$daemon" 2>/dev/null
	check config/same-process-serving test $? = 0

	# a request head past 16 KiB is refused, one under it served
	detail=$(status "http://127.0.0.1:$port/metrics" -H "X-Big: $(head -c 20000 /dev/zero | tr '\0' a)")
	check config/head-over-16k-431 test "$detail" = 431
	detail=$(status "http://127.0.0.1:$port/metrics" -H "X-Big: $(head -c 15000 /dev/zero | tr '\0' a)")
	check config/head-under-16k-served test "$detail" = 200
	stop "$daemon"
	check config/no-sanitizer-report sanitizer_clean "$logs/config.log"
}
