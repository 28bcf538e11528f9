#!/usr/bin/env python3
"""Turns the scrape benchmark's figures into tables: one per layout from the
guests' "R ..." lines (scrape-guest.sh), the callgrind lines, a verdict per
acceptance point (figures only: nothing here fails a run) with the peer
comparison at equal data and per file read, then the warm
cgacctd/floor ratio at the largest tree, and last the same for the scrape as
Prometheus asks for it (OpenMetrics, gzip).

    scrape-table.py LAYOUT=GUEST_LOG... [callgrind=FILE]

tests/bench/README.md explains every column.
"""
import collections
import statistics
import sys

MIB = 1 << 20


def parse(path):
    """{kind: {n: [fields...]}} from the R lines; repeated lines append."""
    figures = collections.defaultdict(lambda: collections.defaultdict(list))
    for line in open(path, errors='replace'):
        parts = line.split()
        if len(parts) < 3 or parts[0] != 'R':
            continue
        kind = parts[1]
        if kind in ('files', 'filekinds', 'missing'):
            figures[kind + '_' + parts[2]][int(parts[3])].append(parts[4:])
        else:
            figures[kind][int(parts[2])].append(parts[3:])
    return figures


def field(rows, key):
    """Values of "key VALUE" pairs across rows."""
    out = []
    for row in rows:
        pairs = dict(zip(row[::2], row[1::2]))
        if key in pairs:
            out.append(float(pairs[key]))
    return out


def strings(rows, key):
    """String values of "key VALUE" pairs across rows."""
    return [dict(zip(row[::2], row[1::2])).get(key) for row in rows]


PROM_TYPE = 'application/openmetrics-text'


def prom_check(rows, body):
    """What is wrong with the Prometheus-style scrapes and their kept body; [] if nothing."""
    wrong = []
    types = {t for t in strings(rows, 'type') if t is not None}
    encs = {e for e in strings(rows, 'enc') if e is not None}
    statuses = {s for s in strings(rows, 'status') if s is not None}
    if statuses - {'200'}:
        wrong.append(f'status {",".join(sorted(statuses))}')
    if types and not all(t.startswith(PROM_TYPE + ';') or t == PROM_TYPE for t in types):
        wrong.append(f'Content-Type {",".join(sorted(types))}')
    if encs and encs != {'gzip'}:
        wrong.append(f'Content-Encoding {",".join(sorted(encs))}')
    if not body:
        wrong.append('no kept body')
    elif not field(body, 'bytes')[0]:
        wrong.append('the kept body does not gunzip')
    elif not field(body, 'eof')[0]:
        wrong.append('the kept body does not end with "# EOF"')
    return wrong


def median_ms(rows, key='ns'):
    values = field(rows, key)
    return statistics.median(values) / 1e6 if values else None


def fmt(v, spec='.1f'):
    return '-' if v is None else format(v, spec)


def ratio(a, b):
    return a / b if a is not None and b else None


def paired(a, b):
    """Median of a[i] / b[i]: rounds take turns, so each pair saw the same load."""
    pairs = [x / y for x, y in zip(a, b) if y]
    return statistics.median(pairs) if pairs else None


def files_read(f, who, n):
    """Files a warm scrape of who reads at n: those its collection opened,
    less cgroup.serial (cgacctd reads a cgroup's once and remembers it)."""
    kinds = f['filekinds_' + who].get(n)
    if not kinds:
        return None
    counts = dict(k.rsplit('=', 1) for k in kinds[0])
    return sum(int(v) for k, v in counts.items() if k != 'cgroup.serial')


def per_file_us(ns_rows, files):
    values = field(ns_rows, 'ns')
    return statistics.median(values) / 1e3 / files if values and files else None


def equal_data(f, n):
    """cgacctd at equal data (only the controllers systemd-cgtop reads) beside
    full data and the peer, per cgroup and per file read; None without figures."""
    if n not in f['equal'] or n not in f['peer']:
        return None
    cgroups = n + 1
    warm, equal, peer = (field(f[k][n], 'ns') for k in ('warm', 'equal', 'peer'))
    reads = {who: files_read(f, who, n) for who in ('cgacctd', 'equal', 'cgtop')}
    return dict(
        controllers=f['equal_controllers'][0][0][0] if f['equal_controllers'].get(0) else '?',
        full=statistics.median(warm) / 1e3 / cgroups,
        equal=statistics.median(equal) / 1e3 / cgroups,
        peer=statistics.median(peer) / 1e3 / cgroups,
        full_peer=paired(warm, peer), equal_peer=paired(equal, peer),
        files={who: reads[who] / cgroups if reads[who] else None for who in reads},
        per_file=dict(cgacctd=per_file_us(f['warm'][n], reads['cgacctd']),
                      equal=per_file_us(f['equal'][n], reads['equal']),
                      cgtop=per_file_us(f['peer'][n], reads['cgtop'])))


def layout_table(layout, f):
    sizes = sorted(f['floor'])
    rows, summary = [], {}
    per_cg, floor_per_cg = {}, {}
    for n in sizes:
        cgroups = n + 1
        floor = statistics.median(float(r[0]) for r in f['floor'][n]) / 1e6
        cold = median_ms(f['cold'][n])
        warm = median_ms(f['warm'][n])
        prom = median_ms(f['prom'][n]) if n in f['prom'] else None
        collect = float(f['collect'][n][0][0]) * 1e3 if f['collect'].get(n) else None
        peer = median_ms(f['peer'][n]) if n in f['peer'] else None
        body = field(f['warm'][n], 'body')
        # The compressed size is that of the Prometheus-style scrape's body.
        gz = field(f['prom'][n], 'body') if n in f['prom'] else []
        rss = float(f['rss'][n][0][0]) / 1024 if n in f['rss'] else None
        kmem = f['kernel_mem'][n][0] if n in f['kernel_mem'] else ['-', '-']
        dying = f['dying'][n][0] if n in f['dying'] else ['-', '-', '-']
        ours = f['files_cgacctd'][n][0] if n in f['files_cgacctd'] else None
        theirs = f['files_cgtop'][n][0] if n in f['files_cgtop'] else None
        floors = [float(r[0]) for r in f['floor'][n]]
        floors1 = [float(r[0]) for r in f['floor1'][n]]
        floor1 = statistics.median(floors1) / 1e6 if floors1 else None
        floorsw = [float(r[0]) for r in f['floorw'][n]]
        warm_floor = paired(field(f['warm'][n], 'ns'), floors)
        warm_floor1 = paired(field(f['warm'][n], 'ns'), floors1)
        warm_floorw = paired(field(f['warm'][n], 'ns'), floorsw)
        prom_floor = paired(field(f['prom'][n], 'ns'), floors) if n in f['prom'] else None
        held = '+'.join(f['held'][n][0][:2]) if f['held'].get(n) else '-'
        warm_peer = paired(field(f['warm'][n], 'ns'), field(f['peer'][n], 'ns'))
        per_cg[n] = warm * 1e3 / cgroups if warm else None
        floor_per_cg[n] = floor * 1e3 / cgroups
        growth = floor_growth = None
        smaller = [m for m in sizes if m < n]
        if smaller and per_cg.get(smaller[-1]):
            growth = per_cg[n] / per_cg[smaller[-1]]
            floor_growth = floor_per_cg[n] / floor_per_cg[smaller[-1]]
        rows.append([
            str(n), fmt(floor), fmt(floor1), fmt(cold), fmt(warm), fmt(prom), fmt(collect),
            fmt(peer), fmt(ratio(cold, floor), '.2f'), fmt(warm_floor, '.2f'),
            fmt(prom_floor, '.2f'), fmt(warm_floor1, '.2f'),
            fmt(warm_floorw, '.2f'),
            fmt(warm_peer, '.2f'), fmt(per_cg[n]), fmt(growth, '.2f'),
            fmt(rss), fmt(body[0] / MIB if body else None, '.2f'),
            fmt(gz[0] / MIB if gz else None, '.2f'),
            ours[0] if ours else '-', theirs[0] if theirs else '-',
            held, f'{kmem[0]}', f'{dying[1]}/{dying[2]}',
        ])
        fastest = lambda rows: min(field(rows, 'ns')) / 1e6 if field(rows, 'ns') else None
        summary[n] = dict(floor=floor, cold=cold, warm=warm, peer=peer, rss=rss,
                          warm_floor=warm_floor, warm_floor1=warm_floor1,
                          warm_floorw=warm_floorw, held=held, prom_floor=prom_floor,
                          prom_body=f['prom_body'][n][0] if n in f['prom_body'] else None,
                          prom_type=(strings(f['prom'][n], 'type') or [None])[0],
                          prom_wrong=prom_check(f['prom'][n], f['prom_body'].get(n))
                          if n in f['prom'] else None,
                          floor_min=min(float(r[0]) for r in f['floor'][n]) / 1e6,
                          warm_min=fastest(f['warm'][n]),
                          prom_min=fastest(f['prom'][n]) if n in f['prom'] else None,
                          peer_min=fastest(f['peer'][n]) if n in f['peer'] else None,
                          growth=growth, floor_growth=floor_growth, per_cg=per_cg[n], kmem=kmem, dying=dying,
                          ours=ours, theirs=theirs, equal=equal_data(f, n),
                          peer_per_cg=peer * 1e3 / cgroups if peer else None)
    head = ['cgroups', 'floor ms', 'floor1 ms', 'cold ms', 'warm ms', 'prom ms', 'collect ms',
            'peer ms', 'cold/floor', 'warm/floor', 'prom/floor', 'warm/floor1', 'warm/floorw',
            'warm/peer', 'us/cgroup', 'growth',
            'RSS MiB', 'body MiB', 'gzip MiB', 'files/cg', 'peer f/cg', 'held', 'slab KiB',
            'dying w/o/with']
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(head)]
    print(f'-- {layout} layout')
    print('  '.join(h.rjust(w) for h, w in zip(head, widths)))
    for r in rows:
        print('  '.join(c.rjust(w) for c, w in zip(r, widths)))
    for n in sizes:
        if n in f['peer_error']:
            print(f'peer at {n}: systemd-cgtop failed: {" ".join(f["peer_error"][n][0])}')
        if summary[n]['prom_wrong']:
            print(f'prom at {n}: not what Prometheus asked for: '
                  f'{"; ".join(summary[n]["prom_wrong"])}')
        elif n not in f['prom']:
            print(f'prom at {n}: no Prometheus-style scrapes in the log')
    return summary


def verdicts(layout, s):
    n = max(s)
    big = s[n]
    mark = lambda ok: 'met' if ok else 'NOT met'
    out = []
    if big['warm_floor']:
        r = big['warm_floor']
        best = big['warm_min'] / big['floor_min']
        out.append(f'warm cgacctd/floor at {n}: {r:.2f} (<= 1.1: {mark(r <= 1.1)}); '
                   f'fastest round over fastest round: {best:.2f}')
    if big['prom_floor']:
        r = big['prom_floor']
        best = big['prom_min'] / big['floor_min']
        out.append(f'gzip warm cgacctd/floor at {n}: {r:.2f} (as Prometheus 2.42 asks: '
                   f'OpenMetrics, gzip); fastest round over fastest round: {best:.2f}')
        if layout.endswith('-bpf'):
            out.append(f'through the BPF records, gzip warm cgacctd/file floor at {n}: {r:.2f} '
                       f'(<= 0.5: {mark(r <= 0.5)}; goal <= 0.15: {mark(r <= 0.15)})')
    if big['prom_body']:
        body = big['prom_body']
        gz_mib, om_mib = field([body], 'gz')[0] / MIB, field([body], 'bytes')[0] / MIB
        eof = field([body], 'eof')[0]
        out.append(f'Prometheus-style body at {n}: {big["prom_type"]}, gzip, {gz_mib:.2f} MiB '
                   f'for {om_mib:.2f} MiB, {"ends" if eof else "does NOT end"} with "# EOF" '
                   f'(OpenMetrics as Prometheus asked at every size: '
                   f'{mark(all(each["prom_wrong"] == [] for each in s.values()))})')
    if big['warm_floor1']:
        out.append(f'warm cgacctd/one-piece floor at {n}: {big["warm_floor1"]:.2f} (the floor '
                   f'reading each file as cgacctd does, without the read() that returns 0)')
    if big['warm_floorw']:
        out.append(f'warm cgacctd/warm floor at {n}: {big["warm_floorw"]:.2f} (the one-piece '
                   f'floor without the cgroup.serial files, which warm scrapes remember)')
    if big['cold'] and big['floor']:
        r = big['cold'] / big['floor']
        out.append(f'cold cgacctd/floor at {n}: {r:.2f} (<= 1.5: {mark(r <= 1.5)})')
    out.append(f'kernel memory (Slab) grown while cgacctd ran at {n}, holding {big["held"]} '
               f'files+directories open: {big["kmem"][0]} KiB '
               f'(<= 64 MiB: {mark(big["kmem"][0] != "-" and int(big["kmem"][0]) <= 65536)})')
    if big['growth']:
        out.append(f'cost per cgroup at {n} vs the size before: {big["growth"]:.2f}x '
                   f'(<= 1.3: {mark(big["growth"] <= 1.3)}); the floor\'s own: '
                   f'{big["floor_growth"]:.2f}x')
    if big['rss'] is not None:
        out.append(f'peak RSS at {n}: {big["rss"]:.1f} MiB (<= 32: {mark(big["rss"] <= 32)})')
    if big['peer_per_cg'] and big['ours'] and big['theirs']:
        faster = big['per_cg'] < big['peer_per_cg']
        more = float(big['ours'][0]) > float(big['theirs'][0])
        if big['peer_min']:
            out.append(f'fastest warm scrape over fastest systemd-cgtop run at {n}: '
                       f'{big["warm_min"] / big["peer_min"]:.2f}')
        # through the BPF records cgacctd reads fewer files than the peer,
        # and then only the time is to compare
        claim = 'lower time while reading more' if more else 'lower time'
        out.append(f'vs systemd-cgtop at {n}: {big["per_cg"]:.1f} vs {big["peer_per_cg"]:.1f} '
                   f'us/cgroup, reading {big["ours"][0]} vs {big["theirs"][0]} files/cgroup '
                   f'({claim}: {mark(faster)})')
    else:
        out.append(f'vs peer at {n}: no peer figures')
    for m in sorted(s):
        e = s[m]['equal']
        if not e:
            continue
        out.append(f'vs systemd-cgtop at {m}, equal data (controllers: {e["controllers"]}): '
                   f'{e["equal"]:.1f} vs {e["peer"]:.1f} us/cgroup, ratio {fmt(e["equal_peer"], ".2f")} '
                   f'(full data: {e["full"]:.1f}, ratio {fmt(e["full_peer"], ".2f")}); reading '
                   f'{fmt(e["files"]["equal"], ".2f")} vs {fmt(e["files"]["cgtop"], ".2f")} files/cgroup '
                   f'(cheaper per cgroup at equal data: {mark(e["equal"] < e["peer"])})')
        pf = e['per_file']
        out.append(f'per file read at {m}: cgacctd {fmt(pf["cgacctd"], ".2f")} us at full data '
                   f'({fmt(e["files"]["cgacctd"], ".2f")} files/cgroup), '
                   f'{fmt(pf["equal"], ".2f")} at equal data ({fmt(e["files"]["equal"], ".2f")}), '
                   f'systemd-cgtop {fmt(pf["cgtop"], ".2f")} ({fmt(e["files"]["cgtop"], ".2f")})')
    d = big['dying']
    if d[0] != '-':
        out.append(f'dying cgroups after removing {d[0]}: {d[1]} without cgacctd, {d[2]} with '
                   f'(no more with: {mark(int(d[2]) <= int(d[1]))})')
    for line in out:
        print(f'{layout}: {line}')


def worst_ratio(summaries, key, label):
    """One line: the worst layout's ratio at the largest size, each layout's after it."""
    last = []
    for layout, s in summaries.items():
        n = max(s) if s else None
        if n and s[n][key]:
            last.append((s[n][key], layout, n))
    if last:
        worst = max(last)
        each = ', '.join(f'{l} {r:.2f}' for r, l, _ in last)
        print(f'{label} cgacctd/floor at {worst[2]} cgroups: {worst[0]:.2f} ({each})')


def gzip_levels(rows):
    """The cost of each gzip_level against the bytes it sends (scrape-callgrind)."""
    if not rows:
        return
    rows = [tuple(int(v) for v in row) for row in rows]
    base = rows[0][3] / rows[0][1]
    print(f'gzip levels on a synthetic 1,000-cgroup v2 body of {rows[0][1] / 2**20:.2f} MiB '
          f'(callgrind, compression alone):')
    print(f'{"level":>5} {"instr/byte":>10} {"vs level 1":>10} {"out KiB":>8} {"ratio":>6}')
    for level, size, out, instructions in rows:
        per_byte = instructions / size
        print(f'{level:>5} {per_byte:>10.1f} {per_byte / base:>10.2f} {out / 1024:>8.0f} '
              f'{size / out:>6.1f}')
    print()


def main():
    summaries = {}
    callgrind = None
    for arg in sys.argv[1:]:
        name, path = arg.split('=', 1)
        if name == 'callgrind':
            callgrind = [line.split() for line in open(path) if line.strip()]
            continue
        summaries[name] = layout_table(name, parse(path))
        print()
    for layout, s in summaries.items():
        if s:
            verdicts(layout, s)
    for kind, layout, n, collect, render in callgrind or []:
        if kind != 'callgrind':
            continue
        n, collect, render = int(n), int(collect), int(render)
        print(f'callgrind, synthetic {n}-cgroup {layout} tree: collect {collect:,} + render '
              f'{render:,} = {collect + render:,} instructions '
              f'({(collect + render) / (n + 1):,.0f} per cgroup)')
    gzip_levels([row[1:] for row in callgrind or [] if row[0] == 'gzip'])
    # The uncompressed ratio, then last what Prometheus pays: its own request.
    for key, label in (('warm_floor', 'warm'), ('prom_floor', 'gzip warm')):
        worst_ratio(summaries, key, label)

main()
