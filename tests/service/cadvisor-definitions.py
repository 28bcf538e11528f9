#!/usr/bin/python3
"""Holds a naming: cadvisor exposition (text format, on stdin) against
tests/fixtures/cadvisor-definitions: every container_* family is there,
with its type, and every series has exactly id, image, name and the
family's own labels. Prints what differs; exits 1 if anything does."""
import re
import sys

BASE = {"id", "image", "name"}


def definitions(path):
    defs = {}
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            name, rest = line.split(None, 1)
            m = re.match(r"(?:\[(\w+)\])?(\w+)\s+(\S+)", rest.strip())
            labels = set() if m.group(3) == "-" else set(m.group(3).split(","))
            defs[name] = (m.group(2), labels)
    return defs


def main(path):
    defs = definitions(path)
    wrong, seen = [], set()
    for line in sys.stdin:
        m = re.match(r"# TYPE (container_\w+) (\w+)$", line)
        if m:
            name, kind = m.groups()
            seen.add(name)
            if name not in defs:
                wrong.append("%s: no cAdvisor definition" % name)
            elif defs[name][0] != kind:
                wrong.append("%s: type %s, the table says %s" % (name, kind, defs[name][0]))
            continue
        m = re.match(r"(container_\w+)\{(.*)\} \S+$", line)
        if not m or m.group(1) not in defs:
            continue
        names = set(re.findall(r'(\w+)="(?:[^"\\]|\\.)*"', m.group(2)))
        want = BASE | defs[m.group(1)][1]
        if names != want:
            wrong.append("%s: labels %s, cAdvisor's %s" % (line.strip(), sorted(names), sorted(want)))
    for w in wrong:
        print(w)
    print("%d families checked" % len(seen))
    return 1 if wrong or not seen else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
