#!/usr/bin/python3
"""The second client of the churn test: scrapes URL in a loop, as fast as it
can, until STOP_URL answers 200, and judges every exposition:

  - the scrape answered 200;
  - it parses strictly (no duplicate series, families whole) and
    `promtool check metrics` is silent on it;
  - no counter went down since the previous scrape, for every cgroup that
    lived through both (same identity) and for the daemon's own counters.

Prints "pass|fail NAME DETAIL" lines for tests/reliability/run and a
"figure" line; keeps the first failing expositions in ARTIFACTS.

    scrape_loop.py URL STOP_URL ARTIFACTS
"""
import os
import statistics
import sys
import time
import urllib.request

import exposition

KEEP_FAILURES = 5


def fetch(url, timeout=10):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.status, r.read().decode()


def stopped(stop_url):
    try:
        return fetch(stop_url, timeout=5)[0] == 200
    except OSError:
        return False


def judge(text, prev, seen, durations):
    """The problems of one exposition as (kind, text); its families or None."""
    bad = []
    try:
        families = exposition.parse(text)
    except exposition.Malformed as e:
        bad.append(("grammar", str(e)))
        families = None
    lint = exposition.promtool_problems(text)
    if lint:
        bad.append(("promtool", lint[:300]))
    if families is None:
        return bad, None
    seen.update(exposition.identities(families).items())
    durations.append(exposition.value(families, "cgacct_collection_duration_seconds"))
    if prev is not None:
        down, n = exposition.decreases(prev, families)
        judge.compared += n
        bad += [("decrease", d) for d in down]
    return bad, families


judge.compared = 0


def main(url, stop_url, artifacts):
    scrapes = failed = 0
    problems = {"status": [], "grammar": [], "promtool": [], "decrease": []}
    seen, durations, prev = set(), [], None
    start = time.monotonic()
    while not stopped(stop_url):
        scrapes += 1
        try:
            status, text = fetch(url)
        except OSError as e:
            status, text = "error: %s" % e, ""
        if status == 200:
            bad, families = judge(text, prev, seen, durations)
            prev = families or prev
        else:
            bad = [("status", str(status))]
        if bad:
            failed += 1
            for kind, what in bad:
                problems[kind].append("scrape %d: %s" % (scrapes, what))
            if failed <= KEEP_FAILURES:
                with open(os.path.join(artifacts, "failed-scrape-%d.prom" % scrapes), "w") as f:
                    f.write(text)
    took = time.monotonic() - start
    durations = [d for d in durations if d is not None]

    print("figure churn/second-client %d scrapes in %.0f s, %d failed, %d distinct cgroups "
          "seen, %d counter samples compared; collection %.3f s median, %.3f s max"
          % (scrapes, took, failed, len(seen), judge.compared,
             statistics.median(durations) if durations else 0, max(durations, default=0)))
    for name, kind, what in (("second-client-every-scrape-200", "status", "scrapes"),
                             ("every-exposition-parses-no-duplicate-series", "grammar",
                              "expositions"),
                             ("every-exposition-passes-promtool", "promtool", "expositions"),
                             ("surviving-cgroup-counters-never-decrease", "decrease", None)):
        items = problems[kind]
        detail = "; ".join(items[:3]) if items else (
            "%d %s" % (scrapes, what) if what else "%d comparisons" % judge.compared)
        print("%s churn/%s %s" % ("fail" if items else "pass", name, detail))
    if judge.compared == 0:
        print("fail churn/second-client-compared-scrapes no two scrapes to compare")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
