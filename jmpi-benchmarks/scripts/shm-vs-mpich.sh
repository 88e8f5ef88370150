#!/bin/bash
# Runs jmpi and MPICH (Debian's mpich) side by side on this host, several rounds, interleaved (each benchmark runs
# under MPICH, then under jmpi, then the next benchmark), every run wrapped in ../shared/baseline/gate.py (which waits
# for a quiet machine and flags runs disturbed by other processes). Then writes CSV files and SVG plots into
# docs/benchmarks/ (report.py) and prints the summary table of docs/benchmarks.md.
#
# Usage: jmpi-benchmarks/scripts/shm-vs-mpich.sh [OUTDIR] [ROUNDS=3]
# Needs: mpich + libmpich-dev (apt-get install -y mpich libmpich-dev), python3, a built tree
#        (./mvnw -q install -DskipTests), JDK 25 at $JAVA_HOME.
# Environment: BASELINE (default ../shared/baseline), MAXWAIT (seconds the gate waits for quiet, default 300),
#        ITERS_SCALE (1 = the baseline's iteration counts; 0.2 for a quick look), SKIP_STARTUP=1, DOCS (output dir),
#        PRIO=1 (run every measured command, MPICH's and jmpi's alike, in a session of its own whose scheduler
#        autogroup has nice -15, so that builds in other sessions disturb it less; needs root).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BASE=${BASELINE:-$(cd "$ROOT/../shared/baseline" && pwd)}
OUT=${1:-$ROOT/jmpi-benchmarks/target/shm-vs-mpich}
ROUNDS=${2:-3}
SCALE=${ITERS_SCALE:-1}
export MAXWAIT=${MAXWAIT:-300}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JAVA=$JAVA_HOME/bin/java
JMPIRUN=$ROOT/jmpi-dist/target/jmpi/bin/jmpirun
JAR=$(ls "$ROOT"/jmpi-benchmarks/target/jmpi-benchmarks-*.jar | grep -v -e sources -e javadoc | head -1)
B=$OUT/build
mkdir -p "$B" "$OUT/raw"

iters() { python3 -c "print(max(10, int($1 * $SCALE)))"; }

# ---- build the C programs (the baseline's, and our bi-directional twin) and a trivial Java program
for p in mpi_pingpong mpi_bw mpi_allreduce mpi_bcast; do
    mpicc.mpich -O2 -Wall -o "$B/$p" "$BASE/$p.c"
done
mpicc.mpich -O2 -Wall -I "$BASE" -o "$B/mpi_bibw" "$ROOT/jmpi-benchmarks/src/main/c/mpi_bibw.c"
cat > "$B/Trivial.java" <<'JAVA'
public class Trivial { public static void main(String[] a) { System.out.println("hello"); } }
JAVA
"$JAVA_HOME/bin/javac" -d "$B" "$B/Trivial.java"

MPICH="mpiexec.mpich -n 2 -bind-to core"
JMPI="$JMPIRUN -n 2 -cp $JAR"
PREFIX=()
if [ "${PRIO:-0}" = 1 ]; then
    PREFIX=(setsid bash -c 'echo -15 > /proc/self/autogroup && exec "$@"' prio)
fi
run() { # name command...: one gated run, raw output in $OUT/raw/<name>.txt
    local f=$OUT/raw/$1.txt; shift
    echo "# $(date +%FT%T) load $(cut -d' ' -f1-3 /proc/loadavg) prio ${PRIO:-0} :: $*" > "$f"
    python3 "$BASE/gate.py" "$f" -- "${PREFIX[@]}" "$@" || echo "# exit status $?" >> "$f"
}

LAT=$(iters 20000); BW=$(iters 2000); COLL=$(iters 10000)
for r in $(seq 1 "$ROUNDS"); do
    run "mpich.latency.$r"    $MPICH "$B/mpi_pingpong" "$LAT"
    run "jmpi.latency.$r"     $JMPI org.jmpi.benchmarks.OsuLatency --iters "$LAT"
    run "mpich.bw.$r"         $MPICH "$B/mpi_bw" "$BW"
    run "jmpi.bw.$r"          $JMPI org.jmpi.benchmarks.OsuBandwidth --iters "$BW"
    run "mpich.bibw.$r"       $MPICH "$B/mpi_bibw" "$BW"
    run "jmpi.bibw.$r"        $JMPI org.jmpi.benchmarks.OsuBiBandwidth --iters "$BW"
    run "mpich.allreduce.$r"  $MPICH "$B/mpi_allreduce" "$COLL"
    run "jmpi.allreduce.$r"   $JMPI org.jmpi.benchmarks.OsuAllreduce --iters "$COLL"
    run "mpich.bcast.$r"      $MPICH "$B/mpi_bcast" "$COLL"
    run "jmpi.bcast.$r"       $JMPI org.jmpi.benchmarks.OsuBcast --iters "$COLL"
    # jmpi only: arrays instead of direct buffers, and threads mode
    run "jmpiarrays.latency.$r" $JMPI org.jmpi.benchmarks.OsuLatency --iters "$LAT" --arrays
    run "jmpiarrays.bw.$r"      $JMPI org.jmpi.benchmarks.OsuBandwidth --iters "$BW" --arrays
    run "jmpithreads.latency.$r" $JMPIRUN -n 2 --threads -cp "$JAR" org.jmpi.benchmarks.OsuLatency --iters "$LAT" \
        --max 1m
    # start-up: jmpirun -n 4 Hello against mpiexec.hydra -n 4 java Trivial, alternating, 5 of each
    if [ "${SKIP_STARTUP:-0}" != 1 ]; then
        f=$OUT/raw/launch.startup.$r.txt
        echo "# $(date +%FT%T) load $(cut -d' ' -f1-3 /proc/loadavg) :: startup" > "$f"
        python3 "$BASE/gate.py" "$f" -- "${PREFIX[@]}" bash -c '
            for i in 1 2 3 4 5; do
                t0=$(date +%s.%N); '"$JMPIRUN"' -n 4 org.jmpi.examples.Hello > /dev/null; t1=$(date +%s.%N)
                echo "jmpirun $(echo "$t1 - $t0" | bc)"
                t0=$(date +%s.%N); mpiexec.hydra -n 4 '"$JAVA"' -cp '"$B"' Trivial > /dev/null; t1=$(date +%s.%N)
                echo "hydra $(echo "$t1 - $t0" | bc)"
            done' || echo "# exit status $?" >> "$f"
    fi
done
python3 "$HERE/report.py" "$OUT/raw" "${DOCS:-$ROOT/docs/benchmarks}"
