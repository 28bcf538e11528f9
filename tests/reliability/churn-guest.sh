#!/bin/sh
# Runs inside the guest for the churn test of tests/reliability/run:
#
#   sh churn-guest.sh SECONDS
#
# cgacctd serves on :19753 as the unprivileged user cgacct, the way the demo
# and the systemd unit run it.  Once the host says go (it connects to :19755,
# see guest_handshake), `workload churn` creates and removes cgroups as fast
# as it can (at the lowest priority, so on the CPU time cgacctd leaves:
# the host's 1 s scrape timeout is about the daemon, not about who wins a
# TCG vCPU), with a task moving through them, in every
# hierarchy's /keep (32 at a time: a collection takes a good part of a
# second under TCG already), for SECONDS; the host scrapes meanwhile.
# Then churn.done appears on :19754 (busybox httpd) and the guest waits for
# the host's second connection to :19755 before stopping cgacctd.  The
# demo tree's busy workloads are left out: under TCG they would leave
# cgacctd too little CPU to answer a 1 s scrape timeout, and this test is
# about churn, not speed.  /out gets rss (seconds, VmRSS in kB, every
# second), churn.log, cgacctd.log, cgacctd.uid and cgacctd.exit.
# Not -e: each step checks what it needs and exits with its own message.
set -u
seconds=$1
state=/run/churn-state
mkdir -p "$state"
httpd -p 19754 -h "$state" -u nobody:nogroup || exit 1

dirs=
for h in $(demo-tree.sh hierarchies); do
	# on v1 the guest's init set cpuset's clone_children, which children
	# inherit, so new cpuset groups come with CPUs and can take the task
	mkdir "$h/keep" || exit 1
	# v2: the churned children of /keep get every controller
	if [ -e "$h/keep/cgroup.subtree_control" ]; then
		read -r controllers <"$h/keep/cgroup.controllers"
		for c in $controllers; do
			echo "+$c" >"$h/keep/cgroup.subtree_control"
		done
	fi
	dirs="$dirs $h/keep"
done

su -s /bin/sh cgacct -c "exec cgacctd --listen 0.0.0.0:19753" >/out/cgacctd.log 2>&1 &
daemon=$!
tries=100
until wget -q -O /dev/null http://127.0.0.1:19753/metrics; do
	tries=$((tries - 1))
	[ $tries -gt 0 ] || { echo "cgacctd does not serve"; cat /out/cgacctd.log; exit 1; }
	sleep 0.1
done
awk '/^Uid:/ { print $2 }' "/proc/$daemon/status" >/out/cgacctd.uid
echo "cgacctd serves as uid $(cat /out/cgacctd.uid); waiting for the host"

echo ready | nc -l -p 19755 >/dev/null
start=$(cut -d. -f1 /proc/uptime)
# shellcheck disable=SC2086 # one argument per folder
workload churn --move-task $dirs >/out/churn.log 2>&1 &
churn=$!
echo "churning in:$dirs"
now=$start
while [ $((now - start)) -lt "$seconds" ]; do
	echo "$((now - start)) $(awk '/^VmRSS:/ { print $2 }' "/proc/$daemon/status")" >>/out/rss
	sleep 1
	now=$(cut -d. -f1 /proc/uptime)
done
kill "$churn"
wait "$churn"
echo "churn exit $?" >>/out/churn.log
cat /out/churn.log

echo finished >"$state/churn.done"
echo ready | nc -l -p 19755 >/dev/null
kill "$daemon"
wait "$daemon"
echo $? >/out/cgacctd.exit
