#!/usr/bin/env python3
"""Turns the raw outputs of dl-bench.sh into Markdown tables and SVG plots.

Usage: dl-report.py OUTDIR   (reads OUTDIR/raw, writes OUTDIR/dl-*.svg and OUTDIR/dl-summary.md, prints the tables)
Figures are medians over rounds. Runs that gate.py flagged as CONTAMINATED are listed and left out.
No third-party modules: the plots are written as SVG by hand.
"""
import os
import re
import statistics
import sys


def rounds(raw, prefix):
    out = []
    for name in sorted(os.listdir(raw)):
        if re.fullmatch(re.escape(prefix) + r'\.r\d+\.txt', name):
            text = open(os.path.join(raw, name)).read()
            if 'CONTAMINATED' in text:
                print(f'left out (gate.py: contaminated): {name}', file=sys.stderr)
                continue
            out.append(text)
    return out


def med(xs):
    return statistics.median(xs) if xs else float('nan')


def training(raw, n, mode='train'):
    acc, ips, last_ips, per_step = [], [], [], []
    for t in rounds(raw, f'{mode}.n{n}'):
        m = re.search(r'result mode=\w+ ranks=\d+ (?:servers=\d+ )?epochs=\d+ accuracy=([\d.]+) '
                      r'images_per_second=(\d+)', t)
        if not m:
            continue
        acc.append(float(m.group(1)))
        ips.append(float(m.group(2)))
        epochs = re.findall(r'^epoch \d+: .*?, ([\d.]+) images/s(?: \(.*by rank: (.*)\))?$', t, re.M)
        if epochs:
            last_ips.append(float(epochs[-1][0]))
            if epochs[-1][1]:
                pairs = [tuple(map(float, p.split('/'))) for p in epochs[-1][1].split()]
                per_step.append(pairs[0])
    return acc, ips, last_ips, per_step


def table(rows, header):
    lines = ['| ' + ' | '.join(header) + ' |', '|' + '---|' * len(header)]
    lines += ['| ' + ' | '.join(str(c) for c in r) + ' |' for r in rows]
    return '\n'.join(lines)


def svg_lines(path, title, xlabel, ylabel, series, logx=False, logy=False):
    w, h, ml, mr, mt, mb = 640, 400, 70, 150, 40, 50
    import math
    xs = [x for _, pts in series for x, _ in pts]
    ys = [y for _, pts in series for _, y in pts if y > 0]
    if not xs or not ys:
        return
    fx = (lambda v: math.log10(v)) if logx else (lambda v: v)
    fy = (lambda v: math.log10(v)) if logy else (lambda v: v)
    x0, x1 = fx(min(xs)), fx(max(xs))
    y0, y1 = (fy(min(ys)), fy(max(ys))) if logy else (0, max(ys) * 1.1)
    x1 = x1 if x1 > x0 else x0 + 1
    y1 = y1 if y1 > y0 else y0 + 1
    px = lambda v: ml + (fx(v) - x0) / (x1 - x0) * (w - ml - mr)
    py = lambda v: h - mb - (fy(v) - y0) / (y1 - y0) * (h - mt - mb)
    colours = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b']
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" '
           f'font-size="12"><rect width="100%" height="100%" fill="white"/>',
           f'<text x="{w / 2}" y="20" text-anchor="middle" font-size="14">{title}</text>',
           f'<line x1="{ml}" y1="{h - mb}" x2="{w - mr}" y2="{h - mb}" stroke="black"/>',
           f'<line x1="{ml}" y1="{mt}" x2="{ml}" y2="{h - mb}" stroke="black"/>',
           f'<text x="{(ml + w - mr) / 2}" y="{h - 10}" text-anchor="middle">{xlabel}</text>',
           f'<text x="15" y="{(mt + h - mb) / 2}" transform="rotate(-90 15 {(mt + h - mb) / 2})" '
           f'text-anchor="middle">{ylabel}</text>']
    for x in sorted(set(xs)):
        out.append(f'<text x="{px(x):.1f}" y="{h - mb + 15}" text-anchor="middle">{fmt(x)}</text>')
    for k in range(5):
        yv = y0 + (y1 - y0) * k / 4
        v = 10 ** yv if logy else yv
        out.append(f'<text x="{ml - 5}" y="{py(v) + 4:.1f}" text-anchor="end">{v:.3g}</text>')
        out.append(f'<line x1="{ml}" y1="{py(v):.1f}" x2="{w - mr}" y2="{py(v):.1f}" stroke="#ddd"/>')
    for i, (name, pts) in enumerate(series):
        c = colours[i % len(colours)]
        pts = [(x, y) for x, y in pts if y > 0]
        d = ' '.join(f'{px(x):.1f},{py(y):.1f}' for x, y in pts)
        out.append(f'<polyline points="{d}" fill="none" stroke="{c}" stroke-width="2"/>')
        for x, y in pts:
            out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{c}"/>')
        out.append(f'<text x="{w - mr + 10}" y="{mt + 20 + 18 * i}" fill="{c}">{name}</text>')
    out.append('</svg>')
    open(path, 'w').write('\n'.join(out))


def fmt(b):
    for unit, size in (('M', 1 << 20), ('K', 1 << 10)):
        if b >= size and b % size == 0:
            return f'{b // size}{unit}'
    return f'{b:g}'


def main():
    out = sys.argv[1]
    raw = os.path.join(out, 'raw')
    md = []
    # training
    rows, base = [], None
    steps, backprop = [], []
    for n in (1, 2, 4):
        acc, ips, last, per_step = training(raw, n)
        if not acc:
            continue
        if n == 1:
            base = med(last)
        step_ms = 64 / med(last) * 1000
        steps.append((n, step_ms))
        if per_step:
            backprop.append((n, med([p[0] for p in per_step])))
        split = f'{med([p[0] for p in per_step]):.2f} / {med([p[1] for p in per_step]):.2f}' if per_step else ''
        rows.append((n, f'{med(acc):.2f} ({min(acc):.2f}-{max(acc):.2f})', f'{med(ips):.0f}', f'{med(last):.0f}',
                     f'{med(last) / base:.2f}' if base else '', f'{step_ms:.2f}', split, len(acc)))
    acc, ips, last, _ = training(raw, 3, 'ps')
    if acc:
        rows.append(('3 (ps: 1 server, 2 workers)', f'{med(acc):.2f} ({min(acc):.2f}-{max(acc):.2f})',
                     f'{med(ips):.0f}', '', '', '', '', len(acc)))
    for n in (1, 2):
        acc, ips, last, _ = training(raw, n, 'djl')
        if acc:
            rows.append((f'{n} (DJL, PyTorch CPU)', f'{med(acc):.2f} ({min(acc):.2f}-{max(acc):.2f})',
                         f'{med(ips):.0f}', f'{med(last):.0f}' if last else '', '', '', '', len(acc)))
    md.append('### Training\n\n' + table(rows, ['ranks', 'test accuracy %', 'images/s (whole run)',
                                               'images/s (last epoch)', 'speed-up', 'ms per global step',
                                               'rank 0 ms/step: back-prop / waiting', 'runs']))
    svg_lines(os.path.join(out, 'dl-step-time.svg'), 'Fashion-MNIST MLP: time per global step (batch 64)',
              'ranks (processes, one host, 2 cores)', 'ms per step',
              [('whole step', steps), ('back-propagation', backprop)])
    # fusion
    rows = []
    for n in (2, 4):
        vals = {}
        for t in rounds(raw, f'fusion.n{n}'):
            for k, v in re.findall(r'^(\w+) ([\d.]+)$', t, re.M):
                vals.setdefault(k, []).append(float(v))
        if vals:
            rows.append((n, *(f'{med(vals.get(k, [])):.2f}' for k in ('reducer_fused', 'reducer_unfused',
                                                                       'allreduce_per_tensor', 'allreduce_one_buffer',
                                                                       'fusion_speedup'))))
    md.append('### Fusion (100 tensors of 10,000 floats per step)\n\n' + table(
        rows, ['ranks', 'fused ms', 'unfused ms', 'MPI_Allreduce per tensor ms', 'one MPI_Allreduce of all ms',
               'fusion speed-up']))
    # step
    rows = []
    for n in (2, 4):
        red, plain = [], []
        for t in rounds(raw, f'step.n{n}'):
            m = re.search(r'reducer_step_us ([\d.]+)', t)
            p = re.search(r'allreduce_per_tensor_step_us ([\d.]+)', t)
            if m:
                red.append(float(m.group(1)))
            if p:
                plain.append(float(p.group(1)))
        if red:
            rows.append((n, f'{med(red):.0f}', f'{med(plain):.0f}'))
    md.append('### The MLP\'s four gradients per step, no compute\n\n' + table(
        rows, ['ranks', 'reducer us/step', 'blocking MPI_Allreduce per tensor (float[]) us/step']))
    # reducer vs mpich
    for n in (2, 4):
        red, mp = {}, {}
        for t in rounds(raw, f'reducer.n{n}'):
            for line in t.splitlines():
                f = line.split()
                if len(f) == 4 and f[0].isdigit():
                    red.setdefault(int(f[0]), []).append(tuple(map(float, f[1:])))
        for t in rounds(raw, f'mpich.n{n}'):
            for line in t.splitlines():
                f = line.split()
                if len(f) == 4 and f[0].isdigit():
                    mp.setdefault(int(f[0]), []).append(float(f[2]))
        if not red:
            continue
        rows, s_red, s_arr, s_dir, s_mp = [], [], [], [], []
        for b in sorted(red):
            r = med([x[0] for x in red[b]])
            a = med([x[1] for x in red[b]])
            d = med([x[2] for x in red[b]])
            m = med(mp.get(b, []))
            rows.append((fmt(b), f'{r:.1f}', f'{a:.1f}', f'{d:.1f}', f'{m:.1f}', f'{r / m:.2f}' if m == m else '',
                         f'{b / r:.0f}' if r else ''))
            s_red.append((b, r))
            s_arr.append((b, a))
            s_dir.append((b, d))
            if m == m:
                s_mp.append((b, m))
        md.append(f'### Reducer against MPI_Allreduce, {n} ranks (us per call)\n\n' + table(
            rows, ['bytes', 'reducer (float[])', 'jmpi MPI_Allreduce float[]', 'jmpi MPI_Allreduce direct',
                   'MPICH MPI_Allreduce', 'reducer / MPICH', 'reducer MB/s']))
        svg_lines(os.path.join(out, f'dl-allreduce-n{n}.svg'), f'All-reduce of floats, {n} ranks', 'bytes',
                  'us per call', [('jmpi-dl reducer', s_red), ('jmpi float[]', s_arr), ('jmpi direct', s_dir),
                                  ('MPICH', s_mp)], logx=True, logy=True)
    text = '\n\n'.join(md) + '\n'
    open(os.path.join(out, 'dl-summary.md'), 'w').write(text)
    print(text)


if __name__ == '__main__':
    main()
