# shellcheck shell=dash
# Runs as root in the Debian 13 guest booted on Debian's own kernel
# (vm/guest --kernel image: the 6.12 a Debian 13 host boots, with its BTF),
# systemd as PID 1, under the harness's sh, after tests/system/run has put
# DEB and tests/lib/guest-checks.sh above this line: the package as such
# a host runs it, the BPF reader loaded by cgacct-bpf.service and read by
# the unprivileged cgacctd.  Prints a PASS:, FAIL: or SKIP: line per check.
set -u
contains() { case $1 in *"$2"*) return 0 ;; esac; return 1; }
says_source() { scrape /tmp/now && grep -qx "cgacct_collection_source{source=\"$1\"} 1" /tmp/now; }
# the value of a series (its whole name and labels) in /tmp/now
value() { awk -v s="$1" '$1 == s { print $2 }' /tmp/now; }

state=$(systemctl is-system-running --wait)
detail="$state; failed: $(systemctl --failed --no-legend --plain | awk '{ print $1 }' | tr '\n' ' ')"
check bpf-host/booted test "$state" = running
detail="kernel $(uname -r)"
check bpf-host/kernel-has-btf test -e /sys/kernel/btf/vmlinux

detail=$(apt-get install -y "$DEB" 2>&1 | tail -n 2 | tr '\n' ' ')
check bpf-host/install dpkg-query -W cgacct

# The loader ran, as its unit allows it to, and stays active while the pins are there.
detail="$(systemctl show -P ActiveState cgacct-bpf.service) $(systemctl show -P Result cgacct-bpf.service)"
check bpf-host/loader-active until_ok 60 systemctl is-active -q cgacct-bpf.service
detail=$(stat -c '%n %U:%G %a' /sys/fs/bpf/cgacct/walk /sys/fs/bpf/cgacct/records 2>&1 | tr '\n' ' ')
check bpf-host/pins-for-the-cgacct-group test "$(stat -c '%G %a' /sys/fs/bpf/cgacct/walk \
	/sys/fs/bpf/cgacct/records 2>/dev/null | sort -u)" = "cgacct 440"

# cgacctd, unprivileged, reads them through the folder its unit binds.
check bpf-host/daemon-active until_ok 60 systemctl is-active -q cgacctd.service
detail=$(scrape /tmp/now && grep '^cgacct_collection_source' /tmp/now)
check bpf-host/daemon-reads-the-records until_ok 30 says_source bpf
pid=$(systemctl show -P MainPID cgacctd.service)
detail=$(grep -E '^(Uid|CapEff):' "/proc/$pid/status" | tr -s '\t\n' '  ')
# shellcheck disable=SC2016 # (an awk program)
check bpf-host/daemon-unprivileged awk '$1 == "Uid:" && $2 == 0 { bad = 1 }
	$1 == "CapEff:" && $2 !~ /^0+$/ { bad = 1 } END { exit bad }' "/proc/$pid/status"
level=$(systemd-analyze security cgacctd.service 2>&1 | sed -n 's/.*Overall exposure level for cgacctd.service: \([0-9.]*\).*/\1/p')
detail="exposure level ${level:-not found}"
check bpf-host/security-exposure-at-most-1.5 awk -v l="${level:-99}" 'BEGIN { exit !(l <= 1.5) }'
curl -sf --max-time 30 -o /tmp/landing.html http://127.0.0.1:19753/
detail=$(grep -o '<p>Values from[^<]*' /tmp/landing.html)
check bpf-host/landing-page-says-records contains "$detail" "Values from the BPF bulk reader's records"

# Values the records give equal the files, where they hold still: the
# limits systemd set on cgacctd's own cgroup; and what only the records
# cover on this kernel (pressure, swap, hugetlb) is there.
cg=/sys/fs/cgroup/system.slice/cgacctd.service
label="{cgroup=\"/system.slice/cgacctd.service\"}"
scrape /tmp/now
limit=$(value "cgroup_pids_limit$label")
detail="pids.max $(cat $cg/pids.max), exposition ${limit:-none}"
check bpf-host/pids-limit-as-the-file test -n "$limit" -a "$limit" = "$(cat $cg/pids.max)"
memory=$(value "cgroup_memory_limit_bytes$label")
detail="memory.max $(cat $cg/memory.max), exposition ${memory:-none}"
if [ "$(cat $cg/memory.max)" = max ]; then
	check bpf-host/memory-limit-as-the-file test -z "$memory"
else
	check bpf-host/memory-limit-as-the-file test "$(printf '%.0f' "${memory:-0}")" = "$(cat $cg/memory.max)"
fi
for series in cgroup_pressure_cpu_waiting_seconds_total cgroup_memory_swap_usage_bytes; do
	detail=$(grep -c "^$series{" /tmp/now)
	check "bpf-host/exports-$series" grep -q "^$series$label" /tmp/now
done

# A restart of the loader: the folder cgacctd's unit bound keeps showing
# the pins. Stopped: files, and the landing page says why; started: records.
systemctl restart cgacct-bpf.service
detail=$(scrape /tmp/now && grep '^cgacct_collection_source' /tmp/now)
check bpf-host/reads-the-records-after-a-loader-restart until_ok 10 says_source bpf
systemctl stop cgacct-bpf.service
detail=$(scrape /tmp/now && grep '^cgacct_collection_source' /tmp/now)
check bpf-host/files-while-the-loader-is-stopped until_ok 10 says_source files
curl -sf --max-time 30 -o /tmp/landing.html http://127.0.0.1:19753/
detail=$(grep -o '<p>Values from[^<]*' /tmp/landing.html)
check bpf-host/landing-page-says-why contains "$detail" "Values from files: the BPF pins folder holds no BPF reader"
systemctl start cgacct-bpf.service
detail=$(scrape /tmp/now && grep '^cgacct_collection_source' /tmp/now)
check bpf-host/records-again-once-loaded until_ok 10 says_source bpf
detail=$(journalctl -b -q -u cgacctd.service -u cgacct-bpf.service -p err --no-pager | tail -n 3 | tr '\n' ' ')
check bpf-host/no-error-in-the-journal test -z "$detail"
