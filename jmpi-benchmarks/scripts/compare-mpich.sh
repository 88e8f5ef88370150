#!/bin/bash
# Measures jmpi's collectives against MPICH in one sitting, interleaved, each run wrapped in the baseline's gate.py
# (waits for a quiet machine, flags runs that other processes disturbed).
# Usage: jmpi-benchmarks/scripts/compare-mpich.sh OUTDIR [ROUNDS=3] [RANKS="2 4"]
# SET=core runs ping-pong, allreduce and bcast only; SET=more the other collectives only; default both.
# COLLS chooses the other collectives (default "reduce allgather alltoall barrier"; gather and scatter exist too).
# MAXWAIT (seconds, default 900) bounds gate.py's wait for a quiet machine; runs after a timeout are flagged.
# ITERS (default 10000, as the C programs) is the base iteration count for small messages at 2 ranks; OVERSUB_ITERS
# (default 200) the one used when there are more ranks than cores, where MPICH's busy polling makes each call take
# milliseconds and 10000 iterations per size would take hours.
# MAXBYTES (e.g. 1024) stops the SET=more collectives at that size, jmpi's and MPICH's alike (the small-collective
# rows of issue 16 at 4 and 8 ranks; the allreduce and bcast C programs always run every size).
# ALT_CP (a class path of another build's benchmark classes, e.g. an older jmpi-benchmarks jar) runs the SET=more
# collectives (and with SET=core the ping-pong, allreduce and bcast) of that build as well, as "jmpialt", right after
# this build's: an A/B in the same sitting. With
# ALT_DIST (that build's jmpi-dist/target/jmpi) as well, those runs use its jmpirun and so its library too.
# A build older than 6027d07 must run where it was built (a git worktree of its own): a copy of its distribution
# gives its ranks the jars and class cache of the place where it was made (docs/benchmarks.md, "A copy of the
# distribution ran the original's jars").
# ARRAYS=1 runs the SET=more collectives on Java arrays as well ("jmpiarrays", and "jmpialtarrays" with ALT_CP).
# Needs: mpich + libmpich-dev, a built tree (./mvnw install -DskipTests), ../shared/baseline next to the repository.
# Then: python3 jmpi-benchmarks/scripts/aggregate.py OUTDIR
set -euo pipefail
OUT=${1:?usage: compare-mpich.sh OUTDIR [ROUNDS] [RANKS]}
ROUNDS=${2:-3}
RANKS=${3:-"2 4"}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
BASE=${BASELINE:-$REPO/../shared/baseline}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JMPIRUN="$REPO/jmpi-dist/target/jmpi/bin/jmpirun"
CP="$REPO/jmpi-benchmarks/target/classes"
GATE="python3 $BASE/gate.py"
export MAXWAIT=${MAXWAIT:-900}
B="$OUT/build"
mkdir -p "$B" "$OUT/raw"
for p in mpi_pingpong mpi_allreduce mpi_bcast; do
  mpicc.mpich -O2 -Wall -o "$B/$p" "$BASE/$p.c"
done
mpicc.mpich -O2 -Wall -I "$BASE" -o "$B/mpi_coll" "$REPO/jmpi-benchmarks/src/main/c/mpi_coll.c"
MPICH="mpiexec.mpich -bind-to core -n"
run() { # name n command...
  local f="$OUT/raw/$1.n$2.r$r.txt"; shift 2
  echo "# $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg) :: $*" > "$f"
  $GATE "$f" -- "$@" || true
}
SET=${SET:-all}
ALTRUN="${ALT_DIST:+$ALT_DIST/bin/jmpirun}"
ALTRUN="${ALTRUN:-$JMPIRUN}"
for r in $(seq 1 "$ROUNDS"); do
  if [ "$SET" != more ]; then
  run mpich.latency 2 $MPICH 2 "$B/mpi_pingpong"
  run jmpi.latency 2 "$JMPIRUN" -n 2 -cp "$CP" org.jmpi.benchmarks.OsuLatency
  if [ -n "${ALT_CP:-}" ]; then
    run jmpialt.latency 2 "$ALTRUN" -n 2 -cp "$ALT_CP" org.jmpi.benchmarks.OsuLatency
  fi
  fi
  for n in $RANKS; do
    it=${ITERS:-10000}
    [ "$n" -gt "$(nproc)" ] && it=${OVERSUB_ITERS:-200}
    if [ "$SET" != more ]; then
    run mpich.allreduce "$n" $MPICH "$n" "$B/mpi_allreduce" "$it"
    run jmpi.allreduce "$n" "$JMPIRUN" -n "$n" -cp "$CP" org.jmpi.benchmarks.OsuAllreduce --iters "$it"
    run jmpiarrays.allreduce "$n" "$JMPIRUN" -n "$n" -cp "$CP" org.jmpi.benchmarks.OsuAllreduce --arrays --iters "$it"
    if [ -n "${ALT_CP:-}" ]; then
      run jmpialt.allreduce "$n" "$ALTRUN" -n "$n" -cp "$ALT_CP" org.jmpi.benchmarks.OsuAllreduce --iters "$it"
      run jmpialtarrays.allreduce "$n" "$ALTRUN" -n "$n" -cp "$ALT_CP" org.jmpi.benchmarks.OsuAllreduce --arrays \
        --iters "$it"
    fi
    run mpich.bcast "$n" $MPICH "$n" "$B/mpi_bcast" "$it"
    run jmpi.bcast "$n" "$JMPIRUN" -n "$n" -cp "$CP" org.jmpi.benchmarks.OsuBcast --iters "$it"
    run jmpiarrays.bcast "$n" "$JMPIRUN" -n "$n" -cp "$CP" org.jmpi.benchmarks.OsuBcast --arrays --iters "$it"
    if [ -n "${ALT_CP:-}" ]; then
      run jmpialt.bcast "$n" "$ALTRUN" -n "$n" -cp "$ALT_CP" org.jmpi.benchmarks.OsuBcast --iters "$it"
      run jmpialtarrays.bcast "$n" "$ALTRUN" -n "$n" -cp "$ALT_CP" org.jmpi.benchmarks.OsuBcast --arrays --iters "$it"
    fi
    fi
    [ "$SET" = core ] && continue
    for c in ${COLLS:-reduce allgather alltoall barrier}; do
      run "mpich.$c" "$n" $MPICH "$n" "$B/mpi_coll" "$c" "$it" ${MAXBYTES:+"$MAXBYTES"}
      J=$(case $c in reduce) echo OsuReduce;; allgather) echo OsuAllgather;; alltoall) echo OsuAlltoall;; gather) echo OsuGather;; scatter) echo OsuScatter;; barrier) echo OsuBarrier;; esac)
      run "jmpi.$c" "$n" "$JMPIRUN" -n "$n" -cp "$CP" "org.jmpi.benchmarks.$J" --iters "$it" ${MAXBYTES:+--max "$MAXBYTES"}
      if [ "${ARRAYS:-0}" = 1 ] && [ "$c" != barrier ]; then
        run "jmpiarrays.$c" "$n" "$JMPIRUN" -n "$n" -cp "$CP" "org.jmpi.benchmarks.$J" --arrays --iters "$it" \
          ${MAXBYTES:+--max "$MAXBYTES"}
      fi
      if [ -n "${ALT_CP:-}" ]; then
        run "jmpialt.$c" "$n" "$ALTRUN" -n "$n" -cp "$ALT_CP" "org.jmpi.benchmarks.$J" --iters "$it" ${MAXBYTES:+--max "$MAXBYTES"}
        if [ "${ARRAYS:-0}" = 1 ] && [ "$c" != barrier ]; then
          run "jmpialtarrays.$c" "$n" "$ALTRUN" -n "$n" -cp "$ALT_CP" "org.jmpi.benchmarks.$J" --arrays --iters "$it" \
            ${MAXBYTES:+--max "$MAXBYTES"}
        fi
      fi
    done
  done
done
echo "done: raw outputs in $OUT/raw"
