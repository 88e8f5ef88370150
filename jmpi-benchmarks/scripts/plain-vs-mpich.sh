#!/bin/bash
# "The plain one" of issue 16: PlainPingPong (jmpi; byte[], double[] and direct buffers) beside its C twin on MPICH,
# one JVM pair (one MPICH job) per kind and size, 0 B to 16 MiB, interleaved (for each size: MPICH, then jmpi on each
# buffer kind), ROUNDS rounds, every run under ../shared/baseline/gate.py. Prints a table of medians and ratios.
#
# Usage: jmpi-benchmarks/scripts/plain-vs-mpich.sh [OUTDIR] [ROUNDS=3] [SIZES="0 8 1024 65536 1048576 16777216"]
# Needs: mpich + libmpich-dev, python3, a built tree (./mvnw -q package -DskipTests), JDK 25 at $JAVA_HOME.
# Environment: BASELINE (default ../shared/baseline), MAXWAIT (seconds the gate waits for quiet, default 300),
# ALT_DIST and ALT_JAR: a second jmpi distribution (its jmpi directory) and benchmark jar, run beside this tree's on
# every kind and size (columns base-*), for an A/B of two commits in one sitting; ALT2_DIST and ALT2_JAR a third
# (columns alt2-*).
# A build older than 6027d07 must run where it was built (a git worktree of its own): a copy of its distribution
# gives its ranks the jars and class cache of the place where it was made (docs/benchmarks.md, "A copy of the
# distribution ran the original's jars").
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BASE=${BASELINE:-$(cd "$ROOT/../shared/baseline" && pwd)}
OUT=${1:-$ROOT/jmpi-benchmarks/target/plain-vs-mpich}
ROUNDS=${2:-3}
SIZES=${3:-"0 8 1024 65536 1048576 16777216"}
export MAXWAIT=${MAXWAIT:-300}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JMPIRUN=$ROOT/jmpi-dist/target/jmpi/bin/jmpirun
JAR=$(ls "$ROOT"/jmpi-benchmarks/target/jmpi-benchmarks-*.jar | grep -v -e sources -e javadoc | head -1)
B=$OUT/build
mkdir -p "$B" "$OUT/raw"
mpicc.mpich -O2 -Wall -o "$B/plain_pingpong" "$ROOT/jmpi-benchmarks/src/main/c/plain_pingpong.c"

run() { # name command...: one gated run, raw output in $OUT/raw/<name>.txt
    local f=$OUT/raw/$1.txt; shift
    echo "# $(date +%FT%T) load $(cut -d' ' -f1-3 /proc/loadavg) :: $*" > "$f"
    python3 "$BASE/gate.py" "$f" -- "$@" || echo "# exit status $?" >> "$f"
}

for r in $(seq 1 "$ROUNDS"); do
    for s in $SIZES; do
        run "mpich.$s.$r" mpiexec.mpich -n 2 -bind-to core "$B/plain_pingpong" "$s"
        for k in bytes doubles direct; do
            run "jmpi-$k.$s.$r" "$JMPIRUN" -n 2 -cp "$JAR" org.jmpi.benchmarks.PlainPingPong "$k" "$s"
            if [ -n "${ALT_DIST:-}" ]; then
                run "base-$k.$s.$r" "$ALT_DIST/bin/jmpirun" -n 2 -cp "$ALT_JAR" org.jmpi.benchmarks.PlainPingPong \
                    "$k" "$s"
            fi
            if [ -n "${ALT2_DIST:-}" ]; then
                run "alt2-$k.$s.$r" "$ALT2_DIST/bin/jmpirun" -n 2 -cp "$ALT2_JAR" org.jmpi.benchmarks.PlainPingPong \
                    "$k" "$s"
            fi
        done
    done
done

python3 - "$OUT/raw" <<'PY'
import collections, glob, os, re, statistics, sys
vals = collections.defaultdict(list)
flagged = collections.Counter()
for f in glob.glob(os.path.join(sys.argv[1], '*.txt')):
    name = os.path.basename(f)[:-4]
    impl, size, _ = name.rsplit('.', 2)
    text = open(f).read()
    if 'rc=99' in text or '# exit status' in text:
        flagged[impl] += 1
    for line in text.splitlines():
        m = re.match(r'^(c|bytes|doubles|direct) (\d+) ([0-9.]+) (\d+)$', line)
        if m:
            vals[(impl, int(size))].append(float(m.group(3)))
sizes = sorted({s for _, s in vals})
impls = ['mpich', 'jmpi-bytes', 'jmpi-doubles', 'jmpi-direct']
impls += [i for i in ['base-bytes', 'base-doubles', 'base-direct', 'alt2-bytes', 'alt2-doubles', 'alt2-direct']
          if any(k[0] == i for k in vals)]
print('| size | ' + ' | '.join(f'{i} us (ratio)' for i in impls) + ' |')
print('|---' * (len(impls) + 1) + '|')
for s in sizes:
    base = statistics.median(vals[('mpich', s)]) if vals[('mpich', s)] else None
    cells = []
    for i in impls:
        v = vals[(i, s)]
        if not v:
            cells.append('-')
            continue
        m = statistics.median(v)
        cells.append(f'{m:.3f}' + (f' ({m / base:.2f}x)' if base and i != 'mpich' else ''))
    print(f'| {s} | ' + ' | '.join(cells) + ' |')
if flagged:
    print('runs flagged by the gate (disturbed or failed):', dict(flagged))
PY
