#!/usr/bin/env python3
"""Turns the raw outputs of shm-vs-mpich.sh into CSV files, SVG plots and a summary table (jmpi against MPICH).

Usage: report.py RAWDIR OUTDIR

RAWDIR holds <impl>.<benchmark>.<round>.txt files: impl is mpich, jmpi, jmpiarrays (Java arrays instead of direct
buffers) or jmpithreads (ranks as threads of one JVM); benchmark is latency, bw, bibw, allreduce, bcast or startup.
Writes OUTDIR/vs-mpich-runs.csv (every figure of every run), OUTDIR/vs-mpich-summary.csv (medians over rounds and
ratios), OUTDIR/vs-mpich-{latency,bandwidth,allreduce,bcast}.svg, and prints the targets of issue 7 as a Markdown
table.
No third-party modules: the plots are written as SVG by hand.
"""
import csv
import math
import os
import re
import statistics
import sys

UNITS = {'latency': 'us', 'bw': 'MB/s', 'bibw': 'MB/s', 'allreduce': 'us', 'bcast': 'us', 'startup': 's'}
# which column holds the figure: latency "bytes us iters"; bw/bibw "bytes MB/s iters"; allreduce "bytes avg max iters"
# (the maximum over ranks, as the baseline reports); bcast "bytes corrected cycle oneway iters"
COLUMN = {'latency': 1, 'bw': 1, 'bibw': 1, 'allreduce': 2, 'bcast': 1}


def parse(rawdir):
    rows = []
    for name in sorted(os.listdir(rawdir)):
        m = re.fullmatch(r'(\w+)\.(\w+)\.(\d+)\.txt', name)
        if not m:
            continue
        impl, bench, rnd = m.group(1), m.group(2), int(m.group(3))
        foreign, bad = '', False
        data = []
        with open(os.path.join(rawdir, name)) as f:
            for line in f:
                g = re.search(r'foreign [\d.]+s \(([\d.]+) cores\)', line)
                if line.startswith('# gate:') and g:
                    foreign = g.group(1)
                    bad = 'CONTAMINATED' in line
                    continue
                if line.startswith('#') or not line.strip():
                    continue
                parts = line.split()
                if bench == 'startup':
                    if len(parts) == 2 and parts[0] in ('jmpirun', 'hydra'):
                        data.append((parts[0], 0, float(parts[1])))
                    continue
                try:
                    nums = [float(p) for p in parts]
                except ValueError:
                    continue
                if len(nums) > COLUMN[bench]:
                    data.append((impl, int(nums[0]), nums[COLUMN[bench]]))
        for who, size, value in data:
            rows.append({'impl': who, 'benchmark': bench, 'bytes': size, 'round': rnd, 'value': value,
                         'unit': UNITS[bench], 'foreign_cores': foreign, 'contaminated': int(bad)})
    return rows


def medians(rows):
    by = {}
    for r in rows:
        by.setdefault((r['benchmark'], r['impl'], r['bytes']), []).append(r['value'])
    return {k: (statistics.median(v), len(v)) for k, v in by.items()}


def fmt(x):
    if x is None:
        return ''
    return f'{x:.3g}' if abs(x) < 100 else f'{x:.0f}'


def size_label(b):
    if b >= 1 << 20:
        return f'{b >> 20} MiB'
    if b >= 1 << 10:
        return f'{b >> 10} KiB'
    return f'{b} B'


# ----------------------------------------------------------------------------------------------------- SVG plots

COLORS = {'mpich': '#1f77b4', 'jmpi': '#d62728', 'jmpiarrays': '#ff7f0e', 'jmpithreads': '#2ca02c'}
LABELS = {'mpich': 'MPICH 4.0.2 (C)', 'jmpi': 'jmpi, processes (direct buffers)',
          'jmpiarrays': 'jmpi, processes (Java arrays)', 'jmpithreads': 'jmpi, threads (direct buffers)'}


def svg_plot(path, title, ylabel, series, logy=True, hlines=()):
    """series: list of (label, color, dash, [(bytes, value), ...]); x is log2 bytes. hlines: (value, label) pairs,
    drawn as thin dashed grey horizontal lines (the y range includes them). The legend has 2 entries a row below the
    plot; from a fifth row on, the SVG grows taller instead of clipping the legend."""
    W, H, L, R, T, B = 760, 460, 80, 20, 40, 110
    rows = (len(series) + 1) // 2
    extra = (rows - 4) * 18 + 6 if rows > 4 else 0
    H, B = H + extra, B + extra
    pts = [(x, y) for _, _, _, s in series for x, y in s if y > 0]
    if not pts:
        return
    xs = [math.log2(max(x, 1)) for x, _ in pts]
    ys = [math.log10(y) if logy else y for _, y in pts]
    ys += [math.log10(v) if logy else v for v, _ in hlines if v > 0]
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    if logy:
        y0, y1 = math.floor(y0), math.ceil(y1)
    else:
        y0, y1 = 0, y1 * 1.05
    if x1 == x0:
        x1 = x0 + 1
    if y1 == y0:
        y1 = y0 + 1

    def px(x):
        return L + (math.log2(max(x, 1)) - x0) / (x1 - x0) * (W - L - R)

    def py(y):
        v = math.log10(y) if logy else y
        return T + (1 - (v - y0) / (y1 - y0)) * (H - T - B)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" '
           f'font-size="12">', f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{W / 2}" y="22" text-anchor="middle" font-size="15">{title}</text>']
    # grid and ticks
    for e in range(int(x0), int(x1) + 1):
        if (e - int(x0)) % 2:
            continue
        x = L + (e - x0) / (x1 - x0) * (W - L - R)
        out.append(f'<line x1="{x:.1f}" y1="{T}" x2="{x:.1f}" y2="{H - B}" stroke="#ddd"/>')
        out.append(f'<text x="{x:.1f}" y="{H - B + 16}" text-anchor="middle">{size_label(1 << e)}</text>')
    if logy:
        for e in range(int(y0), int(y1) + 1):
            y = T + (1 - (e - y0) / (y1 - y0)) * (H - T - B)
            out.append(f'<line x1="{L}" y1="{y:.1f}" x2="{W - R}" y2="{y:.1f}" stroke="#ddd"/>')
            out.append(f'<text x="{L - 6}" y="{y + 4:.1f}" text-anchor="end">{10.0 ** e:g}</text>')
    else:
        step = 10 ** math.floor(math.log10(max(y1, 1) / 5))
        while y1 / step > 8:
            step *= 2
        v = 0.0
        while v <= y1:
            y = py(v)
            out.append(f'<line x1="{L}" y1="{y:.1f}" x2="{W - R}" y2="{y:.1f}" stroke="#ddd"/>')
            out.append(f'<text x="{L - 6}" y="{y + 4:.1f}" text-anchor="end">{v:g}</text>')
            v += step
    for v, label in hlines:
        if v > 0:
            y = py(v)
            out.append(f'<line x1="{L}" y1="{y:.1f}" x2="{W - R}" y2="{y:.1f}" stroke="#888" stroke-width="1" '
                       f'stroke-dasharray="5,4"/>')
            out.append(f'<text x="{W - R - 4}" y="{y - 4:.1f}" text-anchor="end" font-size="10" fill="#666">'
                       f'{label}</text>')
    out.append(f'<rect x="{L}" y="{T}" width="{W - L - R}" height="{H - T - B}" fill="none" stroke="#444"/>')
    out.append(f'<text x="{(L + W - R) / 2}" y="{H - B + 36}" text-anchor="middle">message size (bytes)</text>')
    out.append(f'<text x="18" y="{(T + H - B) / 2}" text-anchor="middle" '
               f'transform="rotate(-90 18 {(T + H - B) / 2})">{ylabel}</text>')
    for i, (label, color, dash, s) in enumerate(series):
        s = [(x, y) for x, y in s if y > 0]
        if not s:
            continue
        d = ' '.join(f'{"M" if k == 0 else "L"}{px(x):.1f},{py(y):.1f}' for k, (x, y) in enumerate(s))
        out.append(f'<path d="{d}" fill="none" stroke="{color}" stroke-width="2"'
                   + (f' stroke-dasharray="{dash}"' if dash else '') + '/>')
        for x, y in s:
            out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="2.5" fill="{color}"/>')
        ly = H - B + 54 + (i // 2) * 18
        lx = L + (i % 2) * 340
        out.append(f'<line x1="{lx}" y1="{ly - 4}" x2="{lx + 28}" y2="{ly - 4}" stroke="{color}" stroke-width="2"'
                   + (f' stroke-dasharray="{dash}"' if dash else '') + '/>')
        out.append(f'<text x="{lx + 34}" y="{ly}">{label}</text>')
    out.append('</svg>')
    with open(path, 'w') as f:
        f.write('\n'.join(out) + '\n')


def series_of(med, bench, impl):
    # 0 bytes has no place on a logarithmic axis: it stays in the CSV files
    return sorted((b, v) for (be, im, b), (v, _) in med.items() if be == bench and im == impl and b > 0)


def main():
    rawdir, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    rows = parse(rawdir)
    with open(os.path.join(outdir, 'vs-mpich-runs.csv'), 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=['impl', 'benchmark', 'bytes', 'round', 'value', 'unit', 'foreign_cores',
                                          'contaminated'])
        w.writeheader()
        w.writerows(rows)
    med = medians(rows)
    impls = ['mpich', 'jmpi', 'jmpiarrays', 'jmpithreads']
    with open(os.path.join(outdir, 'vs-mpich-summary.csv'), 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['benchmark', 'bytes', 'unit'] + [f'{i}_median' for i in impls] + ['jmpi_over_mpich', 'rounds'])
        for bench in ['latency', 'bw', 'bibw', 'allreduce', 'bcast']:
            sizes = sorted({b for (be, _, b) in med if be == bench})
            for b in sizes:
                vals = [med.get((bench, i, b), (None, 0))[0] for i in impls]
                ratio = vals[1] / vals[0] if vals[0] and vals[1] else None
                n = max(med.get((bench, i, b), (None, 0))[1] for i in impls)
                w.writerow([bench, b, UNITS[bench]] + [fmt(v) for v in vals] + [f'{ratio:.2f}' if ratio else '', n])
    plots = [('latency', 'Ping-pong one-way latency, 2 ranks', 'latency (us)', ['latency'], True),
             ('bandwidth', 'Bandwidth, window 64, 2 ranks (solid: one direction, dashed: both)', 'MB/s',
              ['bw', 'bibw'], True),
             ('allreduce', 'MPI_Allreduce float sum, 2 ranks (max over ranks)', 'time per call (us)', ['allreduce'],
              True),
             ('bcast', 'MPI_Bcast from rank 0, 2 ranks (until the receiver has it)', 'time (us)', ['bcast'], True)]
    for name, title, ylabel, benches, logy in plots:
        series = []
        for bench in benches:
            for impl in impls:
                s = series_of(med, bench, impl)
                if s:
                    label = LABELS[impl] + (' both ways' if bench == 'bibw' else '')
                    series.append((label, COLORS[impl], '6,4' if bench == 'bibw' else '', s))
        svg_plot(os.path.join(outdir, 'vs-mpich-' + name + '.svg'), title, ylabel, series, logy)
    print_targets(med, rows)


def print_targets(med, rows):
    def m(bench, impl, b):
        return med.get((bench, impl, b), (None, 0))[0]

    lines = ['| target | MPICH median | jmpi median | ratio | goal | met? |', '|---|---:|---:|---:|---:|---|']

    def add(name, bench, b, goal, higher_is_better=False, unit=''):
        a, j = m(bench, 'mpich', b), m(bench, 'jmpi', b)
        if a is None or j is None:
            lines.append(f'| {name} | {fmt(a)} | {fmt(j)} | | {goal} | no data |')
            return
        r = j / a
        ok = r >= goal if higher_is_better else r <= goal
        lines.append(f'| {name} | {fmt(a)} {unit} | {fmt(j)} {unit} | {r:.2f}x | {"≥" if higher_is_better else "≤"} '
                     f'{goal}x | {"met" if ok else "missed"} |')

    add('8 B latency', 'latency', 8, 1.0, unit='us')
    add('64 KiB latency', 'latency', 64 << 10, 1.2, unit='us')
    add('1 MiB latency', 'latency', 1 << 20, 1.2, unit='us')
    add('bandwidth 256 KiB', 'bw', 256 << 10, 0.9, True, 'MB/s')
    add('bandwidth 512 KiB', 'bw', 512 << 10, 0.9, True, 'MB/s')
    add('allreduce 4 B', 'allreduce', 4, 1.5, unit='us')
    add('allreduce 1 MiB', 'allreduce', 1 << 20, 1.1, unit='us')
    add('allreduce 16 MiB', 'allreduce', 16 << 20, 1.1, unit='us')
    t = m('latency', 'jmpithreads', 8)
    lines.append(f'| threads mode 8 B latency | | {fmt(t)} us | | ≤ 0.2 us | '
                 f'{"no data" if t is None else "met" if t <= 0.2 else "missed"} |')
    st = {who: [r['value'] for r in rows if r['benchmark'] == 'startup' and r['impl'] == who]
          for who in ('jmpirun', 'hydra')}
    if st['jmpirun'] and st['hydra']:
        a, j = statistics.median(st['hydra']), statistics.median(st['jmpirun'])
        lines.append(f'| start-up, 4 ranks (jmpirun Hello / hydra java Trivial) | {a:.3f} s | {j:.3f} s | '
                     f'{j / a:.2f}x | ≤ 1.3x | {"met" if j / a <= 1.3 else "missed"} |')
    bad = sorted({(r['impl'], r['benchmark'], r['round']) for r in rows if r['contaminated']})
    print('\n'.join(lines))
    if bad:
        print(f'\n{len(bad)} run(s) flagged by the gate (other processes used > 0.05 cores): '
              + ', '.join(f'{i}.{b}.{r}' for i, b, r in bad))


if __name__ == '__main__':
    main()
