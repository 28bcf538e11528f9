# shellcheck shell=sh
# The guest's side of vm/guest's contract, sourced by the busybox guest's
# /init (vm/lib/init.sh) and by the Debian guest's harness
# (vm/lib/debian/harness.sh): the command's output goes to ttyS1, then a
# marker line with its exit status that vm/guest looks for, and /out goes
# to ttyS2 as a tar stream.

job_ports() {
	stty -F /dev/ttyS1 raw -echo
	stty -F /dev/ttyS2 raw -echo
}

# report_job STATUS
report_job() {
	printf '\n@@CGACCT-STATUS %d@@\n' "$1" >/dev/ttyS1
	tar -C /out -cf /dev/ttyS2 .
	sync
}

run_job() {
	cd /
	sh /etc/guest-job/cmd >/dev/ttyS1 2>&1 </dev/null
	report_job $?
}
