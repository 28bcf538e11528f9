# shellcheck shell=bash disable=SC2154,SC2034
# (Sourced by tests/service/run: it reads variables set there and sets some read
# there, such as $detail for check(); checked alone, shellcheck sees neither.)
# --once: one collection along the service's own path, so that it prints
# what a scrape serves, container names from the runtime included.

# The exposition without what only a served one has or what changes from
# one collection to the next (HTTP and scrape counters, the duration).
collection_part() {
	grep -v -e '^cgacct_http_' -e '^cgacct_scrape' -e '^cgacct_collection' \
		-e '^# [A-Z]* cgacct_\(http_\|scrape\|collection\)' "$1"
}

test_once() {
	local dir port daemon id=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
	local cg=$tree/sys/fs/cgroup/machine.slice/libpod-$id.scope runtime
	mkdir -p "$cg"
	: >"$cg/cgroup.procs"
	echo 123 >"$cg/pids.current"
	mkdir -p "$work/once"
	printf '[{"Id":"%s","Names":["/web"],"Image":"localhost/web:1","Created":1796528484}]' "$id" \
		>"$work/once/list.json"
	python3 "$here/fake-runtime.py" "$work/once/runtime.sock" "$work/once/list.json" &
	runtime=$!
	started+=("$runtime")
	for _ in $(seq 50); do [ -S "$work/once/runtime.sock" ] && break; sleep 0.1; done

	serve once "container_runtime_sockets: [\"$work/once/runtime.sock\"]"$'\n' || return
	# the service asks the runtime in the background: scrape until it has answered
	for _ in $(seq 50); do
		curl -s -o "$dir/scrape" "http://127.0.0.1:$port/metrics"
		grep -q 'container_name="web"' "$dir/scrape" && break
		sleep 0.2
	done
	"$bin" --once --config "$dir/cgacctd.yml" --mountinfo "$tree/mountinfo" --root "$tree" \
		>"$dir/once" 2>"$logs/once-once.log"
	detail="no container_name=\"web\" in the --once output"
	check once/names-the-container grep -q "cgroup_info{cgroup=\"/machine.slice/libpod-$id.scope\".*container_name=\"web\",image=\"localhost/web:1\"" "$dir/once"
	detail="$(diff <(collection_part "$dir/scrape") <(collection_part "$dir/once") | head -20)"
	check once/prints-what-a-scrape-serves cmp -s <(collection_part "$dir/scrape") <(collection_part "$dir/once")
	stop "$daemon"
	stop "$runtime"
	rm -rf "$tree/sys/fs/cgroup/machine.slice"
}
