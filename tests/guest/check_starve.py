#!/usr/bin/python3
"""Judges starve-guest.sh's figures (lines "SECONDS WAIT USAGE LOAD1M" of
the starved cgroup, one per scrape every 2 s, LOAD1M "-" before cgacctd
has an interval): prints "pass|fail NAME DETAIL" lines.

- wait-grows-while-starved: over the scrapes, the wait grows by at least
  25/30 s per second (issue 32's acceptance figure: 25 s of wait over 30 s
  of starvation), while the task starves, not when it runs again, over a
  span of at least 20 s;
- task-barely-ran: the usage grows by less than 0.1 s per second;
- load-average-reads-one: from the second scrape that reads the cgroup on,
  its 1-minute load average is at least 0.9: one task runnable throughout
  (it would fall towards 0 if waits counted only once they ended).

    check_starve.py STARVE.TXT
"""
import sys


def main(path):
    rows = [line.split() for line in open(path) if len(line.split()) == 4]
    rows = [r for r in rows if r[1] != "-"]
    if len(rows) < 5:
        print("fail figures only %d scrapes read the starved cgroup" % len(rows))
        return 1
    t0, w0, u0, _ = rows[0]
    t1, w1, u1, _ = rows[-1]
    span = float(t1) - float(t0)
    waited = float(w1) - float(w0)
    ran = float(u1) - float(u0)
    print("%s wait-grows-while-starved %.1f s of wait over %.1f s of scrapes (want >= 25 s per 30 s)"
          % ("pass" if span >= 20 and waited >= 25.0 / 30.0 * span else "fail", waited, span))
    print("%s task-barely-ran %.3f s of usage over %.1f s (want < 0.1 per s)"
          % ("pass" if ran < 0.1 * span else "fail", ran, span))
    loads = [r[3] for r in rows[1:]]
    low = [l for l in loads if l == "-" or float(l) < 0.9]
    print("%s load-average-reads-one 1m load averages %s (want each >= 0.9)"
          % ("fail" if low or not loads else "pass", " ".join(loads)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
