#!/bin/sh
# Runs inside an --icount guest (tests/bench/idle prepends the IDLE_*
# settings): prints "idle CGROUPS INSTRUCTIONS_PER_MINUTE" for a window of
# IDLE_SECONDS with no cgroups and one with IDLE_CGROUPS idle ones.  Under
# --icount the guest's non-idle time in ns is the instructions it executed;
# /proc/timer_list has the clock and the time slept in ns, where
# /proc/uptime rounds both to 10 ms.
# Not -e: a window that fails leaves no result line, which the host reports.
set -u

# "NOW SLEPT": the clock and the time the CPU slept (idle or iowait), in ns
clocks() {
	awk '$1 == "now" { now = $3 } $1 ~ /^\.(idle|iowait)_sleeptime/ { slept += $(NF - 1) }
		END { printf "%.0f %.0f\n", now, slept }' /proc/timer_list
}

# shellcheck disable=SC2046 # (clocks prints two numbers, split on purpose)
window() {
	set -- "$1" $(clocks)
	sleep "$IDLE_SECONDS"
	set -- "$@" $(clocks)
	awk -v n="$1" -v u1="$2" -v i1="$3" -v u2="$4" -v i2="$5" \
		'BEGIN { printf "idle %d %.0f\n", n, ((u2 - u1) - (i2 - i1)) * 60 / ((u2 - u1) / 1e9) }'
}

# The memory controller numbers its cgroups with 16 bits (MEM_CGROUP_ID_MAX,
# 65,535): half the cgroups have every controller, the other half every
# one but memory and io, which depends on it (below a parent that does not
# hand them down).
half=$((IDLE_CGROUPS / 2))
sleep 30
window 0
mkdir "$CG_V2/idle" "$CG_V2/plain" &&
	sed 's/[^ ]*/+&/g; s/+memory//; s/+io//' "$CG_V2/cgroup.controllers" >"$CG_V2/plain/cgroup.subtree_control" &&
	mkdir "$CG_V2/plain/idle" &&
	cgtree make "$half" "$CG_V2/idle" && cgtree make "$((IDLE_CGROUPS - half))" "$CG_V2/plain/idle" ||
	exit 1
sleep 30
window "$IDLE_CGROUPS"
