#!/usr/bin/env python3
"""Writes the callgrind benchmark's synthetic tree: N cgroups shaped as
cgtree.c makes them (cgroup k is "c<k>" under (k-1)/10), each holding a copy
of the captured v2 fixture files and an empty cgroup.procs (which cgacctd
checks to tell a removed cgroup from an absent file), with ascending cgroup.serial values as the
patched kernel gives them, below ROOT/sys/fs/cgroup (the mount point of
tests/fixtures/v2.mountinfo, which cgacctd --root ROOT then reads).

    scrape-synthetic.py FIXTURE_DIR ROOT N
"""
import os
import sys

fixture, root, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
files = {}
for name in sorted(os.listdir(fixture)):
    with open(os.path.join(fixture, name), 'rb') as f:
        files[name] = f.read()

paths = [os.path.join(root, 'sys/fs/cgroup')]
for k in range(1, n + 1):
    paths.append(os.path.join(paths[(k - 1) // 10], f'c{k}'))
for serial, path in enumerate(paths):
    os.makedirs(path)
    with open(os.path.join(path, 'cgroup.procs'), 'wb'):
        pass
    for name, content in files.items():
        if name == 'cgroup.serial':
            content = f'{serial}\n'.encode()
        with open(os.path.join(path, name), 'wb') as f:
            f.write(content)
