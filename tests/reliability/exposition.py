"""What the reliability checks ask of an exposition, on top of the strict
0.0.4 parser of tests/guest/check_exposition.py (grammar, whole families,
no duplicate series): promtool's lint, cgroup identities, counters and
whether any went down."""
import importlib.util
import os
import subprocess

_spec = importlib.util.spec_from_file_location(
    "check_exposition",
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "guest", "check_exposition.py"))
_check = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_check)
Malformed = _check.Malformed
parse = _check.parse_exposition


def promtool_problems(text):
    """What `promtool check metrics` says about text ("" when it is silent)."""
    lint = subprocess.run(["promtool", "check", "metrics"], input=text, text=True,
                          capture_output=True)
    said = (lint.stdout + lint.stderr).strip()
    return said or ("promtool exited %d" % lint.returncode if lint.returncode else "")


def identities(families):
    """{cgroup path: its identity}: the other labels of its cgroup_info series
    (hierarchy and serial or inode), so a cgroup removed and made again under
    the same path is a different one."""
    ids = {}
    for labels, _ in families.get("cgroup_info", {"samples": []})["samples"]:
        rest = tuple(sorted((k, v) for k, v in labels.items() if k != "cgroup"))
        ids.setdefault(labels["cgroup"], set()).add(rest)
    return {path: frozenset(v) for path, v in ids.items()}


def counters(families):
    """{(name, labels): value} of every counter sample."""
    out = {}
    for name, f in families.items():
        if f["type"] == "counter":
            for labels, value in f["samples"]:
                out[(name, tuple(sorted(labels.items())))] = float(value)
    return out


def series(families, skip_prefix="cgacct_"):
    """The set of (name, labels) of every sample but the daemon's own."""
    return {(name, tuple(sorted(labels.items())))
            for name, f in families.items() if not name.startswith(skip_prefix)
            for labels, _ in f["samples"]}


def decreases(prev, cur, same_process=True):
    """Counters that went down from prev to cur, each a (families) pair
    already parsed; only cgroups with the same identity in both are
    compared, and the daemon's own counters only within one process.
    Returns (descriptions, number of samples compared)."""
    prev_ids, cur_ids = identities(prev), identities(cur)
    prev_counters = counters(prev)
    found, compared = [], 0
    for key, value in counters(cur).items():
        if key not in prev_counters:
            continue
        cgroup = dict(key[1]).get("cgroup")
        if cgroup is None and not same_process:
            continue
        if cgroup is not None and prev_ids.get(cgroup) != cur_ids.get(cgroup):
            continue
        compared += 1
        if value < prev_counters[key]:
            found.append("%s%s %s -> %s" % (key[0], dict(key[1]), prev_counters[key], value))
    return found, compared


def value(families, name, **labels):
    """The value of one sample, or None."""
    for l, v in families.get(name, {"samples": []})["samples"]:
        if l == labels:
            return float(v)
    return None
