#!/usr/bin/env python3
"""The kernel overhead table from tests/bench/sched's samples.

Each sample line: KERNEL WORKLOAD DEPTH READER VALUE WALL.  Per workload,
depth and reader state the medians on both kernels and the overhead of the
patched one; last, the largest overhead of all."""
import statistics
import sys

UNITS = {'pipe': 'us/op', 'hackbench': 's', 'cyclictest': 'ns avg'}
samples = {}
for line in open(sys.argv[1]):
    kernel, workload, depth, reader, value, wall = line.split()
    key = (workload, int(depth), int(reader))
    samples.setdefault(key, {}).setdefault(kernel, []).append((float(value), float(wall)))

if not samples or any(len(v) != 2 for v in samples.values()):
    sys.exit('no samples for some workload, depth or reader on one of the kernels')

print('values in guest time (1 ns per instruction); wall: host seconds per run')
print(f"{'workload':<11}{'depth':>6}{'reader':>7}{'unpatched':>12}{'patched':>12}"
      f"{'overhead':>10}{'runs':>6}{'wall u':>8}{'wall p':>8}  unit")
worst = None
for (workload, depth, reader), by_kernel in sorted(samples.items()):
    med = {k: statistics.median(v for v, _ in s) for k, s in by_kernel.items()}
    wall = {k: statistics.median(w for _, w in s) for k, s in by_kernel.items()}
    overhead = (med['patched'] / med['unpatched'] - 1) * 100
    if worst is None or overhead > worst[0]:
        worst = (overhead, workload, depth, reader)
    print(f"{workload:<11}{depth:>6}{'yes' if reader else 'no':>7}{med['unpatched']:>12.3f}"
          f"{med['patched']:>12.3f}{overhead:>+9.2f}%{len(by_kernel['patched']):>6}"
          f"{wall['unpatched']:>8.2f}{wall['patched']:>8.2f}  {UNITS[workload]}")
overhead, workload, depth, reader = worst
print(f"largest at {workload}, depth {depth}, {'with' if reader else 'no'} reader")
print(f"kernel overhead max: {overhead:.2f}%")
