#!/usr/bin/env python3
"""Draws a trace written by `jmpirun --trace FILE.json` (Chrome trace event format) as an SVG timeline, the way
Perfetto shows it: a track per rank, a box per MPI call, an arrow per message from the send to its receive.

    trace-svg.py TRACE.json OUT.svg [--from-call NAME]   (--from-call: start the view at the first such call)
"""
import json, sys, html

def main():
    src, out = sys.argv[1], sys.argv[2]
    start_call = sys.argv[sys.argv.index('--from-call') + 1] if '--from-call' in sys.argv else None
    ev = json.load(open(src))['traceEvents']
    spans = [e for e in ev if e['ph'] == 'X']
    names = {e['pid']: e['args']['name'] for e in ev if e['ph'] == 'M' and e['name'] == 'process_name'}
    flows = {}
    for e in ev:
        if e['ph'] in 'sf':
            flows.setdefault(e['id'], {})[e['ph']] = e
    pids = sorted(names)
    t0 = min(e['ts'] for e in spans)
    if start_call:
        t0 = min(e['ts'] for e in spans if e['name'] == start_call)
    shown = [e for e in spans if e['ts'] + e['dur'] >= t0]
    t1 = max(e['ts'] + e['dur'] for e in shown)
    left, width, row, top = 90, 900, 46, 40
    scale = width / max(t1 - t0, 1)
    palette = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#9c755f', '#bab0ac']
    colour = {}
    for e in shown:
        colour.setdefault(e['name'], palette[len(colour) % len(palette)])
    h = top + row * len(pids) + 30 + 20 * ((len(colour) + 3) // 4)
    o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">'
         % (left + width + 20, h),
         '<defs><marker id="a" markerWidth="8" markerHeight="8" refX="7" refY="3" orient="auto">'
         '<path d="M0,0 L7,3 L0,6 z" fill="#333"/></marker></defs>',
         '<text x="%d" y="18" font-size="13">%s: %.3f ms shown</text>' % (left, html.escape(src.split('/')[-1]),
                                                                         (t1 - t0) / 1000)]
    y = {p: top + i * row for i, p in enumerate(pids)}
    for p in pids:
        o.append('<text x="%d" y="%d" text-anchor="end">%s</text>' % (left - 8, y[p] + 18, html.escape(names[p])))
        o.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#ccc"/>' % (left, y[p] + 30, left + width, y[p] + 30))
    for e in shown:
        x = left + max(e['ts'] - t0, 0) * scale
        w = max(e['dur'] * scale - (max(t0 - e['ts'], 0) * scale), 0.8)
        o.append('<rect x="%.2f" y="%d" width="%.2f" height="26" fill="%s"><title>%s %.1f us</title></rect>'
                 % (x, y[e['pid']], w, colour[e['name']], html.escape(e['name']), e['dur']))
    for f in flows.values():
        if 's' in f and 'f' in f and f['s']['ts'] >= t0:
            x1 = left + (f['s']['ts'] - t0) * scale
            x2 = left + (f['f']['ts'] - t0) * scale
            y1 = y[f['s']['pid']] + 26
            y2 = y[f['f']['pid']] + (0 if y[f['f']['pid']] > y1 else 26)
            o.append('<line x1="%.2f" y1="%d" x2="%.2f" y2="%d" stroke="#333" stroke-width="0.8" '
                     'marker-end="url(#a)"/>' % (x1, y1, x2, y2))
    ly = top + row * len(pids) + 10
    for i, (n, c) in enumerate(colour.items()):
        lx = left + (i % 4) * 220
        yy = ly + (i // 4) * 20
        o.append('<rect x="%d" y="%d" width="12" height="12" fill="%s"/><text x="%d" y="%d">%s</text>'
                 % (lx, yy, c, lx + 18, yy + 10, html.escape(n)))
    o.append('</svg>')
    open(out, 'w').write('\n'.join(o) + '\n')

if __name__ == '__main__':
    main()
