#!/bin/sh
# Runs inside the guest (tests/bench/sched prepends the SCHED_* settings).
# For each depth, a chain of that many cgroups with the cpu controller
# enabled at every level, so every enqueue, dequeue, charge and wait walks
# the whole chain; the workloads run in the deepest one:
#   pipe        perf bench sched pipe: two tasks ping-pong over a pipe, a
#               fixed number of wakeups and context switches (us/op)
#   hackbench   rt-tests hackbench over pipes: many senders and receivers,
#               as SCHED_BATCH tasks (s)
#   cyclictest  rt-tests cyclictest: a timer wakeup every 200 us,
#               SCHED_WAKEUPS times (4 s by default, so that a run with the
#               reader spans several scrapes), the average latency from the
#               timer to the task running (ns)
# each once with no reader and once with cgacctd scraped every second, as
# Prometheus would, from the start of each run: scrapes at the same points of
# every run, so that where they fall does not differ between kernels.  Each
# result line is "WORKLOAD DEPTH READER VALUE", after a "mark" line that the
# host timestamps to give its wall time.
# Not -e: a run that fails leaves no result line, which the host reports.
set -u
echo "+cpu" >"$CG_V2/cgroup.subtree_control"
for depth in $SCHED_DEPTHS; do
	dir=$CG_V2
	level=1
	while [ $level -le "$depth" ]; do
		dir=$dir/d$depth-$level
		mkdir "$dir"
		[ $level -eq "$depth" ] || echo "+cpu" >"$dir/cgroup.subtree_control"
		level=$((level + 1))
	done
	eval "leaf_$depth=\$dir"
done

reader_pid='' scraper_pid=''
start_reader() {
	cgacctd --listen 127.0.0.1:9100 2>/tmp/cgacctd.log &
	reader_pid=$!
	sleep 2
	wget -q -O /dev/null http://127.0.0.1:9100/metrics || { cat /tmp/cgacctd.log; exit 1; }
}
stop_reader() {
	kill "$reader_pid"
	wait "$reader_pid" 2>/dev/null
}
start_scraper() {
	while :; do
		wget -q -O /dev/null http://127.0.0.1:9100/metrics
		sleep 1
	done &
	scraper_pid=$!
}
stop_scraper() {
	kill "$scraper_pid"
	wait "$scraper_pid" 2>/dev/null
}

run() { # WORKLOAD DEPTH READER
	echo "mark"
	[ "$3" = 0 ] || start_scraper
	case $1 in
	pipe) perf bench sched pipe -l "$SCHED_PIPE_LOOPS" | awk '/usecs\/op/ { print $1 }' ;;
	# SCHED_BATCH: still the fair class and its group hierarchy, but
	# without wakeup preemption, whose decisions turn on a few
	# nanoseconds and would make each run take a different course.
	hackbench) chrt -b 0 hackbench -p -g "$SCHED_GROUPS" -l "$SCHED_LOOPS" | awk '/^Time:/ { print $2 }' ;;
	# A timer slack of 1 ns, not the default 50 us that would otherwise
	# be most of the latency of a task that is not real-time.
	cyclictest) echo 1 >/proc/self/timerslack_ns
		cyclictest -q -N -m -i 200 -l "$SCHED_WAKEUPS" | sed -n 's/.* Avg: *\([0-9]*\).*/\1/p' ;;
	esac | sed "s/^/$1 $2 $3 /"
	[ "$3" = 0 ] || stop_scraper
}

for reader in 0 1; do
	[ $reader = 0 ] || start_reader
	for depth in $SCHED_DEPTHS; do
		eval "echo \$\$ >\"\$leaf_$depth/cgroup.procs\""
		perf bench sched pipe -l 1000 >/dev/null # warm-up
		i=0
		while [ $i -lt "$SCHED_ITERATIONS" ]; do
			for workload in pipe hackbench cyclictest; do
				run $workload "$depth" $reader
			done
			i=$((i + 1))
		done
		echo $$ >"$CG_V2/cgroup.procs"
	done
	[ $reader = 0 ] || stop_reader
done
