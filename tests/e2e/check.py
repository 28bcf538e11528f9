#!/usr/bin/python3
"""Checks behind tests/e2e/run, against a live `vm/up`: its Prometheus (HTTP
API on 127.0.0.1), the guests' cgacctd and the demo workloads' state.  Prints
one line per check:

    pass|fail|skip<TAB>NAME<TAB>DETAIL

  check.py single LAYOUT PROM_URL STATE ART INTERVAL
      one guest of LAYOUT: target, CPU, load, throttling, memory limit
      failures, disk writes, alerts and their notifications, every Grafana
      and console query, and the pages rendered by headless Chromium (PNGs
      and DOMs kept in ART)
  check.py debian PROM_URL STATE ART INTERVAL
      `vm/up --image debian`: the systemd host's tree and the limits
      systemd set exported, the alerts' notifications fire and resolve
      (tests/e2e/debian_host.py)
  check.py multi LAYOUT PROM_URL STATE ART GUESTS
      GUESTS targets up in the one Prometheus, with distinct instances; a
      silence on guest-2 holds back its notification, not guest-1's

STATE is vm/up's state folder; its file `guests` has "NAME PORT DEMO_PORT".
Standard library only (plus the query extraction of tests/dashboards/check.py,
which needs python3-yaml).
"""
import glob
import html
import importlib.util
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
MIB = 1024 * 1024
DISK_ROUND = 64 * MIB  # demo-tree.sh's CGACCT_DEMO_DISK_MIB: one write round
DEMO = ["spin", "memlimit", "disk", "throttled", "hugetlb", "hugetlb_over", "idle"]

# Loopback only: never through a proxy from the environment.
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))

# Queries that may be empty, per layout, by the metric (or recording rule)
# they use, and why.  The rule: a dashboard or console query must return data
# for some cgroup unless its metric is listed here with a fact of the layout
# or of the demo that explains it; and a listed metric must really be absent,
# or the entry is stale and fails.
_V1_ONLY = "a cgroup v1 file; v2 has no such knob"
_V2_ONLY = "a cgroup v2 file; no v1 equivalent"
_PSI = "pressure (PSI) files exist only on cgroup v2"
_DEMO_UNLIMITED = "no demo group sets it, and unlimited limits are absent"
_SERIES_V2_ONLY = "our kernel series adds it on cgroup v2 only"
ALLOWED_EMPTY = {
    "v1": {
        "cgroup_pressure_cpu_waiting_seconds_total": _PSI,
        "cgroup_pressure_cpu_stalled_seconds_total": _PSI,
        "cgroup_pressure_memory_waiting_seconds_total": _PSI,
        "cgroup_pressure_memory_stalled_seconds_total": _PSI,
        "cgroup_pressure_io_waiting_seconds_total": _PSI,
        "cgroup_pressure_io_stalled_seconds_total": _PSI,
        "cgroup_memory_high_bytes": _V2_ONLY + " (memory.high)",
        "cgroup_memory_low_bytes": _V2_ONLY + " (memory.low)",
        "cgroup_memory_min_bytes": _V2_ONLY + " (memory.min)",
        "cgroup_memory_swap_limit_bytes": "memory.memsw.limit_in_bytes: " + _DEMO_UNLIMITED,
        "cgroup_memory_soft_limit_bytes": "memory.soft_limit_in_bytes: " + _DEMO_UNLIMITED,
        "cgroup_cpu_runnable_seconds_total": _SERIES_V2_ONLY + " (cpu.stat wait_usec)",
        "cgroup_cpu_wait_seconds_total": _SERIES_V2_ONLY + " (cpu.stat wait_usec)",
        "cgroup_cpu_load_average": _SERIES_V2_ONLY + " (from cpu.stat wait_usec)",
    },
    "v2": {
        "cgroup_cpu_load_ratio": "cpuacct.load is in the cpuacct controller, which exists only on v1 "
                                 "(the hybrid layout has it)",
        "cgroup_memory_soft_limit_bytes": _V1_ONLY + " (memory.soft_limit_in_bytes)",
        "cgroup_memory_swap_limit_bytes": "memory.swap.max: " + _DEMO_UNLIMITED,
        "cgroup_memory_high_bytes": "memory.high: " + _DEMO_UNLIMITED,
    },
}
ALLOWED_EMPTY["hybrid"] = {k: v for k, v in ALLOWED_EMPTY["v2"].items() if k != "cgroup_cpu_load_ratio"}

# Alerts that must fire, for exactly these groups, and those that may.
MUST_FIRE = {"CgroupMemoryLimitHit": "/demo/memlimit", "CgroupCPUThrottlingHigh": "/demo/throttled"}
# hugetlb_over is refused a huge page once at its start: the alert (no `for:`)
# is right while that failure is in its 2m window.
MAY_BE_ACTIVE = {"CgroupHugetlbLimitHit": {"/demo/hugetlb_over"}}


def report(status, name, detail=""):
    print(f"{status}\t{name}\t{detail}".replace("\n", " "), flush=True)


def note(text):
    print(f"# {text}", flush=True)


def load_dashboards_check():
    spec = importlib.util.spec_from_file_location("dashcheck", os.path.join(TOP, "tests", "dashboards", "check.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# ---------------------------------------------------------------- HTTP

def get(url, timeout=15, data=None, headers=None):
    try:
        with OPENER.open(urllib.request.Request(url, data=data, headers=headers or {}), timeout=timeout) as r:
            return r.status, r.read().decode(errors="replace")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(errors="replace")
    except (urllib.error.URLError, OSError) as e:
        return 0, str(e)


class Prom:
    def __init__(self, base):
        self.base = base.rstrip("/")

    def query(self, expr, at=None):
        """The result list, or raise RuntimeError with Prometheus's error."""
        params = {"query": expr}
        if at is not None:
            params["time"] = f"{at:.3f}"
        status, body = get(f"{self.base}/api/v1/query", data=urllib.parse.urlencode(params).encode())
        try:
            doc = json.loads(body)
        except ValueError:
            raise RuntimeError(f"HTTP {status}: {body[:200]}")
        if doc.get("status") != "success":
            raise RuntimeError(f"HTTP {status}: {doc.get('errorType')}: {doc.get('error')}")
        data = doc["data"]
        if data["resultType"] in ("scalar", "string"):
            return [{"metric": {}, "value": data["result"]}]
        return data["result"]

    def by(self, expr, label="cgroup"):
        """{label value: float} of an instant vector."""
        return {r["metric"].get(label, ""): float(r["value"][1]) for r in self.query(expr)}

    def api(self, path):
        status, body = get(f"{self.base}{path}")
        if status != 200:
            raise RuntimeError(f"{path}: HTTP {status}: {body[:200]}")
        return json.loads(body)["data"]


def wait(what, timeout, probe, interval=1.0):
    """Call probe() until it returns a true value or timeout seconds pass;
    returns (value, seconds waited).  Errors count as not yet."""
    start = time.time()
    last = None
    while True:
        try:
            last = probe()
        except RuntimeError as e:
            last = None
            note(f"{what}: {e}")
        if last or time.time() - start > timeout:
            return last, time.time() - start
        time.sleep(interval)


def fmt(d, scale=1.0, digits=3):
    return ", ".join(f"{k or '-'}={v / scale:.{digits}g}" for k, v in sorted(d.items()))


def guests(state):
    rows = []
    for line in open(os.path.join(state, "guests")):
        name, port, demo = line.split()
        rows.append((name, int(port), int(demo)))
    return rows


# ---------------------------------------------------------------- the checks

class Run:
    def __init__(self, layout, base, state, art, interval):
        self.layout, self.state, self.art = layout, state, art
        self.interval = interval
        self.prom = Prom(base)
        self.base = base.rstrip("/")
        name, port, demo = guests(state)[0]
        self.instance = f"127.0.0.1:{port}"
        self.guest_url = f"http://127.0.0.1:{port}"
        self.demo_url = f"http://127.0.0.1:{demo}"
        self.sel = f'instance="{self.instance}"'

    def n(self, name):
        return f"{self.layout}/{name}"

    def target(self, want=None, what="demo-groups"):
        """The target is up with the cgroups `want` (default: the demo
        tree) and the rules are healthy."""
        up, waited = wait("target up", 90, lambda: self.prom.by(f'up{{job="cgacct",{self.sel}}} == 1', "instance"))
        report("pass" if up else "fail", self.n("target/up"),
               f"{self.instance} up after {waited:.0f} s" if up else f"{self.instance} not up within 90 s")
        if not up:
            return False
        want = want or {"/", "/demo"} | {f"/demo/{g}" for g in DEMO}
        seen, _ = wait(what, 60, lambda: want <= set(self.prom.by(f"cgroup_info{{{self.sel}}}")) and
                       set(self.prom.by(f"cgroup_info{{{self.sel}}}")))
        missing = sorted(want - set(seen or {}))
        report("fail" if missing else "pass", self.n(f"target/{what}"),
               f"missing {missing}" if missing else f"{len(seen)} cgroups, {', '.join(sorted(want))} among them")
        rules = self.prom.api("/api/v1/rules")["groups"]
        bad = [f"{r['name']}: {r.get('lastError')}" for g in rules for r in g["rules"] if r.get("health") not in ("ok", "unknown")]
        report("fail" if bad or not rules else "pass", self.n("rules/healthy"),
               "; ".join(bad) if bad else f"{sum(len(g['rules']) for g in rules)} rules loaded" if rules else "no rules loaded")
        return True

    def samples(self, seconds):
        """Wait until Prometheus holds `seconds` of the spinner's samples."""
        need = max(2, int(seconds / self.interval * 0.8))
        expr = f'count_over_time(cgroup_cpu_usage_seconds_total{{{self.sel},cgroup="/demo/spin"}}[{seconds}s]) >= {need}'
        ok, waited = wait(f"{seconds} s of samples", seconds + 60, lambda: self.prom.query(expr))
        if not ok:
            note(f"not {seconds} s of samples after {waited:.0f} s")
        return bool(ok)

    def cpu(self):
        # The spinner is one busy loop on a CPU of its own (demo-tree.sh): one CPU.
        self.samples(25)
        rate = f"rate(cgroup_cpu_usage_seconds_total{{{self.sel}}}[20s])"

        def spin_ok():
            v = self.prom.by(rate).get("/demo/spin")
            return v is not None and 0.8 <= v <= 1.2 and v
        # A short settling allowance: the rate window may still hold boot time.
        v, _ = wait("spinner rate", 30, spin_ok, 2)
        rates = self.prom.by(rate)
        spin = v or rates.get("/demo/spin")
        report("pass" if v else "fail", self.n("cpu/spin-rate"),
               f"rate(cgroup_cpu_usage_seconds_total[20s]) of /demo/spin = {spin} CPUs, want 1.0 ± 0.2; all: {fmt(rates)}")

        load_expr = f"cgroup_cpu_load_ratio{{{self.sel}}}"
        if "cgroup_cpu_load_ratio" in ALLOWED_EMPTY[self.layout]:
            got = self.prom.by(load_expr)
            report("fail" if got else "skip", self.n("cpu/load-agrees"),
                   f"unexpected cgroup_cpu_load_ratio on {self.layout}: {fmt(got)}" if got else
                   ALLOWED_EMPTY[self.layout]["cgroup_cpu_load_ratio"])
            return

        # cpuacct.load is the last complete 10 s interval, which lies inside
        # the last 20 s: for steady groups it matches the 20 s rate.
        def agree():
            t = time.time()
            load = {k: v for k, v in self.prom.by(load_expr).items()}
            now = {k: v for k, v in self.prom.by(rate).items()}
            off = {k: load[k] - now[k] for k in load if k in now}
            ok = load.get("/demo/spin") is not None and 0.8 <= load["/demo/spin"] <= 1.2 and \
                abs(off.get("/demo/spin", 9)) <= 0.2
            return (ok, load, off, t) if ok else None
        got, _ = wait("load agrees", 30, agree, 2)
        if got:
            _, load, off, _ = got
        else:
            load = self.prom.by(load_expr)
            rates = self.prom.by(rate)
            off = {k: load[k] - rates[k] for k in load if k in rates}
        report("pass" if got else "fail", self.n("cpu/load-agrees"),
               f"cgroup_cpu_load_ratio of /demo/spin = {load.get('/demo/spin')}, minus the 20 s rate = "
               f"{off.get('/demo/spin', float('nan')):+.3f}, want 1.0 ± 0.2 and within ± 0.2")
        worst = max(off, key=lambda k: abs(off[k])) if off else None
        report("pass" if worst and abs(off[worst]) <= 0.2 else "fail", self.n("cpu/load-agrees-every-group"),
               f"largest |load - 20 s rate| is {off[worst]:+.3f} for {worst} over {len(off)} groups" if worst else "no load series")

    # Our kernel series' run-queue wait (cpu.stat wait_usec, from which
    # cgacctd derives runnable time as usage + wait, and from that the load
    # averages): cgroup v2 only, not on the root cgroup.
    RUNNABLE_FAMILIES = ("cgroup_cpu_runnable_seconds_total", "cgroup_cpu_wait_seconds_total",
                         "cgroup_cpu_load_average")

    def runnable(self):
        """The spinner and the throttled group are one busy loop each, always
        runnable, the idle group has none: runnable rates 1, 1 and 0; the
        throttled loop waits for the share of a CPU its quota takes away
        (1 - quota/period), the idle group not at all; and the 1-minute load
        averages, which cgacctd folds from runnable time at each collection,
        are the spinner's and the throttled loop's 1 and the idle group's 0."""
        if self.layout == "v1":
            present = {f: n for f in self.RUNNABLE_FAMILIES
                       for n in [len(self.prom.query(f"{f}{{{self.sel}}}"))] if n}
            report("fail" if present else "skip", self.n("cpu/runnable"),
                   f"unexpected on v1: {present}" if present else
                   "v1 has no run-queue wait: the kernel series charges the wait to the default "
                   "hierarchy's cgroup only")
            return
        on_root = {f: n for f in self.RUNNABLE_FAMILIES
                   for n in [len(self.prom.query(f'{f}{{{self.sel},cgroup="/"}}'))] if n}
        report("fail" if on_root else "pass", self.n("cpu/runnable-not-on-root"),
               f"series for the root cgroup: {on_root}" if on_root else
               f"no {', '.join(self.RUNNABLE_FAMILIES)} for / (the kernel has no wait_usec "
               "there)")

        rate = f"rate(cgroup_cpu_runnable_seconds_total{{{self.sel}}}[20s])"
        wait_rate = f"rate(cgroup_cpu_wait_seconds_total{{{self.sel}}}[20s])"
        share = (f"cgroup_cpu_quota_seconds{{{self.sel}}}"
                 f" / cgroup_cpu_period_seconds{{{self.sel}}}")
        lost = 1 - self.prom.by(share).get("/demo/throttled", float("nan"))

        def runnable_ok(r):
            return 0.9 <= r.get("/demo/spin", 0) <= 1.1 and r.get("/demo/idle") == 0 and \
                0.9 <= r.get("/demo/throttled", 0) <= 1.1

        def wait_ok(w):
            return w.get("/demo/idle") == 0 and abs(w.get("/demo/throttled", 9) - lost) <= 0.1

        def both():
            r, w = self.prom.by(rate), self.prom.by(wait_rate)
            return (r, w) if runnable_ok(r) and wait_ok(w) else None
        got, _ = wait("runnable and wait rates", 30, both, 2)
        r, w = got or (self.prom.by(rate), self.prom.by(wait_rate))
        report("pass" if runnable_ok(r) else "fail", self.n("cpu/runnable-rate"),
               f"{rate}: /demo/spin {r.get('/demo/spin')}, /demo/throttled {r.get('/demo/throttled')} "
               f"(want 1 ± 0.1), /demo/idle {r.get('/demo/idle')} (want 0)")
        report("pass" if wait_ok(w) else "fail", self.n("cpu/wait-rate"),
               f"{wait_rate}: /demo/throttled {w.get('/demo/throttled')} (want its lost share "
               f"1 - quota/period = {lost:.3g} ± 0.1), /demo/idle {w.get('/demo/idle')} (want 0); "
               f"/demo/spin {w.get('/demo/spin')}")

        expr = f'cgroup_cpu_load_average{{{self.sel},window="1m"}}'

        def load_ok(load):
            return all(0.9 <= load.get(g, 0) <= 1.1 for g in ("/demo/spin", "/demo/throttled")) \
                and load.get("/demo/idle") == 0

        # Both loops are runnable throughout, so their averages tend to 1.  They
        # start from cgacctd's first interval, which may have begun before a
        # loop did (a slow boot): then the 1-minute average takes a minute or
        # two to come within 0.1 of 1, as /proc/loadavg's would.
        def converged():
            load = self.prom.by(expr)
            return load if load_ok(load) else None
        got, waited = wait("1m load averages", 120, converged, 5)
        load = got or self.prom.by(expr)
        report("pass" if load_ok(load) else "fail", self.n("cpu/load-average-1m"),
               f"{expr}: /demo/spin {load.get('/demo/spin')}, /demo/throttled "
               f"{load.get('/demo/throttled')} (want 1 ± 0.1), /demo/idle {load.get('/demo/idle')} "
               f"(want 0); after {waited:.0f} s")

    def throttled(self):
        expr = (f"rate(cgroup_cpu_throttled_periods_total{{{self.sel}}}[30s])"
                f" / rate(cgroup_cpu_periods_total{{{self.sel}}}[30s])")
        self.samples(30)
        ratio = self.prom.by(expr)
        v = ratio.get("/demo/throttled")
        report("pass" if v is not None and v > 0.5 else "fail", self.n("cpu/throttled-ratio"),
               f"throttled periods / periods of /demo/throttled over 30 s = {v}, want > 0.5")

    def memory(self):
        expr = f"cgroup_memory_limit_failures_total{{{self.sel}}}"
        first = self.prom.by(expr)
        t0 = time.time()
        # Two more scrapes at least.
        time.sleep(3 * self.interval + 1)
        second = self.prom.by(expr)
        inc = self.prom.by(f"increase({expr}[30s])")
        grew = {k: second[k] - first[k] for k in second if k in first}
        others = {k: v for k, v in inc.items() if k != "/demo/memlimit" and v != 0}
        m = "/demo/memlimit"
        ok = grew.get(m, 0) > 0 and inc.get(m, 0) > 0
        report("pass" if ok else "fail", self.n("memory/limit-failures-increase"),
               f"{m}: {first.get(m)} -> {second.get(m)} in {time.time() - t0:.0f} s, "
               f"increase over 30 s {inc.get(m)}")
        report("fail" if others or len(inc) < 2 else "pass", self.n("memory/limit-failures-only-memlimit"),
               f"also increasing: {fmt(others)}" if others else
               f"{len(inc) - 1} other groups with a limit-failure series, all flat")

    def disk(self):
        def written():
            status, body = get(f"{self.demo_url}/disk.written", timeout=5)
            if status != 200:
                raise RuntimeError(f"demo state: HTTP {status}")
            rounds = [int(x) for x in body.split()]
            return sum(rounds), len(rounds)
        # A round of 64 MiB finishes within seconds; wait for the first one.
        got, _ = wait("first write round", 60, lambda: written()[0] > 0 and written())
        if not got:
            report("fail", self.n("disk/written-bytes"), f"no write round finished in 60 s ({self.demo_url}/disk.written)")
            return
        w1, rounds = got
        t1 = time.time()
        expr = f'cgroup_blkio_write_bytes_total{{{self.sel},cgroup="/demo/disk",device="vda"}}'

        def fresh():
            r = self.prom.query(f"timestamp({expr}) > {t1:.3f}")
            return r and self.prom.query(expr)
        res, _ = wait("a scrape after reading disk.written", 10 * self.interval + 10, fresh)
        w2, rounds2 = written()
        if not res:
            report("fail", self.n("disk/written-bytes"), f"no sample of {expr} after the workload's count")
            return
        m = float(res[0]["value"][1])
        # Below: what had completed before the sample; above: what had
        # completed after it, plus one round in flight.
        ok = w1 <= m <= w2 + DISK_ROUND
        report("pass" if ok else "fail", self.n("disk/written-bytes"),
               f"workload wrote {w1 / MIB:.0f} MiB ({rounds} rounds) <= exported {m / MIB:.1f} MiB "
               f"<= {w2 / MIB:.0f} MiB ({rounds2} rounds) + one 64 MiB round in flight")
        writes = self.prom.by(f"cgroup_blkio_write_bytes_total{{{self.sel}}}")
        busy = {k: v for k, v in writes.items() if k not in ("/", "/demo", "/demo/disk") and v != 0}
        quiet = sorted(k for k in writes if k not in ("/", "/demo", "/demo/disk"))
        report("fail" if busy else "pass", self.n("disk/idle-groups-no-writes"),
               f"writes from {fmt(busy, MIB)} MiB" if busy else
               f"only /demo/disk and its ancestors wrote; zero-valued series for {quiet or 'none'}, "
               f"no series for the other groups")
        for name in ["disk.written", "disk.log", "memlimit.log", "hugetlb.log", "hugetlb_over.log"]:
            status, body = get(f"{self.demo_url}/{name}", timeout=5)
            if status == 200:
                open(os.path.join(self.art, f"demo-{name}"), "w").write(body)

    def alerts(self):
        def active():
            out = {}
            for a in self.prom.api("/api/v1/alerts")["alerts"]:
                out.setdefault(a["labels"]["alertname"], {})[a["labels"].get("cgroup", "-")] = a["state"]
            return out

        def firing():
            a = active()
            return a if all(a.get(k, {}).get(g) == "firing" for k, g in MUST_FIRE.items()) else None
        # CgroupCPUThrottlingHigh has `for: 1m` after its 2m-window rate has
        # two samples, CgroupMemoryLimitHit `for: 30s`.
        got, waited = wait("alerts firing", 150, firing, 2)
        state = got or active()
        json.dump(self.prom.api("/api/v1/alerts"), open(os.path.join(self.art, "alerts.json"), "w"), indent=1)
        for name, group in MUST_FIRE.items():
            groups = state.get(name, {})
            ok = groups == {group: "firing"}
            report("pass" if ok else "fail", self.n(f"alerts/{name}"),
                   f"firing for {group} only ({waited:.0f} s)" if ok else
                   f"active: {groups or 'none'}, want {group} firing and nothing else")
        stray = {f"{k}:{g}": s for k, v in state.items() if k not in MUST_FIRE
                 for g, s in v.items() if g not in MAY_BE_ACTIVE.get(k, set())}
        allowed = {f"{k}:{g}": s for k, v in state.items() if k in MAY_BE_ACTIVE
                   for g, s in v.items() if g in MAY_BE_ACTIVE[k]}
        report("fail" if stray else "pass", self.n("alerts/no-others"),
               f"unexpected: {stray}" if stray else
               "no other alert active" + (f" but the expected {allowed}" if allowed else ""))
        return bool(got)

    # --------------------------------------------------------- queries

    def excused(self, expr):
        """The allow-list reasons of the metrics an empty query uses."""
        allowed = ALLOWED_EMPTY[self.layout]
        return {m: allowed[m] for m in re.findall(r"[a-z_:][a-z0-9_:]*", expr) if m in allowed}

    def run_queries(self, queries):
        """{shape: [status, series, excuse]}: a query's shape has its cgroup
        value blanked, so that a console row of an unlimited group counts
        with the rows of the limited ones."""
        shapes = {}
        for expr in queries:
            shape = re.sub(r'cgroup="(?:[^"\\]|\\.)*"', 'cgroup="..."', expr)
            entry = shapes.setdefault(shape, {"error": None, "series": 0})
            try:
                entry["series"] += len(self.prom.query(expr))
            except RuntimeError as e:
                entry["error"] = str(e)
        return shapes

    def judge(self, shapes, log):
        """(failures, excused notes) of run_queries' result."""
        bad, excused = [], {}
        for shape, e in shapes.items():
            log.write(f"{e['series']}\t{e['error'] or ''}\t{shape}\n")
            if e["error"]:
                bad.append(f"{shape}: {e['error']}")
            elif not e["series"]:
                why = self.excused(shape)
                if why:
                    for metric, reason in why.items():
                        excused.setdefault(reason, set()).add(metric)
                else:
                    bad.append(f"no data: {shape}")
        return bad, [f"{', '.join(sorted(m))} ({reason})" for reason, m in sorted(excused.items())]

    def grafana(self, dash):
        # Grafana's values for a data-source scrape interval of ours over the last
        # 5 minutes: $__rate_interval = max($__interval + scrape, 4 * scrape).
        scrape = self.interval
        values = {"__rate_interval": f"{4 * scrape}s", "__interval": f"{scrape}s", "__interval_ms": str(1000 * scrape),
                  "__range": "5m", "__range_s": "300", "cgroup": ".*",
                  # one instance picked: a regex, in a PromQL string
                  "instance": re.escape(self.instance).replace("\\", "\\\\")}

        log = open(os.path.join(self.art, "grafana-queries.tsv"), "w")
        for path in sorted(glob.glob(os.path.join(TOP, "dashboards", "grafana", "*.json"))):
            board = json.load(open(path))
            panels = {}
            for name, expr in dash.grafana_queries(board):
                panels.setdefault(name.rsplit("/", 1)[0] if not name.startswith("variable") else name, []).append(dash.grafana_substitute(expr, values))
            for title, exprs in panels.items():
                shapes = self.run_queries(exprs)
                bad, excused = self.judge(shapes, log)
                has_data = any(e["series"] for e in shapes.values())
                label = self.n(f"grafana/{os.path.basename(path)}/{title}")
                if bad:
                    report("fail", label, "; ".join(bad))
                elif not has_data:
                    report("skip", label, "empty on this layout: " + "; ".join(excused))
                else:
                    report("pass", label, f"{len(exprs)} queries with data" +
                           (f"; empty as allowed: {'; '.join(excused)}" if excused else ""))
        log.close()

    def consoles(self, dash):
        cgroups = sorted(self.prom.by(f"cgroup_info{{{self.sel}}}"))
        pages = [("cgacct-overview.html", {})] + \
            [("cgacct-cgroup.html", {"instance": self.instance, "cgroup": c}) for c in cgroups]
        log = open(os.path.join(self.art, "console-queries.tsv"), "w")
        per_page = {}
        for page, params in pages:
            status, body = get(f"{self.base}/consoles/{page}?{urllib.parse.urlencode(params)}")
            problems = per_page.setdefault(page, {"errors": [], "queries": []})
            if status != 200:
                problems["errors"].append(f"{params.get('cgroup', '')}: HTTP {status}: {body[:200]}")
                continue
            if "<no value>" in body or "ZgotmplZ" in body:
                problems["errors"].append(f"{params.get('cgroup', '')}: template printed <no value> or ZgotmplZ")
            problems["queries"] += dash.console_queries(body)
        for page, p in per_page.items():
            shapes = self.run_queries(p["queries"])
            bad, excused = self.judge(shapes, log)
            bad = p["errors"] + bad
            n = sum(1 for pg, _ in pages if pg == page)
            report("fail" if bad or not shapes else "pass", self.n(f"consoles/{page}"),
                   "; ".join(bad[:4]) + (f" (and {len(bad) - 4} more)" if len(bad) > 4 else "") if bad else
                   f"{n} page(s), {len(p['queries'])} queries, {len(shapes)} distinct, all with data" +
                   (f"; empty as allowed: {'; '.join(excused)}" if excused else ""))
        log.close()

    def allow_list(self):
        """Every allow-listed metric must be absent from this instance."""
        stale = []
        for metric in sorted(ALLOWED_EMPTY[self.layout]):
            if metric.startswith("cgroup:"):
                continue
            n = self.prom.query(f"count({metric}{{{self.sel}}})")
            if n:
                stale.append(f"{metric} ({n[0]['value'][1]} series)")
        report("fail" if stale else "pass", self.n("queries/allow-list-holds"),
               f"allow-listed as empty on {self.layout} but present: {', '.join(stale)}" if stale else
               f"the {len(ALLOWED_EMPTY[self.layout])} metrics allowed to be empty on {self.layout} are absent")

    def scrapes(self):
        """Over the whole run, every scrape of cgacctd succeeded within the
        scrape timeout (which is the scrape interval)."""
        sel = f'{{job="cgacct",{self.sel}}}'
        total = self.prom.by(f"count_over_time(up{sel}[1h])", "instance").get(self.instance, 0)
        ok = self.prom.by(f"sum_over_time(up{sel}[1h])", "instance").get(self.instance, 0)
        slow = self.prom.by(f"max_over_time(scrape_duration_seconds{sel}[1h])", "instance").get(self.instance)
        collect = self.prom.by(f"max_over_time(cgacct_collection_duration_seconds{{{self.sel}}}[1h])",
                               "instance").get(self.instance)
        failed = total - ok
        report("pass" if total and not failed else "fail", self.n("target/every-scrape-ok"),
               f"{failed:.0f} of {total:.0f} scrapes failed; slowest scrape {slow} s, "
               f"slowest collection {collect} s")

    # --------------------------------------------------------- rendering

    def render(self):
        """Each page to a PNG (non-blank) and to its DOM (the names it must
        show, as text, and every graph drawn unless its queries may be empty)."""
        cgroup_page = f"{self.base}/consoles/cgacct-cgroup.html?" + \
            urllib.parse.urlencode({"instance": self.instance, "cgroup": "/demo/memlimit"})
        pages = [
            # The overview shows each group by its last path component and
            # links the full path.
            ("overview", f"{self.base}/consoles/cgacct-overview.html",
             DEMO + [self.instance] + list(MUST_FIRE), [f'title="/demo/{g}"' for g in DEMO]),
            ("cgroup-memlimit", cgroup_page,
             ["/demo/memlimit", "parent", "/demo", "CgroupMemoryLimitHit", "32MiB"], []),
            ("landing", f"{self.guest_url}/", DEMO + ["cgacctd", "/metrics"], [f'title="/demo/{g}"' for g in DEMO]),
        ]
        for name, url, texts, markup in pages:
            png = os.path.join(self.art, f"{name}.png")
            problems, notes = [], []
            ok, out = chromium(url, ["--screenshot=" + png])
            stats = None
            if not ok or not os.path.exists(png):
                problems.append(f"no screenshot: {out[-300:]}")
            else:
                try:
                    stats = png_stats(png)
                except Exception as e:  # a broken PNG is a finding, not a crash
                    problems.append(f"unreadable PNG: {e}")
                if stats:
                    w, h, colours, inked = stats
                    if (w, h) != (1400, 1800):
                        problems.append(f"{w}x{h}, not 1400x1800")
                    if colours < 16 or inked < 0.005:
                        problems.append(f"blank: {colours} colours, {inked:.1%} non-white")
                    notes.append(f"{colours} colours, {inked:.1%} non-white")
            ok, dom = chromium(url, ["--dump-dom"])
            open(os.path.join(self.art, f"{name}.html"), "w").write(dom if ok else "")
            if not ok or "<html" not in dom:
                problems.append("no DOM")
            else:
                text = html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style)\b.*?</\1>", " ", dom, flags=re.S)))
                words = set(re.findall(r"[\w/.:-]+", text))
                missing = [t for t in texts if t not in words] + [m for m in markup if m not in dom]
                if missing:
                    problems.append(f"does not show {missing}")
                if "NaN" in words:
                    problems.append("shows NaN")
                else:
                    notes.append(f"shows {', '.join(texts)}")
                graphs = self.graphs(dom)
                for node, (drawn, error, excused) in graphs.items():
                    if error:
                        problems.append(f"graph {node}: {error}")
                    elif not drawn and not excused:
                        problems.append(f"graph {node} not drawn")
                if graphs:
                    empty = [n for n, (d, _, _) in graphs.items() if not d]
                    notes.append(f"{len(graphs) - len(empty)} of {len(graphs)} graphs drawn" +
                                 (f" ({', '.join(empty)} empty as allowed)" if empty and not problems else ""))
            report("fail" if problems else "pass", self.n(f"render/{name}"),
                   "; ".join(problems) if problems else f"{os.path.relpath(png, TOP)}: " + "; ".join(notes))

    def graphs(self, dom):
        """{node: (drawn, error text, allowed to be empty)} of the page's
        PromConsole graphs."""
        out = {}
        for node, exprs in re.findall(r'querySelector\("#(\w+)"\),\s*expr:\s*\[(.*?)\]', dom, re.S):
            exprs = [json.loads(e) for e in re.findall(r'"(?:[^"\\]|\\.)*"', exprs)]
            m = re.search(rf'<div id="{node}"[^>]*>(.*?)(?=<div id="\w+Graph"|<script|$)', dom, re.S)
            body = m.group(1) if m else ""
            text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body))).strip()
            error = next((text[max(0, i - 40):i + 80] for i in [text.lower().find("error")] if i >= 0), None)
            out[node] = ("<svg" in body and "No timeseries returned" not in text, error,
                         all(self.excused(e) for e in exprs))
        return out


def chromium(url, args):
    """(ok, stdout+stderr) of one headless Chromium run with a fresh profile."""
    profile = tempfile.mkdtemp(prefix="cgacct-e2e-chromium.")
    cmd = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           "--no-proxy-server", "--hide-scrollbars", f"--user-data-dir={profile}",
           "--window-size=1400,1800", "--virtual-time-budget=10000"] + args + [url]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=90, text=True,
                           errors="replace")
        out = p.stdout if "--dump-dom" in args else p.stdout + p.stderr
        return p.returncode == 0, out
    except subprocess.TimeoutExpired:
        return False, "chromium timed out after 90 s"
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def png_stats(path):
    """(width, height, distinct colours, share of non-white pixels) of an
    8-bit RGB(A) PNG, sampling every 4th pixel of every row."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, hdr = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        pos += 12 + length
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError(f"depth {depth}, colour type {ctype}, interlace {interlace}: not handled")
    raw = zlib.decompress(b"".join(idat))
    bpp = 3 if ctype == 2 else 4
    stride = w * bpp
    # Byte-wise addition mod 256 of whole rows at once (PNG's Up filter):
    # even and odd bytes apart, so that no carry crosses into a kept byte.
    even = int.from_bytes(b"\xff\x00" * (stride // 2) + b"\xff" * (stride % 2), "big")
    odd = even ^ ((1 << (8 * stride)) - 1)
    prev = bytearray(stride)
    colours, inked, seen = set(), 0, 0
    for r in range(h):
        f = raw[r * (stride + 1)]
        line = bytearray(raw[r * (stride + 1) + 1:(r + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            x, y = int.from_bytes(line, "big"), int.from_bytes(prev, "big")
            line = bytearray(((((x & even) + (y & even)) & even) | (((x & odd) + (y & odd)) & odd)).to_bytes(stride, "big"))
        elif f == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        elif f != 0:
            raise ValueError(f"filter {f} in row {r}")
        for x in range(0, stride, 4 * bpp):
            px = bytes(line[x:x + 3])
            colours.add(px)
            seen += 1
            inked += px != b"\xff\xff\xff"
        prev = line
    return w, h, len(colours), inked / max(seen, 1)


# ---------------------------------------------------------------- main

def single(layout, base, state, art, interval):
    dash = load_dashboards_check()
    run = Run(layout, base, state, art, interval)
    if not run.target():
        return
    run.cpu()
    run.runnable()
    run.throttled()
    run.memory()
    run.disk()
    run.alerts()
    notifications.check_firing(run, MUST_FIRE)
    # The queries and pages after the alerts, so that ALERTS has data and
    # the pages show them.
    run.grafana(dash)
    run.consoles(dash)
    run.allow_list()
    run.render()
    run.scrapes()


def multi(layout, base, state, art, count):
    prom = Prom(base)
    want = {f"127.0.0.1:{port}" for _, port, _ in guests(state)}
    notifications.check_silence(f"{layout}x{count}", base, state, art)

    def all_up():
        up = prom.by('up{job="cgacct"} == 1', "instance")
        return set(up) == want and up
    up, waited = wait("targets up", 120, all_up, 2)
    got = prom.by('up{job="cgacct"}', "instance")
    ok = bool(up) and len(want) == count
    report("pass" if ok else "fail", f"{layout}x{count}/targets-up",
           f"{count} targets up after {waited:.0f} s with instances {sorted(up)}" if ok else
           f"up: {got}, want {sorted(want)} all 1")
    labels = [r["metric"] for r in prom.query('up{job="cgacct"}')]
    guest_labels = sorted(m.get("guest", "") for m in labels)
    instances = [m["instance"] for m in labels]
    distinct = len(set(instances)) == len(instances) == count and len(set(guest_labels)) == count
    report("pass" if distinct else "fail", f"{layout}x{count}/distinct-instances",
           f"instance {sorted(instances)}, guest {guest_labels}")
    spin_info = 'cgroup_info{cgroup="/demo/spin"}'
    spin, _ = wait("both guests' data", 60, lambda: len(prom.by(spin_info, "instance")) == count, 2)
    report("pass" if spin else "fail", f"{layout}x{count}/data-from-each",
           f"{spin_info} from {sorted(prom.by(spin_info, 'instance'))}")
    json.dump(prom.api("/api/v1/targets"), open(os.path.join(art, "targets.json"), "w"), indent=1)


if __name__ == "__main__":
    # notifications.py imports from this module: let it find this run of it.
    sys.modules.setdefault("check", sys.modules["__main__"])
    import notifications
    if len(sys.argv) == 7 and sys.argv[1] == "single":
        single(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6]))
    elif len(sys.argv) == 6 and sys.argv[1] == "debian":
        import debian_host
        debian_host.check(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    elif len(sys.argv) == 7 and sys.argv[1] == "multi":
        multi(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6]))
    else:
        sys.exit(__doc__)
