#!/bin/sh
# Runs inside an --icount guest (tests/bench/idle prepends the IDLE_*
# settings): prints "idle CGROUPS INSTRUCTIONS_PER_MINUTE" for a window of
# IDLE_SECONDS with no cgroups and one with IDLE_CGROUPS idle ones.  Under
# --icount the guest's non-idle time in ns is the instructions it executed;
# /proc/uptime has both (10 ms resolution, hence long windows).
# Not -e: a window that fails leaves no result line, which the host reports.
set -u

window() {
	read -r up1 idle1 </proc/uptime
	sleep "$IDLE_SECONDS"
	read -r up2 idle2 </proc/uptime
	awk -v n="$1" -v u1="$up1" -v i1="$idle1" -v u2="$up2" -v i2="$idle2" \
		'BEGIN { printf "idle %d %.0f\n", n, ((u2 - u1) - (i2 - i1)) * 1e9 * 60 / (u2 - u1) }'
}

sleep 30
window 0
mkdir "$CG_V2/idle" && cgtree make "$IDLE_CGROUPS" "$CG_V2/idle" || exit 1
sleep 30
window "$IDLE_CGROUPS"
