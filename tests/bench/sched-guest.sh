#!/bin/sh
# Runs inside the guest (tests/bench/sched prepends the SCHED_* settings):
# the scheduler workload inside a cgroup three levels
# below the root of the cpu,cpuacct hierarchy, so every charge walks four
# cpuacct levels.  Prints one elapsed time per iteration.
group=$CG_V1/cpu,cpuacct/bench/level2/level3
mkdir -p "$group"
echo $$ >"$group/cgroup.procs"
schedbench "$SCHED_GROUPS" "$SCHED_LOOPS" >/dev/null # warm-up
i=0
while [ $i -lt "$SCHED_ITERATIONS" ]; do
	echo "time $(schedbench "$SCHED_GROUPS" "$SCHED_LOOPS")"
	i=$((i + 1))
done
