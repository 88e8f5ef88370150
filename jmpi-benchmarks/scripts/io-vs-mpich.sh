#!/bin/bash
# MPI-IO against MPICH/ROMIO in one sitting (issue 15): IoBlock3d (jmpi) and mpi_io_block3d (C twin), 2 and 4
# ranks, collective and independent, on the local disk and on tmpfs, interleaved rounds, each run wrapped in the
# baseline's gate.py (waits for a quiet machine, flags runs other processes disturbed).
# Usage: jmpi-benchmarks/scripts/io-vs-mpich.sh OUTDIR [ROUNDS=3] [RANKS="2 4"] [MIB=256] [DIRS="/var/tmp /dev/shm"]
# REPS (default 5) repetitions inside each run; ARRAYS=1 (default) also runs jmpi with the block in a Java double[]
# (raw files jmpiarr.*) beside the direct buffer; PLOT (default OUTDIR/io-vs-mpich.svg) where the ratio plot goes
# (jmpi-benchmarks/scripts/io-report.py RAWDIR [SVG] redraws it and prints the table). Needs: mpich + libmpich-dev, a built tree
# (./mvnw -B package -DskipTests), ../shared/baseline next to the repository, free space for MIB on each DIR.
set -euo pipefail
OUT=${1:?usage: io-vs-mpich.sh OUTDIR [ROUNDS] [RANKS] [MIB] [DIRS]}
ROUNDS=${2:-3}
RANKS=${3:-"2 4"}
MIB=${4:-256}
DIRS=${5:-"/var/tmp /dev/shm"}
REPS=${REPS:-5}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
BASE=${BASELINE:-$REPO/../shared/baseline}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JMPIRUN="$REPO/jmpi-dist/target/jmpi/bin/jmpirun"
CP="$REPO/jmpi-benchmarks/target/classes"
GATE="python3 $BASE/gate.py"
export MAXWAIT=${MAXWAIT:-900}
B="$OUT/build"
mkdir -p "$B" "$OUT/raw"
mpicc.mpich -O2 -Wall -o "$B/mpi_io_block3d" "$REPO/jmpi-benchmarks/src/main/c/mpi_io_block3d.c" -lm
MPICH="mpiexec.mpich -bind-to core -n"
run() { # name n command...
  local f="$OUT/raw/$1.n$2.r$r.txt"; shift 2
  echo "# $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg) :: $*" > "$f"
  $GATE "$f" -- "$@" || true
}
for r in $(seq 1 "$ROUNDS"); do
  for n in $RANKS; do
    for d in $DIRS; do
      tag=$(basename "$d")
      run "mpich.io-$tag" "$n" $MPICH "$n" "$B/mpi_io_block3d" --dir "$d" --mib "$MIB" --reps "$REPS"
      run "jmpi.io-$tag" "$n" "$JMPIRUN" -n "$n" -cp "$CP" org.jmpi.benchmarks.IoBlock3d --dir "$d" --mib "$MIB" \
        --reps "$REPS"
      if [ "${ARRAYS:-1}" = 1 ]; then
        run "jmpiarr.io-$tag" "$n" "$JMPIRUN" -n "$n" -cp "$CP" org.jmpi.benchmarks.IoBlock3d --dir "$d" \
          --mib "$MIB" --reps "$REPS" --array
      fi
    done
  done
done
echo "done: raw outputs in $OUT/raw (each: mode, op, median and best MB/s)"
python3 "$REPO/jmpi-benchmarks/scripts/io-report.py" "$OUT/raw" "${PLOT:-$OUT/io-vs-mpich.svg}"
