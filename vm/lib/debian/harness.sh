#!/bin/sh
# The test harness of the Debian guest (vm/image), run by
# guest-harness.service once the system is up: the same contract as the
# busybox guest's /init (vm/lib/init.sh).  The job is a tar archive on the
# virtio disk whose serial is "cgacct-job" (vm/guest --image debian);
# unpacked over /, it holds /etc/guest-job/cmd and what --add copied.  The
# command's output and exit status go to ttyS1, /out to ttyS2 as a tar
# stream, and the guest powers off.
# Not -e: whatever fails, the guest must still report and power off.
set -u
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# The job's output goes to a serial port, which systemctl and journalctl
# take for a terminal: no pager waiting for a key, no colour codes.
export SYSTEMD_PAGER=cat SYSTEMD_COLORS=0 TERM=dumb
# shellcheck source=vm/lib/job.sh # (vm/image copies it there)
. /usr/local/lib/cgacct/job.sh
job=
for dev in /sys/block/vd*; do
	[ "$(cat "$dev/serial" 2>/dev/null)" = cgacct-job ] && job=/dev/${dev##*/}
done
job_ports
mkdir -p /out
if [ -n "$job" ] && tar --no-overwrite-dir -xf "$job" -C /; then
	export CGACCT_LAYOUT=v2 CG_V2=/sys/fs/cgroup
	run_job
else
	echo "guest-harness: no job disk" >/dev/ttyS1
	report_job 125
fi
systemctl reboot --force --force
