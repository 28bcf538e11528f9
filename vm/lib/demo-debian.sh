#!/bin/sh
# Runs in the Debian demo guest (vm/up --image debian), as root, systemd as
# PID 1: installs cgacct's .deb with apt, as an operator would, so that
# systemd runs cgacctd under the shipped unit on port 19753 (socket
# activated), then starts the demo workloads the way a host runs its jobs,
# as systemd units in demo.slice with their limits set through systemd:
#   demo-spin.service       busy loop, CPUWeight=50
#   demo-throttled.service  busy loop, CPUQuota=20%
#   demo-memlimit.service   page-cache reads of /dev/vdb, MemoryMax=32M
#   demo-disk.service       writes to /dev/vdb every 5 s, IOWriteBandwidthMax
#   demo-idle.scope         sleeps, TasksMax=8 (a scope: a process started
#                           from outside systemd and placed by it)
# and lingers a user, so that user.slice holds a user manager as on a
# host people log in to.  The workloads' state (disk.written) is served on
# port 19754; POST /cgi-bin/stop?NAME stops demo-NAME, so that its alerts resolve.
set -eu
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
state=/run/cgacct-demo
mkdir -p "$state"
apt-get install -y /root/cgacct_*.deb >"$state/install.log" 2>&1 ||
	{ cat "$state/install.log"; exit 1; }

useradd --create-home --shell /bin/bash demo
loginctl enable-linger demo

unit() {
	name=$1
	shift
	systemd-run --quiet --slice=demo.slice --unit="demo-$name" --property=Restart=on-failure "$@"
}
unit spin -p CPUWeight=50 workload spin
unit throttled -p CPUQuota=20% workload spin
unit memlimit -p MemoryMax=32M workload pagecache /dev/vdb
unit disk -p "IOWriteBandwidthMax=/dev/vdb 1G" \
	sh -c "while :; do workload write /dev/vdb 64 >>$state/disk.written; sleep 5; done"
systemd-run --quiet --scope --slice=demo.slice --unit=demo-idle -p TasksMax=8 workload hold &
systemctl set-property --runtime demo.slice TasksMax=64

python3 /usr/local/lib/cgacct/demo-control.py 19754 "$state"
