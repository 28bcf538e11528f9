"""Checks of `vm/up --image debian` for tests/e2e/check.py: a Debian 13
host with systemd as PID 1, cgacct installed from its .deb, the demo
workloads as systemd units in demo.slice (vm/lib/demo-debian.sh).

  - the tree exported is a systemd host's: init.scope, the packaged
    cgacctd.service under system.slice, a user manager under user.slice,
    and each demo unit;
  - the limits systemd set (MemoryMax=, CPUQuota=, TasksMax=,
    IOWriteBandwidthMax=) are the ones exported;
  - CgroupMemoryLimitHit and CgroupCPUThrottlingHigh fire for the limited
    units and reach the webhook receiver; once the units are stopped, a
    "resolved" notification follows for each.
"""
import notifications
from check import Run, report, wait

MIB = 1 << 20
UNITS = {
    "memlimit": "/demo.slice/demo-memlimit.service",
    "throttled": "/demo.slice/demo-throttled.service",
}
MUST_FIRE = {"CgroupMemoryLimitHit": UNITS["memlimit"], "CgroupCPUThrottlingHigh": UNITS["throttled"]}
TREE = ["/init.scope", "/system.slice/cgacctd.service", "/user.slice/user-1000.slice/user@1000.service",
        "/demo.slice", "/demo.slice/demo-spin.service", "/demo.slice/demo-disk.service",
        "/demo.slice/demo-idle.scope"] + list(UNITS.values())
# (what, PromQL giving {cgroup: value}, cgroup, want): the properties
# vm/lib/demo-debian.sh gives the units, as cgacctd exports them.
LIMITS = [
    ("MemoryMax=32M", "cgroup_memory_limit_bytes{%s}", UNITS["memlimit"], 32 * MIB),
    ("CPUQuota=20%", "cgroup_cpu_quota_seconds{%s} / cgroup_cpu_period_seconds{%s}", UNITS["throttled"], 0.2),
    ("TasksMax=8", "cgroup_pids_limit{%s}", "/demo.slice/demo-idle.scope", 8),
    ("TasksMax=64", "cgroup_pids_limit{%s}", "/demo.slice", 64),
    # systemd's bandwidth suffixes are powers of 1000
    ("IOWriteBandwidthMax=/dev/vdb 1G", 'cgroup_blkio_write_limit_bytes_per_second{%s,device="vdb"}',
     "/demo.slice/demo-disk.service", 10**9),
]


def check(base, state, art, interval):
    run = Run("debian", base, state, art, interval)
    if not run.target(set(TREE), "systemd-tree"):
        return
    for what, expr, cgroup, want in LIMITS:
        got = run.prom.by(expr.replace("%s", run.sel)).get(cgroup)
        ok = got is not None and abs(got - want) <= 1e-9 * want
        report("pass" if ok else "fail", run.n(f"limits/{what}"), f"{cgroup}: {got}, want {want}")
    usage = run.prom.by(f'cgroup_cpu_usage_seconds_total{{{run.sel},cgroup="/system.slice/cgacctd.service"}}')
    report("pass" if usage else "fail", run.n("tree/cgacctd-in-its-unit"),
           f"cgacctd.service used {usage} CPU seconds")

    def firing():
        alerts = run.prom.api("/api/v1/alerts")["alerts"]
        got = {(a["labels"]["alertname"], a["labels"].get("cgroup")) for a in alerts if a["state"] == "firing"}
        return set(MUST_FIRE.items()) <= got or None
    fired, waited = wait("alerts firing", 180, firing, 2)
    report("pass" if fired else "fail", run.n("alerts/fire-for-the-limited-units"),
           f"{sorted(MUST_FIRE.items())} firing after {waited:.0f} s" if fired else "not within 180 s")
    notifications.check_firing(run, MUST_FIRE)
    notifications.check_resolved(run, MUST_FIRE)
