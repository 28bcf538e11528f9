# shellcheck shell=sh
# In a guest of Debian's own kernel (tests/bench/bpfwait): ROUNDS rounds,
# each a pingpong run without and one with the BPF wait programs attached,
# in turn, in a cgroup of its own. Prints "sample off|on NS" lines.
set -u
mount -t bpf bpf /sys/fs/bpf
mkdir /sys/fs/cgroup/bench
echo $$ >/sys/fs/cgroup/bench/cgroup.procs
# let the boot's own work end first
sleep 10
pingpong "$ROUNDTRIPS" >/dev/null
for _ in $(seq "$ROUNDS"); do
	echo "sample off $(pingpong "$ROUNDTRIPS")"
	cgacct-bpf load --wait || exit 1
	echo "sample on $(pingpong "$ROUNDTRIPS")"
	cgacct-bpf unload || exit 1
done
