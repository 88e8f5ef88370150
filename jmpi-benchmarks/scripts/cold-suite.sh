#!/bin/bash
# cold-suite.sh: the "cold suite" instrument. Every program runs in FRESH JVMs (one job per run; nothing is prepared
# for it but what the program does itself), every run under $BASELINE/gate.py (waits for a quiet machine and flags a
# run that other processes disturbed), the implementations interleaved run by run, ROUNDS rounds. For each round, for
# each case, in turn: jmpi processes (jmpirun -n NP, default 2), jmpi threads (jmpirun -n NP --threads), Open MPI's Java bindings
# (mpirun.openmpi, same JDK) and, where the case has a C twin, MPICH (mpiexec.mpich -n NP -bind-to core); the order
# rotates by one implementation each round (round 2 starts with the second of IMPLS, ...), so use a number of rounds
# that is a multiple of the number of implementations for an even share of first places. Once per
# round a companion run of jmpi processes (-l, -XX:+CITime, -XX:+PrintCompilation, -Xlog:deoptimization=debug to a
# file per rank and to standard output) for the cases matching COMPANION. Then a report: OUTDIR/summary.md (medians over
# rounds, ratios jmpi / Open MPI Java, their geometric mean per case, app times, C1/C2 compile time per rank,
# deoptimizations in jmpi's classes, and for OMB-J cases the compilations and deoptimizations in each size's window
# beside that size's ratio) and OUTDIR/summary.csv (every figure of every run).
#
# Usage: jmpi-benchmarks/scripts/cold-suite.sh OUTDIR [ROUNDS=3] [FILTER]
#        jmpi-benchmarks/scripts/cold-suite.sh --report OUTDIR      (only the report, from OUTDIR/raw)
#   FILTER   an extended regular expression on case names (default: all), e.g. '^OSULatency$' or 'OSU|jacobi'.
#   Cases:   OSULatency, OSULatency-arrays (-a arrays), OSUBandwidth and OSUBiBandwidth (OMB-J's OSUBandwidthOMPI and
#            OSUBiBandwidthOMPI, the variants that compile against both Java MPIs; direct buffers), OSUBcast,
#            OSUAllReduce, OSUAllReduce-arrays (-a arrays), OSUAllgather, OSUAlltoall: OMB-J at its own default sizes
#            and iteration counts; plus the APPS table below.
#   Raw output: OUTDIR/raw/<case>.<impl>.<round>.txt, impl one of jmpi-proc jmpi-thr ompi-java mpich, and the
#            companions OUTDIR/raw/<case>.jmpi-jit.<round>.txt with OUTDIR/raw/<case>.jmpi-jit.<round>.deopt.<pid>.log.
#            A gated run that was disturbed (gate exit 99) is kept and flagged; a failed one is kept and left out.
# Needs:   JDK 25 at $JAVA_HOME (default /usr/lib/jvm/temurin-25-jdk-amd64); a built jmpi distribution
#          (jmpi-dist/target/jmpi, ./mvnw -q package -DskipTests); python3; openmpi-bin + libopenmpi-dev and mpich +
#          libmpich-dev (Debian 12); $PEERS/ompi-java/mpi.jar (Open MPI 4.1.4's Java bindings, built outside the
#          repository as /work/shared/reference/peers.md says) and OMB-J's java/ tree in $PEERS/omb-j/src.
# Environment:
#   PEERS (default /work/peers), BASELINE (default /work/shared/baseline: gate.py and the MPICH twins of OMB-J),
#   MAXWAIT (seconds the gate waits for a quiet machine, default 300), JMPI_HOME (a jmpi distribution, default this
#   tree's jmpi-dist/target/jmpi), IMPLS (default "jmpi-proc jmpi-thr ompi-java mpich"), COMPANION (regular
#   expression of the cases that get a companion run each round, default '^OSULatency$'; "none" for none),
#   RUN_TIMEOUT (seconds, default 1800, per run), QUICK=1 (OMB-J cases only: -m 4096 -x 200 -i 2000, a smoke test;
#   off by default), OMB_ARGS (more OMB-J arguments for every OMB-J case, after QUICK's, e.g. "-m 1024:65536"; the
#   MPICH twins do not get them), APPS_FILE (a file of APPS lines used instead of the table below),
#   NP (ranks per job on this host, default 2; OMB-J's point-to-point cases need 2; more than the cores: see BIND
#   below, MPICH is then left out),
#   EXCLUDE_CONTAMINATED=1 (the report leaves disturbed runs out instead of flagging them), BASE_JMPI_HOME (a second
#   jmpi distribution, e.g. of an earlier commit built in a worktree of its own: add jmpi-base to IMPLS for an A/B),
#   ALT_JMPI_HOME (a third one: jmpi-alt); BASE_JMPI_ARGS, ALT_JMPI_ARGS: jmpirun options for those two (e.g.
#   --threads, to set a build's threads mode beside this one's). With either, the report adds a section "jmpi-proc against jmpi-base" (per
#   case, jmpi-proc's time over the other build's: geometric mean over the sizes, smallest and largest ratio).
#   HOSTS (e.g. 10.78.0.1:1,10.78.0.2:1): run every job across these hosts, as many ranks on each as given, started
#   by ssh (SSH: an ssh program to use, e.g. one with its own config; default ssh): jmpirun -H, Open MPI over its TCP
#   transport between hosts (--mca btl tcp,vader,self, interfaces HOSTS_NET, e.g. 10.78.0.0/24) and MPICH with UCX
#   over TCP between hosts (UCX_TLS=tcp,self; Hydra's -iface HOSTS_IFACE, the launching host's interface on that
#   network); no binding to cores (hosts emulated on one machine would all bind to its first core). Once the job has
#   more ranks than this machine has cores, both Java MPIs are told: Open MPI yields when idle (else its ranks spin
#   each other out of the cores: a 4-byte allreduce on 4 ranks took 4.6 ms instead of 16 us on 2 cores), jmpi gets
#   each host's share of the cores (JMPI_HOST_CPUS) and so yields when waiting instead of spinning, and MPICH, which
#   cannot be told, is left out (see BIND below). jmpi-thr and the JIT floors of APPS do not run.
#   jmpi-benchmarks/scripts/tcp-hosts.sh sets this up on network namespaces.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)

# ---- APPS: the mini-applications of the cold suite ---------------------------------------------------------------
# One line per case: "name|java-class|java-args|c-source|c-args"
#   name        the case name (letters, digits, '-' and '_'; no dots): raw file names and FILTER use it
#   java-class  a class of jmpi-benchmarks/src/main/java/org/jmpi/benchmarks/cold (simple or full name); it prints
#               "RESULT <name> seconds=<s> check=<v>" on rank 0
#   java-args   its arguments (split at blanks)
#   c-source    its C twin in jmpi-benchmarks/src/main/c/cold (e.g. jacobi2d.c, printing the same RESULT line), or
#               empty: no MPICH run
#   c-args      the twin's arguments
#   jvm-args    optional: JVM options for the ranks; such a case runs on jmpi processes only (the JIT floors below)
# Every Java file of that folder is compiled twice (against jmpi, and against Open MPI's mpi.jar), every twin with
# mpicc.mpich -O2, into OUTDIR/build; so the same source runs on both Java MPIs.
APPS=(
    "jacobi2d-1024|Jacobi2d|1024 500|jacobi2d.c|1024 500"
    "jacobi2d-256|Jacobi2d|256 5000|jacobi2d.c|256 5000"
    "jacobi-columns|JacobiColumns|256 5000|jacobi_columns.c|256 5000"
    "jacobi-overlap-1024|JacobiOverlap|1024 500|jacobi_overlap.c|1024 500"
    "jacobi-overlap-256|JacobiOverlap|256 5000|jacobi_overlap.c|256 5000"
    "cg|ConjugateGradient||conjugate_gradient.c|"
    "samplesort|SampleSort||sample_sort.c|"
    "nbody|NBody||nbody.c|"
    "pingpong-barrier-bytes-8|BarrierPingPong|bytes 8|barrier_pingpong.c|bytes 8"
    "pingpong-barrier-direct-8|BarrierPingPong|direct 8|barrier_pingpong.c|direct 8"
    "pingpong-barrier-slices-8|BarrierPingPong|slices 8|barrier_pingpong.c|slices 8"
    "pingpong-barrier-fresh-8|BarrierPingPong|fresh 8|barrier_pingpong.c|fresh 8"
    "pingpong-barrier-replace-512|BarrierPingPong|replace 512|barrier_pingpong.c|replace 512"
    "pingpong-barrier-bytes-1m|BarrierPingPong|bytes 1048576|barrier_pingpong.c|bytes 1048576"
    "pingpong-barrier-direct-1m|BarrierPingPong|direct 1048576|barrier_pingpong.c|direct 1048576"
    "xint-pingpong-bytes-8|BarrierPingPong|bytes 8 2000|||-Xint"
    "c1-pingpong-bytes-8|BarrierPingPong|bytes 8|||-XX:TieredStopAtLevel=1"
)
# ---- end of APPS ----------------------------------------------------------------------------------------------------

# ---- OMB-J cases: name|class|arguments|MPICH twin (program and arguments)|metric (lat: us, bw: MB/s)
# The twins are the project's C baseline programs (same metric per size, their own iteration scheme).
OMB_CASES=(
    "OSULatency|mpi.pt2pt.OSULatency||mpi_pingpong|lat"
    "OSULatency-arrays|mpi.pt2pt.OSULatency|-a arrays||lat"
    "OSUBandwidth|mpi.pt2pt.OSUBandwidthOMPI||mpi_bw|bw"
    "OSUBiBandwidth|mpi.pt2pt.OSUBiBandwidthOMPI||mpi_bibw|bw"
    "OSUBcast|mpi.collective.OSUBcast|||lat"
    "OSUAllReduce|mpi.collective.OSUAllReduce||mpi_allreduce|lat"
    "OSUAllReduce-arrays|mpi.collective.OSUAllReduce|-a arrays||lat"
    "OSUAllgather|mpi.collective.OSUAllgather||mpi_coll allgather|lat"
    "OSUAlltoall|mpi.collective.OSUAlltoall||mpi_coll alltoall|lat"
)
OMB_FILES=(common/BenchmarkUtils pt2pt/OSULatency pt2pt/OSUBandwidthOMPI pt2pt/OSUBiBandwidthOMPI collective/OSUBcast
           collective/OSUAllReduce collective/OSUAllgather collective/OSUAlltoall)

report() { # OUTDIR: parse OUTDIR/raw, write OUTDIR/summary.md and summary.csv, print summary.md
python3 - "$1" <<'PY'
import csv, glob, math, os, re, statistics, sys
out = sys.argv[1]
raw = os.path.join(out, 'raw')
IMPLS = ['jmpi-proc', 'jmpi-thr', 'ompi-java', 'mpich', 'jmpi-base', 'jmpi-alt']
excl = os.environ.get('EXCLUDE_CONTAMINATED', '0') == '1'
cases = []                                          # (name, kind, metric) in run order
meta = {}
try:
    for line in open(os.path.join(out, 'cases.tsv')):
        f = line.rstrip('\n').split('\t')
        if len(f) >= 3 and f[0] not in meta:
            meta[f[0]] = (f[1], f[2]); cases.append(f[0])
except OSError:
    pass
NUM = r'[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?'
def gate_status(text):
    g = [l for l in text.splitlines() if l.startswith('# gate:')]
    if not g:
        return 'failed'
    m = re.search(r'rc=(-?\d+)', g[-1])
    if not m or m.group(1) != '0':
        return 'failed'
    return 'contaminated' if 'CONTAMINATED' in g[-1] else 'ok'
runs = {}                                           # (case, impl) -> {round: (status, data)}
jit = {}                                            # case -> {round: text}
for p in sorted(glob.glob(os.path.join(raw, '*.txt'))):
    m = re.match(r'^([^.]+)\.([^.]+)\.(\d+)\.txt$', os.path.basename(p))
    if not m:
        continue
    case, impl, rnd = m.group(1), m.group(2), int(m.group(3))
    text = open(p, errors='replace').read()
    if case not in meta:
        kind = 'app' if 'RESULT ' in text else 'omb'
        meta[case] = (kind, 'bw' if 'Bandwidth' in text else ('s' if kind == 'app' else 'lat')); cases.append(case)
    if impl == 'jmpi-jit':
        jit.setdefault(case, {})[rnd] = text
        continue
    st = gate_status(text)
    if meta[case][0] == 'app':
        r = re.findall(r'^RESULT\s+(\S+)\s+seconds=(' + NUM + r')\s+check=(\S+)', text, re.M)
        data = {'seconds': float(r[-1][1]), 'check': r[-1][2]} if r else {}
    else:
        data = {}
        for l in text.splitlines():
            l = re.sub(r'^\[\d+\]\s*', '', l)
            mm = re.match(r'^\s*(\d+)\s+(' + NUM + r')(\s|$)', l)
            if mm:
                data[int(mm.group(1))] = float(mm.group(2))
    if st != 'failed' and not data:
        st = 'failed'
    runs.setdefault((case, impl), {})[rnd] = (st, data)
rounds = sorted({r for v in runs.values() for r in v} | {r for v in jit.values() for r in v})
def usable(st):
    return st == 'ok' or (st == 'contaminated' and not excl)
def fmt(v):
    if v is None:
        return '—'
    a = abs(v)
    return f'{v:.3g}' if a < 10 else f'{v:.1f}' if a < 1000 else f'{v:.0f}'
def ratio(j, o, metric):
    if j is None or o is None or j <= 0 or o <= 0:
        return None
    return o / j if metric == 'bw' else j / o
def fmti(v):
    return '—' if v is None else f'{v:.0f}'
def gmean(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None
def paired(case, a, b):
    # per size ('' for an app): the median over the rounds in which both ran usably of a's ratio to b's in that round;
    # a round runs a case's implementations back to back, so a slower spell of the host that lasts minutes slows both
    ra, rb, out = runs.get((case, a), {}), runs.get((case, b), {}), {}
    for r, (sa, da) in ra.items():
        if r not in rb or not usable(sa) or not usable(rb[r][0]):
            continue
        db = rb[r][1]
        pairs = [('', da.get('seconds'), db.get('seconds'))] if meta[case][0] == 'app' else \
            [(k, v, db.get(k)) for k, v in da.items()]
        for k, x, y in pairs:
            q = ratio(x, y, meta[case][1])
            if q:
                out.setdefault(k, []).append(q)
    return {k: statistics.median(v) for k, v in out.items()}
def status_line(case):
    parts = []
    for impl in IMPLS:
        rr = runs.get((case, impl))
        if not rr:
            if impl != 'mpich' and any(i == impl for _, i in runs):
                parts.append(f'{impl}: MISSING')
            continue
        c = {k: sorted(r for r, (s, _) in rr.items() if s == k) for k in ('ok', 'contaminated', 'failed')}
        miss = [r for r in rounds if r not in rr]
        s = f'{impl}: {len(c["ok"])} ok'
        if c['contaminated']:
            s += ', contaminated r' + ','.join(map(str, c['contaminated']))
        if c['failed']:
            s += ', FAILED r' + ','.join(map(str, c['failed']))
        if miss:
            s += ', missing r' + ','.join(map(str, miss))
        parts.append(s)
    return '; '.join(parts)
md = []
csvrows = []
md.append(f'# Cold suite: {out}\n')
try:
    md.append('```\n' + open(os.path.join(out, 'meta.txt')).read().rstrip() + '\n```\n')
except OSError:
    pass
md.append(f'Rounds: {len(rounds)}. Figures are medians over the usable rounds (gate ok'
          f'{"" if excl else " or contaminated, the latter flagged"}). Ratio = jmpi time / Open MPI Java time'
          f' (> 1: jmpi slower); for bandwidth, Open MPI Java MB/s / jmpi MB/s. MPICH: the C twin with its own'
          f' iteration scheme, for reference.\n')
intro_end = len(md)
omb = [c for c in cases if meta[c][0] == 'omb']
apps = [c for c in cases if meta[c][0] == 'app']
overview = []
for case in omb:
    metric = meta[case][1]
    per = {}                                          # impl -> size -> [values]
    flags = {}                                        # size -> set of 'impl rN'
    for impl in IMPLS:
        for r, (st, data) in sorted(runs.get((case, impl), {}).items()):
            for size, v in data.items():
                csvrows.append([case, size, impl, r, v, st])
            if not usable(st):
                continue
            for size, v in data.items():
                per.setdefault(impl, {}).setdefault(size, []).append(v)
                if st == 'contaminated':
                    flags.setdefault(size, set()).add(f'{impl} r{r}')
    sizes = sorted({s for i in ('jmpi-proc', 'jmpi-thr', 'ompi-java') for s in per.get(i, {})})
    med = {i: {s: statistics.median(v) for s, v in d.items()} for i, d in per.items()}
    unit = 'MB/s' if metric == 'bw' else 'µs'
    md.append(f'## {case} ({unit})\n')
    md.append(f'| size (B) | jmpi-proc | jmpi-thr | ompi-java | mpich | proc/ompi | thr/ompi | flags |')
    md.append('|---:|---:|---:|---:|---:|---:|---:|---|')
    rp, rt = [], []
    for s in sizes:
        g = lambda i: med.get(i, {}).get(s)
        a, b = ratio(g('jmpi-proc'), g('ompi-java'), metric), ratio(g('jmpi-thr'), g('ompi-java'), metric)
        rp.append(a); rt.append(b)
        fl = ('contaminated: ' + ', '.join(sorted(flags[s]))) if s in flags else ''
        md.append(f'| {s} | {fmt(g("jmpi-proc"))} | {fmt(g("jmpi-thr"))} | {fmt(g("ompi-java"))} | '
                  f'{fmt(g("mpich"))} | {fmt(a)} | {fmt(b)} | {fl} |')
    gp, gt = gmean(rp), gmean(rt)
    md.append(f'| **geomean** | | | | | **{fmt(gp)}** | **{fmt(gt)}** | |\n')
    md.append(f'Runs: {status_line(case) or "none"}\n')
    overview.append((case, unit, len(sizes), gp, gt, bool(flags), status_line(case)))
if apps:
    md.append('## Applications (seconds)\n')
    md.append('| app | jmpi-proc | jmpi-thr | ompi-java | mpich | proc/ompi | thr/ompi | proc/mpich | check | flags |')
    md.append('|---|---:|---:|---:|---:|---:|---:|---:|---|---|')
    for case in apps:
        med, checks, fl = {}, {}, []
        for impl in IMPLS:
            vals = []
            for r, (st, data) in sorted(runs.get((case, impl), {}).items()):
                if data:
                    csvrows.append([case, '', impl, r, data['seconds'], st])
                if usable(st) and data:
                    vals.append(data['seconds']); checks.setdefault(impl, set()).add(data['check'])
                    if st == 'contaminated':
                        fl.append(f'contaminated {impl} r{r}')
            if vals:
                med[impl] = statistics.median(vals)
        allc = set().union(*checks.values()) if checks else set()
        chk = (next(iter(allc)) if len(allc) == 1 else
               'DIFFER: ' + '; '.join(f'{i}={"/".join(sorted(c))}' for i, c in checks.items())) if allc else '—'
        a = ratio(med.get('jmpi-proc'), med.get('ompi-java'), 's')
        b = ratio(med.get('jmpi-thr'), med.get('ompi-java'), 's')
        c = ratio(med.get('jmpi-proc'), med.get('mpich'), 's')
        md.append(f'| {case} | {fmt(med.get("jmpi-proc"))} | {fmt(med.get("jmpi-thr"))} | '
                  f'{fmt(med.get("ompi-java"))} | {fmt(med.get("mpich"))} | {fmt(a)} | {fmt(b)} | {fmt(c)} | {chk} | '
                  f'{", ".join(fl)} |')
        overview.append((case, 's', 1, a, b, bool(fl), status_line(case)))
    md.append('')
    for case in apps:
        md.append(f'- {case}: {status_line(case) or "no runs"}')
    md.append('')
# ---- A/B: jmpi processes against the other builds of the sitting (BASE_JMPI_HOME, ALT_JMPI_HOME)
others = [i for i in ('jmpi-base', 'jmpi-alt') if any(k[1] == i for k in runs)]
if others:
    def medians(case, impl):
        d = {}
        for r, (st, data) in runs.get((case, impl), {}).items():
            if usable(st):
                for k, v in (data.items() if meta[case][0] == 'omb' else [('', data.get('seconds'))]):
                    if v is not None:
                        d.setdefault(k, []).append(v)
        return {k: statistics.median(v) for k, v in d.items()}
    md.append('## jmpi-proc against ' + ' and '.join(others) + '\n')
    md.append('Time of jmpi-proc over the other build\'s (for bandwidth, its MB/s over jmpi-proc\'s); OMB-J cases: '
              'geometric mean over the sizes both have, with the smallest and largest per-size ratio; paired: the same '
              'from the median of the per-round ratios (each round runs the two back to back).\n')
    md.append('| case | ' + ' | '.join(f'proc/{o[5:]} (min-max)' for o in others) + ' |')
    md.append('|---|' + '---:|' * len(others))
    for case in cases:
        if case not in meta:
            continue
        mp = medians(case, 'jmpi-proc')
        cells = []
        for o in others:
            mo = medians(case, o)
            rs = [ratio(mp[k], mo[k], meta[case][1]) for k in mp if k in mo]
            rs = [x for x in rs if x]
            pr = gmean(list(paired(case, 'jmpi-proc', o).values()))
            cells.append((f'{fmt(gmean(rs))} ({fmt(min(rs))}-{fmt(max(rs))})' if len(rs) > 1 else
                          fmt(rs[0]) if rs else '—') + f'; paired {fmt(pr)}')
        md.append(f'| {case} | ' + ' | '.join(cells) + ' |')
    md.append('')
# ---- companions: -XX:+CITime per rank, deoptimizations
def citime(text):
    ranks = {}
    for l in text.splitlines():
        m = re.match(r'^\[(\d+)\]\s?(.*)$', l)
        rk, body = (m.group(1), m.group(2)) if m else ('?', l)
        d = ranks.setdefault(rk, {})
        for key, pat in (('c1', r'C1 Compile Time:\s+(' + NUM + ') s'), ('c2', r'C2 Compile Time:\s+(' + NUM + ') s'),
                         ('total', r'Total compilation time\s*:\s*(' + NUM + ') s'),
                         ('methods', r'Total compiled methods\s*:\s*(\d+) methods'),
                         ('code', r'nmethod code size\s*:\s*(\d+) bytes')):
            mm = re.search(pat, body)
            if mm:
                d[key] = float(mm.group(1))
        mm = re.search(r'^\s*C2 \{.*?standard:\s*' + NUM + r' s, \d+ bytes, (\d+) methods; osr:\s*' + NUM +
                       r' s, \d+ bytes, (\d+) methods', body)
        if mm:
            d['c2methods'] = int(mm.group(1)) + int(mm.group(2))
    return {k: v for k, v in ranks.items() if 'c2' in v}
def classify(method):
    if method.startswith('org.jmpi.benchmarks.') or re.match(r'mpi\.[a-z]', method):
        return 'program'
    if method.startswith('org.jmpi.') or re.match(r'mpi\.[A-Z]', method):
        return 'jmpi'
    return 'other'
if jit:
    md.append('## Companions: JIT of jmpi processes (-XX:+CITime; -Xlog:deoptimization=debug)\n')
    md.append('Medians over rounds per rank. C2 methods: standard + OSR compilations by C2; methods: all compiled.\n')
    md.append('| case | rank | C1 s | C2 s | total s | C2 methods | methods | nmethod code KiB | rounds |')
    md.append('|---|---|---:|---:|---:|---:|---:|---:|---:|')
    for case in [c for c in cases if c in jit]:
        per = {}
        for r, text in sorted(jit[case].items()):
            for rk, d in citime(text).items():
                per.setdefault(rk, []).append(d)
                csvrows.append([case, '', f'jmpi-jit rank {rk}', r, d.get('c2'), 'c2-seconds'])
        for rk in sorted(per):
            ds = per[rk]
            g = lambda k: statistics.median([d[k] for d in ds if k in d]) if any(k in d for d in ds) else None
            code = g('code')
            md.append(f'| {case} | {rk} | {fmt(g("c1"))} | {fmt(g("c2"))} | {fmt(g("total"))} | '
                      f'{fmti(g("c2methods"))} | {fmti(g("methods"))} | {fmti(code / 1024 if code else None)} | '
                      f'{len(ds)} |')
        if not per:
            md.append(f'| {case} | — | no CITime output | | | | | | |')
    md.append('')
    md.append('| case | round | logs (ranks) | deopts in jmpi (per rank) | in the program | JDK/other | gate |')
    md.append('|---|---:|---:|---|---:|---:|---|')
    top = {}
    for case in [c for c in cases if c in jit]:
        for r, text in sorted(jit[case].items()):
            logs = sorted(glob.glob(os.path.join(raw, f'{case}.jmpi-jit.{r}.deopt.*.log')))
            perrank, prog, other = [], 0, 0
            for lp in logs:
                n = 0
                for l in open(lp, errors='replace'):
                    m = re.search(r'level=\d+\s+([\w$.]+)\.([\w$<>]+)\(', l) or \
                        re.search(r'\s([\w$]+(?:\.[\w$]+)+)\.([\w$<>]+)\(', l)
                    if not m:
                        continue
                    k = classify(m.group(1))
                    if k == 'jmpi':
                        n += 1; key = f'{m.group(1)}.{m.group(2)}'; top[key] = top.get(key, 0) + 1
                    elif k == 'program':
                        prog += 1
                    else:
                        other += 1
                perrank.append(n)
            csvrows.append([case, '', 'jmpi-jit', r, sum(perrank), 'jmpi-deopts'])
            md.append(f'| {case} | {r} | {len(logs)} | {sum(perrank)} ({" + ".join(map(str, perrank)) or "—"}) | '
                      f'{prog} | {other} | {gate_status(text)} |')
    if top:
        md.append('\nMost frequent deoptimized jmpi methods (all rounds, all ranks): ' +
                  ', '.join(f'`{k}` {v}' for k, v in sorted(top.items(), key=lambda kv: -kv[1])[:8]) + '\n')
    md.append('')
    # ---- JIT events per OMB-J size: the compilations and deoptimizations (both ranks) that the companion's output
    # shows between one size's line and the next; a size's window holds the previous size's statistics, this size's
    # untimed iterations and its timed ones (the first window: OMB-J's own warm-up too)
    def windows(text):
        out, cur, started = [], None, False
        for l in text.splitlines():
            m = re.match(r'^\[(\d+)\]\s?(.*)$', l)
            rk, body = (m.group(1), m.group(2)) if m else ('?', l)
            if '# Size' in body:
                started, cur = True, {'jmpi': 0, 'other': 0, 'c2': 0, 'deopt': 0, 'methods': []}
                continue
            if not started:
                continue
            if '[deoptimization]' in body:
                cur['deopt'] += 'trap_bci=' in body
                continue
            if '::' in body:
                mm = re.match(r'^\s*\d+\s+\d+\s+([%sbn!]*)\s*(\d)\s+([\w$.]+)::([\w$<>]+)', body)
                if not mm or 'n' in mm.group(1) or 'made not entrant' in body:
                    continue
                if classify(mm.group(3)) == 'jmpi':
                    cur['jmpi'] += 1
                    cur['methods'].append(f'{mm.group(3).rsplit(".", 1)[-1]}::{mm.group(4)}')
                else:
                    cur['other'] += 1
                cur['c2'] += mm.group(2) == '4'
                continue
            # a size's line, perhaps after the timestamp of a compilation line the JVM wrote into it: the first power
            # of two followed by a figure with a decimal point
            t = body.split()
            size = next((int(a) for a, b in zip(t, t[1:]) if a.isdigit() and int(a) & (int(a) - 1) == 0
                         and re.fullmatch(NUM, b) and '.' in b), None)
            if size is not None and all(re.fullmatch(NUM, a) for a in t) and rk in ('0', '?'):
                out.append((size, cur))
                cur = {'jmpi': 0, 'other': 0, 'c2': 0, 'deopt': 0, 'methods': []}
        return out
    def med(case, impl):
        d = {}
        for st, data in runs.get((case, impl), {}).values():
            if usable(st):
                for k, v in data.items():
                    d.setdefault(k, []).append(v)
        return {k: statistics.median(v) for k, v in d.items()}
    wcases = [c for c in omb if c in jit and any(windows(t) for t in jit[c].values())]
    if wcases:
        md.append('## Companions: JIT events per size\n')
        md.append('What the companion runs compiled and deoptimized between one size\'s line and the next (both ranks, '
                  'medians over rounds): jmpi\'s methods compiled, other methods compiled (the JDK\'s and the '
                  'program\'s), compilations by C2 among them, deoptimizations. A size\'s window holds the statistics '
                  'of the size before, its own untimed iterations and its timed ones; the first size\'s also OMB-J\'s '
                  'warm-up. Beside them jmpi-proc\'s time over Open MPI Java\'s at that size (medians of the timed '
                  'runs), and the jmpi methods compiled there in most rounds.\n')
        for case in wcases:
            per = {}
            for r, text in sorted(jit[case].items()):
                for size, ev in windows(text):
                    per.setdefault(size, []).append(ev)
            mp, mo = med(case, 'jmpi-proc'), med(case, 'ompi-java')
            md.append(f'**{case}**\n')
            md.append('| size | jmpi / Open MPI Java | jmpi compiled | others compiled | by C2 | deopts'
                      ' | jmpi methods |')
            md.append('|---:|---:|---:|---:|---:|---:|---|')
            for size in sorted(per):
                evs = per[size]
                g = lambda k: statistics.median([e[k] for e in evs])
                counts = {}
                for e in evs:
                    for name in set(e['methods']):
                        counts[name] = counts.get(name, 0) + 1
                common = sorted((n for n, c in counts.items() if 2 * c > len(evs)), key=lambda n: (-counts[n], n))
                names = ', '.join(f'`{n}`' for n in common[:6]) + (f' (+{len(common) - 6})' if len(common) > 6 else '')
                md.append(f'| {size} | {fmt(ratio(mp.get(size), mo.get(size), meta[case][1]))} | {fmti(g("jmpi"))} | '
                          f'{fmti(g("other"))} | {fmti(g("c2"))} | {fmti(g("deopt"))} | {names} |')
                for k in ('jmpi', 'other', 'c2', 'deopt'):
                    csvrows.append([case, size, 'jmpi-jit', '', g(k), f'window-{k}'])
            md.append('')
head = ['## Overview\n', '| case | unit | sizes | jmpi-proc / ompi-java | jmpi-thr / ompi-java | paired: proc | paired: '
        'thr | flags |', '|---|---|---:|---:|---:|---:|---:|---|']
for case, unit, n, gp, gt, fl, sl in overview:
    bad = 'FAILED' in sl or 'missing' in sl or 'MISSING' in sl
    pp = gmean(list(paired(case, 'jmpi-proc', 'ompi-java').values()))
    pt = gmean(list(paired(case, 'jmpi-thr', 'ompi-java').values()))
    head.append(f'| {case} | {unit} | {n} | {fmt(gp)} | {fmt(gt)} | {fmt(pp)} | {fmt(pt)} | '
                f'{"; ".join(x for x in ("contaminated runs" * fl, "failed/missing runs" * bad) if x)} |')
head.append('\nFor OMB-J cases the ratio is the geometric mean over sizes of the per-size ratios of medians. Paired: the '
            'geometric mean over sizes of the median over rounds of each round\'s ratio (a round runs a case\'s '
            'implementations back to back, so the host\'s slower spells, which last minutes, slow both sides of a '
            'pair).\n')
md[intro_end:intro_end] = head
text = '\n'.join(md) + '\n'
open(os.path.join(out, 'summary.md'), 'w').write(text)
with open(os.path.join(out, 'summary.csv'), 'w', newline='') as f:
    w = csv.writer(f); w.writerow(['case', 'size', 'impl', 'round', 'value', 'status']); w.writerows(csvrows)
sys.stdout.write(text)
PY
}

if [ "${1:-}" = --report ]; then
    report "${2:?usage: cold-suite.sh --report OUTDIR}"
    exit 0
fi
if [ $# -lt 1 ] || [ "$1" = -h ] || [ "$1" = --help ]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 2
fi
OUT=$(mkdir -p "$1" && cd "$1" && pwd)
ROUNDS=${2:-3}
FILTER=${3:-.}
case $OUT in
    *[:,\ ]*) echo "cold-suite: OUTDIR must not contain ':', ',' or blanks (-Xlog file names)" >&2; exit 2 ;;
esac
PEERS=${PEERS:-/work/peers}
BASELINE=${BASELINE:-/work/shared/baseline}
export MAXWAIT=${MAXWAIT:-300}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JMPI_HOME=${JMPI_HOME:-$ROOT/jmpi-dist/target/jmpi}
JMPIRUN=$JMPI_HOME/bin/jmpirun
IMPLS=${IMPLS:-"jmpi-proc jmpi-thr ompi-java mpich"}
HOSTS=${HOSTS:-}
NP=${NP:-2}
if [ -n "$HOSTS" ]; then # across hosts: the number of ranks from the list; no threads mode
    NP=0
    for h in ${HOSTS//,/ }; do NP=$((NP + ${h##*:})); done
    IMPLS=$(echo " $IMPLS " | sed 's/ jmpi-thr / /; s/^ *//; s/ *$//')
    crowded=() # more ranks than cores: each emulated host gets its share of the cores (jmpi then waits asleep)
    nh=$(echo "$HOSTS" | tr ',' '\n' | wc -l)
    [ "$NP" -le "$(nproc)" ] || crowded=(-x "JMPI_HOST_CPUS=$(( $(nproc) / nh > 0 ? $(nproc) / nh : 1 ))")
    SSH=${SSH:-ssh}
    : "${HOSTS_NET:?HOSTS needs HOSTS_NET, the hosts' network (e.g. 10.78.0.0/24)}"
    : "${HOSTS_IFACE:?HOSTS needs HOSTS_IFACE, this host's interface on that network (e.g. jmpibr0)}"
fi
# one host: ranks bound to cores while there are enough of them; more ranks than cores run unbound (Open MPI, told
# by --oversubscribe, then yields when idle). MPICH's ranks poll without yielding, so with more ranks than cores
# they spin each other out of the cores (2 hosts x 2 ranks on 2 cores: a Jacobi 256^2 x 5,000 took 54 s, Open MPI
# Java's 1.1 s; the conjugate gradient had not ended after 8 minutes): MPICH is left out there
BIND=core
if [ "$NP" -gt "$(nproc)" ]; then
    BIND=none
    if [[ " $IMPLS " == *" mpich "* ]]; then
        IMPLS=$(echo " $IMPLS " | sed 's/ mpich / /; s/^ *//; s/ *$//')
        echo "cold-suite: $NP ranks on $(nproc) cores: MPICH left out (its ranks poll without yielding)" >&2
    fi
fi
COMPANION=${COMPANION:-^OSULatency$}
RUN_TIMEOUT=${RUN_TIMEOUT:-1800}
QUICK=${QUICK:-0}
OMPI_JAR=$PEERS/ompi-java/mpi.jar
OMPI_LIB=${OMPI_LIB:-/usr/lib/x86_64-linux-gnu}
OMB_SRC=$PEERS/omb-j/src/mpi
COLD_JAVA=$ROOT/jmpi-benchmarks/src/main/java/org/jmpi/benchmarks/cold
COLD_C=$ROOT/jmpi-benchmarks/src/main/c/cold
for need in "$JMPIRUN" "$OMPI_JAR" "$OMB_SRC/common/BenchmarkUtils.java" "$BASELINE/gate.py" "$JAVA_HOME/bin/javac"; do
    [ -e "$need" ] || { echo "cold-suite: missing $need (see the header of $0)" >&2; exit 2; }
done
for c in python3 mpirun.openmpi mpiexec.mpich mpicc.mpich; do
    command -v $c > /dev/null || { echo "cold-suite: $c not found (see the header of $0)" >&2; exit 2; }
done
if [ -n "${APPS_FILE:-}" ]; then
    mapfile -t APPS < <(grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$APPS_FILE")
fi

selected() { [[ $1 =~ $FILTER ]]; }
: > "$OUT/cases.tsv"
for line in "${OMB_CASES[@]}"; do
    IFS='|' read -r name cls args twin metric <<< "$line"
    selected "$name" && printf '%s\tomb\t%s\n' "$name" "$metric" >> "$OUT/cases.tsv"
done
for line in ${APPS[@]+"${APPS[@]}"}; do
    selected "${line%%|*}" && printf '%s\tapp\ts\n' "${line%%|*}" >> "$OUT/cases.tsv"
done
[ -s "$OUT/cases.tsv" ] || { echo "cold-suite: FILTER '$FILTER' selects no case" >&2; exit 2; }

B=$OUT/build
mkdir -p "$B/omb-jmpi" "$B/omb-ompi" "$B/cold-jmpi" "$B/cold-ompi" "$B/c" "$OUT/raw"
LOG=$B/build.log
: > "$LOG"
{
    echo "date        $(date +%FT%T%z)"
    echo "host        $(uname -n), $(nproc) CPUs, $(uname -r)"
    echo "jmpi        $JMPI_HOME ($(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(
        [ -n "$(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null)" ] && echo ', modified'))"
    echo "java        $("$JAVA_HOME/bin/java" -version 2>&1 | sed -n 2p)"
    echo "open mpi    $(mpirun.openmpi --version 2>&1 | head -1), $OMPI_JAR"
    echo "mpich       $(mpiexec.mpich --version 2>&1 | sed -n 's/^ *Version: *//p' | head -1)"
    echo "settings    ROUNDS=$ROUNDS FILTER=$FILTER IMPLS=\"$IMPLS\" COMPANION=$COMPANION QUICK=$QUICK MAXWAIT=$MAXWAIT NP=$NP"
    [ -z "$HOSTS" ] || echo "hosts       $HOSTS (ssh: $SSH; network $HOSTS_NET)${NETEM:+; netem: $NETEM}"
} > "$OUT/meta.txt"

# ---- build: OMB-J twice, the cold apps twice, the C twins with MPICH
omb_files=()
for f in "${OMB_FILES[@]}"; do omb_files+=("$OMB_SRC/$f.java"); done
"$JMPI_HOME/bin/mpijavac" -nowarn -d "$B/omb-jmpi" "${omb_files[@]}" >> "$LOG" 2>&1 \
    || echo "OMB-J: jmpi build failed" >&2
"$JAVA_HOME/bin/javac" -nowarn -cp "$OMPI_JAR" -d "$B/omb-ompi" "${omb_files[@]}" >> "$LOG" 2>&1 \
    || echo "OMB-J: Open MPI build failed" >&2
build_cold() { # classes-dir javac-command...: all files at once, else one by one (a file that fails is left out)
    local dir=$1; shift
    local files=("$COLD_JAVA"/*.java)
    [ -e "${files[0]}" ] || return 0
    "$@" -nowarn -d "$dir" "${files[@]}" >> "$LOG" 2>&1 && return 0
    for f in "${files[@]}"; do
        [ "$(basename "$f")" = package-info.java ] && continue
        "$@" -nowarn -d "$dir" "$f" >> "$LOG" 2>&1 || echo "cold app: $f does not compile with $1" | tee -a "$LOG" >&2
    done
}
app_selected=0
for line in ${APPS[@]+"${APPS[@]}"}; do selected "${line%%|*}" && app_selected=1; done
if [ $app_selected = 1 ]; then
    build_cold "$B/cold-jmpi" "$JMPI_HOME/bin/mpijavac"
    build_cold "$B/cold-ompi" "$JAVA_HOME/bin/javac" -cp "$OMPI_JAR"
    for line in "${APPS[@]}"; do
        IFS='|' read -r name cls jargs csrc cargs <<< "$line"
        if [ -n "$csrc" ] && selected "$name" && [ ! -x "$B/c/${csrc%.c}" ]; then
            mpicc.mpich -O2 -o "$B/c/${csrc%.c}" "$COLD_C/$csrc" -lm >> "$LOG" 2>&1 \
                || echo "cold app: $csrc does not compile" | tee -a "$LOG" >&2
        fi
    done
fi
for p in mpi_pingpong mpi_bw mpi_allreduce; do
    mpicc.mpich -O2 -o "$B/c/$p" "$BASELINE/$p.c" >> "$LOG" 2>&1 || echo "MPICH twin $p does not compile" >&2
done
for p in mpi_coll mpi_bibw; do
    mpicc.mpich -O2 -I "$BASELINE" -o "$B/c/$p" "$ROOT/jmpi-benchmarks/src/main/c/$p.c" >> "$LOG" 2>&1 \
        || echo "MPICH twin $p does not compile" >&2
done

# ---- runs
run() { # raw-file command...: one gated run; exit 99 (contaminated) and failures are noted, the suite goes on
    local f=$1 rc=0; shift
    echo "# $(date +%FT%T) load $(cut -d' ' -f1-3 /proc/loadavg) :: $*" > "$f"
    local reap=()
    [ -z "$HOSTS" ] || reap=(python3 "$HERE/reap.py") # remote daemons that outlive their launcher: CPU of the run
    local mine=() # netns-hosts.sh's user-space delay line (a delay without netem) is the link: its CPU is the run's
    [ ! -f /tmp/jmpi-netns-delay.pid ] || mine=(--mine "$(cat /tmp/jmpi-netns-delay.pid)")
    python3 "$BASELINE/gate.py" "$f" ${mine[@]+"${mine[@]}"} -- timeout -k 10 "$RUN_TIMEOUT" ${reap[@]+"${reap[@]}"} "$@" \
        < /dev/null || rc=$?
    case $rc in
        0) ;;
        99) echo "# contaminated (gate exit 99)" >> "$f" ;;
        *) echo "# exit status $rc" >> "$f"; echo "  (exit status $rc: $f)" ;;
    esac
}
skip() { # raw-file reason
    echo "# skipped: $2" > "$1"; echo "$(basename "$1") skipped: $2"
}
mpich_run() { # raw-file program args...: a C twin (built into $B/c) on MPICH
    local f=$1 prog=$2; shift 2
    if [ ! -x "$B/c/$prog" ]; then
        skip "$f" "$prog not built"
    elif [ -n "$HOSTS" ]; then
        run "$f" mpiexec.mpich -n "$NP" -hosts "$HOSTS" -launcher ssh -launcher-exec "$SSH" -iface "$HOSTS_IFACE" \
            -genv UCX_TLS tcp,self -bind-to none "$B/c/$prog" "$@"
    else
        run "$f" mpiexec.mpich -n "$NP" -bind-to "$BIND" "$B/c/$prog" "$@"
    fi
}
java_run() { # impl raw-file jmpi-classes ompi-classes class args...
    local impl=$1 f=$2 cj=$3 co=$4 cls=$5; shift 5
    local dir=$cj; [ "$impl" = ompi-java ] && dir=$co
    if [ ! -e "$dir/${cls//.//}.class" ]; then skip "$f" "$cls not built for $impl"; return 0; fi
    if [ -n "$HOSTS" ]; then
        case $impl in
            jmpi-proc | jmpi-base | jmpi-alt)
                local home=$JMPI_HOME
                [ "$impl" = jmpi-base ] && home=$BASE_JMPI_HOME
                [ "$impl" = jmpi-alt ] && home=$ALT_JMPI_HOME
                run "$f" "$home/bin/jmpirun" -n "$NP" -H "$HOSTS" --launcher-exec "$SSH" ${crowded[@]+"${crowded[@]}"} \
                    -cp "$cj" "$cls" "$@" ;;
            ompi-java) run "$f" mpirun.openmpi --allow-run-as-root --bind-to none -n "$NP" --host "$HOSTS" \
                --mca mpi_yield_when_idle "$((NP > $(nproc) ? 1 : 0))" \
                --mca plm_rsh_agent "$SSH" --mca rtc ^hwloc --mca pml ob1 --mca btl tcp,vader,self --mca btl_tcp_if_include \
                "$HOSTS_NET" --mca oob_tcp_if_include "$HOSTS_NET" "$JAVA_HOME/bin/java" \
                --enable-native-access=ALL-UNNAMED -Djava.library.path="$OMPI_LIB" -cp "$OMPI_JAR:$co" "$cls" "$@" ;;
        esac
        return 0
    fi
    case $impl in
        jmpi-proc) run "$f" "$JMPIRUN" -n "$NP" -cp "$cj" "$cls" "$@" ;;
        jmpi-thr) run "$f" "$JMPIRUN" -n "$NP" --threads -cp "$cj" "$cls" "$@" ;;
        jmpi-base) run "$f" "$BASE_JMPI_HOME/bin/jmpirun" -n "$NP" ${BASE_JMPI_ARGS:-} -cp "$cj" "$cls" "$@" ;;
        jmpi-alt) run "$f" "$ALT_JMPI_HOME/bin/jmpirun" -n "$NP" ${ALT_JMPI_ARGS:-} -cp "$cj" "$cls" "$@" ;;
        ompi-java) run "$f" mpirun.openmpi --allow-run-as-root --oversubscribe --bind-to "$BIND" -n "$NP" \
            "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -Djava.library.path="$OMPI_LIB" \
            -cp "$OMPI_JAR:$co" "$cls" "$@" ;;
    esac
}
companion() { # case jmpi-classes class args...: -XX:+CITime, -XX:+PrintCompilation and the deoptimizations of jmpi
    # processes, ranks tagged; the compilations and deoptimizations also on standard output, between OMB-J's lines
    local name=$1 cj=$2 cls=$3; shift 3
    [ "$COMPANION" != none ] && [[ $name =~ $COMPANION ]] || return 0
    [ -e "$cj/${cls//.//}.class" ] || return 0
    local f=$OUT/raw/$name.jmpi-jit.$r.txt
    rm -f "$OUT/raw/$name.jmpi-jit.$r.deopt."*.log
    local where=(-n "$NP")
    [ -z "$HOSTS" ] || where=(-n "$NP" -H "$HOSTS" --launcher-exec "$SSH")
    run "$f" "$JMPIRUN" "${where[@]}" -l --jvm-arg=-XX:+CITime --jvm-arg=-XX:+PrintCompilation \
        "--jvm-arg=-Xlog:deoptimization=debug:file=$OUT/raw/$name.jmpi-jit.$r.deopt.%p.log::filecount=0" \
        --jvm-arg=-Xlog:deoptimization=debug:stdout -cp "$cj" "$cls" "$@"
}
quick=()
[ "$QUICK" = 1 ] && quick=(-m 4096 -x 200 -i 2000)
if [ -n "${OMB_ARGS:-}" ]; then
    read -r -a omb_args <<< "$OMB_ARGS"
    quick+=("${omb_args[@]}")
fi

read -r -a impls_all <<< "$IMPLS"
for r in $(seq 1 "$ROUNDS"); do
    # the order of the implementations rotates by one each round: on the project's VM a case's first run of a round
    # differed from its second by up to a third either way, whichever build it was (2026-11-27: the same two builds
    # gave 1.21 with one first and 0.84 with the other first)
    k=$(( (r - 1) % ${#impls_all[@]} ))
    order="${impls_all[*]:k} ${impls_all[*]:0:k}"
    echo "== round $r of $ROUNDS ($(date +%T)), order: $order"
    comps=()
    for line in "${OMB_CASES[@]}"; do
        IFS='|' read -r name cls args twin metric <<< "$line"
        selected "$name" || continue
        read -r -a a <<< "$args"
        a+=(${quick[@]+"${quick[@]}"})
        for impl in $order; do
            f=$OUT/raw/$name.$impl.$r.txt
            if [ "$impl" = mpich ]; then
                [ -n "$twin" ] || continue
                read -r -a t <<< "$twin"
                mpich_run "$f" "${t[@]}"
            else
                java_run "$impl" "$f" "$B/omb-jmpi" "$B/omb-ompi" "$cls" ${a[@]+"${a[@]}"}
            fi
        done
        comps+=("$name|$B/omb-jmpi|$cls|${a[*]+${a[*]}}")
    done
    for line in ${APPS[@]+"${APPS[@]}"}; do
        IFS='|' read -r name cls jargs csrc cargs jvm <<< "$line"
        selected "$name" || continue
        [[ $cls == *.* ]] || cls=org.jmpi.benchmarks.cold.$cls
        read -r -a a <<< "$jargs"
        if [ -n "$jvm" ]; then # a JIT floor: jmpi processes with these JVM options, nothing else
            [ -z "$HOSTS" ] || continue
            opts=(); for o in $jvm; do opts+=("--jvm-arg=$o"); done
            run "$OUT/raw/$name.jmpi-proc.$r.txt" "$JMPIRUN" -n "$NP" "${opts[@]}" -cp "$B/cold-jmpi" "$cls" \
                ${a[@]+"${a[@]}"}
            continue
        fi
        for impl in $order; do
            f=$OUT/raw/$name.$impl.$r.txt
            if [ "$impl" = mpich ]; then
                [ -n "$csrc" ] || continue
                read -r -a t <<< "$cargs"
                mpich_run "$f" "${csrc%.c}" ${t[@]+"${t[@]}"}
            else
                java_run "$impl" "$f" "$B/cold-jmpi" "$B/cold-ompi" "$cls" ${a[@]+"${a[@]}"}
            fi
        done
        comps+=("$name|$B/cold-jmpi|$cls|$jargs")
    done
    if [[ " $IMPLS " == *" jmpi-proc "* ]]; then
        for c in "${comps[@]}"; do
            IFS='|' read -r name cj cls args <<< "$c"
            read -r -a a <<< "$args"
            companion "$name" "$cj" "$cls" ${a[@]+"${a[@]}"}
        done
    fi
done
echo "== report"
report "$OUT"
