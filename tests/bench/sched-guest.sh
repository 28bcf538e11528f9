#!/bin/sh
# Runs inside the guest (tests/bench/sched prepends the SCHED_* settings).
# Both perf benchmarks run in a group three levels below the root of the
# cpu,cpuacct hierarchy, so every enqueue, dequeue and charge walks four
# task-group levels: the paths the series adds work to.
#   sched pipe       two tasks ping-pong over a pipe: a fixed number of
#                    wakeups and context switches, so its time per operation
#                    is the same on every run
#   sched messaging  hackbench: many senders and receivers, whose scheduling
#                    order (and so its time) varies from run to run
group=$CG_V1/cpu,cpuacct/bench/level2/level3
mkdir -p "$group"
echo $$ >"$group/cgroup.procs"
perf bench sched pipe -l "$SCHED_PIPE_LOOPS" >/dev/null # warm-up
i=0
while [ $i -lt "$SCHED_ITERATIONS" ]; do
	perf bench sched pipe -l "$SCHED_PIPE_LOOPS" | awk '/usecs\/op/ { print "pipe", $1 }'
	perf bench -f simple sched messaging -p -g "$SCHED_GROUPS" -l "$SCHED_LOOPS" |
		awk 'NF == 1 { print "messaging", $1 }'
	i=$((i + 1))
done
