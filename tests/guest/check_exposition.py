#!/usr/bin/env python3
"""Judge what cgacctd exported in a guest against the kernel's own files.

    check_exposition.py OUT_DIR      # the guest's /out from guest-capture.sh
    check_exposition.py --self-test  # the grammar checker rejects bad input

OUT_DIR holds mountinfo, devices, before/ and after/ (every readable file of
every cgroup, dumped just before and just after the cgacctd runs, and its
cgroup ID, the inode number, as "@id"),
metrics.prom with walk-order, metrics-per-cpu.prom, cgacctd.status and
disk.written.  Prints one line per check, "pass|fail|skip NAME [DETAIL]",
and exits 1 if any failed.

The oracle is the table ROWS below, written from the kernel's documentation
and files, not from the C code: which file and key each family derives from
on v1 and v2, the scale to the exported unit, and how the value may move.
  settled  limits, weights, quota, period, identity: before == after == exported
  counter  only grows: before <= exported <= after
  gauge    may move either way: between min and max of before and after;
           byte gauges widened by GAUGE_SLACK_BYTES, because the memlimit
           group's page cache is reclaimed and refilled in batches at its
           limit, and by ROOT_SLACK_BYTES at the root, which holds the
           observer itself while it runs (cgacctd's mapped binary and
           libraries, its heap, the dump files)
Unlimited raw values (v2 "max", v1's page counter maximum, cfs_quota_us -1)
must be absent from the export.  Cgroups named churn-* come and go during
the run (the churn loop) and are exempt from values and coverage, not from
the grammar or the walk order.
"""

import collections
import math
import os
import re
import sys
from fractions import Fraction

# ---------------------------------------------------------------------------
# The text format 0.0.4, strictly.

NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
LABEL = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")
FLOAT = re.compile(r"[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|Inf|NaN)")
TYPES = ("counter", "gauge", "histogram", "summary", "untyped")
LABEL_ESCAPES = {"\\": "\\", '"': '"', "n": "\n"}
HELP_ESCAPES = {"\\": "\\", "n": "\n"}


class Malformed(Exception):
    pass


def unescape(text, escapes):
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c == "\\":
            if i + 1 >= len(text) or text[i + 1] not in escapes:
                raise Malformed("invalid escape in %r" % text)
            out.append(escapes[text[i + 1]])
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def parse_labels(line, i):
    """Parses '{a="x",b="y"}' starting at line[i] == '{'; returns (labels, next index)."""
    labels = {}
    i += 1
    while True:
        if line[i] == "}":
            return labels, i + 1
        m = LABEL.match(line, i)
        if not m:
            raise Malformed("bad label name")
        name = m.group()
        i = m.end()
        if line[i : i + 2] != '="':
            raise Malformed("label %s: expected =\"" % name)
        i += 2
        start = i
        while line[i] != '"':
            if line[i] == "\n":
                raise Malformed("raw newline in label value")
            i += 2 if line[i] == "\\" else 1
        if name in labels:
            raise Malformed("label %s given twice" % name)
        labels[name] = unescape(line[start:i], LABEL_ESCAPES)
        i += 1
        if line[i] == ",":
            i += 1
        elif line[i] != "}":
            raise Malformed("expected , or } after label %s" % name)


def parse_sample(line):
    m = NAME.match(line)
    if not m:
        raise Malformed("bad metric name")
    name, i = m.group(), m.end()
    labels = {}
    try:
        if i < len(line) and line[i] == "{":
            labels, i = parse_labels(line, i)
    except IndexError:
        raise Malformed("unterminated label set") from None
    rest = line[i:]
    if not rest.startswith(" "):
        raise Malformed("no blank before the value")
    fields = rest.split()
    if len(fields) == 2:
        raise Malformed("sample has a timestamp; the exporter must not set any")
    if len(fields) != 1 or not FLOAT.fullmatch(fields[0]):
        raise Malformed("bad value %r" % rest.strip())
    return name, labels, fields[0]


def parse_exposition(text):
    """Returns {name: {"type", "help", "samples": [(labels, value string)]}}.

    Raises Malformed on anything Prometheus's 0.0.4 parser rejects or the
    project forbids: a family without HELP and TYPE before its samples, a
    family split in two, a series given twice, timestamps, bad escapes."""
    if not text.endswith("\n"):
        raise Malformed("the exposition does not end with a newline")
    families, series = {}, set()
    current, closed = None, set()

    def family(name):
        if name in closed:
            raise Malformed("family %s appears again after another family" % name)
        return families.setdefault(name, {"type": None, "help": None, "samples": []})

    for number, line in enumerate(text[:-1].split("\n"), 1):
        try:
            if "\r" in line:
                raise Malformed("carriage return")
            if line == "":
                continue
            if line.startswith("#"):
                parts = line.split(" ", 3)
                if len(parts) < 3 or parts[1] not in ("HELP", "TYPE"):
                    continue  # a plain comment
                kind, name = parts[1], parts[2]
                if not NAME.fullmatch(name):
                    raise Malformed("bad family name %r" % name)
                if name != current:
                    if current is not None:
                        closed.add(current)
                    current = name
                f = family(name)
                if f["samples"]:
                    raise Malformed("%s for %s after its samples" % (kind, name))
                key = kind.lower()
                if f[key] is not None:
                    raise Malformed("second %s for %s" % (kind, name))
                if kind == "TYPE":
                    if len(parts) != 4 or parts[3] not in TYPES:
                        raise Malformed("bad TYPE line")
                    f["type"] = parts[3]
                else:
                    f["help"] = unescape(parts[3] if len(parts) == 4 else "", HELP_ESCAPES)
                continue
            name, labels, value = parse_sample(line)
            if name != current:
                raise Malformed("sample of %s outside its family block" % name)
            f = family(name)
            if f["type"] is None or f["help"] is None:
                raise Malformed("sample of %s before its HELP and TYPE" % name)
            if f["type"] not in ("counter", "gauge"):
                raise Malformed("family %s is %s; the exporter has none" % (name, f["type"]))
            if f["type"] == "counter" and not (float(value) >= 0 and math.isfinite(float(value))):
                raise Malformed("counter %s has value %s" % (name, value))
            key = (name, tuple(sorted(labels.items())))
            if key in series:
                raise Malformed("duplicate series %s%s" % (name, dict(labels)))
            series.add(key)
            f["samples"].append((labels, value))
        except Malformed as e:
            raise Malformed("line %d: %s: %r" % (number, e, line[:160])) from None
    return families


def self_test():
    """The grammar check must reject each of these, and accept the first."""
    good = '# HELP a_total A.\n# TYPE a_total counter\na_total{cgroup="/x\\"\\\\\\n"} 1.5\n'
    bad = {
        "no final newline": good[:-1],
        "duplicate series": good + 'a_total{cgroup="/x\\"\\\\\\n"} 2\n',
        "duplicate series, labels reordered": "# HELP b B.\n# TYPE b gauge\n"
        'b{x="1",y="2"} 1\nb{y="2",x="1"} 1\n',
        "sample before TYPE": "# HELP b B.\nb 1\n# TYPE b gauge\n",
        "no HELP": "# TYPE b gauge\nb 1\n",
        "family split": good + "# HELP b B.\n# TYPE b gauge\nb 1\n" 'a_total{cgroup="/y"} 1\n',
        "bad escape": '# HELP b B.\n# TYPE b gauge\nb{cgroup="a\\tb"} 1\n',
        "raw quote": '# HELP b B.\n# TYPE b gauge\nb{cgroup="a"b"} 1\n',
        "timestamp": "# HELP b B.\n# TYPE b gauge\nb 1 1700000000000\n",
        "bad value": "# HELP b B.\n# TYPE b gauge\nb one\n",
        "bad name": "# HELP 1b B.\n# TYPE 1b gauge\n1b 1\n",
        "label twice": '# HELP b B.\n# TYPE b gauge\nb{x="1",x="2"} 1\n',
        "negative counter": "# HELP c_total C.\n# TYPE c_total counter\nc_total -1\n",
        "unterminated labels": '# HELP b B.\n# TYPE b gauge\nb{x="1" 1\n',
        "second TYPE": "# HELP b B.\n# TYPE b gauge\n# TYPE b gauge\nb 1\n",
    }
    failures = []
    try:
        parse_exposition(good)
    except Malformed as e:
        failures.append("rejected a valid exposition: %s" % e)
    for what, text in bad.items():
        try:
            parse_exposition(text)
            failures.append("accepted: " + what)
        except Malformed:
            pass
    return failures


# ---------------------------------------------------------------------------
# Raw kernel files.

NS = Fraction(1, 10**9)  # nanoseconds to seconds
US = Fraction(1, 10**6)  # microseconds to seconds
USER_HZ = 100  # x86: the unit of cpuacct.stat
# "Unlimited" in v1 files: PAGE_COUNTER_MAX * PAGE_SIZE, and the same rounded
# down to a whole 2 MiB page by the hugetlb controller.
V1_UNLIMITED = {9223372036854771712, 9223372036852678656}
UNLIMITED = object()
GAUGE_SLACK_BYTES = 4 << 20
ROOT_SLACK_BYTES = 32 << 20


def number(text):
    text = text.strip()
    if text == "max":
        return UNLIMITED
    v = int(text)
    if v in V1_UNLIMITED:
        return UNLIMITED
    return v


def single(text):
    return {(): number(text)}


def signed_limit(text):
    v = int(text.strip())
    return {(): UNLIMITED if v < 0 else v}


def key_values(text):
    """The 'key value' lines of a flat keyed file."""
    return dict(f for f in (line.split() for line in text.splitlines()) if len(f) == 2)


def keyed(key):
    def parse(text):
        kv = key_values(text)
        return {(): number(kv[key])} if key in kv else {}

    return parse


def runnable(text):
    """cpu.stat: runnable time is usage_usec + wait_usec, only where wait_usec is."""
    kv = key_values(text)
    return {(): int(kv["usage_usec"]) + int(kv["wait_usec"])} if "wait_usec" in kv else {}


def labelled_keys(keys):
    """Each of keys its own series, with label event=key."""

    def parse(text):
        return {(("event", k),): number(v) for k, v in key_values(text).items() if k in keys}

    return parse


def pressure(kind):
    def parse(text):
        for line in text.splitlines():
            f = line.split()
            if f and f[0] == kind:
                for kv in f[1:]:
                    k, _, v = kv.partition("=")
                    if k == "total":
                        return {(): int(v)}
        return {}

    return parse


def cpu_max(field):
    def parse(text):
        f = text.split()
        return {(): number(f[field])}

    return parse


def default_weight(text):
    return keyed("default")(text)


def per_cpu_list(text):
    return {(("cpu", str(i)),): int(v) for i, v in enumerate(text.split())}


def usage_all(column):
    def parse(text):
        lines = text.splitlines()
        assert lines[0].split() == ["cpu", "user", "system"]
        return {(("cpu", f[0]),): int(f[column]) for f in (l.split() for l in lines[1:] if l)}

    return parse


def rwstat(op):
    """blkio 'MAJ:MIN Op value' lines: one series per device."""

    def parse(text):
        out = {}
        for line in text.splitlines():
            f = line.split()
            if len(f) == 3 and f[1] == op:
                out[(("device", f[0]),)] = int(f[2])
        return out

    return parse


def dev_value(text):
    out = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) == 2:
            out[(("device", f[0]),)] = number(f[1])
    return out


def dev_keyed(key):
    """io.stat / io.max 'MAJ:MIN k=v ...' lines."""

    def parse(text):
        out = {}
        for line in text.splitlines():
            f = line.split()
            for kv in f[1:]:
                k, _, v = kv.partition("=")
                if k == key:
                    out[(("device", f[0]),)] = number(v)
        return out

    return parse


SETTLED, COUNTER, GAUGE = "settled", "counter", "gauge"

# (controller or None for v2 core files, file, parser, family, scale, kind).
# The controller says which v1 hierarchy holds the file ("" = every one);
# hugetlb file names are per page size, "{size}" becomes each size present.
# cgroup_info, the walk's identity, is expected per hierarchy in
# expectations(). v1 has no run-queue wait. Load averages take two
# collections: cgacctd --once has none.
V1_ROWS = [
    ("cpuacct", "cpuacct.usage", single, "cgroup_cpu_usage_seconds_total", NS, COUNTER),
    ("cpuacct", "cpuacct.stat", keyed("user"), "cgroup_cpu_user_seconds_total",
     Fraction(1, USER_HZ), COUNTER),
    ("cpuacct", "cpuacct.stat", keyed("system"), "cgroup_cpu_system_seconds_total",
     Fraction(1, USER_HZ), COUNTER),
    ("cpuacct", "cpuacct.load", single, "cgroup_cpu_load_ratio", Fraction(1, 100), GAUGE),
    ("cpuacct", "cpuacct.usage_percpu", per_cpu_list, "cgroup_cpu_usage_per_cpu_seconds_total",
     NS, COUNTER),
    ("cpuacct", "cpuacct.usage_all", usage_all(1), "cgroup_cpu_user_per_cpu_seconds_total", NS,
     COUNTER),
    ("cpuacct", "cpuacct.usage_all", usage_all(2), "cgroup_cpu_system_per_cpu_seconds_total", NS,
     COUNTER),
    # shares on the v2 weight scale: weight = shares * 100 / 1024
    ("cpu", "cpu.shares", single, "cgroup_cpu_weight", Fraction(100, 1024), SETTLED),
    ("cpu", "cpu.cfs_quota_us", signed_limit, "cgroup_cpu_quota_seconds", US, SETTLED),
    ("cpu", "cpu.cfs_period_us", single, "cgroup_cpu_period_seconds", US, SETTLED),
    ("cpu", "cpu.cfs_burst_us", single, "cgroup_cpu_burst_quota_seconds", US, SETTLED),
    ("cpu", "cpu.stat", keyed("nr_periods"), "cgroup_cpu_periods_total", 1, COUNTER),
    ("cpu", "cpu.stat", keyed("nr_throttled"), "cgroup_cpu_throttled_periods_total", 1, COUNTER),
    ("cpu", "cpu.stat", keyed("throttled_time"), "cgroup_cpu_throttled_seconds_total", NS,
     COUNTER),
    ("cpu", "cpu.stat", keyed("nr_bursts"), "cgroup_cpu_bursts_total", 1, COUNTER),
    ("cpu", "cpu.stat", keyed("burst_time"), "cgroup_cpu_burst_seconds_total", NS, COUNTER),
    ("memory", "memory.usage_in_bytes", single, "cgroup_memory_usage_bytes", 1, GAUGE),
    ("memory", "memory.max_usage_in_bytes", single, "cgroup_memory_max_usage_bytes", 1, COUNTER),
    ("memory", "memory.limit_in_bytes", single, "cgroup_memory_limit_bytes", 1, SETTLED),
    ("memory", "memory.soft_limit_in_bytes", single, "cgroup_memory_soft_limit_bytes", 1,
     SETTLED),
    ("memory", "memory.failcnt", single, "cgroup_memory_limit_failures_total", 1, COUNTER),
    ("memory", "memory.memsw.usage_in_bytes", single, "cgroup_memory_memsw_usage_bytes", 1,
     GAUGE),
    ("memory", "memory.memsw.max_usage_in_bytes", single,
     "cgroup_memory_memsw_max_usage_bytes", 1, COUNTER),
    ("memory", "memory.memsw.limit_in_bytes", single, "cgroup_memory_memsw_limit_bytes", 1,
     SETTLED),
    ("memory", "memory.memsw.failcnt", single, "cgroup_memory_memsw_limit_failures_total", 1,
     COUNTER),
    ("memory", "memory.kmem.usage_in_bytes", single, "cgroup_memory_kernel_usage_bytes", 1,
     GAUGE),
    ("memory", "memory.kmem.max_usage_in_bytes", single,
     "cgroup_memory_kernel_max_usage_bytes", 1, COUNTER),
    ("memory", "memory.kmem.limit_in_bytes", single, "cgroup_memory_kernel_limit_bytes", 1,
     SETTLED),
    ("memory", "memory.kmem.failcnt", single, "cgroup_memory_kernel_limit_failures_total", 1,
     COUNTER),
    ("memory", "memory.oom_control", keyed("under_oom"), "cgroup_memory_under_oom", 1, GAUGE),
    ("memory", "memory.oom_control", keyed("oom_kill"), "cgroup_memory_oom_kills_total", 1,
     COUNTER),
    ("hugetlb", "hugetlb.{size}.usage_in_bytes", single, "cgroup_hugetlb_usage_bytes", 1, GAUGE),
    ("hugetlb", "hugetlb.{size}.max_usage_in_bytes", single, "cgroup_hugetlb_max_usage_bytes", 1,
     COUNTER),
    ("hugetlb", "hugetlb.{size}.limit_in_bytes", single, "cgroup_hugetlb_limit_bytes", 1,
     SETTLED),
    ("hugetlb", "hugetlb.{size}.failcnt", single, "cgroup_hugetlb_limit_failures_total", 1,
     COUNTER),
    # v1 I/O: the hierarchical throttle statistics, as v2's io.stat is
    ("blkio", "blkio.throttle.io_service_bytes_recursive", rwstat("Read"),
     "cgroup_blkio_read_bytes_total", 1, COUNTER),
    ("blkio", "blkio.throttle.io_service_bytes_recursive", rwstat("Write"),
     "cgroup_blkio_write_bytes_total", 1, COUNTER),
    ("blkio", "blkio.throttle.io_service_bytes_recursive", rwstat("Discard"),
     "cgroup_blkio_discard_bytes_total", 1, COUNTER),
    ("blkio", "blkio.throttle.io_serviced_recursive", rwstat("Read"), "cgroup_blkio_reads_total",
     1, COUNTER),
    ("blkio", "blkio.throttle.io_serviced_recursive", rwstat("Write"),
     "cgroup_blkio_writes_total", 1, COUNTER),
    ("blkio", "blkio.throttle.io_serviced_recursive", rwstat("Discard"),
     "cgroup_blkio_discards_total", 1, COUNTER),
    ("blkio", "blkio.throttle.read_bps_device", dev_value,
     "cgroup_blkio_read_limit_bytes_per_second", 1, SETTLED),
    ("blkio", "blkio.throttle.write_bps_device", dev_value,
     "cgroup_blkio_write_limit_bytes_per_second", 1, SETTLED),
    ("blkio", "blkio.throttle.read_iops_device", dev_value,
     "cgroup_blkio_read_limit_operations_per_second", 1, SETTLED),
    ("blkio", "blkio.throttle.write_iops_device", dev_value,
     "cgroup_blkio_write_limit_operations_per_second", 1, SETTLED),
    ("blkio", "blkio.bfq.weight", single, "cgroup_blkio_weight", 1, SETTLED),
    ("pids", "pids.current", single, "cgroup_pids_current", 1, GAUGE),
    ("pids", "pids.max", single, "cgroup_pids_limit", 1, SETTLED),
    ("pids", "pids.events", keyed("max"), "cgroup_pids_limit_failures_total", 1, COUNTER),
]
V1_STAT = [  # memory.stat: the hierarchical total_* keys, bytes and counts
    ("total_cache", "cgroup_memory_cache_bytes", GAUGE),
    ("total_rss", "cgroup_memory_rss_bytes", GAUGE),
    ("total_shmem", "cgroup_memory_shmem_bytes", GAUGE),
    ("total_mapped_file", "cgroup_memory_mapped_file_bytes", GAUGE),
    ("total_dirty", "cgroup_memory_dirty_bytes", GAUGE),
    ("total_writeback", "cgroup_memory_writeback_bytes", GAUGE),
    ("total_swap", "cgroup_memory_swap_usage_bytes", GAUGE),
    ("total_active_anon", "cgroup_memory_active_anon_bytes", GAUGE),
    ("total_inactive_anon", "cgroup_memory_inactive_anon_bytes", GAUGE),
    ("total_active_file", "cgroup_memory_active_file_bytes", GAUGE),
    ("total_inactive_file", "cgroup_memory_inactive_file_bytes", GAUGE),
    ("total_unevictable", "cgroup_memory_unevictable_bytes", GAUGE),
    ("total_pgfault", "cgroup_memory_page_faults_total", COUNTER),
    ("total_pgmajfault", "cgroup_memory_major_page_faults_total", COUNTER),
]
V1_ROWS += [("memory", "memory.stat", keyed(k), fam, 1, kind) for k, fam, kind in V1_STAT]

V2_ROWS = [
    ("", "cpu.stat", keyed("usage_usec"), "cgroup_cpu_usage_seconds_total", US, COUNTER),
    ("", "cpu.stat", keyed("user_usec"), "cgroup_cpu_user_seconds_total", US, COUNTER),
    ("", "cpu.stat", keyed("system_usec"), "cgroup_cpu_system_seconds_total", US, COUNTER),
    ("", "cpu.stat", keyed("nr_periods"), "cgroup_cpu_periods_total", 1, COUNTER),
    ("", "cpu.stat", keyed("nr_throttled"), "cgroup_cpu_throttled_periods_total", 1, COUNTER),
    ("", "cpu.stat", keyed("throttled_usec"), "cgroup_cpu_throttled_seconds_total", US, COUNTER),
    ("", "cpu.stat", keyed("nr_bursts"), "cgroup_cpu_bursts_total", 1, COUNTER),
    ("", "cpu.stat", keyed("burst_usec"), "cgroup_cpu_burst_seconds_total", US, COUNTER),
    ("", "cpu.stat", keyed("wait_usec"), "cgroup_cpu_wait_seconds_total", US, COUNTER),
    ("", "cpu.stat", runnable, "cgroup_cpu_runnable_seconds_total", US, COUNTER),
    ("", "cpu.weight", single, "cgroup_cpu_weight", 1, SETTLED),
    ("", "cpu.max", cpu_max(0), "cgroup_cpu_quota_seconds", US, SETTLED),
    ("", "cpu.max", cpu_max(1), "cgroup_cpu_period_seconds", US, SETTLED),
    ("", "cpu.max.burst", single, "cgroup_cpu_burst_quota_seconds", US, SETTLED),
    ("", "memory.current", single, "cgroup_memory_usage_bytes", 1, GAUGE),
    ("", "memory.peak", single, "cgroup_memory_max_usage_bytes", 1, COUNTER),
    ("", "memory.max", single, "cgroup_memory_limit_bytes", 1, SETTLED),
    ("", "memory.high", single, "cgroup_memory_high_bytes", 1, SETTLED),
    ("", "memory.low", single, "cgroup_memory_low_bytes", 1, SETTLED),
    ("", "memory.min", single, "cgroup_memory_min_bytes", 1, SETTLED),
    ("", "memory.events.local", keyed("max"), "cgroup_memory_limit_failures_total", 1, COUNTER),
    ("", "memory.events.local", keyed("oom_kill"), "cgroup_memory_oom_kills_total", 1, COUNTER),
    ("", "memory.events",
     labelled_keys({"low", "high", "max", "oom", "oom_kill", "oom_group_kill"}),
     "cgroup_memory_events_total", 1, COUNTER),
    ("", "memory.swap.current", single, "cgroup_memory_swap_usage_bytes", 1, GAUGE),
    ("", "memory.swap.max", single, "cgroup_memory_swap_limit_bytes", 1, SETTLED),
    ("", "memory.swap.events", labelled_keys({"high", "max", "fail"}),
     "cgroup_memory_swap_events_total", 1, COUNTER),
    ("", "hugetlb.{size}.current", single, "cgroup_hugetlb_usage_bytes", 1, GAUGE),
    ("", "hugetlb.{size}.max", single, "cgroup_hugetlb_limit_bytes", 1, SETTLED),
    ("", "hugetlb.{size}.events.local", keyed("max"), "cgroup_hugetlb_limit_failures_total", 1,
     COUNTER),
    ("", "io.stat", dev_keyed("rbytes"), "cgroup_blkio_read_bytes_total", 1, COUNTER),
    ("", "io.stat", dev_keyed("wbytes"), "cgroup_blkio_write_bytes_total", 1, COUNTER),
    ("", "io.stat", dev_keyed("dbytes"), "cgroup_blkio_discard_bytes_total", 1, COUNTER),
    ("", "io.stat", dev_keyed("rios"), "cgroup_blkio_reads_total", 1, COUNTER),
    ("", "io.stat", dev_keyed("wios"), "cgroup_blkio_writes_total", 1, COUNTER),
    ("", "io.stat", dev_keyed("dios"), "cgroup_blkio_discards_total", 1, COUNTER),
    ("", "io.max", dev_keyed("rbps"), "cgroup_blkio_read_limit_bytes_per_second", 1, SETTLED),
    ("", "io.max", dev_keyed("wbps"), "cgroup_blkio_write_limit_bytes_per_second", 1, SETTLED),
    ("", "io.max", dev_keyed("riops"), "cgroup_blkio_read_limit_operations_per_second", 1,
     SETTLED),
    ("", "io.max", dev_keyed("wiops"), "cgroup_blkio_write_limit_operations_per_second", 1,
     SETTLED),
    ("", "io.bfq.weight", default_weight, "cgroup_blkio_weight", 1, SETTLED),
    ("", "pids.current", single, "cgroup_pids_current", 1, GAUGE),
    ("", "pids.max", single, "cgroup_pids_limit", 1, SETTLED),
    ("", "pids.events", keyed("max"), "cgroup_pids_limit_failures_total", 1, COUNTER),
]
V2_STAT = [  # memory.stat (hierarchical on v2), the same families as v1's total_*
    ("file", "cgroup_memory_cache_bytes", GAUGE),
    ("anon", "cgroup_memory_rss_bytes", GAUGE),
    ("shmem", "cgroup_memory_shmem_bytes", GAUGE),
    ("file_mapped", "cgroup_memory_mapped_file_bytes", GAUGE),
    ("file_dirty", "cgroup_memory_dirty_bytes", GAUGE),
    ("file_writeback", "cgroup_memory_writeback_bytes", GAUGE),
    ("kernel", "cgroup_memory_kernel_usage_bytes", GAUGE),
    ("active_anon", "cgroup_memory_active_anon_bytes", GAUGE),
    ("inactive_anon", "cgroup_memory_inactive_anon_bytes", GAUGE),
    ("active_file", "cgroup_memory_active_file_bytes", GAUGE),
    ("inactive_file", "cgroup_memory_inactive_file_bytes", GAUGE),
    ("unevictable", "cgroup_memory_unevictable_bytes", GAUGE),
    ("pgfault", "cgroup_memory_page_faults_total", COUNTER),
    ("pgmajfault", "cgroup_memory_major_page_faults_total", COUNTER),
]
V2_ROWS += [("", "memory.stat", keyed(k), fam, 1, kind) for k, fam, kind in V2_STAT]
V2_ROWS += [
    ("", res + ".pressure", pressure(kind), "cgroup_pressure_%s_%s_seconds_total" % (res, name),
     US, COUNTER)
    for res in ("cpu", "memory", "io")
    for kind, name in (("some", "waiting"), ("full", "stalled"))
]

# Only with --per-cpu; the default exposition must not have them.
PER_CPU_FAMILIES = {
    "cgroup_cpu_usage_per_cpu_seconds_total",
    "cgroup_cpu_user_per_cpu_seconds_total",
    "cgroup_cpu_system_per_cpu_seconds_total",
}
# The v1 controllers cgacctd reads; hierarchies with none of them are skipped.
KNOWN_V1 = ("cpu", "cpuacct", "memory", "hugetlb", "blkio", "pids")
HUGE_SIZE = re.compile(r"hugetlb\.(\d+[KMG]B)\.")


def is_churn(path):
    return any(part.startswith("churn-") for part in path.split("/"))


class Hierarchy:
    def __init__(self, mountpoint, fstype, superopts):
        self.dump = os.path.basename(mountpoint)
        self.unified = fstype == "cgroup2"
        opts = superopts.split(",")
        self.controllers = [c for c in opts if c in KNOWN_V1]
        self.name = "unified" if self.unified else ",".join(self.controllers)


def read_hierarchies(out):
    found = []
    for line in open(os.path.join(out, "mountinfo")):
        f = line.split()
        sep = f.index("-")
        if f[sep + 1] in ("cgroup", "cgroup2"):
            found.append(Hierarchy(f[4], f[sep + 1], f[sep + 3]))
    # what cgacctd reads, in its documented order: v1 first, unified last
    read = [h for h in found if not h.unified and h.controllers] + [h for h in found if h.unified]
    return found, read


def read_tree(root):
    """{cgroup path: {file: content}} of one dumped hierarchy; a directory
    without "@id" vanished before the dump reached it."""
    tree = {}
    for dirpath, _, files in os.walk(root):
        rel = "/" + os.path.relpath(dirpath, root) if dirpath != root else "/"
        content = {}
        for name in files:
            try:
                with open(os.path.join(dirpath, name), encoding="utf-8", errors="replace") as f:
                    content[name] = f.read()
            except OSError:
                pass
        if "@id" in content:
            tree[rel] = content
    return tree


def uses_serial(tree):
    """Whether cgacctd identifies this hierarchy's cgroups by cgroup.serial:
    where its root has one (v1 with our kernel series), else by the cgroup ID."""
    return "cgroup.serial" in tree.get("/", {})


def identity(tree, path):
    """The walk's identity of a dumped cgroup (-1 if its file was not dumped),
    and the cgroup_info label naming it."""
    if uses_serial(tree):
        return int(tree[path].get("cgroup.serial", -1)), "serial"
    return int(tree[path]["@id"]), "ino"


def expand_rows(rows, files):
    """Rows with {size} instantiated for every huge page size among files."""
    sizes = sorted({m.group(1) for m in map(HUGE_SIZE.match, files) if m})
    for row in rows:
        if "{size}" in row[1]:
            for size in sizes:
                yield row[:1] + (row[1].format(size=size),) + row[2:] + (size,)
        else:
            yield row + (None,)


class Expectation:
    def __init__(self, kind, before, after, family, root):
        self.kind, self.before, self.after = kind, before, after
        # How far a gauge may stray beyond the dumps' range, beyond their spread.
        self.slack = None
        if family.endswith("_bytes"):
            self.slack = ROOT_SLACK_BYTES if root else GAUGE_SLACK_BYTES

    def judge(self, value):
        """None if value (a Fraction, or None when absent) is right, else why not."""
        b, a = self.before, self.after
        if b is UNLIMITED or a is UNLIMITED:
            if b is not a:
                return "limit changed between the dumps (%s, %s)" % (show(b), show(a))
            return None if value is None else "exported %s for an unlimited value" % value
        if value is None:
            return "missing (raw %s .. %s)" % (b, a)
        if self.kind == SETTLED:
            if b != a:
                return "settled value moved between the dumps: %s, %s" % (b, a)
            ok = value == b
        elif self.kind == COUNTER:
            ok = b <= value <= a
        else:
            slack = abs(a - b) + self.slack if self.slack is not None else 0
            ok = min(a, b) - slack <= value <= max(a, b) + slack
        return None if ok else "%s %s not in raw [%s, %s]" % (self.kind, value, b, a)


def show(v):
    return "unlimited" if v is UNLIMITED else str(v)


def scaled(v, scale):
    return v if v is UNLIMITED else Fraction(v) * scale


def expectations(read, before, after, devices):
    """{(family, labels tuple): Expectation} for every non-churn cgroup in both dumps.

    A series several hierarchies provide (hybrid: cpu usage from cpuacct on
    v1 and from the unified cpu.stat) takes the first hierarchy's value:
    a v1 controller mounted on its own hierarchy is authoritative there."""
    expect = {}
    for h in read:
        rows = V2_ROWS if h.unified else V1_ROWS
        for path, files_b in before[h.dump].items():
            files_a = after[h.dump].get(path)
            if is_churn(path) or files_a is None:
                continue
            ident = identity(before[h.dump], path)
            if uses_serial(after[h.dump]) != uses_serial(before[h.dump]) or \
                    identity(after[h.dump], path) != ident:
                continue  # re-created in between: a different cgroup
            labels = {"hierarchy": h.name, ident[1]: str(ident[0]), "cgroup": path}
            expect[("cgroup_info", tuple(sorted(labels.items())))] = Expectation(
                SETTLED, Fraction(1), Fraction(1), "cgroup_info", path == "/")
            for ctrl, file, parse, family, scale, kind, size in expand_rows(rows, files_b):
                if ctrl and ctrl not in h.controllers:
                    continue
                if file not in files_b or file not in files_a:
                    continue
                vb, va = parse(files_b[file]), parse(files_a[file])
                for key in vb.keys() & va.keys():
                    labels = dict(key)
                    if "device" in labels:
                        labels["device"] = devices.get(labels["device"], labels["device"])
                    if size:
                        labels["pagesize"] = size
                    b, a = scaled(vb[key], scale), scaled(va[key], scale)
                    labels["cgroup"] = path
                    series = (family, tuple(sorted(labels.items())))
                    if series not in expect:
                        expect[series] = Expectation(kind, b, a, family, path == "/")
    return expect


# ---------------------------------------------------------------------------
# The checks.


class Report:
    def __init__(self):
        self.lines = []

    def add(self, ok, name, detail=""):
        status = ok if isinstance(ok, str) else ("pass" if ok else "fail")
        self.lines.append((status, name, detail))

    def failed(self):
        return any(s == "fail" for s, _, _ in self.lines)


def check_values(report, label, families, expect, per_cpu):
    """Every exported per-cgroup sample against the oracle, and every expected one exported."""
    problems = {}
    checked = {}
    exported = set()
    for name, fam in families.items():
        for labels, value in fam["samples"]:
            if "cgroup" not in labels:
                continue
            key = (name, tuple(sorted(labels.items())))
            exported.add(key)
            if is_churn(labels["cgroup"]):
                continue
            checked[name] = checked.get(name, 0) + 1
            e = expect.get(key)
            why = "no raw source for this series" if e is None else e.judge(Fraction(value))
            if why:
                problems.setdefault(name, []).append("%s: %s" % (dict(labels), why))
    missing = []
    for key, e in expect.items():
        family = key[0]
        if family in PER_CPU_FAMILIES and not per_cpu:
            continue
        if key not in exported:
            why = e.judge(None)
            if why:
                problems.setdefault(family, []).append("%s: %s" % (dict(key[1]), why))
                missing.append(key)
    for name in sorted(set(checked) | set(problems)):
        p = problems.get(name, [])
        report.add(not p, "%s/values/%s" % (label, name),
                   "; ".join(p[:3]) + (" (+%d more)" % (len(p) - 3) if len(p) > 3 else "")
                   if p else "%d samples" % checked.get(name, 0))
    present = {k[0] for k in exported}
    stray = sorted(present & PER_CPU_FAMILIES) if not per_cpu else []
    report.add(not stray, "%s/per-cpu-opt-in" % label, ", ".join(stray))
    return missing


def check_coverage(report, label, families, read, before, after):
    """Each cgroup that lived through the run has its cgroup_info in every hierarchy."""
    info = {(l["hierarchy"], l["cgroup"]) for l, _ in families.get("cgroup_info", {"samples": []})["samples"]}
    missing = []
    total = 0
    for h in read:
        for path in before[h.dump]:
            if is_churn(path) or path not in after[h.dump]:
                continue
            total += 1
            if (h.name, path) not in info:
                missing.append("%s:%s" % (h.name, path))
    report.add(not missing, "%s/coverage/cgroups" % label,
               ", ".join(missing[:5]) if missing else "%d cgroups x hierarchies" % total)


def dfs_order(tree, key):
    """Paths of tree in depth-first order, siblings by ascending key(path)."""
    kids = {}
    for path in tree:
        if path != "/":
            kids.setdefault(os.path.dirname(path), []).append(path)
    order = []

    def visit(path):
        order.append(path)
        for child in sorted(kids.get(path, []), key=key):
            visit(child)

    visit("/")
    return order


def check_walk_order(report, out, read, before, after):
    visits = {}
    for line in open(os.path.join(out, "walk-order"), encoding="utf-8"):
        hier, ident, state, path = line.rstrip("\n").split("\t")
        path = path.replace("\\n", "\n").replace("\\t", "\t").replace("\\\\", "\\")
        visits.setdefault(hier, []).append((int(ident), state, path))
    for h in read:
        seq = visits.get(h.name, [])
        problems = []
        # a valid pre-order with ascending identities among siblings, churn included
        stack, last_child, seen = [], {}, set()
        for ident, _, path in seq:
            if path in seen:
                problems.append("%s visited twice" % path)
            seen.add(path)
            if path != "/":
                parent = os.path.dirname(path)
                while stack and stack[-1] != parent:
                    stack.pop()
                if not stack:
                    problems.append("%s visited outside its parent's subtree" % path)
                elif ident <= last_child.get(parent, 0):
                    problems.append("%s (id %d) after a sibling with id %d"
                                    % (path, ident, last_child[parent]))
                last_child[parent] = ident
            stack.append(path)
        # the cgroups that lived through the run: exactly the expected order
        tree = {p: c for p, c in before[h.dump].items()
                if not is_churn(p) and p in after[h.dump]}
        ident = {p: identity(before[h.dump], p)[0] for p in tree}
        expected = dfs_order(tree, ident.get)
        got = [p for _, s, p in seq if p in tree and s == "kept"]
        if got != expected:
            problems.append("order %s, expected %s" % (got, expected))
        ids = {p: i for i, _, p in seq}
        wrong = [p for p in tree if p in ids and ids[p] != ident[p]]
        if wrong:
            problems.append("identity is not %s for %s" % (
                "cgroup.serial" if uses_serial(before[h.dump]) else "the cgroup ID", wrong[:3]))
        churn = sum(1 for _, _, p in seq if is_churn(p))
        report.add(not problems, "%s/walk-order" % h.name,
                   "; ".join(problems[:3]) if problems
                   else "%d cgroups in %s order, %d churn cgroups met" % (
                       len(expected), "serial" if uses_serial(before[h.dump]) else "cgroup ID",
                       churn))


def sample(families, name, **labels):
    for l, v in families.get(name, {"samples": []})["samples"]:
        if l == labels:
            return Fraction(v)
    return None


def check_workloads(report, families, out, read, before, after):
    """What each demo workload must show, in the export."""
    def value(name, group, **labels):
        return sample(families, name, cgroup="/demo/" + group, **labels)

    usage = value("cgroup_cpu_usage_seconds_total", "spin")
    cpuacct = [h for h in read if "cpuacct" in h.controllers] or [h for h in read if h.unified]
    h = cpuacct[0]
    raw = "cpuacct.usage" if not h.unified else "cpu.stat"
    b, a = before[h.dump]["/demo/spin"][raw], after[h.dump]["/demo/spin"][raw]
    report.add(usage is not None and usage > 0 and b != a, "workload/spin-uses-cpu",
               "usage %s s, raw %s before, %s after" % (usage, b.split("\n")[0], a.split("\n")[0]))

    groups = ("spin", "memlimit", "disk", "throttled", "hugetlb", "hugetlb_over", "idle")
    failures = {g: value("cgroup_memory_limit_failures_total", g) for g in groups}
    others = {g: v for g, v in failures.items() if g != "memlimit" and v != 0}
    report.add((failures["memlimit"] or 0) > 0 and not others, "workload/memlimit-hits-its-limit",
               "failures %s" % {g: str(v) for g, v in failures.items()})
    oom = value("cgroup_memory_oom_kills_total", "memlimit")
    report.add(oom == 0, "workload/memlimit-no-oom", "oom kills %s" % oom)

    periods = value("cgroup_cpu_throttled_periods_total", "throttled")
    quota = value("cgroup_cpu_quota_seconds", "throttled")
    period = value("cgroup_cpu_period_seconds", "throttled")
    report.add((periods or 0) > 0 and quota == Fraction(2, 100) and period == Fraction(1, 10),
               "workload/throttled-is-throttled",
               "throttled periods %s, quota %s s per %s s" % (periods, quota, period))

    written = int(open(os.path.join(out, "disk.written")).read().split()[0])
    wbytes = value("cgroup_blkio_write_bytes_total", "disk", device="vda")
    report.add(wbytes is not None and wbytes >= written, "workload/disk-writes-counted",
               "exported %s, the workload wrote %d" % (wbytes, written))

    over = value("cgroup_hugetlb_limit_failures_total", "hugetlb_over", pagesize="2MB")
    fine = value("cgroup_hugetlb_limit_failures_total", "hugetlb", pagesize="2MB")
    held = value("cgroup_hugetlb_usage_bytes", "hugetlb", pagesize="2MB")
    report.add((over or 0) > 0 and fine == 0 and held == 2 * 1024 * 1024,
               "workload/hugetlb-limit-refuses",
               "hugetlb_over failures %s; hugetlb failures %s, usage %s" % (over, fine, held))

    pids = sample(families, "cgroup_pids_limit", cgroup="/demo")
    report.add(pids == 64, "workload/pids-limit", "/demo pids limit %s" % pids)


def check_self_metrics(report, label, families, read):
    bad = [(l, v) for l, v in families["cgacct_collector_success"]["samples"] if v != "1"]
    errors = [(l, v) for l, v in families["cgacct_collector_errors"]["samples"] if v != "0"]
    report.add(not bad and not errors, "%s/collectors-clean" % label, str(bad + errors))
    names = [l["hierarchy"] for l, _ in families["cgacct_cgroups"]["samples"]]
    report.add(sorted(names) == sorted(h.name for h in read), "%s/hierarchies" % label,
               "exported %s, expected %s" % (names, [h.name for h in read]))


def mutations(text):
    """Wrong expositions the checks must catch: proof they are not vacuous."""
    lines = text.split("\n")
    spin = next(i for i, l in enumerate(lines) if l.startswith("cgroup_cpu_weight{cgroup=\"/demo/spin\"}"))
    info = next(i for i, l in enumerate(lines) if l.startswith("cgroup_info{cgroup=\"/demo/idle\""))
    wrong_weight = lines[:spin] + [lines[spin].rsplit(" ", 1)[0] + " 51"] + lines[spin + 1:]
    no_info = lines[:info] + lines[info + 1:]
    return {
        "a-wrong-settled-value": ("values", "\n".join(wrong_weight)),
        "a-missing-cgroup": ("coverage", "\n".join(no_info)),
        "a-duplicated-series": ("grammar", "\n".join(lines[:spin + 1] + lines[spin:])),
    }


def undo_utf8_escape(value):
    """The bytes a label value stands for: U+FFFD and two hex digits are one byte."""
    raw, i = bytearray(), 0
    while i < len(value):
        if value[i] == "\ufffd":
            raw.append(int(value[i + 1:i + 3], 16))
            i += 3
        else:
            raw += value[i].encode()
            i += 1
    return bytes(raw)


def check_names(report, out, read):
    """Every cgroup the user nobody named, in every hierarchy cgacctd reads,
    exported once, its name given back byte for byte; the exposition well
    formed."""
    named = collections.defaultdict(list)
    for line in open(os.path.join(out, "names.hex")):
        dump, name = line.split()
        named[dump].append(b"/delegated/" + bytes.fromhex(name))
    raw = open(os.path.join(out, "names.prom"), "rb").read()
    try:
        families = parse_exposition(raw.decode("utf-8"))
    except (UnicodeDecodeError, Malformed) as e:
        report.add(False, "names/grammar", str(e))
        return
    report.add(True, "names/grammar", "valid UTF-8 and text format")
    exported = collections.defaultdict(list)
    for labels, _ in families["cgroup_info"]["samples"]:
        if labels["cgroup"].startswith("/delegated/"):
            exported[labels["hierarchy"]].append(undo_utf8_escape(labels["cgroup"]))
    for h in read:
        names, got = sorted(named[h.dump]), sorted(exported.get(h.name, []))
        report.add(got == names and len(set(names)) == 7,
                   "names/%s-every-name-once-and-undoable" % h.name,
                   "named %s, exported %s" % (names, got))


def check_dir(out):
    report = Report()
    for what, code in (l.split() for l in open(os.path.join(out, "cgacctd.status"))):
        report.add(code == "0", "cgacctd-%s-exits-0" % what, "status " + code)
    err = open(os.path.join(out, "cgacctd.err")).read()
    report.add(not err, "cgacctd-stderr-empty", err[:200])

    found, read = read_hierarchies(out)
    before = {h.dump: read_tree(os.path.join(out, "before", h.dump)) for h in found}
    after = {h.dump: read_tree(os.path.join(out, "after", h.dump)) for h in found}
    devices = dict(l.split() for l in open(os.path.join(out, "devices")) if len(l.split()) == 2)
    expect = expectations(read, before, after, devices)

    parsed = {}
    for label, per_cpu in (("metrics", False), ("metrics-per-cpu", True)):
        text = open(os.path.join(out, label + ".prom"), encoding="utf-8").read()
        try:
            families = parse_exposition(text)
        except Malformed as e:
            report.add(False, "%s/grammar" % label, str(e))
            continue
        report.add(True, "%s/grammar" % label, "%d families, %d samples" % (
            len(families), sum(len(f["samples"]) for f in families.values())))
        parsed[label] = (text, families)
        check_values(report, label, families, expect, per_cpu)
        check_coverage(report, label, families, read, before, after)
        check_self_metrics(report, label, families, read)
    if "metrics" in parsed:
        text, families = parsed["metrics"]
        check_workloads(report, families, out, read, before, after)
        check_walk_order(report, out, read, before, after)
        for name, (kind, bad) in mutations(text).items():
            caught = Report()
            try:
                fams = parse_exposition(bad)
                check_values(caught, "m", fams, expect, False)
                check_coverage(caught, "m", fams, read, before, after)
            except Malformed:
                caught.add(False, "grammar")
            report.add(caught.failed(), "checker-catches-" + name, kind)
    check_names(report, out, read)
    # the churn loop must really have raced the walk: churn cgroups visited,
    # or cgroups that vanished between listing and reading
    walked = [l.split("\t")[2] for l in open(os.path.join(out, "walk-order")) if "/churn-" in l]
    vanished = sum(int(sample(f, "cgacct_cgroups_vanished")) for _, f in parsed.values())
    report.add(bool(walked) or vanished > 0, "churn-met-by-the-walk",
               "%d churn cgroups visited (%d vanished while read), %d vanished in all"
               % (len(walked), walked.count("vanished"), vanished))
    return report


def main(argv):
    if argv[1:] == ["--self-test"]:
        failures = self_test()
        for f in failures:
            print("fail grammar-self-test " + f)
        if not failures:
            print("pass grammar-self-test")
        return 1 if failures else 0
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    report = check_dir(argv[1])
    for status, name, detail in report.lines:
        print(("%s %s %s" % (status, name, detail.replace("\n", " "))).rstrip())
    return 1 if report.failed() else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
