#!/bin/bash
# stall-trace.sh: which events stall a cold loop. Runs org.jmpi.benchmarks.cold.StallTrace (every iteration timed,
# the slow ones printed with the wall-clock millisecond they started at) on 2 ranks, jmpi's (processes, or --threads)
# or Open MPI's Java bindings, with the JVM logging its compilations, collections and safepoints with the same clock
# (-Xlog:...:timemillis), and lists beside each stall what either rank's JVM did from 1 ms before it to its end. A
# stall that falls at the same iteration in every run and beside a compilation is the JIT taking a core from a rank
# that another rank waits for; a stall every n-th iteration, without one, is a rare branch of the library.
# Each run is wrapped in gate.py (a quiet machine first), as the cold suite's are.
#
# Usage: jmpi-benchmarks/scripts/stall-trace.sh OUTDIR CASE PARAM ITERS [IMPL=jmpi] [THRESHOLD_US=500]
#   CASE PARAM: pingpong BYTES | bcast BYTES | allreduce DOUBLES | halo N (see StallTrace's javadoc)
#   IMPL: jmpi (processes), jmpi-thr (--threads: one JVM, one log), ompi-java (mpirun.openmpi, TCP/shared memory as
#         its defaults choose; needs the peers of /work/shared/reference/peers.md)
# Environment: JMPI_HOME (default jmpi-dist/target/jmpi), JAVA_HOME (default JDK 25), PEERS (default /work/peers),
#   BASELINE (default /work/shared/baseline), OMPI_LIB (default /usr/lib/x86_64-linux-gnu).
# Output: OUTDIR/run.txt (the program's lines), OUTDIR/jit.PID.log and gc.PID.log (and gate.txt, gate.py's verdict), and
# the report on standard output.
# Example: jmpi-benchmarks/scripts/stall-trace.sh /tmp/st halo 256 5000
set -euo pipefail
[ $# -ge 4 ] || { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
OUT=$1 CASE=$2 PARAM=$3 ITERS=$4 IMPL=${5:-jmpi} THRESHOLD=${6:-500}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JMPI_HOME=${JMPI_HOME:-$ROOT/jmpi-dist/target/jmpi}
PEERS=${PEERS:-/work/peers}
BASELINE=${BASELINE:-/work/shared/baseline}
OMPI_LIB=${OMPI_LIB:-/usr/lib/x86_64-linux-gnu}
COLD=$ROOT/jmpi-benchmarks/src/main/java/org/jmpi/benchmarks/cold
SRC=("$COLD/StallTrace.java" "$COLD/Jacobi2d.java") # the halo case sweeps as the Jacobi application does
CLS=org.jmpi.benchmarks.cold.StallTrace
mkdir -p "$OUT/classes"
rm -f "$OUT"/jit.*.log "$OUT"/gc.*.log "$OUT/run.txt" "$OUT/gate.txt"
logs=(-Xlog:jit+compilation=debug:file="$OUT/jit.%p.log":timemillis
      -Xlog:gc,safepoint:file="$OUT/gc.%p.log":timemillis)
run() { # command...: its output into OUTDIR/run.txt, under gate.py when there is one (its verdict: gate.txt); a
    # failed or contaminated run is said, and whatever it printed is still reported
    local rc=0
    if [ -r "$BASELINE/gate.py" ]; then
        python3 "$BASELINE/gate.py" "$OUT/run.txt" -- timeout -k 10 600 "$@" > "$OUT/gate.txt" < /dev/null || rc=$?
    else
        timeout -k 10 600 "$@" > "$OUT/run.txt" 2>&1 < /dev/null || rc=$?
    fi
    [ $rc = 0 ] || echo "stall-trace.sh: the run ended with status $rc (99: gate.py saw other load)" >&2
}
case $IMPL in
    jmpi|jmpi-thr)
        "$JMPI_HOME/bin/mpijavac" -nowarn -d "$OUT/classes" "${SRC[@]}"
        threads=(); [ "$IMPL" = jmpi-thr ] && threads=(--threads)
        jargs=(); for a in "${logs[@]}"; do jargs+=("--jvm-arg=$a"); done
        if [ "$IMPL" = jmpi-thr ]; then # the ranks run in the launcher's JVM: its options carry the logs (and the
            # serial collector, which jmpirun gives it by default when the ranks fill the processors, as here)
            JMPI_LAUNCHER_JVM_ARGS="-XX:+UseSerialGC ${logs[*]}" run "$JMPI_HOME/bin/jmpirun" -n 2 "${threads[@]}" \
                -cp "$OUT/classes" "$CLS" "$CASE" "$PARAM" "$ITERS" "$THRESHOLD"
        else
            run "$JMPI_HOME/bin/jmpirun" -n 2 "${jargs[@]}" -cp "$OUT/classes" "$CLS" "$CASE" "$PARAM" "$ITERS" \
                "$THRESHOLD"
        fi ;;
    ompi-java)
        "$JAVA_HOME/bin/javac" -nowarn -cp "$PEERS/ompi-java/mpi.jar" -d "$OUT/classes" "${SRC[@]}"
        run mpirun.openmpi --allow-run-as-root --bind-to core -n 2 "$JAVA_HOME/bin/java" "${logs[@]}" \
            --enable-native-access=ALL-UNNAMED -Djava.library.path="$OMPI_LIB" \
            -cp "$PEERS/ompi-java/mpi.jar:$OUT/classes" "$CLS" "$CASE" "$PARAM" "$ITERS" "$THRESHOLD" ;;
    *) echo "stall-trace.sh: unknown IMPL $IMPL (jmpi, jmpi-thr, ompi-java)" >&2; exit 2 ;;
esac
python3 - "$OUT" <<'PY'
import glob, os, re, sys
out = sys.argv[1]
text = open(os.path.join(out, 'run.txt'), errors='replace').read()  # ranks' lines may interleave: search, not split
summaries = re.findall(r'SUMMARY rank=\d+ pid=\d+ case=\S+ iters=\d+ total_ms=[\d.]+ median_us=[\d.]+ '
                       r'excess_ms=[\d.]+ stalls=\d+', text)
print('\n'.join(summaries) if summaries else 'no summary; the run printed:\n' + '\n'.join(text.splitlines()[-15:]))
stalls = [(int(m[1]), int(m[2]), int(m[3]), float(m[4]), float(m[5])) for m in
          re.finditer(r'STALL rank=(\d+) pid=(\d+) it=(\d+) at_ms=([\d.]+) dur_ms=([\d.]+)', text)]
events = {}  # pid -> [(ms, text)]
for kind in ('jit', 'gc'):
    for f in glob.glob(os.path.join(out, kind + '.*.log')):
        pid = int(f.rsplit('.', 2)[-2])
        for l in open(f, errors='replace'):
            m = re.match(r'\[(\d+)ms\]\s*(.*)', l)
            if m and 'made not entrant' not in l:
                events.setdefault(pid, []).append((int(m[1]), kind + ' ' + re.sub(r'\s+', ' ', m[2]).strip()))
if not stalls:
    print('no stalls')
for rank, pid, it, at, dur in sorted(stalls, key=lambda s: (s[3], s[0])):
    print('rank %d it %d at %.1f: %.2f ms' % (rank, it, at, dur))
    for p, evs in sorted(events.items()):
        near = [e for e in evs if at - 1 <= e[0] <= at + dur]
        who = 'own' if p == pid else 'pid %d' % p
        for ms, text in near[:8]:
            print('    %-8s %+6.1f ms  %s' % (who, ms - at, text[:110]))
        if len(near) > 8:
            print('    %-8s ... %d more' % (who, len(near) - 8))
PY
