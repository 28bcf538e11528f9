#!/bin/sh
# Runs inside each busybox demo guest (vm/up): start the demo cgroup tree
# with its workloads, then serve it with cgacctd as the unprivileged user
# cgacct on the port vm/up forwards.  Disk writes repeat so that I/O keeps
# moving.  The demo's state (disk.written: the bytes of each write round,
# the workloads' logs) is served read-only on port 19754, which vm/up
# forwards too, so that tests can compare the exported counters with what
# the workloads did.  POST /cgi-bin/stop?GROUP there stops /demo/GROUP's
# workload, as a job that ends would, so that its alerts resolve.
set -eu
export CGACCT_DEMO_DISK_REPEAT=5
state=/run/cgacct-demo
demo-tree.sh start || exit 1
# httpd runs the stop CGI as nobody, which may only leave a request in
# $state/requests; this shell, root, carries it out.
mkdir -p "$state/cgi-bin" "$state/requests"
chown nobody:nogroup "$state/requests"
cat >"$state/cgi-bin/stop" <<'CGI'
#!/bin/sh
status="400 Bad Request"
if [ "$REQUEST_METHOD" != POST ]; then
	status="405 Method Not Allowed"
elif expr "x$QUERY_STRING" : 'x[a-z_][a-z_]*$' >/dev/null &&
	touch "/run/cgacct-demo/requests/$QUERY_STRING"; then
	status="202 Accepted"
fi
printf 'HTTP/1.0 %s\r\nContent-Type: text/plain\r\n\r\n%s\n' "$status" "$status"
CGI
chmod 755 "$state/cgi-bin/stop"
while sleep 1; do
	for request in "$state"/requests/*; do
		[ -e "$request" ] || continue
		rm -f "$request"
		demo-tree.sh stop "${request##*/}" >>"$state/requests.log" 2>&1
	done
done &
httpd -p 19754 -h "$state" -u nobody:nogroup || exit 1
echo "demo tree started; serving on :19753"
# cgacctd runs on the CPUs of the other demo groups, not on the spinner's
# (demo-tree.sh gives /demo/spin the last CPU): scraped every second or two
# under TCG, its collections would take a visible share of that CPU.
pin=
[ "$(nproc)" -ge 2 ] && pin="taskset -c 0-$(($(nproc) - 2))"
exec su -s /bin/sh cgacct -c "exec $pin cgacctd --listen 0.0.0.0:19753"
