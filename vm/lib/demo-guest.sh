#!/bin/sh
# Runs inside each demo guest (vm/up): start the demo cgroup tree with its
# workloads, then serve it with cgacctd as the unprivileged user cgacct on
# the port vm/up forwards.  Disk writes repeat so that I/O keeps moving.
# The demo's state (disk.written: the bytes of each write round, the
# workloads' logs) is served read-only on port 19754, which vm/up forwards
# too, so that tests can compare the exported counters with what the
# workloads did.
export CGACCT_DEMO_DISK_REPEAT=5
demo-tree.sh start || exit 1
httpd -p 19754 -h /run/cgacct-demo -u nobody:nogroup || exit 1
echo "demo tree started; serving on :19753"
# cgacctd runs on the CPUs of the other demo groups, not on the spinner's
# (demo-tree.sh gives /demo/spin the last CPU): scraped every second or two
# under TCG, its collections would take a visible share of that CPU.
pin=
[ "$(nproc)" -ge 2 ] && pin="taskset -c 0-$(($(nproc) - 2))"
exec su -s /bin/sh cgacct -c "exec $pin cgacctd --listen 0.0.0.0:19753"
