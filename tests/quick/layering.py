#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The include layering of the userspace C code, checked.

Every include of a project header names it from the top of the tree
("base/strbuf.h"), so the folder a file reaches into is in the include
itself. Each folder is a layer and may include only from the layers it is
built on (LAYERS below); and no two modules (a.c with a.h) may include each
other, directly or through others, since that is two files calling each
other in a circle. Prints each violation and exits 1 if there is one.

    layering.py [ROOT]
"""
import os
import re
import subprocess
import sys

# Each top-level folder is a layer, listed from the ground up with what it
# is built on: one line per folder. tests/ may use everything.
LAYERS = {
    'base': [],
    'model': ['base'],
    'config': ['model', 'base'],
    'collector': ['model', 'base'],
    'exporter': ['config', 'model', 'base'],
    'daemon': ['exporter', 'collector', 'config', 'model', 'base'],
}

# The order of LAYERS is the order from the ground up: a layer is built only
# on layers before it, so no include can run from a lower folder to a higher.
assert all(dep in list(LAYERS)[:i] for i, deps in enumerate(LAYERS.values()) for dep in deps)

# vm/ builds and boots what tests/ use, never the other way: a path into
# the repository's tests/ folder from vm/ would make the two a circle.
# ("selftests/" is the kernel's.)
TESTS_PATH = re.compile(r'(?<![\w.-])tests/')

# Headers the build generates in its own copy of their folder, which the
# layer they are in rules as if they were in the tree.
GENERATED = {'collector/bpf/cgacct.skel.h'}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(path):
    top = path.split('/', 1)[0]
    return top if top in LAYERS and '/' in path else None


def sources(root):
    try:
        out = subprocess.run(['git', '-C', root, 'ls-files', '--cached', '--others',
                              '--exclude-standard', '*.c', '*.h'],
                             check=True, capture_output=True, text=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        out = [os.path.relpath(os.path.join(d, f), root)
               for d, _, fs in os.walk(root) for f in fs if f.endswith(('.c', '.h'))]
    return sorted(p for p in out if layer_of(p) and os.path.exists(os.path.join(root, p)))


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
    known = set(files) | GENERATED
    for path in files:
        layer = layer_of(path)
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
            to_layer = layer_of(target)
            if to_layer != layer and to_layer not in LAYERS[layer]:
                problems.append(f'{path}:{lineno}: {layer}/ may not include {target}: '
                                f'{layer}/ is built on {", ".join(LAYERS[layer]) or "nothing"}')
            dep = os.path.splitext(target)[0]
            if dep != module:
                graph.setdefault(module, set()).add(dep)
    for comp in find_cycles(graph):
        problems.append('modules include each other in a circle: ' + ' -> '.join(comp))
    return problems + scripts_below_tests(root), len(files)


def scripts_below_tests(root):
    problems = []
    for dirpath, _, names in os.walk(os.path.join(root, 'vm')):
        for name in sorted(names):
            path = os.path.join(dirpath, name)
            try:
                text = open(path, encoding='utf-8').read()
            except (OSError, UnicodeDecodeError):
                continue
            for lineno, line in enumerate(text.splitlines(), 1):
                if TESTS_PATH.search(line):
                    problems.append(f'{os.path.relpath(path, root)}:{lineno}: vm/ may not use '
                                    'tests/ (tests/ is built on vm/)')
    return problems


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..')
    problems, n = check(os.path.abspath(root))
    for p in problems:
        print(p)
    print(f'layering: {n} files, {len(problems)} problems')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
