# shellcheck shell=sh
# In a guest of the patched kernel built with BTF (tests/bench/bpfwait):
# the BPF wait program loaded first, then LOAD_SECONDS of mixed load in
# cgroups of their own: CPU hogs outnumbering the CPUs, hogs throttled by
# cpu.max, a pipe ping-pong, and short sleeps that fork. Then every task is
# stopped, so that no wait is in progress, and the records, which hold
# both the program's wait and the kernel's wait_usec as of one walk, go to
# /out/dump.
set -u
cg=/sys/fs/cgroup
mount -t bpf bpf /sys/fs/bpf
cgacct-bpf load --wait || exit 1
echo "+cpu" >$cg/cgroup.subtree_control
mkdir -p $cg/w/hogs $cg/w/throttled $cg/w/pipe $cg/w/sleepy
echo "+cpu" >$cg/w/cgroup.subtree_control
echo "20000 100000" >$cg/w/throttled/cpu.max

# in CGROUP, run COMMAND: the subshell moves itself there first
run_in() {
	dir=$1
	shift
	sh -c "echo \$\$ >$cg/$dir/cgroup.procs && exec \"\$@\"" sh "$@" &
}
for _ in 1 2 3; do run_in w/hogs sh -c 'while :; do :; done'; done
for _ in 1 2; do run_in w/throttled sh -c 'while :; do :; done'; done
run_in w/pipe pingpong 1000000000
run_in w/sleepy sh -c 'while :; do sleep 0.01; done'
# signal_load SIGNAL: every task of the load
signal_load() {
	for d in hogs throttled pipe sleepy; do
		# shellcheck disable=SC2046 # (a list of PIDs)
		kill -"$1" $(cat $cg/w/$d/cgroup.procs)
	done
}
sleep "$LOAD_SECONDS"
signal_load STOP
sleep 1
cgacct-bpf dump >/out/dump || exit 1
signal_load KILL
