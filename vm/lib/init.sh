#!/bin/sh
# /init of the cgacct test guest (busybox).  Mounts the basic filesystems and
# the cgroup layout named in /etc/guest-job/layout, runs /etc/guest-job/cmd with its
# output on ttyS1, reports the exit status there, ships /out on ttyS2 as a tar
# stream, and powers off.  Kernel messages stay on ttyS0.
# Not -e: whatever fails while setting up, the guest must still report and power off.
set -u
export PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin
/bin/busybox --install -s /bin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm /tmp /run /out /dev/hugepages
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
grep -q hugetlbfs /proc/filesystems && mount -t hugetlbfs hugetlbfs /dev/hugepages
hostname guest
# shellcheck source=vm/lib/job.sh # (vm/guest copies it there)
. /etc/guest-job/job.sh
job_ports

ip link set lo up
if [ -e /sys/class/net/eth0 ]; then
	# QEMU user networking: fixed guest address, host reachable at .2
	ip link set eth0 up
	ip addr add 10.0.2.15/24 dev eth0
	ip route add default via 10.0.2.2
fi

enable_v2_controllers() {
	read -r controllers <"$1/cgroup.controllers"
	for c in $controllers; do
		echo "+$c" >"$1/cgroup.subtree_control"
	done
}

layout=$(cat /etc/guest-job/layout)
case "$layout" in
v1)
	# One hierarchy per controller, cpu and cpuacct co-mounted, as systemd
	# and most distributions mounted v1.
	mount -t tmpfs -o mode=755 cgroup /sys/fs/cgroup
	awk 'NR > 1 && $4 == 1 { print $1 }' /proc/cgroups | while read -r c; do
		case "$c" in cpu | cpuacct) continue ;; esac
		mkdir "/sys/fs/cgroup/$c"
		mount -t cgroup -o "$c" cgroup "/sys/fs/cgroup/$c"
	done
	mkdir /sys/fs/cgroup/cpu,cpuacct
	mount -t cgroup -o cpu,cpuacct cgroup /sys/fs/cgroup/cpu,cpuacct
	ln -s cpu,cpuacct /sys/fs/cgroup/cpu
	ln -s cpu,cpuacct /sys/fs/cgroup/cpuacct
	# cpuset children accept tasks only once they have CPUs and nodes.
	echo 1 >/sys/fs/cgroup/cpuset/cgroup.clone_children
	export CG_V1=/sys/fs/cgroup
	;;
v2)
	mount -t cgroup2 cgroup2 /sys/fs/cgroup
	enable_v2_controllers /sys/fs/cgroup
	export CG_V2=/sys/fs/cgroup
	;;
hybrid)
	# cgroup2 with every controller it can take, plus cpuacct, which only
	# exists on v1.
	mount -t tmpfs -o mode=755 cgroup /sys/fs/cgroup
	mkdir /sys/fs/cgroup/unified /sys/fs/cgroup/cpuacct
	mount -t cgroup2 cgroup2 /sys/fs/cgroup/unified
	mount -t cgroup -o cpuacct cgroup /sys/fs/cgroup/cpuacct
	enable_v2_controllers /sys/fs/cgroup/unified
	export CG_V1=/sys/fs/cgroup CG_V2=/sys/fs/cgroup/unified
	;;
esac
export CGACCT_LAYOUT="$layout"

run_job
reboot -f
