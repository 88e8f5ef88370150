#!/bin/bash
# jmpi-dl measured: Fashion-MNIST training at 1, 2 and 4 ranks (accuracy, images per second, per-step split),
# parameter-server training, the fusion speed-up (100 tensors of 10,000 floats), and the reducer's all-reduce beside
# MPICH's MPI_Allreduce on the same sizes, interleaved round by round, every run wrapped in the baseline's gate.py
# (waits for a quiet machine, flags runs that other processes disturbed).
# Usage: jmpi-benchmarks/scripts/dl-bench.sh OUTDIR [ROUNDS=3] [EPOCHS=3]
# Needs: mpich + libmpich-dev, dataset-fashion-mnist, a built tree (./mvnw install -DskipTests), ../shared/baseline.
# Then: python3 jmpi-benchmarks/scripts/dl-report.py OUTDIR
set -euo pipefail
OUT=${1:?usage: dl-bench.sh OUTDIR [ROUNDS] [EPOCHS]}
ROUNDS=${2:-3}
EPOCHS=${3:-3}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
BASE=${BASELINE:-$REPO/../shared/baseline}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JMPIRUN="$REPO/jmpi-dist/target/jmpi/bin/jmpirun"
CP="$REPO/jmpi-benchmarks/target/classes:$REPO/jmpi-dl/target/classes"
GATE="python3 $BASE/gate.py"
export MAXWAIT=${MAXWAIT:-900}
B="$OUT/build"
mkdir -p "$B" "$OUT/raw"
mpicc.mpich -O2 -Wall -o "$B/mpi_allreduce" "$BASE/mpi_allreduce.c"
run() { # name command...
  local f="$OUT/raw/$1.r$r.txt"; shift
  echo "# $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg) :: $*" > "$f"
  $GATE "$f" -- "$@" || true
}
for r in $(seq 1 "$ROUNDS"); do
  for n in 1 2 4; do
    run train.n$n "$JMPIRUN" -n $n -cp "$CP" org.jmpi.dl.examples.FashionMnistTraining --epochs "$EPOCHS"
  done
  run ps.n3 "$JMPIRUN" -n 3 -cp "$CP" org.jmpi.dl.examples.FashionMnistTraining --epochs "$EPOCHS" --mode ps
  # the DJL example, when DJL_CP holds its class path (mvn -pl jmpi-dl-djl dependency:build-classpath, plus its jar)
  if [ -n "${DJL_CP:-}" ]; then
    for n in 1 2; do
      run djl.n$n "$JMPIRUN" -n $n --jvm-arg -Dai.djl.offline=true --jvm-arg --enable-native-access=ALL-UNNAMED \
        -x DJL_CACHE_DIR="${DJL_CACHE_DIR:-$REPO/jmpi-dl-djl/target/djl-cache}" -cp "$DJL_CP" \
        org.jmpi.dl.djl.examples.DjlFashionMnist --epochs "$EPOCHS"
    done
  fi
  for n in 2 4; do
    run fusion.n$n "$JMPIRUN" -n $n -cp "$CP" org.jmpi.benchmarks.DlReducer fusion --steps 500
    run step.n$n "$JMPIRUN" -n $n -cp "$CP" org.jmpi.benchmarks.DlReducer step --steps 2000
    run reducer.n$n "$JMPIRUN" -n $n -cp "$CP" org.jmpi.benchmarks.DlReducer sizes
    # MPICH at 4 ranks on 2 cores: busy polling makes each call slow; fewer iterations (argument: small_iters)
    run mpich.n$n mpiexec.mpich -n $n "$B/mpi_allreduce" $([ $n -gt 2 ] && echo 300 || echo 10000)
  done
done
echo "dl-bench: raw outputs in $OUT/raw"
