#!/bin/sh
# Runs inside a hybrid-layout guest (vm/guest --script) for the faults and
# privilege tests of tests/reliability/run, with the demo tree running.
# Every step scrapes cgacctd (the user cgacct, port 19753) into /out/NAME.prom
# and logs "NAME WGET-STATUS MILLISECONDS" to /out/scrapes; check_faults.py
# judges on the host:
#
#   privilege   cgacctd runs under strace (strace.log: every call that could
#               change a file, fds shown as paths) for a scrape in each
#               format, then root's cgacctd (root.prom), scraped after the
#               same one collection before, gives what the unprivileged one
#               (unprivileged.prom) must also export
#   sigkill     before-kill, then SIGKILL while a scrape's connection is open
#               (kill-moment: the netstat line), restart at once, and the
#               first answer (after-restart; restart.ms: how long it took)
#   unreadable  a new cgroup's memory.stat mode 000 before cgacctd sees it,
#               then back (a file cgacctd already holds open stays
#               readable to it, whatever its mode)
#   unmounted   the v1 cpuacct hierarchy unmounted, then mounted again
#   disabled    memory disabled in /ctl's cgroup.subtree_control while
#               cgacctd holds /ctl/child's memory files open (ctl-held),
#               which removes just those files (ctl-disabled)
#   pressure    /pressure maps memory over its memory.high in a loop:
#               baseline-N scrapes before, pressure-N while it presses
# Not -e: a case that fails leaves its files for check_faults.py and the next one runs.
set -u
out=/out
url=http://127.0.0.1:19753/metrics
v2=/sys/fs/cgroup/unified

ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }

scrape() {
	t0=$(ms)
	# timeout(1), not wget -T: Debian's static busybox 1.35 wget crashes on -T
	timeout 60 wget -q -O "$out/$1.prom" "$url"
	echo "$1 $? $(($(ms) - t0))" >>"$out/scrapes"
}

# await URL: until cgacctd answers at URL (60 s: strace slows it down a lot
# under TCG); that answer is its first collection.
await() {
	tries=600
	until wget -q -O /dev/null "$1" 2>/dev/null; do
		tries=$((tries - 1))
		[ $tries -gt 0 ] || { echo "cgacctd does not serve"; cat "$out/cgacctd.log"; exit 1; }
		sleep 0.1
	done
}

# serve [WRAPPER...]: cgacctd as the user cgacct, optionally under WRAPPER.
serve() {
	"$@" su -s /bin/sh cgacct -c "exec cgacctd --listen 127.0.0.1:19753" >>"$out/cgacctd.log" 2>&1 &
	await "$url"
	daemon=$(pidof cgacctd)
}

stop_daemon() {
	kill "$daemon"
	while kill -0 "$daemon" 2>/dev/null; do sleep 0.1; done
}

echo "== demo tree"
demo-tree.sh start || exit 1
sleep 3

echo "== privilege"
serve strace -f -y -qq -o "$out/strace.log" -e trace=open,openat,openat2,creat,truncate,ftruncate,mkdir,mkdirat,rmdir,unlink,unlinkat,rename,renameat,renameat2,link,linkat,symlink,symlinkat,mknod,mknodat,chmod,fchmod,fchmodat,chown,fchown,lchown,fchownat,setxattr,lsetxattr,fsetxattr,removexattr,lremovexattr,fremovexattr,write,pwrite64,writev,pwritev,pwritev2,sendfile,splice,copy_file_range
awk '/^Uid:/ { print $2 }' "/proc/$daemon/status" >"$out/cgacctd.uid"
scrape unprivileged
wget -q -O /dev/null --header 'Accept: application/openmetrics-text; version=1.0.0' "$url"
wget -q -O /dev/null --header 'Accept-Encoding: gzip' "$url"
stop_daemon
# Root's daemon answers its second collection, as the unprivileged one did:
# load averages start there.
cgacctd --listen 127.0.0.1:19754 >>"$out/cgacctd.log" 2>&1 &
await http://127.0.0.1:19754/metrics
timeout 60 wget -q -O "$out/root.prom" http://127.0.0.1:19754/metrics
kill $!
wait $!
# strace leaves when its tracee does
while pidof strace >/dev/null; do sleep 0.1; done

echo "== sigkill"
serve
scrape before-kill
# Each hammer checks for $stop between scrapes, so waiting for the hammers
# leaves no scrape in flight: killing them would leave the wget of a loop
# caught between fork and exec running unseen.
stop=/tmp/hammers-stop
for i in 1 2 3; do
	(while [ ! -e $stop ]; do timeout 60 wget -q -O /dev/null "$url" 2>/dev/null; done) &
	hammers="${hammers:-} $!"
done
tries=1000
moment=
until [ -n "$moment" ]; do
	tries=$((tries - 1))
	[ $tries -gt 0 ] || { echo "no scrape was ever in flight"; exit 1; }
	moment=$(netstat -tn 2>/dev/null | grep '127.0.0.1:19753 .*ESTABLISHED' | head -n 1)
done
kill -KILL "$daemon"
echo "$moment" >"$out/kill-moment"
t0=$(ms)
serve
echo $(($(ms) - t0)) >"$out/restart.ms"
scrape after-restart
# a hammer's scrape still in flight would open the new cgroup's files first
touch $stop
# shellcheck disable=SC2086 # one pid per word
wait $hammers

echo "== unreadable"
mkdir "$v2/demo/unreadable"
mode=$(stat -c %a "$v2/demo/unreadable/memory.stat")
chmod 000 "$v2/demo/unreadable/memory.stat"
scrape unreadable
chmod "$mode" "$v2/demo/unreadable/memory.stat"
scrape readable-again
rmdir "$v2/demo/unreadable"

echo "== unmounted"
# a collection holds the hierarchy's directories open for a moment (and
# never a v1 file for longer: keep_open_files holds v2 files only)
tries=50
until umount /sys/fs/cgroup/cpuacct; do
	tries=$((tries - 1))
	[ $tries -gt 0 ] || exit 1
	sleep 0.1
done
scrape unmounted
mount -t cgroup -o cpuacct cgroup /sys/fs/cgroup/cpuacct || exit 1
scrape remounted

echo "== disabled"
mkdir "$v2/ctl" "$v2/ctl/child"
echo +memory >"$v2/ctl/cgroup.subtree_control"
scrape ctl-held
echo -memory >"$v2/ctl/cgroup.subtree_control"
scrape ctl-disabled
rmdir "$v2/ctl/child" "$v2/ctl"

echo "== pressure"
for i in 1 2 3 4 5; do scrape "baseline-$i"; done
mkdir "$v2/pressure"
echo $((32 * 1024 * 1024)) >"$v2/pressure/memory.high"
sh -c "echo \$\$ >$v2/pressure/cgroup.procs && exec workload touch 96" &
hog=$!
tries=300
until [ "$(awk '$1 == "high" { print $2 }' "$v2/pressure/memory.events")" -gt 0 ]; do
	tries=$((tries - 1))
	[ $tries -gt 0 ] || { echo "the group never went over memory.high"; exit 1; }
	sleep 0.1
done
for i in 1 2 3 4 5 6 7 8 9 10; do scrape "pressure-$i"; done
grep -E '^(some|full)' "$v2/pressure/memory.pressure" >"$out/pressure.psi"
kill -KILL "$hog"
wait "$hog" 2>/dev/null
rmdir "$v2/pressure"

stop_daemon
demo-tree.sh stop || exit 1
echo "== done"
