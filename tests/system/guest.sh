# shellcheck shell=dash
# Runs as root in the Debian guest (vm/guest --image debian), systemd as
# PID 1, under the harness's sh (dash: no bash features), after
# tests/system/run has put its settings and tests/lib/guest-checks.sh
# (check, until_ok, scrape) above this line: DEB and
# DEB_UPGRADE (the package and the same package as the next version,
# UPGRADE_VERSION), PROM_URL (the host's Prometheus, which scrapes this
# guest's port 19753), PROM_JOBS (its jobs, each JOB:ACCEPT, the format it
# scrapes in) and ROOTFS (a busybox root file system in a tarball, for a
# container image).  Prints a PASS:, FAIL: or SKIP: line per check; the
# host records them.
set -u
contains() { case $1 in *"$2"*) return 0 ;; esac; return 1; }
main_pid() { systemctl show -P MainPID cgacctd.service; }
active() { systemctl is-active -q "$1"; }
conf=/etc/cgacct/cgacctd.yml

state=$(systemctl is-system-running --wait)
detail="$state; failed: $(systemctl --failed --no-legend --plain | awk '{ print $1 }' | tr '\n' ' ')"
check system/booted test "$state" = running

# Install: the package's dependencies are in the image, so apt needs no
# network; its maintainer scripts create the user and start the units.
detail=$(apt-get install -y "$DEB" 2>&1 | tail -n 2 | tr '\n' ' ')
check package/install dpkg-query -W cgacct
line=$(getent passwd cgacct)
uid=$(echo "$line" | cut -d: -f3)
detail=$line
check package/system-user test -n "$uid" -a "${uid:-1000}" -lt 1000 -a "${line##*:}" = /usr/sbin/nologin
for unit in cgacctd.service cgacctd.socket cgacct-bpf.service; do
	detail=$(systemctl is-enabled "$unit" 2>&1)
	check "package/enabled/$unit" test "$detail" = enabled
done
detail=$(systemctl show -P ActiveState cgacctd.service)
check service/started-on-install until_ok 60 active cgacctd.service

# Type=notify: systemd took the daemon's READY=1 and its STATUS= line.
detail="Type=$(systemctl show -P Type cgacctd.service), StatusText=$(systemctl show -P StatusText cgacctd.service)"
check service/notify-ready test "$(systemctl show -P Type cgacctd.service)" = notify \
	-a -n "$(systemctl show -P StatusText cgacctd.service)"

check service/scrape scrape /tmp/first
detail="$(grep -c '^cgroup_' /tmp/first) cgroup_* samples"
check service/exports-the-systemd-tree \
	grep -q '^cgroup_cpu_usage_seconds_total{cgroup="/system.slice/cgacctd.service"' /tmp/first
check service/exports-init-scope grep -q '^cgroup_cpu_usage_seconds_total{cgroup="/init.scope"' /tmp/first
# What the path says runs there: the unit, on cgroup_info (identity.c).
check service/info-names-the-unit \
	grep -q '^cgroup_info{cgroup="/system.slice/cgacctd.service",.*,unit="cgacctd.service"}' /tmp/first

# The guest's kernel has no BTF: the BPF loader's condition keeps it from
# starting (it neither fails nor loads), and cgacctd reads files and says
# so (the usual case, which its journal does not repeat at every start).
detail="btf $(test -e /sys/kernel/btf/vmlinux && echo yes || echo no),"
detail="$detail ConditionResult=$(systemctl show -P ConditionResult cgacct-bpf.service)"
detail="$detail ActiveState=$(systemctl show -P ActiveState cgacct-bpf.service)"
check bpf/loader-skipped-without-btf test ! -e /sys/kernel/btf/vmlinux \
	-a "$(systemctl show -P ConditionResult cgacct-bpf.service)" = no \
	-a "$(systemctl show -P ActiveState cgacct-bpf.service)" = inactive
detail=$(grep '^cgacct_collection_source' /tmp/first)
check bpf/cgacctd-says-files grep -qx 'cgacct_collection_source{source="files"} 1' /tmp/first
curl -sf --max-time 30 -o /tmp/landing.html http://127.0.0.1:19753/
detail=$(grep -o '<p>Values from[^<]*' /tmp/landing.html)
check bpf/landing-page-says-why contains "$detail" "Values from files: the BPF pins folder holds no BPF reader"

# The process as systemd started it: its own user, no capabilities,
# NoNewPrivs, a seccomp filter.
pid=$(main_pid)
status=/proc/$pid/status
detail=$(grep -E '^(Uid|Gid|CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp):' "$status" | tr -s '\t\n' '  ')
# shellcheck disable=SC2016 # (awk programs)
check service/runs-as-cgacct awk -v u="$uid" '$1 == "Uid:" { exit !($2 == u && $3 == u && $4 == u && $5 == u) }' "$status"
# shellcheck disable=SC2016 # (an awk program)
check service/no-capabilities awk '/^Cap(Inh|Prm|Eff|Bnd|Amb):/ && $2 !~ /^0+$/ { bad = 1 } END { exit bad }' "$status"
check service/no-new-privileges grep -q '^NoNewPrivs:[[:space:]]*1$' "$status"
check service/seccomp-filter grep -q '^Seccomp:[[:space:]]*2$' "$status"
level=$(systemd-analyze security cgacctd.service 2>&1 | sed -n 's/.*Overall exposure level for cgacctd.service: \([0-9.]*\).*/\1/p')
detail="exposure level ${level:-not found}"
check service/security-exposure-at-most-1.5 awk -v l="${level:-99}" 'BEGIN { exit !(l <= 1.5) }'

# The host's Prometheus scrapes this guest through QEMU's port forward.
host_up() {
	curl -sf "$PROM_URL/api/v1/query" --data-urlencode 'query=up{job="cgacct"} == 1' | grep -q '"value"'
}
check prometheus/target-up until_ok 120 host_up
detail=$(curl -sf "$PROM_URL/api/v1/query" --data-urlencode \
	'query=count(cgroup_cpu_usage_seconds_total{job="cgacct",cgroup=~"/system.slice/.+"})' |
	grep -o '"value":\[[^]]*\]')
check prometheus/has-system-slice test -n "$detail"
# Each format the host's Prometheus scrapes in (PROM_JOBS: JOB:ACCEPT
# ...): the target up, and what it stored from a scrape equal to the
# exposition in that format (stored.py).
job_up() {
	curl -sf "$PROM_URL/api/v1/query" --data-urlencode "query=up{job=\"$1\"} == 1" | grep -q '"value"'
}
stored_equal() {
	local out rc
	out=$(python3 /usr/local/bin/stored.py "$PROM_URL" "$1" http://127.0.0.1:19753/metrics "$2" 2>&1)
	rc=$?
	detail=$(echo "$out" | tail -n 1)
	return $rc
}
# A collection served for 20 s, to the scrapes and to stored.py alike.
sed -i 's/^min_interval: 0$/min_interval: 20s/' "$conf"
systemctl reload cgacctd.service
for entry in $PROM_JOBS; do
	job=${entry%%:*}
	check "prometheus/$job/target-up" until_ok 120 job_up "$job"
	check "prometheus/$job/stored-equals-exposition" stored_equal "$job" "${entry#*:}"
done
sed -i 's/^min_interval: 20s$/min_interval: 0/' "$conf"
systemctl reload cgacctd.service

# Socket activation: with the service stopped, systemd (PID 1) still holds
# the port, and a scrape starts a new daemon on that socket.  (The host's
# Prometheus, scraping every 2 s, may be the one that does.)
before=$(main_pid)
systemctl stop cgacctd.service 2>/dev/null
detail=$(ss -Hltnp 'sport = :19753' | tr -s ' \n' '  ')
check socket/pid1-holds-port-while-stopped contains "$detail" 'pid=1,'
check socket/scrape-served scrape /tmp/activated
detail="MainPID $before -> $(main_pid)"
check socket/started-a-new-daemon test "$(main_pid)" != "$before" -a "$(main_pid)" != 0
detail=$(systemctl show -P StatusText cgacctd.service)
check socket/serves-the-socket-it-was-given contains "$detail" socket-activated

# The watchdog: a daemon that stops answering (SIGSTOP) is killed and
# restarted within WatchdogSec, and scrapes resume.
before=$(main_pid)
restarts=$(systemctl show -P NRestarts cgacctd.service)
# (A MainPID of 0 would make it "kill -STOP 0": this whole job.)
[ "$before" -gt 0 ] && kill -STOP "$before"
start=$(date +%s)
restarted() { [ "$(main_pid)" != "$before" ] && [ "$(main_pid)" != 0 ] && active cgacctd.service; }
until_ok 120 restarted
took=$(($(date +%s) - start))
detail="restarted after $took s, WatchdogSec=$(systemctl show -P WatchdogUSec cgacctd.service)"
check watchdog/restarts-hung-daemon test "$(systemctl show -P NRestarts cgacctd.service)" -gt "$restarts"
detail=$(journalctl -u cgacctd.service --no-pager -o cat | grep -i 'watchdog timeout' | tail -n 1)
check watchdog/journal-says-why test -n "$detail"
check watchdog/scrapes-resume until_ok 30 scrape

# Reload applies an edited configuration without a restart.
cp "$conf" /tmp/cgacctd.yml.orig
pid=$(main_pid)
sed -i 's/^naming: native$/naming: cadvisor/' "$conf"
detail=$(systemctl reload cgacctd.service 2>&1)
check reload/succeeds test $? -eq 0
scrape /tmp/reloaded
check reload/applies grep -q '^container_cpu_usage_seconds_total{' /tmp/reloaded
detail="MainPID $pid -> $(main_pid)"
check reload/same-process test "$(main_pid)" = "$pid"

# A broken edit: reload fails, the journal names file:line:col, and the
# daemon keeps serving the configuration it had.
printf 'per_cpu: maybe\n' >>"$conf"
bad_line=$(wc -l <"$conf")
systemctl reload cgacctd.service 2>/dev/null
check reload/broken-edit-fails test $? -ne 0
detail=$(journalctl -u cgacctd.service --no-pager -o cat | grep "$conf:$bad_line:" | tail -n 1)
check reload/journal-names-file-line-col test -n "$detail"
scrape /tmp/after-bad
check reload/old-config-keeps-serving grep -q '^container_cpu_usage_seconds_total{' /tmp/after-bad
detail="MainPID $pid -> $(main_pid)"
check reload/broken-edit-keeps-process test "$(main_pid)" = "$pid"
cp /tmp/cgacctd.yml.orig "$conf"
systemctl reload cgacctd.service

# Containers: real podman containers, of an image imported from a busybox
# rootfs tarball (ROOTFS; no registry is reachable), named from podman's
# API while cgacctd runs.  The service gets the socket as cgacctd.yml(5)
# tells an operator to grant it: a group for the socket, /run/podman's
# mode in a tmpfiles.d override, SupplementaryGroups= in a drop-in.
# podman's API service starts on demand, and slowly under emulation: hence
# the timeout.
groupadd --system podman-api
mkdir -p /etc/systemd/system/podman.socket.d /etc/systemd/system/cgacctd.service.d
printf '[Socket]\nSocketGroup=podman-api\n' >/etc/systemd/system/podman.socket.d/group.conf
sed 's|^D! /run/podman 0700 root root$|D! /run/podman 0750 root podman-api|' \
	/usr/lib/tmpfiles.d/podman.conf >/etc/tmpfiles.d/podman.conf
systemd-tmpfiles --boot --create /etc/tmpfiles.d/podman.conf
printf '[Service]\nSupplementaryGroups=podman-api\n' >/etc/systemd/system/cgacctd.service.d/podman.conf
systemctl daemon-reload
systemctl restart podman.socket
sed -i -e 's|^container_runtime_sockets: .*|container_runtime_sockets: [/run/podman/podman.sock]|' \
	-e 's|^container_runtime_timeout: .*|container_runtime_timeout: 30s|' \
	-e 's/^naming: native$/naming: cadvisor/' "$conf"
systemctl restart cgacctd.service
image=localhost/cgacct-busybox:latest
detail=$(podman import --change 'CMD ["/bin/sh"]' "$ROOTFS" "$image" 2>&1 | tail -n 1)
check containers/image-imported podman image exists "$image"
web=$(podman run -d --name web --network none "$image" sh -c 'while :; do :; done')
idle=$(podman run -d --name idle --network none "$image" sleep 100000)
detail="web $web, idle $idle"
check containers/running test -n "$web" -a -n "$idle"
# named() ID NAME: a series of the container's own cgroup, named by the runtime.
named() {
	scrape /tmp/containers &&
		grep -q "^container_cpu_usage_seconds_total{cpu=\"total\",id=\"/machine.slice/libpod-$1.scope\",image=\"$image\",name=\"$2\"} " /tmp/containers
}
check containers/web-named until_ok 60 named "$web" web
check containers/idle-named until_ok 60 named "$idle" idle
# The creation time podman gives, as cAdvisor's container_start_time_seconds.
created=$(podman inspect --format '{{.Created.Unix}}' web)
detail="podman says $created"
check containers/start-time grep -q "^container_start_time_seconds{id=\"/machine.slice/libpod-$web.scope\",image=\"$image\",name=\"web\"} $created\$" /tmp/containers
# Not conmon's cgroup: it is podman's, not the container's.
detail=$(grep -c "libpod-conmon-$web.scope\",image=\"$image\"" /tmp/containers)
check containers/conmon-not-named test "$detail" = 0
# How the socket answered, for CgacctContainerRuntimeUnreachable: a list of the two.
detail=$(grep '^cgacct_container_runtime_' /tmp/containers | tr '\n' ' ')
check containers/runtime-up grep -q '^cgacct_container_runtime_up{socket="/run/podman/podman.sock"} 1$' /tmp/containers
check containers/runtime-listed grep -q '^cgacct_container_runtime_containers{socket="/run/podman/podman.sock"} 2$' /tmp/containers
# The Docker-style dashboard query, on the host's Prometheus.
by_name() {
	curl -sf "$PROM_URL/api/v1/query" --data-urlencode \
		'query=sum by (name) (rate(container_cpu_usage_seconds_total{image!=""}[1m]))' >/tmp/by-name &&
		python3 - /tmp/by-name <<'PY'
import json, sys
rows = {r["metric"].get("name"): float(r["value"][1])
        for r in json.load(open(sys.argv[1]))["data"]["result"]}
# both containers, by name; the busy loop busier than the sleeper
print(", ".join("%s %.3f" % kv for kv in sorted(rows.items())))
sys.exit(not (set(rows) == {"web", "idle"} and rows["web"] > rows["idle"]))
PY
}
# check prints detail after the command: the last answer's rates
sum_by_name() {
	until_ok 90 by_name >/dev/null
	local rc=$?
	detail=$(by_name)
	return $rc
}
check containers/prometheus-sum-by-name sum_by_name
# native naming: the names on cgroup_info, for joins
sed -i 's/^naming: cadvisor$/naming: native/' "$conf"
systemctl reload cgacctd.service
info() {
	scrape /tmp/containers &&
		grep -q "^cgroup_info{cgroup=\"/machine.slice/libpod-$web.scope\",.*,container_runtime=\"podman\",container_id=\"$web\",container_name=\"web\",image=\"$image\"} 1$" /tmp/containers
}
check containers/native-info-names until_ok 30 info
podman stop -t 0 web >/dev/null
podman rm web >/dev/null
gone() { scrape /tmp/containers && ! grep -q "$web" /tmp/containers; }
check containers/removed-container-has-no-series until_ok 30 gone
detail=$(grep -c "container_name=\"idle\"" /tmp/containers)
check containers/other-container-stays test "$detail" = 1
podman rm -f -t 0 idle >/dev/null
rm -r /etc/systemd/system/cgacctd.service.d
systemctl daemon-reload
cp /tmp/cgacctd.yml.orig "$conf"
systemctl restart cgacctd.service

# Upgrade: an edited conffile stays, the service restarts on the new
# version.
echo '# edited on this host' >>"$conf"
pid=$(main_pid)
detail=$(apt-get install -y "$DEB_UPGRADE" 2>&1 | tail -n 2 | tr '\n' ' ')
check upgrade/installs test "$(dpkg-query -W -f='${Version}' cgacct)" = "$UPGRADE_VERSION"
check upgrade/keeps-edited-conffile grep -qx '# edited on this host' "$conf"
detail="MainPID $pid -> $(main_pid)"
check upgrade/restarts-service test "$(main_pid)" != "$pid" -a "$(main_pid)" != 0
check upgrade/serves until_ok 30 scrape

# Purge leaves no file of the package and no unit behind.
dpkg -L cgacct >/tmp/files
detail=$(apt-get purge -y cgacct 2>&1 | tr '\r' '\n' | tail -n 2 | tr '\n' ' ')
check purge/succeeds test -z "$(dpkg-query -W -f='${Status}' cgacct 2>/dev/null | grep -v not-installed)"
left=$(
	while read -r f; do [ -d "$f" ] || [ ! -e "$f" ] || echo "$f"; done </tmp/files
	find /etc/cgacct /etc/systemd/system -name 'cgacct*' 2>/dev/null
)
detail=$(echo "$left" | tr '\n' ' ')
check purge/leaves-no-file test -z "$left"
detail=$(systemctl show -P LoadState cgacctd.service)
check purge/units-gone test "$detail" = not-found
closed() { ! scrape; }
check purge/port-closed closed
