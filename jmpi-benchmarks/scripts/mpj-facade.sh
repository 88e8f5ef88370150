#!/bin/bash
# What the MPJ Express API facade (jmpi-mpj) costs over jmpi's Open MPI API: the same programs, line for line, on
# both APIs, cold (fresh JVMs, no warm-up but the program's own), 2 ranks as processes and as threads, interleaved
# rounds (the order rotates), every run wrapped in the baseline's gate.py. The programs: a ping-pong on byte[] with
# OMB-J's scheme (org.jmpi.benchmarks.cold.OmbLatency and its twin in src/mpj/java) and the 2-D Jacobi of the cold
# suite (cold.Jacobi2d and its twin) at 1024^2 x 500 and 256^2 x 5000.
# Usage: jmpi-benchmarks/scripts/mpj-facade.sh OUT [ROUNDS=3]   (JMPI_HOME: default jmpi-dist/target/jmpi; needs a
# built tree: ./mvnw install -DskipTests). Then: python3 jmpi-benchmarks/scripts/mpj-facade.py OUT
set -euo pipefail
OUT=${1:?usage: mpj-facade.sh OUT [ROUNDS]}
ROUNDS=${2:-3}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
JMPI_HOME=${JMPI_HOME:-$REPO/jmpi-dist/target/jmpi}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
GATE="python3 ${BASELINE:-$REPO/../shared/baseline}/gate.py"
export MAXWAIT=${MAXWAIT:-300}
OMPI_CP=$REPO/jmpi-benchmarks/target/classes
MPJ_CP=$OUT/build/mpj
mkdir -p "$MPJ_CP" "$OUT/raw"
"$JAVA_HOME/bin/javac" -nowarn -cp "$JMPI_HOME/mpj/lib/mpj.jar" -d "$MPJ_CP" \
    "$REPO"/jmpi-benchmarks/src/mpj/java/org/jmpi/benchmarks/mpj/*.java
run() { # name command...
    local f="$OUT/raw/$1.r$r.txt"; shift
    $GATE "$f" -- "$@" > /dev/null 2>&1 || true
}
cases=("latency|OmbLatency|" "jacobi1024|Jacobi2d|1024 500" "jacobi256|Jacobi2d|256 5000")
runs=()
for c in "${cases[@]}"; do
    for mode in proc thr; do
        for api in ompi mpj; do runs+=("$c|$mode|$api"); done
    done
done
for r in $(seq 1 "$ROUNDS"); do
    n=${#runs[@]}
    for ((k = 0; k < n; k++)); do
        IFS='|' read -r name cls args mode api <<< "${runs[$(((k + r - 1) % n))]}"
        threads=(); [ "$mode" = thr ] && threads=(--threads)
        if [ "$api" = mpj ]; then
            # shellcheck disable=SC2086
            run "$name.$mode.$api" "$JMPI_HOME/bin/jmpirun" --api mpj -n 2 "${threads[@]}" -cp "$MPJ_CP" \
                "org.jmpi.benchmarks.mpj.$cls" $args
        else
            # shellcheck disable=SC2086
            run "$name.$mode.$api" "$JMPI_HOME/bin/jmpirun" -n 2 "${threads[@]}" -cp "$OMPI_CP" \
                "org.jmpi.benchmarks.cold.$cls" $args
        fi
    done
done
echo "mpj-facade: raw outputs in $OUT/raw"
