#!/usr/bin/env python3
"""Table and plot of a jgf-side-by-side.sh sitting: jmpi's MPJ API against MPJ Express.

    python3 jmpi-tests/scripts/jgf-compare.py OUT

reads OUT/jmpi.rN/results.tsv and OUT/mpje.rN/results.tsv (jgf-mpj.sh's), prints a Markdown table (per benchmark,
device and rank count: the median of the time each benchmark reports, its range over the rounds, and the ratio
jmpi / MPJ Express of the medians; a run that did not pass is left out and counted) and writes OUT/jgf.svg, the ratios
as bars (left of 1: jmpi faster)."""
import csv
import glob
import math
import os
import statistics
import sys

out = sys.argv[1]
runs = {}  # (impl, section, benchmark, dev, np) -> [seconds]
bad = {}
rounds = {}
for impl in ('jmpi', 'mpje'):
    for d in sorted(glob.glob(os.path.join(out, impl + '.r*'))):
        f = os.path.join(d, 'results.tsv')
        if not os.path.isfile(f):
            continue
        rounds[impl] = rounds.get(impl, 0) + 1
        for row in csv.DictReader(open(f), delimiter='\t'):
            if row['section'] == '1':
                continue
            k = (impl, row['section'], row['benchmark'], row['dev'], int(row['np']))
            if row['verdict'] == 'pass' and row['reported']:
                runs.setdefault(k, []).append(float(row['reported']))
            else:
                bad.setdefault(k, []).append(row['verdict'])

keys = sorted({k[1:] for k in list(runs) + list(bad)}, key=lambda k: (k[2], k[3], k[0], k[1]))


def cell(k):
    v = runs.get(k, [])
    if not v:
        return '-', None
    m = statistics.median(v)
    s = f'{m:.3f}' + (f' ({min(v):.3f}-{max(v):.3f})' if len(v) > 1 else '')
    if k in bad:
        s += f' [{len(bad[k])} not passed]'
    return s, m


print(f'rounds: jmpi {rounds.get("jmpi", 0)}, MPJ Express {rounds.get("mpje", 0)}; seconds as each benchmark reports'
      ' them (section 2: Kernel, section 3: Total); medians, range in brackets')
print()
print('| benchmark | device | ranks | jmpi (s) | MPJ Express (s) | jmpi / MPJ Express |')
print('|---|---|---:|---:|---:|---:|')
bars = []
logs = {}
for sec, b, dev, np in keys:
    a, am = cell(('jmpi', sec, b, dev, np))
    e, em = cell(('mpje', sec, b, dev, np))
    ratio = am / em if am and em else None
    if ratio:
        bars.append((f'{b} {dev} {np}', ratio))
        logs.setdefault((dev, np), []).append(math.log(ratio))
    print(f'| {b} | {dev} | {np} | {a} | {e} | {f"{ratio:.2f}" if ratio else "-"} |')
print()
for (dev, np), v in sorted(logs.items()):
    print(f'geometric mean of the ratios, {dev}, {np} ranks: {math.exp(sum(v) / len(v)):.2f} ({len(v)} benchmarks)')

# the plot: one bar per row, the ratio on a log scale from 1/4 to 4
w, left, row, top = 760, 230, 18, 40
h = top + row * len(bars) + 40
lo, hi = math.log(0.25), math.log(4)
x = lambda r: left + (min(max(math.log(r), lo), hi) - lo) / (hi - lo) * (w - left - 20)
svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">',
       f'<rect width="{w}" height="{h}" fill="white"/>',
       f'<text x="{left}" y="18" font-size="13">Java Grande MPJ, size A: time on jmpi / time on MPJ Express '
       f'(left of 1: jmpi faster)</text>']
for t in (0.25, 0.5, 1, 2, 4):
    svg.append(f'<line x1="{x(t):.1f}" y1="{top - 6}" x2="{x(t):.1f}" y2="{h - 30}" '
               f'stroke="{"black" if t == 1 else "#ccc"}"/>')
    svg.append(f'<text x="{x(t):.1f}" y="{h - 16}" text-anchor="middle">{t:g}</text>')
for i, (name, r) in enumerate(bars):
    y = top + i * row
    x0, x1 = sorted((x(1), x(r)))
    svg.append(f'<text x="{left - 6}" y="{y + 12}" text-anchor="end">{name}</text>')
    svg.append(f'<rect x="{x0:.1f}" y="{y + 3}" width="{max(x1 - x0, 1):.1f}" height="{row - 6}" '
               f'fill="{"#2a7" if r <= 1 else "#c44"}"/>')
    svg.append(f'<text x="{x1 + 4 if r > 1 else x0 - 4:.1f}" y="{y + 12}" '
               f'text-anchor="{"start" if r > 1 else "end"}" fill="#555">{r:.2f}</text>')
svg.append('</svg>')
open(os.path.join(out, 'jgf.svg'), 'w').write('\n'.join(svg) + '\n')
