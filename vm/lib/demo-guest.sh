#!/bin/sh
# Runs inside each demo guest (vm/up): start the demo cgroup tree with its
# workloads, then serve it with cgacctd as the unprivileged user cgacct on
# the port vm/up forwards.  Disk writes repeat so that I/O keeps moving.
export CGACCT_DEMO_DISK_REPEAT=5
demo-tree.sh start || exit 1
echo "demo tree started; serving on :19753"
exec su -s /bin/sh cgacct -c 'exec cgacctd --listen 0.0.0.0:19753'
