#!/bin/sh
# Runs inside the guest: the cgroup kselftests that apply to the mounted
# layout, as TAP (test_cpu_load finds the cpu controller on v2 or on v1),
# plus a check of cgroup.serial across the controller hierarchies of the v1
# layout, which the kselftests cannot mount themselves.
# The TAP lines carry the results, so the exit status is 0 whatever they say.
cd /selftests || exit 1

if grep -q ' - cgroup2 ' /proc/self/mountinfo; then
	echo "# program test_core"
	./test_core
fi
echo "# program test_cpuacct"
./test_cpuacct
echo "# program test_cpu_load"
./test_cpu_load

if [ "$CGACCT_LAYOUT" = v1 ]; then
	echo "# program serial_v1_layout"
	cpu=$CG_V1/cpu,cpuacct mem=$CG_V1/memory
	mkdir "$cpu/serial_a" "$mem/serial_b" "$cpu/serial_c"
	a=$(cat "$cpu/serial_a/cgroup.serial")
	b=$(cat "$mem/serial_b/cgroup.serial")
	c=$(cat "$cpu/serial_c/cgroup.serial")
	echo "# serials: cpu,cpuacct/serial_a $a, memory/serial_b $b, cpu,cpuacct/serial_c $c"
	if [ "$(cat "$cpu/cgroup.serial")" = 0 ] && [ "$(cat "$mem/cgroup.serial")" = 0 ] &&
		[ "$a" -gt 0 ] && [ "$b" -gt "$a" ] && [ "$c" -gt "$b" ]; then
		echo "ok 1 serial_increases_across_controller_hierarchies"
	else
		echo "not ok 1 serial_increases_across_controller_hierarchies"
	fi
	rmdir "$cpu/serial_a" "$mem/serial_b" "$cpu/serial_c"
fi
exit 0
