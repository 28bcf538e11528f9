#!/usr/bin/env python3
"""A stand-in for cgacctd that serves every family in dashboards/metrics.txt.

tests/dashboards/run points a throwaway Prometheus at it so that every
dashboard and console query can be run against live, scraped data and the
alert expressions can be seen to match the right groups -- without booting a
guest.  The values are a fixed scenario (counters grow with wall time):

  /demo/spin        one CPU busy, one runnable task, next to no wait
  /demo/throttled   quota of 0.2 CPU, 80% of its periods throttled: one
                    runnable task waiting 0.8 of the time
  /demo/memlimited  at its 64 MiB limit, 5 limit failures and 0.1 OOM kills a second
  /demo/writer      writes 10 MiB/s to vda
  /demo/idle        uses 0.00002 CPUs, as an idle service does
  everything else   quiet: counters grow slowly, no failures, no throttling
  runtimes          podman's socket answers; docker's does not

Usage: fake-cgacctd.py METRICS_TXT PORT_FILE
Listens on 127.0.0.1, an ephemeral port, written to PORT_FILE once bound.
"""
import http.server
import os
import re
import sys
import time

MiB = 1 << 20
CGROUPS = ["/", "/demo", "/demo/spin", "/demo/throttled", "/demo/memlimited",
           "/demo/writer", "/demo/idle", "/system.slice", "/system.slice/cgacctd.service"]
RUNTIMES = {"/run/podman/podman.sock": 1, "/run/docker.sock": 0}  # up
COLLECTORS = ["cpuacct", "cpu", "memory", "hugetlb", "blkio", "pids", "pressure", "walk"]

# Extra labels per family, by name pattern.
EXTRA = [
    (r"^cgroup_blkio_(?!weight)", [{"device": "vda"}]),
    (r"^cgroup_hugetlb_", [{"pagesize": "2MB"}]),
    (r"^cgroup_memory_events_total$",
     [{"event": e} for e in ("low", "high", "max", "oom", "oom_kill", "oom_group_kill")]),
    (r"^cgroup_memory_swap_events_total$", [{"event": e} for e in ("high", "max", "fail")]),
    (r"^cgroup_cpu_usage_per_cpu_seconds_total$", [{"cpu": "0"}, {"cpu": "1"}]),
    (r"^cgroup_cpu_load_average$", [{"window": w} for w in ("1m", "5m", "15m")]),
]
# Limits exist only where one is set ("unlimited limits are absent").
LIMIT = re.compile(r"(_limit_bytes|_limit|_quota_seconds|_per_second|_high_bytes)$")
LIMITED = {"/demo", "/demo/throttled", "/demo/memlimited", "/demo/writer"}
# The kernel series' run-queue wait and load averages are not on the root cgroup.
NOT_ON_ROOT = {"cgroup_cpu_runnable_seconds_total", "cgroup_cpu_wait_seconds_total",
               "cgroup_cpu_load_average"}

# (cgroup, family) -> counter rate per second or gauge value; "*" is any cgroup.
SCENARIO = {
    ("/", "cgroup_cpu_usage_seconds_total"): 1.3,
    ("/demo/spin", "cgroup_cpu_usage_seconds_total"): 1.0,
    ("/demo/spin", "cgroup_cpu_user_seconds_total"): 0.9,
    ("/demo/spin", "cgroup_cpu_system_seconds_total"): 0.1,
    ("/demo/spin", "cgroup_cpu_load_ratio"): 1.0,
    ("/demo/spin", "cgroup_cpu_runnable_seconds_total"): 1.0,
    ("/demo/spin", "cgroup_cpu_wait_seconds_total"): 0.01,
    ("/demo/spin", "cgroup_cpu_load_average"): 1.0,
    ("/demo/throttled", "cgroup_cpu_usage_seconds_total"): 0.2,
    ("/demo/throttled", "cgroup_cpu_runnable_seconds_total"): 1.0,
    ("/demo/throttled", "cgroup_cpu_wait_seconds_total"): 0.8,
    ("/demo/throttled", "cgroup_cpu_load_average"): 1.0,
    ("/demo/throttled", "cgroup_cpu_load_ratio"): 0.2,
    ("/demo/throttled", "cgroup_cpu_periods_total"): 10,
    ("/demo/throttled", "cgroup_cpu_throttled_periods_total"): 8,
    ("/demo/throttled", "cgroup_cpu_throttled_seconds_total"): 0.8,
    ("/demo/throttled", "cgroup_cpu_quota_seconds"): 0.02,
    ("/demo/memlimited", "cgroup_memory_usage_bytes"): 64 * MiB - 4096,
    ("/demo/memlimited", "cgroup_memory_limit_bytes"): 64 * MiB,
    ("/demo/memlimited", "cgroup_memory_inactive_file_bytes"): 1 * MiB,
    ("/demo/memlimited", "cgroup_memory_limit_failures_total"): 5,
    ("/demo/memlimited", "cgroup_memory_oom_kills_total"): 0.1,
    ("/demo/idle", "cgroup_cpu_usage_seconds_total"): 2e-5,
    ("/demo/writer", "cgroup_blkio_write_bytes_total"): 10 * MiB,
    ("/demo/writer", "cgroup_blkio_writes_total"): 100,
    ("*", "cgroup_cpu_period_seconds"): 0.1,
    ("*", "cgroup_cpu_periods_total"): 0,
    ("*", "cgroup_memory_limit_bytes"): 256 * MiB,
    ("*", "cgroup_memory_usage_bytes"): 8 * MiB,
    ("*", "cgroup_memory_inactive_file_bytes"): 2 * MiB,
    ("*", "cgroup_cpu_quota_seconds"): 0.4,
}
# Failure counters stay flat unless the scenario says otherwise.
FLAT = re.compile(r"(limit_failures_total|oom_kills_total|throttled_periods_total|"
                  r"throttled_seconds_total|memory_events_total)$")


def sample_value(family, cgroup, index, elapsed):
    value = SCENARIO.get((cgroup, family), SCENARIO.get(("*", family)))
    counter = family.endswith("_total")
    if value is None:
        if counter:
            value = 0 if FLAT.search(family) else 0.001 * (index + 1)
        else:
            value = 1000 * (index + 1)
    return 100 + value * elapsed if counter else value


def render(families, start):
    elapsed = time.time() - start
    out = []
    for family in families:
        kind = "counter" if family.endswith("_total") else "gauge"
        lines = []
        if family.startswith("cgroup_"):
            extras = next((e for pat, e in EXTRA if re.search(pat, family)), [{}])
            for index, cgroup in enumerate(CGROUPS):
                if LIMIT.search(family) and cgroup not in LIMITED:
                    continue
                if family in NOT_ON_ROOT and cgroup == "/":
                    continue
                for extra in extras:
                    labels = {"cgroup": cgroup, **extra}
                    if family == "cgroup_info":
                        # v2 has no cgroup.serial: the cgroup ID (inode number)
                        labels.update(hierarchy="unified", ino=str(index + 1))
                        value = 1
                    else:
                        value = sample_value(family, cgroup, index, elapsed)
                        if family == "cgroup_memory_events_total" and extra["event"] != "max":
                            value = 100
                    lines.append((labels, value))
        elif family == "cgacct_build_info":
            lines.append(({"version": "0.0.0-fake"}, 1))
        elif family in ("cgacct_collector_success", "cgacct_collector_errors"):
            for c in COLLECTORS:
                lines.append(({"collector": c}, 1 if family.endswith("success") else 0))
        elif family == "cgacct_container_runtime_up":
            lines += [({"socket": socket}, up) for socket, up in RUNTIMES.items()]
        elif family == "cgacct_cgroups":
            lines.append(({"hierarchy": "unified"}, len(CGROUPS)))
        elif family.startswith("cgacct_"):
            lines.append(({}, 0.002 if family.endswith("seconds") else 0))
        else:
            continue
        out.append(f"# HELP {family} fake-cgacctd scenario data.")
        out.append(f"# TYPE {family} {kind}")
        for labels, value in lines:
            text = ",".join(f'{k}="{v}"' for k, v in labels.items())
            out.append(f"{family}{{{text}}} {value:.17g}" if text else f"{family} {value:.17g}")
    return ("\n".join(out) + "\n").encode()


def main():
    metrics_txt, port_file = sys.argv[1], sys.argv[2]
    families = [line.strip() for line in open(metrics_txt)
                if re.match(r"^(cgroup|cgacct)_\w+$", line.strip())]
    start = time.time()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path.split("?")[0] != "/metrics":
                self.send_error(404)
                return
            body = render(families, start)
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(port_file + ".tmp", port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
