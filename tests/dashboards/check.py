#!/usr/bin/env python3
"""Checks behind tests/dashboards/run.  Prints one line per check:

    pass|fail|skip<TAB>NAME<TAB>DETAIL

  check.py static TOP        structure of the rules, dashboard and consoles,
                             and every metric name they use against
                             dashboards/metrics.txt and exporter/*.c
  check.py live TOP URL      run every dashboard and console query against the
                             Prometheus at URL (scraping fake-cgacctd.py), and
                             check the alerts match the scenario's groups
"""
import glob
import html
import json
import os
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

import yaml

# A metric name of ours: cgroup_* or cgacct_*, not part of a longer word or a
# recording rule name (cgroup:...).
METRIC = re.compile(r"(?<![\w:.-])((?:cgroup|cgacct)_[a-z0-9_]+)")
RECORDED = re.compile(r"(?<![\w:])(cgroup:[a-z0-9_:]+)")
GRAFANA_VARS = {"__rate_interval": "1m", "__interval": "15s", "__range": "1h",
                "__range_s": "3600", "__interval_ms": "15000"}


def report(status, name, detail=""):
    print(f"{status}\t{name}\t{detail}", flush=True)


def paths(top):
    d = os.path.join(top, "dashboards")
    return {
        "rules": sorted(glob.glob(os.path.join(d, "rules", "*.rules.yml"))),
        "tests": sorted(glob.glob(os.path.join(d, "rules", "tests", "*.yml"))),
        "grafana": sorted(glob.glob(os.path.join(d, "grafana", "*.json"))),
        "consoles": sorted(glob.glob(os.path.join(d, "consoles", "*.html"))),
        "metrics": os.path.join(d, "metrics.txt"),
    }


def known_metrics(path):
    return {line.strip() for line in open(path) if line.strip() and not line.startswith("#")}


def grafana_panels(dashboard):
    for panel in dashboard.get("panels", []):
        yield panel
        yield from panel.get("panels", [])  # collapsed rows keep their panels


def grafana_substitute(expr, values=GRAFANA_VARS):
    """Replace Grafana's variables with values Prometheus accepts; unknown ones match anything."""
    def value(name):
        return values.get(name, ".*")
    expr = re.sub(r"\$\{(\w+)(?::\w+)?\}", lambda m: value(m.group(1)), expr)
    expr = re.sub(r"\[\[(\w+)\]\]", lambda m: value(m.group(1)), expr)
    return re.sub(r"\$(\w+)", lambda m: value(m.group(1)), expr)


def grafana_queries(dashboard):
    """(name, expr) for every panel target and query variable, Grafana syntax."""
    for panel in grafana_panels(dashboard):
        for target in panel.get("targets", []):
            yield f"{panel.get('title')}/{target.get('refId')}", target.get("expr", "")
    for var in dashboard.get("templating", {}).get("list", []):
        if var.get("type") != "query":
            continue
        query = var.get("query")
        query = query.get("query", "") if isinstance(query, dict) else query or ""
        m = re.fullmatch(r"\s*label_values\((.*),\s*(\w+)\)\s*", query)
        yield f"variable {var['name']}", m.group(1) if m else query


# ---------------------------------------------------------------- static

def check_rules(p):
    rules = {"groups": [g for path in p["rules"] for g in yaml.safe_load(open(path))["groups"]]}
    alerts = {}
    for group in rules["groups"]:
        for rule in group["rules"]:
            if "alert" in rule:
                alerts[rule["alert"]] = rule
    for name, rule in alerts.items():
        problems = []
        if rule.get("labels", {}).get("severity") not in ("info", "warning", "critical"):
            problems.append("no severity label")
        ann = rule.get("annotations", {})
        for key in ("summary", "description"):
            if key not in ann:
                problems.append(f"no {key}")
        if "$labels.instance" not in ann.get("summary", "") + ann.get("description", ""):
            problems.append("annotations do not name $labels.instance")
        if name.startswith("Cgroup") and "$labels.cgroup" not in ann.get("summary", ""):
            problems.append("summary does not name $labels.cgroup")
        report("fail" if problems else "pass", f"rules/lint/{name}", "; ".join(problems))

    # Every alert needs a unit test where it fires and one where it stays quiet.
    fires, quiet = set(), set()
    for path in p["tests"]:
        for test in yaml.safe_load(open(path)).get("tests", []):
            for case in test.get("alert_rule_test", []):
                (fires if case.get("exp_alerts") else quiet).add(case["alertname"])
    for name in alerts:
        missing = [w for w, s in (("firing", fires), ("quiet", quiet)) if name not in s]
        report("fail" if missing else "pass", f"rules/tested/{name}",
               "no unit test where it is " + " or ".join(missing) if missing else "")
    return rules


def check_grafana(path):
    base = os.path.basename(path)
    try:
        dashboard = json.load(open(path))
    except ValueError as e:
        report("fail", f"grafana/{base}/json", str(e))
        return None
    report("pass", f"grafana/{base}/json")
    problems = []
    if not 36 <= dashboard.get("schemaVersion", 0) <= 39:
        problems.append(f"schemaVersion {dashboard.get('schemaVersion')}")
    if not dashboard.get("uid"):
        problems.append("no uid")
    variables = {v["name"]: v for v in dashboard.get("templating", {}).get("list", [])}
    if variables.get("datasource", {}).get("type") != "datasource":
        problems.append("no datasource variable")
    for name in ("instance", "cgroup"):
        v = variables.get(name, {})
        if v.get("type") != "query" or not v.get("multi"):
            problems.append(f"no multi-select query variable {name}")
    ids = [panel.get("id") for panel in grafana_panels(dashboard)]
    if len(ids) != len(set(ids)):
        problems.append("duplicate panel ids")
    report("fail" if problems else "pass", f"grafana/{base}/structure", "; ".join(problems))

    bad = []
    for panel in grafana_panels(dashboard):
        if panel.get("type") == "row":
            continue
        title = panel.get("title", "?")
        targets = panel.get("targets", [])
        if not targets or not all(t.get("expr", "").strip() for t in targets):
            bad.append(f"{title}: a target without expr")
        for ds in [panel.get("datasource")] + [t.get("datasource") for t in targets]:
            if not ds or ds.get("uid") != "${datasource}":
                bad.append(f"{title}: datasource is not ${{datasource}}")
                break
        used = set(re.findall(r"\$\{?(\w+)", json.dumps(targets)))
        undefined = used - set(variables) - set(GRAFANA_VARS)
        if undefined:
            bad.append(f"{title}: undefined variables {sorted(undefined)}")
    report("fail" if bad else "pass", f"grafana/{base}/panels", "; ".join(bad))
    return dashboard


def check_names(p, rules, dashboards, top):
    known = known_metrics(p["metrics"])
    files = p["rules"] + p["grafana"] + p["consoles"]
    recorded = {r["record"] for g in rules["groups"] for r in g["rules"] if "record" in r}
    used = set()
    for path in files:
        text = open(path).read()
        rel = os.path.relpath(path, top)
        names = set(METRIC.findall(text))
        used |= names
        unknown = sorted(names - known)
        report("fail" if unknown else "pass", f"names/{rel}",
               f"not in dashboards/metrics.txt: {' '.join(unknown)}" if unknown else
               f"{len(names)} metric names")
        unrecorded = sorted(set(RECORDED.findall(text)) - recorded)
        if unrecorded:
            report("fail", f"names/{rel}/recorded", "no recording rule: " + " ".join(unrecorded))

    # metrics.txt must still match what the code spells: the metric rows
    # (model/metric-rows.h) and the self-metrics (exporter/, daemon/).
    where = "model/metric-rows.h, exporter/*.c or daemon/*.c"
    sources = [os.path.join(top, "model", "metric-rows.h")] + \
        glob.glob(os.path.join(top, "exporter", "*.c")) + \
        glob.glob(os.path.join(top, "daemon", "*.c"))
    spelt = set()
    for path in sources:
        spelt |= set(re.findall(r'"((?:cgroup|cgacct)_[a-z0-9_]+)"', open(path).read()))
    ours = {n for n in known if re.match(r"(cgroup|cgacct)_", n)}
    gone = sorted(ours - spelt)
    report("fail" if gone else "pass", "names/exporter",
           f"in dashboards/metrics.txt but not in {where}: " + " ".join(gone) if gone
           else f"all {len(ours)} names are spelt in {where}")
    unused = sorted(ours - used)
    print(f"# {len(unused)} names in metrics.txt are not used by any dashboard file", flush=True)


def static(top):
    p = paths(top)
    rules = check_rules(p)
    dashboards = [d for d in (check_grafana(g) for g in p["grafana"]) if d]
    check_names(p, rules, dashboards, top)


# ---------------------------------------------------------------- live

def get(url, timeout=10):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(errors="replace")


def query(base, expr):
    """(status, number of series or error text)."""
    status, body = get(f"{base}/api/v1/query?" + urllib.parse.urlencode({"query": expr}))
    try:
        doc = json.loads(body)
    except ValueError:
        return status, body[:200]
    if status != 200:
        return status, doc.get("error", body[:200])
    return status, len(doc["data"]["result"]) if doc["data"]["resultType"] in ("vector", "matrix") else 1


def check_queries(base, label, queries, need_data=True):
    """Every query must parse; with need_data, every query *shape* (the query
    with its cgroup="..." value blanked) must return data for some cgroup: an
    unlimited group rightly has no limit series, but some group must."""
    problems, shapes = [], {}
    for name, expr in queries:
        status, res = query(base, expr)
        if status == 400:
            problems.append(f"{name}: parse error: {res}")
        elif status != 200:
            problems.append(f"{name}: HTTP {status}: {res}")
        else:
            shape = re.sub(r'cgroup="(?:[^"\\]|\\.)*"', 'cgroup="..."', expr)
            shapes[shape] = shapes.get(shape, False) or res != 0
    if need_data:
        problems += [f"no data: {shape}" for shape, data in shapes.items() if not data]
    more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
    report("fail" if problems else "pass", label,
           "; ".join(problems[:3]) + more if problems else
           f"{len(queries)} queries, {len(shapes)} distinct")


def console_queries(page):
    """The PromQL a rendered console page runs: drilldown links and graph exprs."""
    exprs = [urllib.parse.parse_qs(urllib.parse.urlsplit(html.unescape(href)).query)["g0.expr"][0]
             for href in re.findall(r'href="([^"]*graph\?g0\.expr=[^"]*)"', page)]
    for block in re.findall(r"expr:\s*\[(.*?)\]\s*,\s*\n", page, re.S):
        exprs += [json.loads(s) for s in re.findall(r'"(?:[^"\\]|\\.)*"', block)]
    return exprs


def wait_for(base, expr, deadline):
    while time.time() < deadline:
        status, n = query(base, expr)
        if status == 200 and n:
            return True
        time.sleep(1)
    return False


def live(top, base):
    p = paths(top)
    deadline = time.time() + 60
    # Rates need two scrapes; the 2m-window alerts a few evaluations.
    ok = wait_for(base, 'up{job="cgacct"} == 1', deadline) and \
        wait_for(base, "cgroup:cpu_throttled_periods:ratio_rate2m > 0", deadline) and \
        wait_for(base, "count_over_time(up[1m]) > 5", deadline)
    report("pass" if ok else "fail", "live/scrape", "" if ok else "no data from fake-cgacctd in 60 s")
    if not ok:
        return

    status, body = get(f"{base}/api/v1/rules")
    groups = json.loads(body)["data"]["groups"] if status == 200 else []
    bad = [f"{r['name']}: {r.get('lastError')}" for g in groups for r in g["rules"]
           if r.get("health") != "ok"]
    report("pass" if groups and not bad else "fail", "live/rules-loaded",
           "; ".join(bad) or f"{sum(len(g['rules']) for g in groups)} rules healthy")

    for path in p["grafana"]:
        dashboard = json.load(open(path))
        base_name = os.path.basename(path)
        for name, expr in grafana_queries(dashboard):
            check_queries(base, f"live/grafana/{base_name}/{name}", [(name, grafana_substitute(expr))])

    instance = None
    status, body = get(f"{base}/api/v1/query?query=" + urllib.parse.quote('up{job="cgacct"}'))
    if status == 200:
        instance = json.loads(body)["data"]["result"][0]["metric"]["instance"]
    pages = [
        ("cgacct-overview.html", {}, ["/demo/memlimited", "/demo/throttled", "spin"], True),
        ("cgacct-overview.html", {"instance": instance},
         ["/demo/writer", instance, "/run/docker.sock not answering"], True),
        ("cgacct-overview.html", {"instance": "nowhere:1"}, ["No cgacctd data"], False),
        ("cgacct-cgroup.html", {"instance": instance, "cgroup": "/demo/memlimited"},
         ["/demo/memlimited", "parent"], True),
        ("cgacct-cgroup.html", {"instance": instance, "cgroup": "/"},
         ["children", "demo"], False),
        ("cgacct-cgroup.html", {}, ["needs"], False),
    ]
    for page, params, expect, need_data in pages:
        label = f"live/console/{page}" + (f"?{urllib.parse.urlencode(params)}" if params else "")
        status, body = get(f"{base}/consoles/{page}?{urllib.parse.urlencode(params)}")
        problems = []
        if status != 200:
            problems.append(f"HTTP {status}: {body[:300]}")
        else:
            if "<no value>" in body or "ZgotmplZ" in body:
                problems.append("template printed <no value> or ZgotmplZ")
            problems += [f"does not show {e!r}" for e in expect if e not in body]
            # Numbers as people read them: none in e-notation (5e+03, 1.2e-05).
            text = html.unescape(re.sub(r"<[^>]*>", " ", re.sub(r"<script.*?</script>", "", body, flags=re.S)))
            problems += [f"writes {e} in e-notation" for e in
                         sorted(set(re.findall(r"\d(?:\.\d+)?e[+-]\d+", text)))[:3]]
        report("fail" if problems else "pass", label, "; ".join(problems))
        if status == 200:
            exprs = console_queries(body)
            check_queries(base, label + "/queries", [(e, e) for e in exprs], need_data)

    # The alert expressions pick exactly the scenario's groups (or runtime
    # sockets).  `for:` is longer than this run, so pending counts as matched.
    expected = {
        "CgroupMemoryLimitHit": {"/demo/memlimited"},
        "CgroupMemoryNearLimit": {"/demo/memlimited"},
        "CgroupOOMKill": {"/demo/memlimited"},
        "CgroupCPUThrottlingHigh": {"/demo/throttled"},
        "CgroupHugetlbLimitHit": set(),
        "CgacctTargetDown": set(),
        "CgacctCollectorFailing": set(),
        "CgacctContainerRuntimeUnreachable": {"/run/docker.sock"},
    }
    deadline = time.time() + 30
    while True:
        status, body = get(f"{base}/api/v1/alerts")
        active = {}
        for a in json.loads(body)["data"]["alerts"] if status == 200 else []:
            active.setdefault(a["labels"]["alertname"], set()).add(
                a["labels"].get("cgroup", a["labels"].get("socket", "-")))
        if all(active.get(k, set()) == v for k, v in expected.items()) or time.time() > deadline:
            break
        time.sleep(1)
    for name, want in expected.items():
        got = active.get(name, set())
        report("pass" if got == want else "fail", f"live/alert/{name}",
               f"active for {sorted(got) or 'none'}" + ("" if got == want else f", want {sorted(want) or 'none'}"))


if __name__ == "__main__":
    if sys.argv[1] == "static":
        static(sys.argv[2])
    elif sys.argv[1] == "live":
        live(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
