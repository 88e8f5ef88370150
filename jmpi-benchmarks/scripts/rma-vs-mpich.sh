#!/bin/bash
# One-sided benchmarks (issue 13): jmpi's OsuOneSided against its C twin mpi_rma.c built with MPICH (Debian's mpich),
# 2 ranks on this host, several rounds, interleaved (each test runs under MPICH, then under jmpi, then the next
# test), every run wrapped in ../shared/baseline/gate.py (which waits for a quiet machine and flags runs disturbed by
# other processes). Raw output in OUTDIR/raw/<impl>.<test>.<sync>.<round>.txt; a summary table of medians over the
# rounds (jmpi / MPICH ratio per size) at the end, and SVG plots of latency and bandwidth into $PLOTS (default OUTDIR).
#
# Usage: jmpi-benchmarks/scripts/rma-vs-mpich.sh [OUTDIR] [ROUNDS=3]
# Needs: mpich + libmpich-dev, python3, JDK 25 at $JAVA_HOME, a packaged tree (./mvnw -B -q package -DskipTests).
# Environment: BASELINE (default ../shared/baseline), MAXWAIT (seconds the gate waits for quiet, default 300),
#        ITERS (base iteration count for small sizes, default 10000; 1000 for a quick look),
#        TRANSPORT (jmpi's transport between the two processes: shm (default) or tcp), PLOTS (where the SVGs go),
#        REPORT_ONLY=1 (no runs: the table and plots from OUTDIR/raw).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BASE=${BASELINE:-$(cd "$ROOT/../shared/baseline" 2>/dev/null && pwd || echo /work/shared/baseline)}
OUT=${1:-$ROOT/jmpi-benchmarks/target/rma-vs-mpich}
ROUNDS=${2:-3}
ITERS=${ITERS:-10000}
export MAXWAIT=${MAXWAIT:-300}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JMPIRUN=$ROOT/jmpi-dist/target/jmpi/bin/jmpirun
JAR=$(ls "$ROOT"/jmpi-benchmarks/target/jmpi-benchmarks-*.jar | grep -v -e sources -e javadoc | head -1)
B=$OUT/build
mkdir -p "$B" "$OUT/raw"
mpicc.mpich -O2 -Wall -I "$BASE" -o "$B/mpi_rma" "$ROOT/jmpi-benchmarks/src/main/c/mpi_rma.c"

MPICH="mpiexec.mpich -n 2 -bind-to core"
JMPI="$JMPIRUN -n 2 -cp $JAR"
if [ "${TRANSPORT:-shm}" = tcp ]; then
    export JMPI_TRANSPORT=tcp
fi
run() { # name command...: one gated run, raw output in $OUT/raw/<name>.txt
    local f=$OUT/raw/$1.txt; shift
    echo "# $(date +%FT%T) load $(cut -d' ' -f1-3 /proc/loadavg) :: $*" > "$f"
    python3 "$BASE/gate.py" "$f" -- "$@" || echo "# exit status $?" >> "$f"
}

TESTS="put_latency:flush get_latency:flush put_latency:fence get_latency:fence put_bw:flush get_bw:flush
acc_latency:flush fop_latency:flush cas_latency:flush fence:fence"
[ -n "${REPORT_ONLY:-}" ] && ROUNDS=0 # REPORT_ONLY=1: only the table and plots from OUTDIR/raw
for r in $(seq 1 "$ROUNDS"); do
    for ts in $TESTS; do
        t=${ts%%:*}; s=${ts##*:}
        run "mpich.$t.$s.$r" $MPICH "$B/mpi_rma" "$t" "$s" "$ITERS"
        run "jmpi.$t.$s.$r"  $JMPI org.jmpi.benchmarks.OsuOneSided --test "$t" --sync "$s" --iters "$ITERS"
    done
done

python3 - "$OUT/raw" "$HERE" "${PLOTS:-$OUT}" <<'PY'
import glob, os, re, statistics, sys
raw = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from report import svg_plot  # the project's hand-written SVG plots (no third-party modules)
data = {}
for f in glob.glob(os.path.join(raw, '*.txt')):
    impl, test, sync, rnd = os.path.basename(f)[:-4].split('.')
    for line in open(f):
        m = re.match(r'^(\d+) ([\d.]+) (\d+)$', line.strip())
        if m:
            data.setdefault((test, sync, int(m.group(1))), {}).setdefault(impl, []).append(float(m.group(2)))
print('| test | sync | bytes | MPICH | jmpi | jmpi/MPICH |')
print('|---|---|---:|---:|---:|---:|')
for (test, sync, size) in sorted(data):
    d = data[(test, sync, size)]
    if 'mpich' in d and 'jmpi' in d:
        a, b = statistics.median(d['mpich']), statistics.median(d['jmpi'])
        print(f'| {test} | {sync} | {size} | {a:g} | {b:g} | {b / a:.2f} |')
# plots: latency (put/get with flush) and bandwidth (put/get), MPICH against jmpi, medians over the rounds
plots = sys.argv[3]
os.makedirs(plots, exist_ok=True)
colors = {'put': '#1f77b4', 'get': '#d62728'}
def series(tests, sync):
    out = []
    for t in tests:
        for impl, dash in (('mpich', '6,4'), ('jmpi', '')):
            pts = sorted((size, statistics.median(d[impl])) for (tt, ss, size), d in data.items()
                         if tt == t and ss == sync and impl in d)
            if pts:
                out.append((f"{'MPICH' if impl == 'mpich' else 'jmpi'} {t.split('_')[0]}", colors[t.split('_')[0]],
                            dash, pts))
    return out
svg_plot(os.path.join(plots, 'rma-latency.svg'), 'One-sided latency, lock + flush, 2 ranks, one host', 'us',
         series(['put_latency', 'get_latency'], 'flush'))
svg_plot(os.path.join(plots, 'rma-bandwidth.svg'), 'One-sided bandwidth, 64 operations + flush, 2 ranks', 'MB/s',
         series(['put_bw', 'get_bw'], 'flush'))
print(f'plots: {plots}/rma-latency.svg, {plots}/rma-bandwidth.svg')
PY
