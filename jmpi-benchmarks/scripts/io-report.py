#!/usr/bin/env python3
"""Table and plot of io-vs-mpich.sh's raw outputs (issue 15): MPI-IO bandwidth, jmpi against MPICH/ROMIO.

Usage: io-report.py RAWDIR [SVG]

RAWDIR holds {jmpi,jmpiarr,mpich}.io-{tmp,shm}.n{RANKS}.r{ROUND}.txt, each with lines
`mode op median_MB/s best_MB/s` (jmpiarr: jmpi with the block in a Java double[], jmpi: a direct buffer).
Prints a Markdown table of the medians over rounds (of each run's median) and the jmpi/MPICH ratios, and, with SVG,
draws the ratios as bars (direct buffer dark, double[] light) with the targets as lines (collective >= 1.0x,
independent >= 0.8x). No third-party modules.
"""
import collections
import glob
import os
import re
import statistics
import sys


def parse(raw):
    d = collections.defaultdict(list)
    for f in glob.glob(os.path.join(raw, '*.txt')):
        m = re.match(r'(mpich|jmpiarr|jmpi)\.io-(\w+)\.n(\d+)\.r\d+\.txt$', os.path.basename(f))
        if not m:
            continue
        impl, where, n = m.groups()
        for line in open(f):
            p = line.split()
            if len(p) == 4 and p[0] in ('coll', 'indep'):
                d[('/var/tmp' if where == 'tmp' else '/dev/' + where, int(n), p[0], p[1], impl)].append(float(p[2]))
    rows = []
    for k in sorted({k[:4] for k in d}):
        a, b, c = d.get(k + ('mpich',)), d.get(k + ('jmpi',)), d.get(k + ('jmpiarr',))
        if a and b:
            ma, mb = statistics.median(a), statistics.median(b)
            mc = statistics.median(c) if c else None
            rows.append(k + (ma, mb, mb / ma, mc, mc / ma if mc else None))
    return rows


def svg(path, rows):
    w, h, left, top, bottom = 60 + 44 * len(rows), 420, 60, 40, 150
    top_ratio = max(2.0, min(4.0, max(max(r[6], r[8] or 0) for r in rows) * 1.1))
    scale = (h - top - bottom) / top_ratio

    def y(v):
        return h - bottom - min(v, top_ratio) * scale

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">',
           f'<text x="{w / 2}" y="20" text-anchor="middle" font-size="14">MPI-IO bandwidth, jmpi / MPICH (ROMIO), '
           f'3-D block array (dark: direct buffer, light: double[]); bars above {top_ratio:g}x are cut</text>']
    for v in (0.5, 1.0, 1.5, 2.0, 3.0, 4.0):
        if v <= top_ratio:
            out.append(f'<line x1="{left}" y1="{y(v):.1f}" x2="{w - 10}" y2="{y(v):.1f}" stroke="#ddd"/>')
            out.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:g}x</text>')
    for target, colour, label in ((1.0, '#2ca02c', 'collective target 1.0x'),
                                  (0.8, '#ff7f0e', 'independent target 0.8x')):
        out.append(f'<line x1="{left}" y1="{y(target):.1f}" x2="{w - 10}" y2="{y(target):.1f}" stroke="{colour}" '
                   f'stroke-dasharray="6,4"/>')
        out.append(f'<text x="{w - 12}" y="{y(target) - 4:.1f}" text-anchor="end" fill="{colour}">{label}</text>')
    for i, (where, n, mode, op, _, _, ratio, _, aratio) in enumerate(rows):
        x = left + 10 + 44 * i
        colour = '#1f77b4' if mode == 'coll' else '#9467bd'
        light = '#aec7e8' if mode == 'coll' else '#c5b0d5'
        out.append(f'<rect x="{x}" y="{y(ratio):.1f}" width="17" height="{h - bottom - y(ratio):.1f}" '
                   f'fill="{colour}"/>')
        out.append(f'<text x="{x + 8}" y="{y(ratio) - 3:.1f}" text-anchor="middle" font-size="9">{ratio:.2f}</text>')
        if aratio:
            out.append(f'<rect x="{x + 18}" y="{y(aratio):.1f}" width="17" height="{h - bottom - y(aratio):.1f}" '
                       f'fill="{light}"/>')
            out.append(f'<text x="{x + 26}" y="{y(aratio) - 12:.1f}" text-anchor="middle" font-size="9">'
                       f'{aratio:.2f}</text>')
        out.append(f'<text transform="translate({x + 19},{h - bottom + 8}) rotate(60)">{mode} {op}, {n} ranks, '
                   f'{where}</text>')
    out.append('</svg>')
    with open(path, 'w') as f:
        f.write('\n'.join(out) + '\n')


def main():
    rows = parse(sys.argv[1])
    print('| dir | ranks | mode | op | MPICH MB/s | jmpi direct MB/s | ratio | jmpi double[] MB/s | ratio |')
    print('|---|---:|---|---|---:|---:|---:|---:|---:|')
    for where, n, mode, op, a, b, r, c, rc in rows:
        arr = f'{c:.0f} | {rc:.2f}' if c else '- | -'
        print(f'| {where} | {n} | {mode} | {op} | {a:.0f} | {b:.0f} | {r:.2f} | {arr} |')
    if len(sys.argv) > 2 and rows:
        svg(sys.argv[2], rows)
        print(f'plot: {sys.argv[2]}')


if __name__ == '__main__':
    main()
