#!/usr/bin/env python3
"""Reads tune-sweep.sh's raw outputs and prints, per collective and rank count, the fastest algorithm at each size
(maximum over ranks of the time per call; corrected time for bcast) and the time of every algorithm.
Usage: crossovers.py OUTDIR"""
import collections, glob, os, re, sys

out = sys.argv[1]
t = collections.defaultdict(dict)  # (coll, n) -> alg -> {size: us}
for f in glob.glob(os.path.join(out, 'raw', '*.txt')):
    m = re.match(r'(\w+)\.(\w+)\.n(\d+)\.txt', os.path.basename(f))
    if not m:
        continue
    coll, alg, n = m.group(1), m.group(2), int(m.group(3))
    vals = collections.defaultdict(list)
    for line in open(f):
        p = line.split()
        if len(p) >= 3 and re.match(r'^\d+$', p[0]):
            vals[int(p[0])].append(float(p[1] if coll == 'bcast' else p[2]))
    t[(coll, n)][alg] = {s: min(v) for s, v in vals.items()}
for (coll, n) in sorted(t):
    algs = sorted(t[(coll, n)])
    sizes = sorted({s for a in algs for s in t[(coll, n)][a]})
    print(f"\n### {coll}, {n} ranks\n")
    print("| size | " + " | ".join(algs) + " | fastest |")
    print("|---" * (len(algs) + 2) + "|")
    for s in sizes:
        row = [t[(coll, n)][a].get(s) for a in algs]
        best = min((v, a) for v, a in zip(row, algs) if v is not None)[1]
        print(f"| {s} | " + " | ".join("-" if v is None else f"{v:.2f}" for v in row) + f" | {best} |")
