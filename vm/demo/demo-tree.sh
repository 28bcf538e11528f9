#!/bin/sh
# The demo cgroup tree with a workload in each group, for the demo guests
# (vm/up) and the in-guest suites.  POSIX sh for busybox; needs the
# static `workload` program (vm/demo/workload.c) on PATH.
#
#   demo-tree.sh start     stop whatever runs, then build the tree and start
#   demo-tree.sh stop      kill the workloads and remove the tree
#   demo-tree.sh stop GROUP    kill the workload of /demo/GROUP only; the
#                        group stays, idle, as a finished job's would
#   demo-tree.sh hierarchies   print the mount point of every cgroup hierarchy
#
# The tree, the same path in every mounted hierarchy (v1, v2 or hybrid):
#   /demo                pids limit 64
#   /demo/spin           busy loop, cpu weight 50 (v1 shares 512); with 2 or
#                        more CPUs it has the last CPU to itself (cpuset) and
#                        the other groups share the rest, so it uses one full
#                        CPU however busy they are
#   /demo/memlimit       buffered reads of the disk under a 32 MiB memory
#                        limit: page cache reclaimed, limit failures, no OOM
#   /demo/disk           O_DIRECT writes to the disk; a generous write limit
#                        (1 GiB/s) because 6.1's v1 blkio.throttle.* count only
#                        the I/O of cgroups with a throttle rule on the device
#   /demo/throttled      busy loop under a quota of 20 ms per 100 ms
#   /demo/hugetlb        holds 1 huge page under a limit of 2
#   /demo/hugetlb_over   asks for 2 huge pages under a limit of 1: failures
#   /demo/idle           sleeps, pids limit 8
# The groups are created in this order, which is not name order, so that a
# walk in creation order (cgroup ID, or v1 cgroup.serial) differs from one
# in name order.
#
# Environment: CGACCT_DEMO_DISK (default /dev/vda; without it, no disk and
# memlimit groups' workloads), CGACCT_DEMO_DISK_MIB (default 64),
# CGACCT_DEMO_DISK_REPEAT (seconds between write rounds; default 0 = write
# once, then hold).  State (pids, logs, bytes written) is kept in
# CGACCT_DEMO_STATE (default /run/cgacct-demo).
# Not -e: each step checks what it needs and dies with its own message.
set -u

disk=${CGACCT_DEMO_DISK:-/dev/vda}
disk_mib=${CGACCT_DEMO_DISK_MIB:-64}
disk_repeat=${CGACCT_DEMO_DISK_REPEAT:-0}
state=${CGACCT_DEMO_STATE:-/run/cgacct-demo}
groups="spin memlimit disk throttled hugetlb hugetlb_over idle"

MIB=1048576
HUGE=2097152

die() {
	echo "demo-tree.sh: $*" >&2
	exit 1
}

# Mount points of cgroup and cgroup2 file systems (mountinfo field 5, and the
# file system type after the "-" separator).
hierarchies() {
	awk '{ for (i = 7; $i != "-"; i++) ; if ($(i + 1) == "cgroup" || $(i + 1) == "cgroup2") print $5 }' \
		/proc/self/mountinfo
}

# v1 cpuset children take tasks only with CPUs and memory nodes; the guest's
# init sets clone_children, which copies them, but check rather than trust.
fill_cpuset() {
	dir=$1
	# clone_children exists only on v1, where an empty cpuset cannot take tasks
	[ -e "$dir/cpuset.cpus" ] && [ -e "$dir/cgroup.clone_children" ] || return 0
	[ -n "$(cat "$dir/cpuset.cpus")" ] || cat "$dir/../cpuset.cpus" >"$dir/cpuset.cpus"
	[ -n "$(cat "$dir/cpuset.mems")" ] || cat "$dir/../cpuset.mems" >"$dir/cpuset.mems"
}

# pin_cpus: the spinner alone on the last CPU, every other demo group on the
# others.  Without it the page cache reader and the spinner share CPUs, and
# the spinner, at half the default weight, gets well under one CPU.
pin_cpus() {
	has_file /demo/spin cpuset.cpus || return 0
	last=$(($(nproc) - 1))
	[ "$last" -ge 1 ] || return 0
	set_value /demo/spin "$last" cpuset.cpus
	for g in $groups; do
		[ "$g" = spin ] || set_value "/demo/$g" "0-$((last - 1))" cpuset.cpus
	done
}

# On v2 a child gets the controllers its parent enables for it.
enable_subtree() {
	dir=$1
	[ -e "$dir/cgroup.subtree_control" ] || return 0
	read -r controllers <"$dir/cgroup.controllers"
	for c in $controllers; do
		echo "+$c" >"$dir/cgroup.subtree_control" || die "cannot enable $c in $dir"
	done
}

make_group() {
	for h in $(hierarchies); do
		mkdir -p "$h$1" || die "mkdir $h$1"
		fill_cpuset "$h$1"
	done
}

# has_file GROUP FILE: the group has FILE in some hierarchy.
has_file() {
	for h in $(hierarchies); do
		[ -e "$h$1/$2" ] && return 0
	done
	return 1
}

# set_value GROUP VALUE FILE: writes VALUE to FILE wherever the group has it.
set_value() {
	for h in $(hierarchies); do
		[ -e "$h$1/$3" ] || continue
		echo "$2" >"$h$1/$3" || die "cannot write '$2' to $h$1/$3"
		return 0
	done
	die "$1 has no $3"
}

# Moves the calling shell into GROUP in every hierarchy ("0" means the
# writer itself), so what it execs starts there and is charged there.
enter() {
	for h in $(hierarchies); do
		echo 0 >"$h$1/cgroup.procs" || die "cannot enter $h$1"
	done
}

# launch GROUP COMMAND...: runs the command (a program, exec'd so it is the
# group's only task, or a function of this script) in the group, in the
# background.
launch() {
	group=$1
	shift
	(
		enter "/demo/$group" || exit 1
		case $(command -v "$1") in
		/*) exec "$@" ;;
		*) "$@" ;;
		esac
	) >>"$state/$group.log" 2>&1 &
	echo "$group $!" >>"$state/pids"
}

disk_writer() {
	while :; do
		workload write "$disk" "$disk_mib" >>"$state/disk.written" || exit 1
		[ "$disk_repeat" -gt 0 ] || exec workload hold
		sleep "$disk_repeat"
	done
}

start() {
	stop
	mkdir -p "$state"
	make_group /demo
	for h in $(hierarchies); do enable_subtree "$h/demo"; done
	for g in $groups; do make_group "/demo/$g"; done

	set_value /demo 64 pids.max
	set_value /demo/idle 8 pids.max
	# the controllers other than cpuacct are all v1 or all v2 in our layouts
	if has_file /demo cpu.weight; then
		set_value /demo/spin 50 cpu.weight
		set_value /demo/memlimit $((32 * MIB)) memory.max
		set_value /demo/throttled "20000 100000" cpu.max
		set_value /demo/hugetlb $((2 * HUGE)) hugetlb.2MB.max
		set_value /demo/hugetlb_over $((1 * HUGE)) hugetlb.2MB.max
	else
		set_value /demo/spin 512 cpu.shares
		set_value /demo/memlimit $((32 * MIB)) memory.limit_in_bytes
		set_value /demo/throttled 100000 cpu.cfs_period_us
		set_value /demo/throttled 20000 cpu.cfs_quota_us
		set_value /demo/hugetlb $((2 * HUGE)) hugetlb.2MB.limit_in_bytes
		set_value /demo/hugetlb_over $((1 * HUGE)) hugetlb.2MB.limit_in_bytes
	fi

	pin_cpus
	launch spin workload spin
	launch throttled workload spin
	launch hugetlb workload hugetlb 1
	launch hugetlb_over workload hugetlb 2
	launch idle workload hold
	if [ -b "$disk" ]; then
		devnum=$(cat "/sys/class/block/${disk##*/}/dev")
		if has_file /demo/disk io.max; then
			set_value /demo/disk "$devnum wbps=$((1024 * MIB))" io.max
		else
			set_value /demo/disk "$devnum $((1024 * MIB))" blkio.throttle.write_bps_device
		fi
		: >"$state/disk.written"
		launch disk disk_writer
		launch memlimit workload pagecache "$disk"
	fi
}

# Removes a group and everything below it from every hierarchy, deepest
# first; a group whose tasks are still exiting is retried for a while.
remove_group() {
	for h in $(hierarchies); do
		[ -d "$h$1" ] || continue
		# cgroup names here are the demo's own, without blanks
		# shellcheck disable=SC2044
		for dir in $(find "$h$1" -depth -type d); do
			tries=50
			until rmdir "$dir" 2>/dev/null; do
				tries=$((tries - 1))
				[ $tries -gt 0 ] || die "cannot remove $dir"
				sleep 0.1
			done
		done
	done
}

# kill_workloads [GROUP]: kills the workloads of GROUP (default: all).
kill_workloads() {
	[ -f "$state/pids" ] || return 0
	# the launchers' subshells exec'd their workloads; disk_writer's did not
	while read -r g p; do
		[ -z "${1:-}" ] || [ "$g" = "$1" ] || continue
		pkill -KILL -P "$p" 2>/dev/null
		kill -KILL "$p" 2>/dev/null
	done <"$state/pids"
}

stop() {
	kill_workloads
	rm -f "$state/pids"
	remove_group /demo
}

stop_group() {
	case " $groups " in *" $1 "*) ;; *) die "no demo group '$1' (one of: $groups)" ;; esac
	kill_workloads "$1"
}

case "${1:-}" in
start) start ;;
stop) if [ $# -gt 1 ]; then stop_group "$2"; else stop; fi ;;
hierarchies) hierarchies ;;
*) die "usage: demo-tree.sh start|stop [GROUP]|hierarchies" ;;
esac
