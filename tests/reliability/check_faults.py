#!/usr/bin/python3
"""Judges what tests/reliability/faults-guest.sh left in OUT (see there):
prints "pass|fail NAME DETAIL" lines and "figure" lines.

    check_faults.py OUT
"""
import os
import re
import statistics
import sys

import exposition

CGROUPFS = "/sys/fs/cgroup"
# Calls that change a file or the tree whatever their arguments; open* only
# with a flag that allows writing.
CHANGING = {"creat", "truncate", "ftruncate", "mkdir", "mkdirat", "rmdir", "unlink", "unlinkat",
            "rename", "renameat", "renameat2", "link", "linkat", "symlink", "symlinkat", "mknod",
            "mknodat", "chmod", "fchmod", "fchmodat", "chown", "fchown", "lchown", "fchownat",
            "setxattr", "lsetxattr", "fsetxattr", "removexattr", "lremovexattr", "fremovexattr",
            "write", "pwrite64", "writev", "pwritev", "pwritev2", "sendfile", "splice",
            "copy_file_range"}
OPENS = {"open", "openat", "openat2"}
WRITE_FLAGS = re.compile(r"O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND")
CALL = re.compile(r"^(?:\[pid +\d+\] |\d+ +)?([a-z0-9_]+)\((.*)$")


class Report:
    def __init__(self):
        self.failed = False

    def check(self, name, ok, detail=""):
        self.failed |= not ok
        print(("%s %s %s" % ("pass" if ok else "fail", name, detail)).rstrip())


def load(out, name):
    """(families or None, problem text) of OUT/NAME.prom."""
    try:
        with open(os.path.join(out, name + ".prom")) as f:
            text = f.read()
        lint = exposition.promtool_problems(text)
        return exposition.parse(text), ("promtool: " + lint if lint else "")
    except (OSError, exposition.Malformed) as e:
        return None, str(e)


def scrapes(out):
    """{name: (wget status, milliseconds)} from OUT/scrapes."""
    table = {}
    with open(os.path.join(out, "scrapes")) as f:
        for line in f:
            name, status, ms = line.split()
            table[name] = (int(status), int(ms))
    return table


def successes(families):
    return {l["collector"]: float(v)
            for l, v in families.get("cgacct_collector_success", {"samples": []})["samples"]}


def check_privilege(r, out):
    with open(os.path.join(out, "cgacctd.uid")) as f:
        uid = f.read().strip()
    r.check("privilege/cgacctd-runs-as-unprivileged-user", uid == "990", "uid " + uid)

    writes, reads = [], 0
    with open(os.path.join(out, "strace.log")) as f:
        for line in f:
            m = CALL.match(line)
            if not m or CGROUPFS not in line:
                continue
            call, args = m.groups()
            if call in OPENS and not WRITE_FLAGS.search(args):
                reads += 1
            elif call in CHANGING or call in OPENS:
                writes.append(line.strip()[:200])
    r.check("privilege/strace-saw-cgroupfs-reads", reads > 0, "%d opens for reading" % reads)
    r.check("privilege/never-writes-to-cgroupfs", not writes,
            "; ".join(writes[:3]) or "no call that could change cgroupfs among %d" % reads)

    mine, why = load(out, "unprivileged")
    roots, why_root = load(out, "root")
    if mine is None or roots is None:
        r.check("privilege/exports-what-root-exports", False, why or why_root)
        return
    failing = [c for c, v in successes(mine).items() if v != 1]
    r.check("privilege/every-collector-succeeds-unprivileged", not failing and not why,
            why or ("failing: " + " ".join(failing) if failing else ""))
    missing = exposition.series(roots) - exposition.series(mine)
    extra = exposition.series(mine) - exposition.series(roots)
    r.check("privilege/exports-what-root-exports", not missing and not extra,
            "%d series as root; missing %s; extra %s" % (
                len(exposition.series(roots)), sorted(missing)[:3], sorted(extra)[:3]))


def check_sigkill(r, out, table):
    with open(os.path.join(out, "kill-moment")) as f:
        moment = f.read().strip()
    r.check("faults/sigkill-hit-a-scrape-in-flight", "ESTABLISHED" in moment, moment)
    before, why_before = load(out, "before-kill")
    after, why = load(out, "after-restart")
    status = table.get("after-restart", (None, 0))[0]
    r.check("faults/first-scrape-after-restart-succeeds", status == 0 and after is not None
            and not why, why or "wget status %s" % status)
    if before is None or after is None:
        return
    missing = exposition.series(before) - exposition.series(after)
    r.check("faults/restart-serves-every-series-at-once", not missing,
            "missing %s" % sorted(missing)[:3] if missing else
            "%d series" % len(exposition.series(after)))
    failing = [c for c, v in successes(after).items() if v != 1]
    r.check("faults/restart-every-collector-succeeds", not failing, " ".join(failing))
    down, compared = exposition.decreases(before, after, same_process=False)
    r.check("faults/restart-counters-continue", not down and compared > 0,
            "; ".join(down[:3]) or "%d counters compared" % compared)
    with open(os.path.join(out, "restart.ms")) as f:
        print("figure faults/sigkill restarted and answering after %s ms" % f.read().strip())


def check_collector_fault(r, out, name, fault, back, broken, still):
    """In OUT/FAULT.prom only collector BROKEN fails and the STILL samples are
    there; in OUT/BACK.prom every collector succeeds again."""
    during, why = load(out, fault)
    after, why_after = load(out, back)
    if during is None or after is None:
        r.check("faults/%s" % name, False, why or why_after)
        return
    got = successes(during)
    failing = sorted(c for c, v in got.items() if v != 1)
    r.check("faults/%s-fails-only-%s-collector" % (name, broken), failing == [broken],
            "failing: %s" % (" ".join(failing) or "none"))
    absent = [s for s in still if exposition.value(during, s[0], **s[1]) is None]
    r.check("faults/%s-keeps-the-rest" % name, not absent and not why,
            why or ("absent: %s" % absent if absent else "%d series" % len(exposition.series(during))))
    failing = sorted(c for c, v in successes(after).items() if v != 1)
    r.check("faults/%s-recovers" % name, not failing, "failing: %s" % (" ".join(failing) or "none"))


def check_controller_disabled(r, out):
    """A controller disabled above a cgroup removes its files, which cgacctd
    may hold open: that cgroup stays exported, without those metrics."""
    held, why = load(out, "ctl-held")
    disabled, why_after = load(out, "ctl-disabled")
    if held is None or disabled is None:
        r.check("faults/controller-disabled", False, why or why_after)
        return
    usage = [exposition.value(f, "cgroup_memory_usage_bytes", cgroup="/ctl/child")
             for f in (held, disabled)]
    info = [any(l.get("cgroup") == "/ctl/child" for l, _ in f["cgroup_info"]["samples"])
            for f in (held, disabled)]
    r.check("faults/controller-disabled-cgroup-stays", all(info),
            "cgroup_info of /ctl/child before and after: %s" % info)
    r.check("faults/controller-disabled-drops-its-metrics",
            usage[0] is not None and usage[1] is None, "memory usage %s -> %s" % tuple(usage))
    vanished = exposition.value(disabled, "cgacct_cgroups_vanished")
    failing = sorted(c for c, v in successes(disabled).items() if v != 1)
    r.check("faults/controller-disabled-is-no-removal", vanished == 0 and not failing,
            "vanished %s, failing: %s" % (vanished, " ".join(failing) or "none"))


def check_pressure(r, out, table):
    base = [ms for n, (s, ms) in table.items() if n.startswith("baseline-") and s == 0]
    pressed = {n: v for n, v in table.items() if n.startswith("pressure-")}
    failed = [n for n, (s, _) in pressed.items() if s != 0]
    r.check("faults/memory-pressure-scrapes-succeed", len(pressed) == 10 and not failed,
            "failed: %s" % failed if failed else "%d scrapes" % len(pressed))
    first, _ = load(out, "pressure-1")
    last, _ = load(out, "pressure-10")
    highs = [exposition.value(f, "cgroup_memory_events_total", cgroup="/pressure", event="high")
             if f else None for f in (first, last)]
    r.check("faults/memory-pressure-group-presses-on-its-limit",
            None not in highs and highs[1] > highs[0], "memory.high events %s -> %s" % tuple(highs))
    ms = [v[1] for v in pressed.values()]
    if base and ms:
        print("figure faults/pressure scrapes %d ms median before, %d ms median and %d ms max "
              "while a group presses on memory.high" % (statistics.median(base),
                                                         statistics.median(ms), max(ms)))


def main(out):
    r = Report()
    table = scrapes(out)
    check_privilege(r, out)
    check_sigkill(r, out, table)
    memlimit_cpu = ("cgroup_cpu_usage_seconds_total", {"cgroup": "/demo/memlimit"})
    check_collector_fault(r, out, "unreadable-file", "unreadable", "readable-again", "memory",
                          [memlimit_cpu,
                           ("cgroup_memory_usage_bytes", {"cgroup": "/demo/spin"})])
    check_collector_fault(r, out, "unmounted-controller", "unmounted", "remounted", "cpuacct",
                          [("cgroup_memory_usage_bytes", {"cgroup": "/demo/memlimit"}),
                           memlimit_cpu])
    check_controller_disabled(r, out)
    check_pressure(r, out, table)
    return 1 if r.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
