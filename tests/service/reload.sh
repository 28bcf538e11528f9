# shellcheck shell=bash disable=SC2154,SC2034
# (Sourced by tests/service/run: it reads variables set there and sets some read
# there, such as $detail for check(); checked alone, shellcheck sees neither.)
# SIGHUP: a bad new configuration is logged and the old one keeps serving;
# a good one takes effect (here: a different exclude filter, then a new
# listen address).

test_reload() {
	local dir port daemon url log=$logs/reload.log port2
	serve reload || return
	url=http://127.0.0.1:$port/metrics
	curl -s -o "$dir/before" "$url"
	check reload/b-exported-before grep -q 'cgroup_info{cgroup="/b"' "$dir/before"

	printf 'listen: ["127.0.0.1:%s"]\nexclude: ["/b/**"]\nbogus_key: 1\n' "$port" >"$dir/cgacctd.yml"
	hup_and_wait "$daemon" "$log" 'reload failed'
	check reload/bad-config-logged-with-location \
		grep -q "reload failed, keeping the running configuration: $dir/cgacctd.yml:3:1: " "$log"
	check reload/bad-config-still-serving test "$(status "$url")" = 200
	curl -s -o "$dir/after-bad" "$url"
	check reload/bad-config-keeps-old-filter grep -q 'cgroup_info{cgroup="/b"' "$dir/after-bad"

	printf 'listen: ["127.0.0.1:%s"]\nexclude: ["/b/**"]\n' "$port" >"$dir/cgacctd.yml"
	hup_and_wait "$daemon" "$log" 'configuration reloaded'
	curl -s -o "$dir/after-good" "$url"
	check reload/good-config-applies-new-filter \
		bash -c "! grep -q 'cgroup=\"/b\"' '$dir/after-good' && grep -q 'cgroup=\"/a\"' '$dir/after-good'"

	port2=$(free_port)
	printf 'listen: ["127.0.0.1:%s"]\n' "$port2" >"$dir/cgacctd.yml"
	kill -HUP "$daemon"
	wait_listening "$port2"
	check reload/new-listen-address-serves test "$(status "http://127.0.0.1:$port2/metrics")" = 200
	check reload/old-listen-address-closed test "$(status "$url")" = 000
	stop "$daemon"
	check reload/clean-exit-after-reloads test $? = 0
}
