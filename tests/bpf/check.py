#!/usr/bin/python3
"""Judges what tests/bpf/guest.sh left in OUT: the BPF bulk reader's records
against the cgroup files read between two dumps. Counters lie between the
two dumps' values, as the files were read between them; gauges too, as
nothing in the tree runs then but its sleepers. Prints one "pass NAME" or
"fail NAME DETAIL" line per check.

    check.py OUT
"""
import os
import sys

PAGE = 4096
PAGE_COUNTER_MAX = (2**63 - 1) // PAGE  # memory.max "max"
PIDS_MAX = 4194304 + 1                 # pids.max "max": PID_MAX_LIMIT + 1
UNLIMITED = 2**64 - 1                  # cpu.max "max": RUNTIME_INF


def dump(path):
    """{id: {field: value}} of a cgacct-bpf dump."""
    records = {}
    for line in open(path):
        fields = dict(f.split("=", 1) for f in line.split())
        records[int(fields["id"])] = fields
    return records


def files(path):
    """[(ino, relative path, {file: text})] of the guest's file capture."""
    groups, current, name = [], None, None
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("D "):
            ino, rel = line[2:].split(" ", 1) if " " in line[2:] else (line[2:], "")
            current = (int(ino), rel, {})
            groups.append(current)
        elif line.startswith("F "):
            name = line[2:]
            current[2][name] = ""
        else:
            current[2][name] += line + "\n"
    return groups


def exposition(path):
    """{(name, labels): value} of cgacctd's text exposition."""
    series = {}
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        key, value = line.rsplit(" ", 1)
        name, _, labels = key.partition("{")
        series[(name, labels.rstrip("}"))] = float(value)
    return series


# Only where the records have more than the files: the wait the BPF
# programs keep, on a kernel whose cpu.stat has no wait_usec.
BPF_ONLY = ("cgroup_cpu_wait_seconds_total", "cgroup_cpu_runnable_seconds_total")


def compare_once(out, check):
    """cgacctd through the records (twice) and from files alone (between)."""
    runs = {}
    for run in ("bpf1", "files", "bpf2"):
        path = os.path.join(out, "once-" + run)
        ok = os.path.exists(path)
        runs[run] = exposition(path) if ok else {}
    source = {run: [labels for (name, labels), v in runs[run].items()
                    if name == "cgacct_collection_source" and v == 1] for run in runs}
    check("cgacctd/says-it-reads-the-records",
          source["bpf1"] == ['source="bpf"'] == source["bpf2"]
          and source["files"] == ['source="files"'],
          "cgacct_collection_source %s" % source)

    # the quiet cgroups of the test (/t...): the root's and the shell's change as they are read
    def quiet(series):
        return {k: v for k, v in series.items() if 'cgroup="/t' in k[1]}

    b1, f, b2 = (quiet(runs[r]) for r in ("bpf1", "files", "bpf2"))
    extra = {k for k in set(b1) - set(f)}
    check("cgacctd/same-series",
          set(b1) == set(b2) and set(f) <= set(b1)
          and all(name in BPF_ONLY for name, _ in extra) and len(f) > 100,
          "only through the records: %s; only from files: %s"
          % (sorted(k for k in extra if k[0] not in BPF_ONLY)[:5], sorted(set(f) - set(b1))[:5]))
    check("cgacctd/records-have-the-wait",
          {name for name, _ in extra} == set(BPF_ONLY),
          "series only through the records: %s" % sorted({name for name, _ in extra}))
    off = ["%s{%s} files %s, records %s..%s" % (k[0], k[1], f[k], b1[k], b2[k])
           for k in sorted(f) if k in b1 and k in b2
           and not min(b1[k], b2[k]) <= f[k] <= max(b1[k], b2[k])]
    check("cgacctd/same-values", not off, "; ".join(off[:5]))
    reloaded = os.path.join(out, "once-reloaded")
    check("cgacctd/reads-through-a-second-load",
          os.path.exists(reloaded)
          and 'cgacct_collection_source{source="bpf"} 1\n' in open(reloaded).read(),
          "after a second load, the bound folder gave no records")


def keyed(text):
    return {k: int(v) for k, v in (line.split() for line in text.splitlines())}


def main(out):
    results = []

    def check(name, ok, detail=""):
        results.append(("pass " + name) if ok else ("fail %s %s" % (name, detail)))

    status = {}
    for line in open(os.path.join(out, "status")):
        key, value = line.split(None, 1)
        status[key] = value.strip()
    check("loads", status.get("load") == "0", "cgacct-bpf load: %s" % status.get("load"))
    check("others-may-not-read", status.get("nobody") not in (None, "0"), "nobody read the pins")
    check("its-group-reads", status.get("dump1") == "0" and status.get("dump2") == "0",
          "cgacct could not read the pins")
    if results[-1].startswith("fail") or results[0].startswith("fail"):
        return results
    d1, d2 = dump(os.path.join(out, "dump1")), dump(os.path.join(out, "dump2"))
    groups = files(os.path.join(out, "files"))
    by_path = {rel: ino for ino, rel, _ in groups}
    check("one-record-per-cgroup", set(d1) == set(by_path.values()) == set(d2),
          "records %s, cgroups %s" % (sorted(d1), sorted(by_path.values())))

    def between(name, ino, key, value, scale=1):
        lo = min(int(d1[ino][key]), int(d2[ino][key])) // scale
        hi = max(int(d1[ino][key]), int(d2[ino][key])) // scale
        check(name, lo <= value <= hi, "%s %d not within the dumps' %d..%d" % (key, value, lo, hi))

    for ino, rel, f in groups:
        if ino not in d1 or ino not in d2:
            continue
        where = rel or "/"
        r = d1[ino]
        parent = by_path.get(os.path.dirname(rel).rstrip("/")) if rel else 0
        check("%s/identity" % where,
              r["name"] == os.path.basename(rel) and int(r["parent"]) == parent
              and int(r["level"]) == (rel.count("/") if rel else 0),
              "record %s" % {k: r[k] for k in ("name", "parent", "level")})
        if not rel:
            continue  # the root's files are the whole system's
        cpu = keyed(f["cpu.stat"])
        between("%s/cpu-usage" % where, ino, "cpu_usage_ns", cpu["usage_usec"], 1000)
        between("%s/cpu-periods" % where, ino, "cpu_periods", cpu["nr_periods"])
        between("%s/cpu-throttled-periods" % where, ino, "cpu_throttled_periods",
                cpu["nr_throttled"])
        between("%s/cpu-throttled-time" % where, ino, "cpu_throttled_ns", cpu["throttled_usec"],
                1000)
        between("%s/cpu-bursts" % where, ino, "cpu_bursts", cpu["nr_bursts"])
        between("%s/cpu-burst-time" % where, ino, "cpu_burst_ns", cpu["burst_usec"], 1000)
        quota, period = f["cpu.max"].split()
        check("%s/cpu-max" % where,
              int(r["cpu_quota_ns"]) == (UNLIMITED if quota == "max" else int(quota) * 1000)
              and int(r["cpu_period_ns"]) == int(period) * 1000,
              "cpu.max %s %s, record %s %s" % (quota, period, r["cpu_quota_ns"],
                                              r["cpu_period_ns"]))
        check("%s/cpu-max-burst" % where,
              int(r["cpu_burst_quota_ns"]) == int(f["cpu.max.burst"]) * 1000,
              "cpu.max.burst %s, record %s" % (f["cpu.max.burst"].strip(),
                                              r["cpu_burst_quota_ns"]))
        # cpu.stat splits usage by the ticks' user:system ratio (cputime_adjust())
        utime, stime, usage = (int(r[k]) for k in ("cpu_user_ns", "cpu_system_ns", "cpu_usage_ns"))
        system = usage * stime // (utime + stime) if stime and utime else (usage if stime else 0)
        check("%s/cpu-system-is-the-ticks-share" % where,
              abs(cpu["system_usec"] * 1000 - system) <= max(system // 100, 10**6),
              "system_usec %d, ticks %d:%d of %d ns" % (cpu["system_usec"], utime, stime, usage))
        between("%s/memory-current" % where, ino, "memory_pages",
                int(f["memory.current"]) // PAGE)
        between("%s/memory-peak" % where, ino, "memory_peak_pages", int(f["memory.peak"]) // PAGE)
        limit = f["memory.max"].strip()
        check("%s/memory-max" % where,
              int(r["memory_max_pages"]) == (PAGE_COUNTER_MAX if limit == "max"
                                             else int(limit) // PAGE),
              "memory.max %s, record %s pages" % (limit, r["memory_max_pages"]))
        events = keyed(f["memory.events.local"])
        for i, key in enumerate(("low", "high", "max", "oom", "oom_kill", "oom_group_kill")):
            between("%s/memory-events-%s" % (where, key), ino, "memory_events_" + key, events[key])
        between("%s/swap-current" % where, ino, "swap_pages",
                int(f["memory.swap.current"]) // PAGE)
        limit = f["memory.swap.max"].strip()
        check("%s/swap-max" % where,
              int(r["swap_max_pages"]) == (PAGE_COUNTER_MAX if limit == "max"
                                           else int(limit) // PAGE),
              "memory.swap.max %s, record %s pages" % (limit, r["swap_max_pages"]))
        events = keyed(f["memory.swap.events"])
        for key in ("high", "max", "fail"):
            between("%s/swap-events-%s" % (where, key), ino, "swap_events_" + key, events[key])
        # the files aggregate the per-CPU times as they are read: the later dump has them
        for res in ("cpu", "memory", "io"):
            totals = {line.split()[0]: int(line.rsplit("total=", 1)[1])
                      for line in f[res + ".pressure"].splitlines()}
            for kind in ("some", "full"):
                between("%s/pressure-%s-%s" % (where, res, kind), ino,
                        "pressure_%s_%s_ns" % (res, kind), totals[kind], 1000)
        between("%s/pids-current" % where, ino, "pids_current", int(f["pids.current"]))
        limit = f["pids.max"].strip()
        check("%s/pids-max" % where,
              int(r["pids_max"]) == (PIDS_MAX if limit == "max" else int(limit)),
              "pids.max %s, record %s" % (limit, r["pids_max"]))

    # What the workloads did shows: a check that a reader of zeros would fail.
    busy, throttled = d1[by_path["/t/busy"]], d1[by_path["/t/throttled"]]
    mem, waited = d1[by_path["/t/mem"]], d2[by_path["/t/wait"]]
    hugetlb_limits = sorted(int(v) for k, v in mem.items() if k.startswith("hugetlb_max_pages_"))
    written = sorted(int(line.split()[2]) // PAGE for line in open(os.path.join(out, "status"))
                     if line.startswith("hugetlb-limit "))
    check("work-shows-beyond-cpu", int(mem["swap_max_pages"]) == 32 * 2**20 // PAGE
          and int(waited["pressure_cpu_some_ns"]) > 10**8
          and written and set(written) <= set(hugetlb_limits),
          "t/mem swap max %s pages, hugetlb limits %s (written %s); t/wait cpu some %s ns"
          % (mem["swap_max_pages"], hugetlb_limits, written, waited["pressure_cpu_some_ns"]))
    check("work-shows", int(busy["cpu_usage_ns"]) > 10**8
          and int(throttled["cpu_throttled_periods"]) > 0
          and int(d1[by_path["/t/mem"]]["memory_pages"]) >= 8 * 2**20 // PAGE
          and int(d1[by_path["/t/limited/deep"]]["pids_current"]) == 3
          and int(d1[by_path["/t/limited"]]["pids_max"]) == 7
          and int(throttled["cpu_quota_ns"]) == 20 * 10**6
          and int(throttled["cpu_burst_quota_ns"]) == 10**7,
          "busy %s ns, throttled %s periods" % (busy["cpu_usage_ns"],
                                                throttled["cpu_throttled_periods"]))
    # Waits: the two loops of t/wait, stopped, waited what their schedstat says,
    # within 2% (their waits before they moved in are the root's); a removed
    # cgroup's wait goes to its parent, whole.
    wait = int(d2[by_path["/t/wait"]]["wait_ns"])
    tasks = sum(int(v) for v in status["task-waits"].split())
    check("wait-is-its-tasks-run-delay", abs(wait - tasks) <= tasks // 50,
          "t/wait %d ns, its tasks' run_delay %d ns: more than 2%% apart" % (wait, tasks))
    check("wait-shows", wait > 10**8 and int(d2[by_path["/t/gone"]]["wait_ns"]) > 10**7,
          "t/wait %d ns, t/gone %s ns" % (wait, d2[by_path["/t/gone"]]["wait_ns"]))
    check("wait-only-below-the-root", all(("wait_ns" in r) == (int(r["level"]) > 0)
                                          for r in d2.values()))
    d3 = dump(os.path.join(out, "dump3"))
    removed = [int(i) for i in status["removed"].split()]
    check("removed-cgroups-go", not set(removed) & set(d3) and set(d3) == set(d1) - set(removed),
          "after rmdir: %s" % sorted(d3))
    t = by_path["/t"]
    check("removed-wait-goes-to-the-parent",
          int(d3[t]["wait_ns"]) == int(d2[t]["wait_ns"]) + sum(int(d2[i]["wait_ns"])
                                                                for i in removed),
          "t %s -> %s, removed %s" % (d2[t]["wait_ns"], d3[t]["wait_ns"],
                                      [d2[i]["wait_ns"] for i in removed]))
    compare_once(out, check)
    check("unload-drops-the-pins", status.get("unload") == "0" and "pins-left" not in status)
    return results


if __name__ == "__main__":
    for line in main(sys.argv[1]):
        print(line)
