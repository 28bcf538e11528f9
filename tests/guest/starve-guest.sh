#!/bin/sh
# Runs inside a v2 guest (vm/guest --script) on the series' kernel: a task
# in /starved, pinned to CPU 1, is starved there by a SCHED_FIFO loop for
# 32 s while cgacctd serves, scraped every 2 s from inside the guest. Each
# scrape's figures for /starved go to /out/starve.txt as "SECONDS WAIT
# USAGE LOAD1M" (LOAD1M "-" while cgacctd has none yet) for
# tests/guest/run to judge: the wait grows while the task starves, not
# when it runs again, and the load average says a task is runnable.
# Not -e: each step checks what it needs and exits with its own message.
set -u
cg=$CG_V2
port=19753

# RT throttling and the fair server would give the starved task a share
echo -1 >/proc/sys/kernel/sched_rt_runtime_us || exit 1
mount -t debugfs none /sys/kernel/debug 2>/dev/null
for f in /sys/kernel/debug/sched/fair_server/cpu*/runtime; do
	[ ! -e "$f" ] || echo 0 >"$f" || exit 1
done
echo +cpu >"$cg/cgroup.subtree_control" || exit 1
mkdir "$cg/starved" || exit 1

cgacctd --listen "127.0.0.1:$port" >/out/cgacctd.log 2>&1 &
daemon=$!
tries=50
until wget -qO /dev/null "http://127.0.0.1:$port/metrics" 2>/dev/null; do
	tries=$((tries - 1))
	[ $tries -gt 0 ] || { echo "cgacctd does not answer"; cat /out/cgacctd.log; exit 1; }
	sleep 0.2
done

# shellcheck disable=SC2016 # expanded by the child's shell
sh -c 'echo $$ >"$1/starved/cgroup.procs" && exec workload spin-on 1' sh "$cg" &
task=$!
sleep 0.5
workload spin-on 1 --fifo &
hog=$!
for _ in $(seq 16); do
	sleep 2
	wget -qO- "http://127.0.0.1:$port/metrics" | awk -v now="$(cut -d' ' -f1 /proc/uptime)" '
		index($1, "cgroup=\"/starved\"") == 0 { next }
		$1 ~ /^cgroup_cpu_wait_seconds_total\{/ { wait = $2 }
		$1 ~ /^cgroup_cpu_usage_seconds_total\{/ { usage = $2 }
		$1 ~ /^cgroup_cpu_load_average\{/ && index($1, "window=\"1m\"") { load = $2 }
		END { print now, wait == "" ? "-" : wait, usage == "" ? "-" : usage, load == "" ? "-" : load }'
done >/out/starve.txt
kill "$hog" "$task" "$daemon"
wait 2>/dev/null
cat /out/starve.txt
