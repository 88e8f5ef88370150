"""Table of jmpi-benchmarks/scripts/mpj-facade.sh's raw outputs: medians over rounds, MPJ API / Open MPI API."""
import collections
import glob
import math
import re
import statistics
import sys

out = sys.argv[1]
runs = collections.defaultdict(list)  # (case, mode, api) -> [ {size: us} or {'s': seconds} ]
flags = collections.Counter()
for f in sorted(glob.glob(out + '/raw/*.txt')):
    case, mode, api, _ = f.split('/')[-1].split('.', 3)
    text = open(f).read()
    g = re.search(r'foreign ([\d.]+)s.*rc=(\d+)', text)
    if g and float(g.group(1)) > 0.5:
        flags[(case, mode)] += 1
    m = re.search(r'RESULT jacobi2d seconds=([\d.e+-]+)', text)
    if m:
        runs[(case, mode, api)].append({'s': float(m.group(1))})
    elif case == 'latency':
        d = {int(a): float(b) for a, b in re.findall(r'^(\d+) ([\d.]+)$', text, re.M)}
        if d:
            runs[(case, mode, api)].append(d)

def med(case, mode, api, key):
    v = [d[key] for d in runs[(case, mode, api)] if key in d]
    return statistics.median(v) if v else None

print('| program | mode | Open MPI API | MPJ API | MPJ / Open MPI | runs |')
print('|---|---|---:|---:|---:|---|')
for case in ('latency', 'jacobi1024', 'jacobi256'):
    for mode in ('proc', 'thr'):
        n = '%d + %d' % (len(runs[(case, mode, 'ompi')]), len(runs[(case, mode, 'mpj')]))
        if flags[(case, mode)]:
            n += ', %d disturbed' % flags[(case, mode)]
        if case == 'latency':
            sizes = sorted(set().union(*[d.keys() for d in runs[(case, mode, 'ompi')]] or [set()]))
            ratios = []
            for s in sizes:
                a, b = med(case, mode, 'ompi', s), med(case, mode, 'mpj', s)
                if a and b:
                    ratios.append(b / a)
            if ratios:
                g = math.exp(sum(map(math.log, ratios)) / len(ratios))
                print('| latency, geometric mean over %d sizes (per size %.2f-%.2f) | %s | | | %.3f | %s |'
                      % (len(ratios), min(ratios), max(ratios), mode, g, n))
        else:
            a, b = med(case, mode, 'ompi', 's'), med(case, mode, 'mpj', 's')
            if a and b:
                print('| %s (s) | %s | %.3f | %.3f | %.3f | %s |' % (case, mode, a, b, b / a, n))
if len(sys.argv) > 2:
    for mode in ('proc', 'thr'):
        print('\nlatency, %s: size, Open MPI API us, MPJ API us' % mode)
        for s in sorted(set().union(*[d.keys() for d in runs[('latency', mode, 'ompi')]] or [set()])):
            print(s, med('latency', mode, 'ompi', s), med('latency', mode, 'mpj', s))
