#!/usr/bin/env python3
"""Medians over rounds of compare-mpich.sh's raw outputs, and jmpi/MPICH ratios, as Markdown tables.
Usage: aggregate.py OUTDIR [--sizes 4,1024,65536,1048576,16777216]
Figures: allreduce, reduce, allgather, alltoall, barrier: the maximum over ranks of the average time per call;
bcast: the acknowledged broadcast time minus the one-way zero-byte latency (baseline method); latency: one-way."""
import collections, glob, os, re, statistics, sys

out = sys.argv[1]
sizes = None
if '--sizes' in sys.argv:
    sizes = [int(x) for x in sys.argv[sys.argv.index('--sizes') + 1].split(',')]
data = collections.defaultdict(lambda: collections.defaultdict(list))  # (impl, bench, n) -> size -> [values]
contaminated = collections.Counter()
for f in glob.glob(os.path.join(out, 'raw', '*.txt')):
    name = os.path.basename(f)
    m = re.match(r'(\w+)\.(\w+)\.n(\d+)\.r(\d+)\.txt', name)
    if not m:
        continue
    impl, bench, n = m.group(1), m.group(2), int(m.group(3))
    text = open(f).read()
    if 'CONTAMINATED' in text:
        contaminated[(impl, bench, n)] += 1
    for line in text.splitlines():
        p = line.split()
        if not p or not re.match(r'^\d+$', p[0]) or len(p) < 3:
            continue
        size = int(p[0])
        if bench == 'latency':
            v = float(p[1])
        elif bench == 'bcast':
            v = float(p[1])
        else:
            v = float(p[2])
        data[(impl, bench, n)][size].append(v)

LABELS = {'jmpi': 'jmpi (direct buffers)', 'jmpiarrays': 'jmpi (Java arrays)',
          'jmpialt': 'jmpi, ALT build (direct buffers)', 'jmpialtarrays': 'jmpi, ALT build (Java arrays)'}


def med(impl, bench, n, size):
    v = data.get((impl, bench, n), {}).get(size)
    return statistics.median(v) if v else None

benches = sorted({(b, n) for (_, b, n) in data})
for bench, n in benches:
    impls = [i for i in ('mpich', 'jmpi', 'jmpiarrays', 'jmpialt', 'jmpialtarrays') if (i, bench, n) in data]
    if 'mpich' not in impls:
        continue
    all_sizes = sorted(data[('mpich', bench, n)])
    show = [s for s in all_sizes if sizes is None or s in sizes]
    runs = {i: max(len(v) for v in data[(i, bench, n)].values()) for i in impls}
    print(f"\n### {bench}, {n} ranks\n")
    head = "| size | MPICH us |" + "".join(f" {lbl} us | ratio |" for lbl in
                                        (LABELS[i] for i in impls[1:]))
    print(head)
    print("|---" * (2 + 2 * (len(impls) - 1)) + "|")
    for s in show:
        base = med('mpich', bench, n, s)
        row = f"| {s} | {base:.3f} |" if base is not None else f"| {s} | - |"
        for i in impls[1:]:
            v = med(i, bench, n, s)
            if v is None or base is None:
                row += " - | - |"
            else:
                row += f" {v:.3f} | {v / base:.2f} |"
        print(row)
    print("\nruns: " + ", ".join(f"{i} {runs[i]}" + (f" ({contaminated[(i, bench, n)]} flagged)" if contaminated[(i, bench, n)] else "")
                               for i in impls))
