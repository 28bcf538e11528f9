#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The include layering of the userspace C code, checked.

Every include of a project header names it from the top of the tree
("base/strbuf.h"), so the folder a file reaches into is in the include
itself. Each folder is a layer and may include only from the layers it is
built on (ROOMS below); and no two modules (a.c with a.h) may include each
other, directly or through others, since that is two files calling each
other in a circle. Prints each violation and exits 1 if there is one.

    layering.py [ROOT]
"""
import os
import re
import subprocess
import sys

# Each layer and what it is built on, from the ground up. A file belongs to
# the longest folder here that holds it; tests/ may use everything.
ROOMS = {
    'base': [],
    'config': ['base'],
    'exporter/model': ['base'],
    'exporter': ['exporter/model', 'config', 'base'],
    'daemon/collector': ['exporter/model', 'base'],
    'daemon': ['daemon/collector', 'exporter', 'exporter/model', 'config', 'base'],
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def room_of(path):
    best = None
    for room in ROOMS:
        if path.startswith(room + '/') and (best is None or len(room) > len(best)):
            best = room
    return best


def sources(root):
    try:
        out = subprocess.run(['git', '-C', root, 'ls-files', '--cached', '--others',
                              '--exclude-standard', '*.c', '*.h'],
                             check=True, capture_output=True, text=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        out = [os.path.relpath(os.path.join(d, f), root)
               for d, _, fs in os.walk(root) for f in fs if f.endswith(('.c', '.h'))]
    return sorted(p for p in out if room_of(p) and os.path.exists(os.path.join(root, p)))


def find_cycles(graph):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def check(root):
    problems = []
    graph = {}
    files = sources(root)
    known = set(files)
    for path in files:
        room = room_of(path)
        module = os.path.splitext(path)[0]
        text = open(os.path.join(root, path), encoding='utf-8', errors='replace').read()
        for lineno, line in enumerate(text.splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            target = m.group(1)
            if target not in known:
                problems.append(f'{path}:{lineno}: "{target}" is not a header of the tree '
                                '(name project headers from the top: "base/util.h")')
                continue
            to_room = room_of(target)
            if to_room != room and to_room not in ROOMS[room]:
                problems.append(f'{path}:{lineno}: {room}/ may not include {target}: '
                                f'{room}/ is built on {", ".join(ROOMS[room]) or "nothing"}')
            dep = os.path.splitext(target)[0]
            if dep != module:
                graph.setdefault(module, set()).add(dep)
    for comp in find_cycles(graph):
        problems.append('modules include each other in a circle: ' + ' -> '.join(comp))
    return problems, len(files)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..')
    problems, n = check(os.path.abspath(root))
    for p in problems:
        print(p)
    print(f'layering: {n} files, {len(problems)} problems')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
