# shellcheck shell=bash disable=SC2154,SC2034
# (Sourced by tests/service/run: it reads variables set there and sets some read
# there, such as $detail for check(); checked alone, shellcheck sees neither.)
# Concurrent scrapes share one collection. /a's memory.current is a FIFO
# here, so every collection blocks on it until the test writes a value:
# the test decides when a collection ends, so "concurrent" is certain.

# feed FIFO: lets exactly one collection through (5 s at most).
feed() {
	timeout 5 sh -c "echo 4096 >'$1'"
}

test_single_flight() {
	local port url out=$work/flight t=$work/flight-tree fifo a b c
	port=$(free_port)
	url=http://127.0.0.1:$port/metrics
	mkdir -p "$out"
	make_tree "$t"
	fifo=$t/sys/fs/cgroup/a/memory.current
	rm -f "$fifo"
	mkfifo "$fifo"
	start_daemon "$logs/single-flight.log" "$t" --listen "127.0.0.1:$port"
	local daemon=$pid
	wait_listening "$port" || { result fail single-flight/start; return; }

	curl -s --max-time 10 -o "$out/a" "$url" &
	a=$!
	sleep 0.5 # scrape a is now blocked in its collection
	curl -s --max-time 10 -o "$out/b" "$url" &
	b=$!
	sleep 0.5 # scrape b has arrived and waits for a's collection
	feed "$fifo"
	wait "$a"
	wait "$b"
	# A third scrape after both: a collection of its own.
	curl -s --max-time 10 -o "$out/c" "$url" &
	c=$!
	sleep 0.3
	feed "$fifo"
	wait "$c"

	local ca cb cc
	ca=$(metric_value "$out/a" cgacct_collections_total)
	cb=$(metric_value "$out/b" cgacct_collections_total)
	cc=$(metric_value "$out/c" cgacct_collections_total)
	detail="collections seen by a=$ca b=$cb c=$cc"
	check single-flight/two-concurrent-scrapes-one-collection test -n "$ca" -a "$ca" = "$cb" -a "$ca" = 1
	check single-flight/shared-body-identical cmp -s "$out/a" "$out/b"
	check single-flight/next-scrape-collects-again test "$cc" = 2
	check single-flight/value-from-the-fifo grep -q 'cgroup_memory_usage_bytes{cgroup="/a"} 4096' "$out/a"
	stop "$daemon"
}
