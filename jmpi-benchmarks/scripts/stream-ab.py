#!/usr/bin/env python3
"""Summarises stream-ab.sh's raw outputs: per benchmark and size, the median of the rounds and every run, for MPICH,
jmpi streamed and jmpi with streaming off, with the ratios to MPICH. Usage: stream-ab.py RAWDIR"""
import glob
import os
import statistics
import sys

SIZES = {'lat': [16384, 32768, 65536, 131072, 262144, 1048576],
         'bw': [16384, 65536, 262144, 1048576, 4194304],
         'bcast': [16384, 32768, 65536, 131072, 262144, 1048576]}


def load(path):
    values = {}
    for line in open(path):
        p = line.split()
        if len(p) >= 2 and p[0].isdigit():
            try:
                values[int(p[0])] = float(p[1])
            except ValueError:
                pass
    return values


def main(raw):
    for bench, sizes in SIZES.items():
        runs = {impl: [load(f) for f in sorted(glob.glob(os.path.join(raw, f'{impl}.{bench}.*.txt')))]
                for impl in ('mpich', 'stream', 'rdv')}
        unit = 'MB/s' if bench == 'bw' else 'us'
        print(f'\n{bench} ({unit}, median of rounds [runs]); ratio = jmpi / MPICH' +
              (' (higher is better for bandwidth)' if bench == 'bw' else ''))
        for s in sizes:
            med = {}
            cells = []
            for impl, rs in runs.items():
                v = [r[s] for r in rs if s in r]
                if not v:
                    cells.append(f'{impl} -')
                    continue
                med[impl] = statistics.median(v)
                cells.append(f"{impl} {med[impl]:.2f} [{' '.join(f'{x:.2f}' for x in v)}]")
            ratio = ''
            if 'mpich' in med:
                for impl in ('stream', 'rdv'):
                    if impl in med:
                        r = med[impl] / med['mpich']
                        ratio += f' {impl}/mpich {r:.2f}'
            print(f'  {s:>8}: ' + ' | '.join(cells) + ' |' + ratio)


if __name__ == '__main__':
    main(sys.argv[1])
