#!/bin/sh
# Runs inside the guest (vm/guest --script): builds the demo tree, lets the
# workloads run, then — with a churn loop creating and removing cgroups
# beside it — dumps every readable file of every cgroup of every hierarchy,
# runs cgacctd --once twice, and dumps again.  Everything lands in /out for
# tests/guest/check_exposition.py on the host:
#   mountinfo, devices ("MAJ:MIN NAME"), before/ and after/ (one folder per
#   hierarchy, named after its mount point), metrics.prom and walk-order
#   (cgacctd --once --walk-order), metrics-per-cpu.prom (--per-cpu),
#   cgacctd.status, disk.written (bytes the disk group wrote), demo logs,
#   names.hex and names.prom (cgroups the user nobody named, and the
#   exposition that has them).
# Steps are logged as "step: ..." lines; the exit status is 0 unless a step
# that the checker cannot judge failed.
# Not -e: each step checks what it needs and exits with its own message.
set -u
out=/out
settle=${CGACCT_SETTLE:-4}
state=/run/cgacct-demo
export CGACCT_DEMO_STATE=$state

step() { echo "step: $(cut -d" " -f1 /proc/uptime) s: $*"; }

step "demo tree ($CGACCT_LAYOUT)"
demo-tree.sh start || exit 1

# The disk group's one round of writes must be over before the dumps.
tries=600
until [ -s "$state/disk.written" ]; do
	tries=$((tries - 1))
	[ $tries -gt 0 ] || { echo "the disk writer did not finish"; cat "$state/disk.log"; exit 1; }
	sleep 0.1
done
step "disk group wrote $(cat "$state/disk.written") bytes; workloads run for $settle s"
sleep "$settle"

hierarchies=$(demo-tree.sh hierarchies)
churn_dirs=
for h in $hierarchies; do churn_dirs="$churn_dirs $h $h/demo"; done
# shellcheck disable=SC2086 # one argument per folder
workload churn $churn_dirs &
churn=$!
sleep 1

dump() {
	for h in $hierarchies; do
		workload dump "$h" "$out/$1/${h##*/}" || exit 1
	done
}

cp /proc/self/mountinfo "$out/mountinfo"
for d in /sys/dev/block/*; do
	echo "${d##*/} $(sed -n 's/^DEVNAME=//p' "$d/uevent")"
done >"$out/devices"

step "dump before"
mkdir -p "$out/before" "$out/after"
dump before
step "cgacctd --once"
cgacctd --once --walk-order "$out/walk-order" >"$out/metrics.prom" 2>"$out/cgacctd.err"
echo "once $?" >"$out/cgacctd.status"
cgacctd --once --per-cpu >"$out/metrics-per-cpu.prom" 2>>"$out/cgacctd.err"
echo "per-cpu $?" >>"$out/cgacctd.status"
step "dump after"
dump after

kill "$churn"
wait "$churn" 2>/dev/null
cp "$state/disk.written" "$out/disk.written"
for f in "$state"/*.log; do cp "$f" "$out/demo-${f##*/}"; done

# Names anyone may give: the user nobody names cgroups in a subtree
# delegated to it (the directory and the files that create and move,
# chowned, as systemd's Delegate= does) with bytes that are not UTF-8 and
# characters the exposition escapes (not a newline: the kernel refuses
# it). names.hex lists what the kernel holds (hierarchy, then the name in
# hex), names.prom what cgacctd made of it.
step "cgroups nobody names"
for h in $hierarchies; do
	d=$h/delegated
	mkdir "$d" || exit 1
	for f in "$d" "$d/cgroup.procs" "$d/cgroup.threads" "$d/cgroup.subtree_control" "$d/tasks"; do
		[ ! -e "$f" ] || chown 65534:65534 "$f" || exit 1
	done
	# shellcheck disable=SC2016 # expanded by nobody's shell
	su -s /bin/sh nobody -c 'cd "$1" &&
		for n in "\377\376" "tab\tand\033escape" "q\"uote\\\\back" "caf\303\251" "cut\303" \
			"\357\277\275ff" "\377"; do mkdir "$(printf "$n")" || exit 1; done' sh "$d" ||
		{ echo "nobody cannot name cgroups in $d"; exit 1; }
	for n in "$d"/*/; do
		n=${n%/}
		printf '%s %s\n' "${h##*/}" "$(printf '%s' "${n##*/}" | od -An -tx1 | tr -d ' \n')"
	done
done >"$out/names.hex"
cgacctd --once >"$out/names.prom" 2>>"$out/cgacctd.err"
echo "names $?" >>"$out/cgacctd.status"
for h in $hierarchies; do
	for n in "$h"/delegated/*/; do rmdir "$n" || exit 1; done
	rmdir "$h/delegated" || exit 1
done
step "stop the demo tree"
demo-tree.sh stop || exit 1
for h in $hierarchies; do
	[ ! -e "$h/demo" ] || { echo "$h/demo is still there"; exit 1; }
done
step "done"
