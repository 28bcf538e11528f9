#!/bin/sh
# Runs inside the guest: the cgroup kselftests of the series that apply to
# the mounted layout, as TAP.  Each program finds its hierarchies itself and
# skips what the layout lacks.  In the v2 layout the v2 tests run a second
# time as a container would run them: inside a cgroup namespace with its own
# cgroup2 mount, under a cpuset of one CPU, so the checks that they skip
# rather than fail there are exercised too.
# The TAP lines carry the results, so the exit status is 0 whatever they say.
# Not -e: a program that fails says so in TAP, and the next one runs.
set -u
cd /selftests || exit 1

run() {
	echo "# program $1"
	"./$1"
}

if grep -q ' - cgroup2 ' /proc/self/mountinfo; then
	run test_core
	run test_cpu_wait
	run test_cpu_wait_starved
fi
run test_serial_v1
run test_cpuacct

[ "$CGACCT_LAYOUT" = v2 ] || exit 0

# The container: a cgroup with a cpuset of the first CPU and the cpu
# controller for its children; its first process unshares the cgroup and
# mount namespaces, mounts cgroup2 afresh (so that it shows the namespace's
# root) and moves to a leaf, as container runtimes do, before the tests
# make their cgroups beside it.
ct=$CG_V2/container
echo "+cpu +cpuset" >"$CG_V2/cgroup.subtree_control"
mkdir "$ct"
cut -d, -f1 "$CG_V2/cpuset.cpus.effective" | cut -d- -f1 >"$ct/cpuset.cpus"
cat >/tmp/in-container.sh <<'IN'
umount /sys/fs/cgroup
mount -t cgroup2 none /sys/fs/cgroup
mkdir /sys/fs/cgroup/init
echo $$ >/sys/fs/cgroup/init/cgroup.procs
cd /selftests
for t in test_cpu_wait test_cpu_wait_starved; do
	echo "# program container:$t"
	./$t
done
IN
sh -c 'echo $$ >'"$ct"'/cgroup.procs &&
	exec /usr/local/bin/unshare --cgroup --mount --propagation private sh /tmp/in-container.sh'
rmdir "$ct/init" "$ct"
exit 0
