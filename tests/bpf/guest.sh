# shellcheck shell=sh
# The BPF bulk reader in a guest of Debian's own kernel (run by
# tests/bpf/run under vm/guest's busybox sh, as root): a small tree with
# work done in it and then quiet, loaded with cgacct-bpf, read as the
# cgacct user, bracketed by the files, cgacctd's exposition through the
# records and from files, then a cgroup removed and the pins dropped. The host (check.py) judges what lands in /out.
set -u
cg=/sys/fs/cgroup
out=/out
mount -t bpf bpf /sys/fs/bpf || echo "FAIL: mount bpffs"

echo "+cpu +memory +pids +hugetlb" >$cg/cgroup.subtree_control
# loaded first, with the wait program: it sees every wait from here on
cgacct-bpf load --group cgacct --wait
echo "load $?" >$out/status

mkdir -p $cg/t/busy $cg/t/throttled $cg/t/limited/deep $cg/t/mem $cg/t/wait $cg/t/gone
echo "+cpu +memory +pids +hugetlb" >$cg/t/cgroup.subtree_control
echo "+cpu +memory +pids +hugetlb" >$cg/t/limited/cgroup.subtree_control
echo "20000 100000" >$cg/t/throttled/cpu.max
echo 10000 >$cg/t/throttled/cpu.max.burst
echo 7 >$cg/t/limited/pids.max
echo 64M >$cg/t/mem/memory.max
echo 32M >$cg/t/mem/memory.swap.max
# a limit per huge page size, each its own, so that a size mistaken for another shows
limit=4
for f in "$cg"/t/mem/hugetlb.*.max; do
	case $f in *.rsvd.max) continue ;; esac
	size=${f#"$cg/t/mem/hugetlb."}
	size=${size%.max}
	case $size in *GB) echo "${limit}G" ;; *) echo "${limit}M" ;; esac >"$f"
	echo "hugetlb-limit $size $(cat "$f")" >>$out/status
	limit=$((limit * 2))
done

# in CGROUP, run COMMAND: the subshell moves itself there first
run_in() {
	dir=$1
	shift
	sh -c "echo \$\$ >$cg/$dir/cgroup.procs && exec \"\$@\"" sh "$@"
}
# spins until the clock's second has changed $0 times: over $0 - 1 seconds
# shellcheck disable=SC2016 # (expanded by the sh that runs it, as loop below)
spin='end=$(($(date +%s) + $0)); while [ "$(date +%s)" -lt "$end" ]; do :; done'
run_in t/busy sh -c "$spin" 2
run_in t/throttled sh -c "$spin" 2
mkdir -p /dev/shm
run_in t/mem dd if=/dev/zero of=/dev/shm/held bs=1M count=8 2>/dev/null
for _ in 1 2 3; do run_in t/limited/deep sleep 1000 & done

# Two loops on the one CPU wait for each other: in t/gone until they end,
# in t/wait until they are stopped. Neither forks, so the waits of t/wait
# are those of its two tasks, which /proc/PID/schedstat gives.
# shellcheck disable=SC2016
loop='i=0; while [ $i -lt $0 ]; do i=$((i + 1)); done'
run_in t/gone sh -c "$loop" 200000 &
first=$!
run_in t/gone sh -c "$loop" 200000
wait $first
for _ in 1 2; do sh -c "echo \$\$ >$cg/t/wait/cgroup.procs && exec sh -c '$loop' 1000000000" & done
sleep 3
waiters=$(cat $cg/t/wait/cgroup.procs)
# shellcheck disable=SC2086 # (a list of PIDs)
kill -STOP $waiters
sleep 1
# shellcheck disable=SC2086
echo "task-waits $(for p in $waiters; do cut -d' ' -f2 /proc/$p/schedstat; done | tr '\n' ' ')" \
	>>$out/status
su -s /bin/sh nobody -c "cgacct-bpf dump" >/dev/null 2>&1
echo "nobody $?" >>$out/status
su -s /bin/sh cgacct -c "cgacct-bpf dump" >$out/dump1
echo "dump1 $?" >>$out/status
find $cg -type d | while read -r d; do
	echo "D $(stat -c %i "$d") ${d#"$cg"}"
	for f in cpu.stat cpu.max cpu.max.burst memory.current memory.peak memory.max memory.events.local \
		memory.swap.current memory.swap.max memory.swap.events cpu.pressure memory.pressure \
		io.pressure pids.current pids.max; do
		[ -e "$d/$f" ] || continue
		echo "F $f"
		cat "$d/$f"
	done
done >$out/files
su -s /bin/sh cgacct -c "cgacct-bpf dump" >$out/dump2
echo "dump2 $?" >>$out/status
# cgacctd as the cgacct user: through the records, from files alone, through
# the records again, so the files' values lie between the other two's. Its
# default bpf_pins is where cgacctd.service binds the pins' folder.
mkdir -p /run/cgacct/bpf
mount --bind /sys/fs/bpf/cgacct /run/cgacct/bpf
printf 'bpf_pins: ""\n' >/tmp/files.yml
for run in bpf1 files bpf2; do
	config=
	[ $run != files ] || config="--config /tmp/files.yml"
	su -s /bin/sh cgacct -c "cgacctd --once $config" >$out/once-$run 2>$out/once-$run.err
	echo "once-$run $?" >>$out/status
done
echo "removed $(stat -c %i $cg/t/busy) $(stat -c %i $cg/t/gone)" >>$out/status
rmdir $cg/t/busy $cg/t/gone
cgacct-bpf dump >$out/dump3
echo "dump3 $?" >>$out/status
# a second load replaces the pins in the folder the bind still shows
cgacct-bpf load --group cgacct
su -s /bin/sh cgacct -c "cgacctd --once" >$out/once-reloaded 2>&1
echo "reloaded $?" >>$out/status
umount /run/cgacct/bpf
cgacct-bpf unload
echo "unload $?" >>$out/status
# the folder stays, empty, for a reader that bound it
if [ -n "$(ls -A /sys/fs/bpf/cgacct)" ]; then echo "pins-left 1" >>$out/status; fi
