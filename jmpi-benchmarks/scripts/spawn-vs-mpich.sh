#!/bin/bash
# Spawn latency, jmpi against MPICH (Debian's mpich), side by side on this host: spawn of 1 and of 4 children until
# the parent's first message back (org.jmpi.benchmarks.SpawnLatency and its C twin src/main/c/spawn_latency.c).
# Rounds are interleaved (MPICH, then jmpi as processes, then jmpi in threads mode, per child count); every run is
# wrapped in ../shared/baseline/gate.py (which waits for a quiet machine and flags runs disturbed by other
# processes). Prints each run's summary line.
#
# MPICH must support MPI_Comm_spawn. Debian's mpich 4.0.2 is built with ch4:ucx only, whose MPI_Open_port (and so
# MPI_Comm_spawn) fails with "MPIDI_UCX_get_local_upids: The function is currently not supported with ucx netmod";
# no environment variable changes that (MPIR_CVAR_CH4_NETMOD=ofi|tcp, FI_PROVIDER=tcp, UCX_TLS=... were tried: the
# ofi netmod is not compiled in). The script checks spawn once and, when it fails, skips the MPICH runs with a note.
# Point MPICC/MPIEXEC at an MPICH built with ch4:ofi or ch3 (e.g. MPICC=/opt/mpich/bin/mpicc
# MPIEXEC=/opt/mpich/bin/mpiexec) to get its figures.
#
# Usage: jmpi-benchmarks/scripts/spawn-vs-mpich.sh [OUTDIR] [ROUNDS=3] [REPS=10]
# Needs: python3, a built tree (./mvnw -q package -DskipTests), JDK 25 at $JAVA_HOME; for MPICH, an MPICH with
#        spawn (see above).
# Environment: BASELINE (default ../shared/baseline), MAXWAIT (seconds the gate waits for quiet, default 300),
#              MPICC (default mpicc.mpich), MPIEXEC (default mpiexec.mpich).
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
JAR=$(ls "$ROOT"/jmpi-benchmarks/target/jmpi-benchmarks-*.jar | grep -v -e sources -e javadoc | head -1)
MPICC=${MPICC:-mpicc.mpich}
MPIEXEC=${MPIEXEC:-mpiexec.mpich}
B=$OUT/build
mkdir -p "$B" "$OUT/raw"
MPICH_OK=0
if command -v "$MPICC" > /dev/null && "$MPICC" -O2 -Wall -o "$B/spawn_latency" \
        "$ROOT/jmpi-benchmarks/src/main/c/spawn_latency.c"; then
    # does this MPICH spawn at all? (one untimed spawn; its output is kept, not reported)
    if timeout 120 "$MPIEXEC" -n 1 "$B/spawn_latency" 1 1 > "$OUT/mpich-spawn-check.txt" 2>&1 \
            && grep -q 'children: min' "$OUT/mpich-spawn-check.txt"; then
        MPICH_OK=1
    else
        echo "== MPICH ($MPIEXEC) cannot spawn here; MPICH runs skipped. Its error:"
        grep -v '^\s*$' "$OUT/mpich-spawn-check.txt" | tail -3
    fi
else
    echo "== no $MPICC: MPICH runs skipped"
fi

OMPI_OK=0
if command -v mpicc.openmpi > /dev/null && mpicc.openmpi -O2 -Wall -o "$B/spawn_latency_ompi" \
        "$ROOT/jmpi-benchmarks/src/main/c/spawn_latency.c"; then
    OMPI_OK=1
fi
OMPIRUN=(mpirun.openmpi --oversubscribe)
if [ "$(id -u)" = 0 ]; then OMPIRUN+=(--allow-run-as-root); fi

run() { # name command...: one gated run, raw output in $OUT/raw/<name>.txt
    local f=$OUT/raw/$1.txt; shift
    echo "# $(date +%FT%T) load $(cut -d' ' -f1-3 /proc/loadavg) :: $*" > "$f"
    python3 "$BASE/gate.py" "$f" -- "$@" || echo "# exit status $?" >> "$f"
}

for r in $(seq 1 "$ROUNDS"); do
    for n in 1 4; do
        if [ "$MPICH_OK" = 1 ]; then
            run "mpich.spawn$n.$r" "$MPIEXEC" -n 1 "$B/spawn_latency" "$n" "$REPS"
        fi
        if [ "$OMPI_OK" = 1 ] && [ "$n" = 1 ]; then
            run "openmpi.spawn$n.$r" "${OMPIRUN[@]}" -n 1 "$B/spawn_latency_ompi" "$n" "$REPS"
        elif [ "$OMPI_OK" = 1 ]; then
            # Open MPI 4.1.4 fails the third spawn of 4 children in one job here (a PMIx LOOKUP timeout after
            # 300 s), so its spawns of 4 run as jobs of 2 spawns each
            for k in $(seq 1 $(( (REPS + 1) / 2 ))); do
                run "openmpi.spawn$n.$r.$k" timeout 60 "${OMPIRUN[@]}" -n 1 "$B/spawn_latency_ompi" "$n" 2
            done
        fi
        run "jmpi.spawn$n.$r" "$JMPIRUN" -n 1 -cp "$JAR" org.jmpi.benchmarks.SpawnLatency --children "$n" \
            --reps "$REPS"
        run "jmpi-threads.spawn$n.$r" "$JMPIRUN" --threads -n 1 -cp "$JAR" org.jmpi.benchmarks.SpawnLatency \
            --children "$n" --reps "$REPS"
    done
done
echo "== summaries (min / median / max per run)"
for f in "$OUT"/raw/*.txt; do
    printf '%-28s %s %s\n' "$(basename "$f" .txt)" "$(grep -h 'children: min' "$f" | tail -1)" \
        "$(grep -ho 'foreign [0-9.]*s ([0-9.]* cores)' "$f" | tail -1)"
done
