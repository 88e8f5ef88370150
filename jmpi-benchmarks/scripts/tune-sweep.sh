#!/bin/bash
# Runs each collective benchmark once per algorithm (forced through JMPI_COLL_<COLLECTIVE>_ALGORITHM), at several
# rank counts, so that the crossover sizes behind the defaults of docs/tuning.md can be read off. Each run is wrapped
# in the baseline's gate.py. Usage: jmpi-benchmarks/scripts/tune-sweep.sh OUTDIR [RANKS="2 3 4"] [extra jmpirun args]
# Then: python3 jmpi-benchmarks/scripts/crossovers.py OUTDIR
set -euo pipefail
OUT=${1:?usage: tune-sweep.sh OUTDIR [RANKS] [jmpirun args...]}
RANKS=${2:-"2 3 4"}
shift $(( $# >= 2 ? 2 : 1 ))
EXTRA=("$@")
REPO=$(cd "$(dirname "$0")/../.." && pwd)
BASE=${BASELINE:-$REPO/../shared/baseline}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export MAXWAIT=${MAXWAIT:-900}
JMPIRUN="$REPO/jmpi-dist/target/jmpi/bin/jmpirun"
CP="$REPO/jmpi-benchmarks/target/classes"
ITERS=${ITERS:-2000}
mkdir -p "$OUT/raw"
sweep() { # collective benchmark algorithms...
  local c=$1 b=$2; shift 2
  local var="JMPI_COLL_$(echo "$c" | tr a-z A-Z)_ALGORITHM"
  for n in $RANKS; do
    for a in "$@"; do
      local f="$OUT/raw/$c.$a.n$n.txt"
      echo "# $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg) :: $c $a n=$n" > "$f"
      python3 "$BASE/gate.py" "$f" -- "$JMPIRUN" -n "$n" ${EXTRA[@]+"${EXTRA[@]}"} -x "$var=$a" -cp "$CP" "org.jmpi.benchmarks.$b" \
          --iters "$ITERS" || true
    done
  done
}
sweep allreduce OsuAllreduce recursive_doubling rabenseifner ring reduce_bcast
sweep bcast OsuBcast binomial scatter_allgather pipeline
sweep reduce OsuReduce binomial rabenseifner
sweep allgather OsuAllgather recursive_doubling bruck ring
sweep alltoall OsuAlltoall bruck linear pairwise
sweep barrier OsuBarrier dissemination tree
echo "done: raw outputs in $OUT/raw"
