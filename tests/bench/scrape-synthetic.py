#!/usr/bin/env python3
"""Writes the callgrind benchmark's synthetic tree: N cgroups shaped as
cgtree.c makes them (cgroup k is "c<k>" under (k-1)/10), in the layout of
a captured fixture, below ROOT (which cgacctd --root ROOT then reads with
the fixture's mountinfo):

  v2  one tree at sys/fs/cgroup, each cgroup a copy of every fixture file;
  v1  the same tree in each hierarchy of tests/fixtures/v1.mountinfo, each
      cgroup holding the fixture files of that hierarchy's controllers.

Every cgroup also gets an empty cgroup.procs (which cgacctd checks to tell
a removed cgroup from an absent file); on v1 also a cgroup.serial,
ascending and unique across hierarchies as the seed set's kernel gives
them.  On v2 the identity is the cgroup ID, the inode number, which tmpfs
too hands out in creation order.

    scrape-synthetic.py LAYOUT FIXTURE_DIR MOUNTINFO ROOT N
"""
import os
import sys

layout, fixture, mountinfo, root, n = sys.argv[1:5] + [int(sys.argv[5])]
files = {}
for name in sorted(os.listdir(fixture)):
    with open(os.path.join(fixture, name), 'rb') as f:
        files[name] = f.read()

# (mount point, the files its cgroups hold)
hierarchies = []
with open(mountinfo) as f:
    for line in f:
        fields = line.split()
        fstype, options = fields[fields.index('-') + 1], fields[-1].split(',')
        if layout == 'v2' and fstype == 'cgroup2':
            hierarchies.append((fields[4], dict(files)))
        elif layout == 'v1' and fstype == 'cgroup':
            mine = {k: v for k, v in files.items() if k.split('.')[0] in options}
            hierarchies.append((fields[4], mine))

serial = 0
for mount, mine in hierarchies:
    paths = [os.path.join(root, mount.lstrip('/'))]
    for k in range(1, n + 1):
        paths.append(os.path.join(paths[(k - 1) // 10], f'c{k}'))
    for i, path in enumerate(paths):
        os.makedirs(path)
        with open(os.path.join(path, 'cgroup.procs'), 'wb'):
            pass
        if layout == 'v1':
            with open(os.path.join(path, 'cgroup.serial'), 'wb') as f:
                f.write(f'{0 if i == 0 else serial}\n'.encode())
            serial += 1
        for name, content in mine.items():
            if name != 'cgroup.serial':
                with open(os.path.join(path, name), 'wb') as f:
                    f.write(content)
