#!/usr/bin/env python3
"""The kernel overhead table from tests/bench/sched's samples.

Each sample line: KERNEL WORKLOAD DEPTH READER VALUE WALL, KERNEL one of
unpatched, upstream (the upstream set alone) and full (the whole series);
either patched kernel may be left out (SCHED_KERNELS).
Per workload, depth and reader state: the median on each kernel, and the
overhead of each patched kernel's median over the unpatched one with a 95%
confidence interval from a bootstrap of the medians (each kernel's samples
resampled with replacement).  Last, per patched kernel, the cell with the
largest overhead:
    kernel overhead max: X.XX% (95% CI ±Y.YY) upstream set
    kernel overhead max: X.XX% (95% CI ±Y.YY) full series"""
import random
import statistics
import sys

UNITS = {'pipe': 'us/op', 'hackbench': 's', 'cyclictest': 'ns avg'}
PATCHED = (('upstream', 'upstream set'), ('full', 'full series'))
BOOT = 2000


def overhead_ci(base, patched, rng):
    """The overhead of the medians in percent, and the half-width of its 95%
    bootstrap interval (percentile method, the wider side)."""
    point = (statistics.median(patched) / statistics.median(base) - 1) * 100
    boots = sorted((statistics.median(rng.choices(patched, k=len(patched))) /
                    statistics.median(rng.choices(base, k=len(base))) - 1) * 100
                   for _ in range(BOOT))
    low, high = boots[int(0.025 * BOOT)], boots[int(0.975 * BOOT) - 1]
    return point, max(point - low, high - point)


def main(path):
    rng = random.Random(32)
    samples = {}
    for line in open(path):
        kernel, workload, depth, reader, value, wall = line.split()
        key = (workload, int(depth), int(reader))
        samples.setdefault(key, {}).setdefault(kernel, []).append(float(value))
    present = set().union(*samples.values()) if samples else set()
    patched = [(k, name) for k, name in PATCHED if k in present]
    kernels = {'unpatched'} | {k for k, _ in patched}
    if not patched or any(set(v) != kernels for v in samples.values()):
        sys.exit('no samples for some workload, depth or reader on one of the kernels')

    print(f"{'workload':<11}{'depth':>6}{'reader':>7}{'unpatched':>12}"
          + ''.join(f"{k:>12}{'overhead (95% CI)':>22}" for k, _ in patched) + f"{'runs':>6}  unit")
    worst = {}
    for (workload, depth, reader), by_kernel in sorted(samples.items()):
        row = (f"{workload:<11}{depth:>6}{'yes' if reader else 'no':>7}"
               f"{statistics.median(by_kernel['unpatched']):>12.3f}")
        for kernel, _ in patched:
            point, half = overhead_ci(by_kernel['unpatched'], by_kernel[kernel], rng)
            if kernel not in worst or point > worst[kernel][0]:
                worst[kernel] = (point, half, workload, depth, reader)
            row += f"{statistics.median(by_kernel[kernel]):>12.3f}{point:>+12.2f}% ±{half:5.2f}   "
        runs = min(len(v) for v in by_kernel.values())
        print(row + f"{runs:>6}  {UNITS[workload]}")
    for kernel, name in patched:
        point, half, workload, depth, reader = worst[kernel]
        print(f"{name}: largest at {workload}, depth {depth}, {'with' if reader else 'no'} reader")
    for kernel, name in patched:
        point, half = worst[kernel][:2]
        print(f"kernel overhead max: {point:.2f}% (95% CI ±{half:.2f}) {name}")


if __name__ == '__main__':
    main(sys.argv[1])
