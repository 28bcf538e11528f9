#!/usr/bin/env python3
"""What a Prometheus stored from one scrape of cgacctd equals the exposition.

Run in the Debian guest (tests/system/guest.sh):
    stored.py PROM_URL JOB EXPOSITION_URL ACCEPT

Fetches the exposition (asking for ACCEPT: the format the job scrapes in),
waits until the Prometheus at PROM_URL has stored a scrape of JOB served
from the same collection (cgacct_collections_total equal; cgacctd's
min_interval keeps a collection for longer than the scrape interval), and
compares: the same series (name and labels, less Prometheus's job and
instance), every value equal to the exposition's, bit for bit.  Prints one
line saying what it compared; exits 1 on a difference.
"""
import json
import math
import re
import sys
import time
import urllib.parse
import urllib.request

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \S+)?$')
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?')
ESCAPES = {'\\\\': '\\', '\\"': '"', '\\n': '\n'}
COUNTER = 'cgacct_collections_total'


def unescape(value):
    return re.sub(r'\\[\\"n]', lambda m: ESCAPES[m.group(0)], value)


def parse(text):
    """{(name, frozenset(labels)): value}"""
    samples = {}
    for line in text.splitlines():
        if not line or line.startswith('#'):
            continue
        m = SAMPLE.match(line)
        if not m:
            raise ValueError('cannot parse: %r' % line)
        labels = frozenset((k, unescape(v)) for k, v in LABEL.findall(m.group(2) or ''))
        samples[(m.group(1), labels)] = float(m.group(3))
    return samples


def fetch(url, accept):
    req = urllib.request.Request(url, headers={'Accept': accept})
    with urllib.request.urlopen(req, timeout=30) as r:
        return parse(r.read().decode())


def query(prom, expr, at=None):
    args = {'query': expr}
    if at is not None:
        args['time'] = repr(at)
    url = prom + '/api/v1/query?' + urllib.parse.urlencode(args)
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.load(r)['data']['result']


def collections(samples):
    return sum(v for (name, _), v in samples.items() if name == COUNTER)


def same(a, b):
    return a == b or (math.isnan(a) and math.isnan(b))


def stored_scrape(prom, job, at):
    """The series of JOB's scrape at AT, less Prometheus's own."""
    stored = {}
    for row in query(prom, '{job="%s",__name__!~"up|scrape_.*"}' % job, at):
        metric = dict(row['metric'])
        name = metric.pop('__name__')
        metric.pop('job', None)
        metric.pop('instance', None)
        stored[(name, frozenset(metric.items()))] = float(row['value'][1])
    return stored


def main():
    prom, job, url, accept = sys.argv[1:5]
    # cgacctd runs with a min_interval longer than Prometheus's scrape
    # interval (guest.sh sets it): the exposition fetched here and the
    # next scrape of JOB are served from one collection.  Wait for a
    # scrape that has it; fetch anew if the collection moved on first.
    deadline = time.time() + 120
    exposed = fetch(url, accept)
    while True:
        rows = query(prom, 'timestamp(%s{job="%s"})' % (COUNTER, job))
        if rows:
            at = float(rows[0]['value'][1])
            value = query(prom, '%s{job="%s"}' % (COUNTER, job), at)
            if value and float(value[0]['value'][1]) == collections(exposed):
                break
            if value and float(value[0]['value'][1]) > collections(exposed):
                exposed = fetch(url, accept)
        if time.time() > deadline:
            print('no scrape of %s from the collection of the exposition within 120 s' % job)
            return 1
        time.sleep(0.5)
    stored = stored_scrape(prom, job, at)

    problems = []
    for key in sorted(set(exposed) - set(stored), key=str)[:5]:
        problems.append('not stored: %s' % (key,))
    for key in sorted(set(stored) - set(exposed), key=str)[:5]:
        problems.append('stored, not exposed: %s' % (key,))
    equal = 0
    for key in set(exposed) & set(stored):
        if same(exposed[key], stored[key]):
            equal += 1
        else:
            problems.append('%s: exposed %r, stored %r' % (key, exposed[key], stored[key]))
    print('collection %d: %d series exposed, %d stored, %d equal%s'
          % (collections(exposed), len(exposed), len(stored), equal,
             '; ' + '; '.join(problems[:10]) if problems else ''))
    return 1 if problems or not equal else 0


if __name__ == '__main__':
    sys.exit(main())
