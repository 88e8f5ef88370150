#!/usr/bin/env python3
"""Draws the SVG plots of docs/benchmarks.md from the summary.csv of a cold-suite.sh run: OMB-J time (or bandwidth)
against message size per implementation, jmpi processes' time over Open MPI Java's per size, and the applications'
time to solution relative to Open MPI Java's.

Usage: cold-plots.py SUMMARY_CSV OUTDIR [--title-suffix TEXT] [--ranks N]

Reads SUMMARY_CSV (columns case,size,impl,round,value,status, as cold-suite.sh writes it) and, when they are beside
it, meta.txt (NP, the Open MPI and MPICH versions) and cases.tsv (which cases are OMB-J's and which applications, and
each one's metric). Rows count as in cold-suite.sh's report: status ok, or contaminated unless EXCLUDE_CONTAMINATED=1
is set; the figures are medians over those rounds per case, size and implementation. OMB-J values are microseconds
(MB/s for the bandwidth cases), the applications' seconds.
Writes into OUTDIR (made if absent), each plot only when it has data:
  cold-latency.svg, cold-bcast.svg, cold-allreduce.svg, cold-allgather.svg, cold-alltoall.svg (and cold-bandwidth.svg,
      cold-bibandwidth.svg if those cases ran): per implementation against message size, log-log; dashed: Java arrays
      instead of direct buffers (the -arrays cases)
  cold-ratios.svg: jmpi processes' time over Open MPI Java's per size, a line per OMB-J case (bandwidth: Open MPI
      Java's MB/s over jmpi's)
  cold-apps.svg: bars, the applications' time to solution relative to Open MPI Java's
and prints a line per plot. Left out: jmpi-base and jmpi-alt (A/B builds), the xint-* and c1-* cases (no Open MPI
run). The rank count in the titles is --ranks if given, else NP from meta.txt, else 2; --title-suffix TEXT is appended
to every title after a comma.
No third-party modules: the plots are written as SVG by hand (svg_plot of report.py, in this folder).
"""
import argparse
import collections
import csv
import html
import math
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from report import COLORS, size_label, svg_plot  # noqa: E402  (report.py has a main guard: no side effects)

PURPLE = '#9467bd'  # Open MPI Java (report.py has no colour for it)
# implementation -> (label, colour of its direct-buffer line, colour of its Java-array line); in legend order
IMPLS = {'jmpi-proc': ('jmpi, processes', COLORS['jmpi'], COLORS['jmpiarrays']),
         'ompi-java': ('Open MPI Java', PURPLE, PURPLE),
         'mpich': ('MPICH (C)', COLORS['mpich'], COLORS['mpich']),
         'jmpi-thr': ('jmpi, threads', COLORS['jmpithreads'], COLORS['jmpithreads'])}
ARRAYS_DASH = '6,4'
# OMB-J case (without -arrays) -> (file name, what the title says, y label for a time, colour in cold-ratios.svg)
OMB = {'OSULatency': ('latency', 'latency (ping-pong, one way)', 'time per message (us)', '#d62728'),
       'OSUBcast': ('bcast', 'MPI_Bcast', 'time per call (us)', '#8c564b'),
       'OSUAllReduce': ('allreduce', 'MPI_Allreduce', 'time per call (us)', '#1f77b4'),
       'OSUAllgather': ('allgather', 'MPI_Allgather', 'time per call (us)', '#2ca02c'),
       'OSUAlltoall': ('alltoall', 'MPI_Alltoall', 'time per call (us)', '#e377c2'),
       'OSUBandwidth': ('bandwidth', 'bandwidth, one direction', 'bandwidth (MB/s)', '#17becf'),
       'OSUBiBandwidth': ('bibandwidth', 'bandwidth, both directions', 'bandwidth (MB/s)', '#bcbd22')}
SPARE_COLORS = ['#7f7f7f', '#ff7f0e', '#9467bd']  # cold-ratios.svg: for OMB-J cases not in OMB
SKIP_APPS = ('xint-', 'c1-')  # JIT floors: jmpi processes only


def esc(text):
    return html.escape(text, quote=False)


def load(path):
    """The usable figures, {(case, size, impl): [value, ...]} (size None where the CSV has none), and the cases in
    the order of the CSV."""
    excl = os.environ.get('EXCLUDE_CONTAMINATED', '0') == '1'
    vals = collections.defaultdict(list)
    order = []
    with open(path, newline='') as f:
        for row in csv.DictReader(f):
            st, impl = row['status'], row['impl']
            if impl not in IMPLS or not (st == 'ok' or (st == 'contaminated' and not excl)):
                continue
            try:
                value = float(row['value'])
                size = int(row['size']) if row['size'].strip() else None
            except ValueError:
                continue
            if row['case'] not in order:
                order.append(row['case'])
            vals[(row['case'], size, impl)].append(value)
    return vals, order


def read_side_files(csv_path):
    """meta.txt and cases.tsv beside the CSV, if there: (NP or None, {name: version}, {case: (kind, metric)})."""
    d = os.path.dirname(os.path.abspath(csv_path))
    np_, versions, kinds = None, {}, {}
    try:
        text = open(os.path.join(d, 'meta.txt')).read()
        m = re.search(r'(?:^|\s)NP=(\d+)', text, re.M)
        np_ = int(m.group(1)) if m else None
        m = re.search(r'^open mpi\s.*?(\d+\.\d+\.\d+)', text, re.M)
        if m:
            versions['ompi-java'] = m.group(1)
        m = re.search(r'^mpich\s+(\d[\w.]*)', text, re.M)
        if m:
            versions['mpich'] = m.group(1)
    except OSError:
        pass
    try:
        for line in open(os.path.join(d, 'cases.tsv')):
            f = line.rstrip('\n').split('\t')
            if len(f) >= 3:
                kinds.setdefault(f[0], (f[1], f[2]))
    except OSError:
        pass
    return np_, versions, kinds


def impl_label(impl, versions):
    if impl == 'ompi-java' and impl in versions:
        return f'Open MPI {versions[impl]} Java'
    if impl == 'mpich' and impl in versions:
        return f'MPICH {versions[impl]} (C)'
    return IMPLS[impl][0]


def rounds_text(counts):
    lo, hi = min(counts), max(counts)
    if hi == 1:
        return 'one round'
    return f'medians of {hi} rounds' if lo == hi else f'medians of {lo}-{hi} rounds'


def omb_plots(med, cases, metric, ranks, suffix, versions, outdir):
    bases = [c for c in cases if not c.endswith('-arrays')]
    bases += [c[:-len('-arrays')] for c in cases if c.endswith('-arrays') and c[:-len('-arrays')] not in bases]
    written = []
    for base in bases:
        name, what, ylabel, _ = OMB.get(base, (base.lower().replace('osu', '', 1), base, 'time (us)', None))
        bw = metric(base) == 'bw'
        if bw:
            ylabel = 'bandwidth (MB/s)'
        series, counts = [], []
        for impl, (_, color, acolor) in IMPLS.items():
            label = impl_label(impl, versions)
            for arrays in (False, True):
                case = base + '-arrays' if arrays else base
                # 0 bytes has no place on a logarithmic axis
                pts = sorted((s, v) for (c, s, i), (v, _) in med.items() if c == case and i == impl and s)
                if not pts:
                    continue
                counts += [n for (c, s, i), (_, n) in med.items() if c == case and i == impl and s]
                kind = '' if impl == 'mpich' else ' (Java arrays)' if arrays else ' (direct buffers)'
                series.append((esc(label + kind), acolor if arrays else color, ARRAYS_DASH if arrays else '', pts))
        if not series:
            continue
        title = f'OMB-J {what}, {ranks} ranks, cold ({rounds_text(counts)}){suffix}'
        path = os.path.join(outdir, f'cold-{name}.svg')
        svg_plot(path, esc(title), esc(ylabel), series, logy=True)
        written.append((path, series))
    return written


def ratio_plot(med, cases, metric, ranks, suffix, outdir):
    series, counts, spare = [], [], {}
    for case in cases:
        arrays = case.endswith('-arrays')
        base = case[:-len('-arrays')] if arrays else case
        jm = {s: (v, n) for (c, s, i), (v, n) in med.items() if c == case and i == 'jmpi-proc' and s}
        om = {s: (v, n) for (c, s, i), (v, n) in med.items() if c == case and i == 'ompi-java' and s}
        bw = metric(base) == 'bw'
        pts = sorted((s, om[s][0] / jm[s][0] if bw else jm[s][0] / om[s][0]) for s in jm
                     if s in om and jm[s][0] > 0 and om[s][0] > 0)
        if not pts:
            continue
        counts += [n for s in jm if s in om for n in (jm[s][1], om[s][1])]
        name, _, _, color = OMB.get(base, (base, None, None, None))
        color = color or spare.setdefault(base, SPARE_COLORS[len(spare) % len(SPARE_COLORS)])
        label = name.replace('bibandwidth', 'bidirectional bandwidth') + (', Java arrays' if arrays else '')
        if bw:
            label += ' (MB/s inverted)'
        series.append((esc(label), color, ARRAYS_DASH if arrays else '', pts))
    if not series:
        return []
    # a linear axis reads best for ratios near 1; a logarithmic one once some are far from it
    ratios = [v for *_, pts in series for _, v in pts]
    logy = max(ratios) > 4 or min(ratios) < 0.25
    title = f"jmpi processes' time / Open MPI Java's, OMB-J, {ranks} ranks, cold ({rounds_text(counts)}){suffix}"
    path = os.path.join(outdir, 'cold-ratios.svg')
    svg_plot(path, esc(title), 'jmpi time / Open MPI Java time', series, logy=logy,
             hlines=((1.0, 'Open MPI Java'), (1.5, '1.5x')))
    return [(path, series)]


def seconds(v):
    return f'{v:.3g} s' if v >= 1 else f'{v * 1e3:.3g} ms' if v >= 1e-3 else f'{v * 1e6:.3g} us'


def nice_step(span, most=8):
    for e in range(-3, 10):
        for m in (1, 2, 2.5, 5):
            step = m * 10.0 ** e
            if span / step <= most:
                return step
    return span


def svg_bars(path, title, xlabel, groups, bars, ref_label):
    """Horizontal grouped bars, the look of report.svg_plot. groups: [(label, note, {key: value})], one group of
    bars per label, top to bottom; bars: [(key, label, colour)], the bars of every group in that order (a missing one
    says "no run"); a vertical reference line at 1, labelled ref_label (in Open MPI Java's colour)."""
    bh, gap, pad = 14, 3, 16                         # bar height, between bars, between groups
    W, R, T = 760, 50, 52
    L = max(80, 12 + max(max(7 * len(label), 6 * len(note or '')) for label, note, _ in groups))
    gh = len(bars) * (bh + gap) - gap + pad          # height of a group
    rows = (len(bars) + 2) // 2                       # legend rows: the bars and the reference line, 2 a row
    B = 64 + rows * 18
    H = T + len(groups) * gh + B
    top = max([v for _, _, d in groups for v in d.values()] + [1.0])
    step = nice_step(top * 1.12)
    x1 = math.ceil(top * 1.12 / step) * step         # room for the value printed at the end of the longest bar

    def px(v):
        return L + v / x1 * (W - L - R)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" '
           f'font-size="12">', f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{W / 2}" y="22" text-anchor="middle" font-size="15">{title}</text>']
    k = 0
    while k * step <= x1 + 1e-9:
        v = k * step
        out.append(f'<line x1="{px(v):.1f}" y1="{T}" x2="{px(v):.1f}" y2="{H - B}" stroke="#ddd"/>')
        out.append(f'<text x="{px(v):.1f}" y="{H - B + 16}" text-anchor="middle">{round(v, 6):g}</text>')
        k += 1
    out.append(f'<rect x="{L}" y="{T}" width="{W - L - R}" height="{H - T - B}" fill="none" stroke="#444"/>')
    out.append(f'<text x="{(L + W - R) / 2}" y="{H - B + 36}" text-anchor="middle">{xlabel}</text>')
    for g, (label, note, d) in enumerate(groups):
        y0 = T + pad / 2 + g * gh
        mid = y0 + (gh - pad) / 2
        out.append(f'<text x="{L - 8}" y="{mid - 1:.1f}" text-anchor="end">{label}</text>')
        if note:
            out.append(f'<text x="{L - 8}" y="{mid + 12:.1f}" text-anchor="end" font-size="10" fill="#666">'
                       f'{note}</text>')
        for b, (key, _, color) in enumerate(bars):
            y = y0 + b * (bh + gap)
            if key not in d:
                out.append(f'<text x="{L + 4}" y="{y + bh - 3:.1f}" font-size="10" fill="#666">no run</text>')
                continue
            v = d[key]
            out.append(f'<rect x="{L}" y="{y:.1f}" width="{px(v) - L:.1f}" height="{bh}" fill="{color}"/>')
            out.append(f'<text x="{px(v) + 4:.1f}" y="{y + bh - 3:.1f}" font-size="11">{v:.2f}</text>')
    out.append(f'<line x1="{px(1):.1f}" y1="{T - 4}" x2="{px(1):.1f}" y2="{H - B}" stroke="{PURPLE}" '
               f'stroke-width="2"/>')
    out.append(f'<text x="{px(1):.1f}" y="{T - 8}" text-anchor="middle" font-size="11" fill="{PURPLE}">'
               f'{ref_label} = 1</text>')
    for i, (_, label, color) in enumerate(bars + [(None, ref_label, None)]):
        ly = H - B + 54 + (i // 2) * 18
        lx = 80 + (i % 2) * 340
        if color:
            out.append(f'<rect x="{lx + 4}" y="{ly - 10}" width="20" height="10" fill="{color}"/>')
        else:
            out.append(f'<line x1="{lx + 14}" y1="{ly - 13}" x2="{lx + 14}" y2="{ly + 1}" stroke="{PURPLE}" '
                       f'stroke-width="2"/>')
        out.append(f'<text x="{lx + 34}" y="{ly}">{label}</text>')
    out.append('</svg>')
    with open(path, 'w') as f:
        f.write('\n'.join(out) + '\n')


def apps_plot(med, cases, ranks, suffix, versions, outdir):
    groups, counts, present = [], [], set()
    for case in cases:
        if case.startswith(SKIP_APPS) or (case, None, 'ompi-java') not in med:
            continue
        ref, n = med[(case, None, 'ompi-java')]
        d = {}
        for impl in ('jmpi-proc', 'jmpi-thr', 'mpich'):
            if (case, None, impl) in med and ref > 0:
                v, m = med[(case, None, impl)]
                d[impl] = v / ref
                counts.append(m)
                present.add(impl)
        if d:
            counts.append(n)
            groups.append((esc(case), f'Open MPI Java {seconds(ref)}', d))
    if not groups:
        return []
    bars = [(impl, esc(impl_label(impl, versions)), IMPLS[impl][1]) for impl in ('jmpi-proc', 'jmpi-thr', 'mpich')
            if impl in present]
    title = f"Applications: time to solution / Open MPI Java's, {ranks} ranks, cold ({rounds_text(counts)}){suffix}"
    path = os.path.join(outdir, 'cold-apps.svg')
    svg_bars(path, esc(title), "time / Open MPI Java's (shorter is faster)", groups, bars,
             esc(impl_label('ompi-java', versions)))
    return [(path, [(label, None, None, [(g[0], g[2][k]) for g in groups if k in g[2]]) for k, label, _ in bars])]


def main():
    ap = argparse.ArgumentParser(description='SVG plots of a cold-suite.sh summary.csv (see the module docstring).')
    ap.add_argument('summary_csv')
    ap.add_argument('outdir')
    ap.add_argument('--title-suffix', default='', help='appended to every title after a comma')
    ap.add_argument('--ranks', type=int, help='ranks per job for the titles (default: NP of meta.txt, else 2)')
    a = ap.parse_args()
    vals, order = load(a.summary_csv)
    np_, versions, kinds = read_side_files(a.summary_csv)
    ranks = a.ranks or np_ or 2
    suffix = ', ' + a.title_suffix if a.title_suffix else ''

    def kind(case):
        if case in kinds:
            return kinds[case][0]
        return 'omb' if any(c == case and s for c, s, _ in vals) else 'app'

    def metric(case):
        if case in kinds:
            return kinds[case][1]
        return 'bw' if 'Bandwidth' in case else 'lat'

    omb = [c for c in order if kind(c) == 'omb']
    apps = [c for c in order if kind(c) == 'app']
    per = collections.defaultdict(list)
    for (c, s, i), v in vals.items():
        per[(c, None if c in apps else s, i)] += v  # an application's size, empty or 0, is none
    med = {k: (statistics.median(v), len(v)) for k, v in per.items()}  # (median over the rounds, rounds)
    os.makedirs(a.outdir, exist_ok=True)
    written = omb_plots(med, omb, metric, ranks, suffix, versions, a.outdir)
    written += ratio_plot(med, omb, metric, ranks, suffix, a.outdir)
    written += apps_plot(med, apps, ranks, suffix, versions, a.outdir)
    for path, series in written:
        xs = [x for *_, pts in series for x, _ in pts]
        span = (f', {size_label(min(xs))} to {size_label(max(xs))}' if xs and all(isinstance(x, int) for x in xs)
                else '')
        print(f'{path}: ' + '; '.join(f'{html.unescape(s[0])} ({len(s[3])})' for s in series) + span)
    if not written:
        print(f'{a.summary_csv}: nothing to plot', file=sys.stderr)


if __name__ == '__main__':
    main()
