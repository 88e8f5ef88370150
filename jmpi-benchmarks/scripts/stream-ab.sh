#!/bin/bash
# Streamed messages on Java arrays (issue 16), A/B in one sitting: jmpi with its defaults (arrays above the shm eager
# limit and up to jmpi.shm.stream.limit are streamed) against the same build with streaming off
# (JMPI_SHM_STREAM_LIMIT=0: the RTS/CTS rendezvous in chunks), MPICH beside both. Ping-pong and window bandwidth on
# byte[], bcast on float[], 2 ranks; interleaved rounds, every run wrapped in ../shared/baseline/gate.py. Raw outputs
# only; summarise with stream-ab.py.
#
# Usage: jmpi-benchmarks/scripts/stream-ab.sh OUTDIR [ROUNDS=5]
# Needs: mpich + libmpich-dev, python3, a built tree (./mvnw -q install -DskipTests), JDK 25 at $JAVA_HOME.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BASE=${BASELINE:-$(cd "$ROOT/../shared/baseline" && pwd)}
OUT=${1:?usage: stream-ab.sh OUTDIR [ROUNDS]}
ROUNDS=${2:-5}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
J=$ROOT/jmpi-dist/target/jmpi/bin/jmpirun
JAR=$(ls "$ROOT"/jmpi-benchmarks/target/jmpi-benchmarks-*.jar | grep -v -e sources -e javadoc | head -1)
B=$OUT/build
mkdir -p "$B" "$OUT/raw"
for p in mpi_pingpong mpi_bw mpi_bcast; do
    mpicc.mpich -O2 -Wall -o "$B/$p" "$BASE/$p.c"
done
MPICH="mpiexec.mpich -n 2 -bind-to core"
G() { local f=$OUT/raw/$1.txt; shift; python3 "$BASE/gate.py" "$f" -- "$@" || echo "# exit status $?" >> "$f"; }
for r in $(seq 1 "$ROUNDS"); do
    G "mpich.lat.$r" $MPICH "$B/mpi_pingpong" 20000
    G "stream.lat.$r" "$J" -n 2 -cp "$JAR" org.jmpi.benchmarks.OsuLatency --iters 20000 --arrays
    JMPI_SHM_STREAM_LIMIT=0 G "rdv.lat.$r" "$J" -n 2 -cp "$JAR" org.jmpi.benchmarks.OsuLatency --iters 20000 --arrays
    G "mpich.bw.$r" $MPICH "$B/mpi_bw" 2000
    G "stream.bw.$r" "$J" -n 2 -cp "$JAR" org.jmpi.benchmarks.OsuBandwidth --iters 2000 --arrays
    JMPI_SHM_STREAM_LIMIT=0 G "rdv.bw.$r" "$J" -n 2 -cp "$JAR" org.jmpi.benchmarks.OsuBandwidth --iters 2000 --arrays
    G "mpich.bcast.$r" $MPICH "$B/mpi_bcast" 10000
    G "stream.bcast.$r" "$J" -n 2 -cp "$JAR" org.jmpi.benchmarks.OsuBcast --iters 10000 --arrays
    JMPI_SHM_STREAM_LIMIT=0 G "rdv.bcast.$r" "$J" -n 2 -cp "$JAR" org.jmpi.benchmarks.OsuBcast --iters 10000 --arrays
done
python3 "$HERE/stream-ab.py" "$OUT/raw"
