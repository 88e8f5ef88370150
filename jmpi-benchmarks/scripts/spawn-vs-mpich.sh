#!/bin/bash
# Spawn latency, jmpi against MPICH (Debian's mpich), side by side on this host: spawn of 1 and of 4 children until
# the parent's first message back (org.jmpi.benchmarks.SpawnLatency and its C twin src/main/c/spawn_latency.c).
# Rounds are interleaved (MPICH, then jmpi, per child count); every run is wrapped in ../shared/baseline/gate.py
# (which waits for a quiet machine and flags runs disturbed by other processes). Prints each run's summary line.
#
# Usage: jmpi-benchmarks/scripts/spawn-vs-mpich.sh [OUTDIR] [ROUNDS=3] [REPS=10]
# Needs: mpich + libmpich-dev (mpicc.mpich, mpiexec.mpich), python3, a built tree (./mvnw -q package -DskipTests),
#        JDK 25 at $JAVA_HOME.
# Environment: BASELINE (default ../shared/baseline), MAXWAIT (seconds the gate waits for quiet, default 300).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BASE=${BASELINE:-$(cd "$ROOT/../shared/baseline" 2>/dev/null && pwd || echo /work/shared/baseline)}
OUT=${1:-$ROOT/jmpi-benchmarks/target/spawn-vs-mpich}
ROUNDS=${2:-3}
REPS=${3:-10}
export MAXWAIT=${MAXWAIT:-300}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JMPIRUN=$ROOT/jmpi-dist/target/jmpi/bin/jmpirun
JAR=$(ls "$ROOT"/jmpi-benchmarks/target/jmpi-benchmarks-*.jar | grep -v sources | head -1)
B=$OUT/build
mkdir -p "$B" "$OUT/raw"
mpicc.mpich -O2 -Wall -o "$B/spawn_latency" "$ROOT/jmpi-benchmarks/src/main/c/spawn_latency.c"

run() { # name command...: one gated run, raw output in $OUT/raw/<name>.txt
    local f=$OUT/raw/$1.txt; shift
    echo "# $(date +%FT%T) load $(cut -d' ' -f1-3 /proc/loadavg) :: $*" > "$f"
    python3 "$BASE/gate.py" "$f" -- "$@" || echo "# exit status $?" >> "$f"
}

for r in $(seq 1 "$ROUNDS"); do
    for n in 1 4; do
        run "mpich.spawn$n.$r" mpiexec.mpich -n 1 "$B/spawn_latency" "$n" "$REPS"
        run "jmpi.spawn$n.$r"  "$JMPIRUN" -n 1 -cp "$JAR" org.jmpi.benchmarks.SpawnLatency --children "$n" --reps "$REPS"
    done
done
echo "== summaries (min / median / max per run)"
for f in "$OUT"/raw/*.txt; do
    printf '%-22s %s\n' "$(basename "$f" .txt)" "$(grep -h 'children: min' "$f" | tail -1)"
done
