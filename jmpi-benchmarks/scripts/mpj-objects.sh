#!/bin/bash
# MPI.OBJECT speed beside MPJ Express: org.jmpi.benchmarks.mpj.ObjectPingPong (rows of a double[64][1024] and an
# Object[1000] of short strings, 50 untimed + 200 timed round trips, fresh JVMs) through each MPJ_HOME's mpjrun.sh,
# -dev multicore and niodev, 2 ranks, interleaved rounds (the order rotates), every run behind the quiet-machine gate.
# Usage: jmpi-benchmarks/scripts/mpj-objects.sh OUT [ROUNDS=3] NAME=MPJ_HOME...
#   e.g. mpj-objects.sh OUT 3 jmpi=jmpi-dist/target/jmpi/mpj mpje=/path/to/mpjexpress
# An MPJ_HOME with lib/daemon.jar is MPJ Express: its niodev daemon is started here (and stopped at the end) unless
# something already listens on its port. Prints the table (median ms a round trip, range) and writes OUT/summary.md.
set -euo pipefail
OUT=${1:?usage: mpj-objects.sh OUT [ROUNDS] NAME=MPJ_HOME...}
ROUNDS=${2:-3}
shift 2
REPO=$(cd "$(dirname "$0")/../.." && pwd)
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export PATH=$JAVA_HOME/bin:$PATH
GATE="python3 ${BASELINE:-$REPO/../shared/baseline}/gate.py"
export MAXWAIT=${MAXWAIT:-300}
mkdir -p "$OUT/raw" "$OUT/run"
OUT=$(cd "$OUT" && pwd)
echo localhost > "$OUT/run/machines"
daemons=()
trap 'for p in ${daemons[@]+"${daemons[@]}"}; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done' EXIT
runs=()
for spec in "$@"; do
    name=${spec%%=*} home=$(cd "${spec#*=}" && pwd)
    mkdir -p "$OUT/cls/$name"
    javac -nowarn -cp "$home/lib/mpj.jar" -d "$OUT/cls/$name" \
        "$REPO/jmpi-benchmarks/src/mpj/java/org/jmpi/benchmarks/mpj/ObjectPingPong.java"
    if [ -f "$home/lib/daemon.jar" ]; then
        port=$(sed -n 's/^mpjexpress\.mpjdaemon\.port\.1=//p' "$home/conf/mpjexpress.conf" 2>/dev/null | tr -d '\r ')
        port=${port:-40055}
        if ! ss -ltn | awk '{ print $4 }' | grep -qE "[:.]$port\$"; then
            (cd "$OUT/run" && MPJ_HOME=$home exec java -cp "$home/lib/daemon.jar:." runtime.daemon.MPJDaemon "$port") \
                < /dev/null > "$OUT/daemon.$name.txt" 2>&1 &
            daemons+=($!)
            for _ in $(seq 1 40); do ss -ltn | awk '{ print $4 }' | grep -qE "[:.]$port\$" && break; sleep 0.5; done
        fi
    fi
    for dev in multicore niodev; do runs+=("$name|$home|$dev"); done
done
for r in $(seq 1 "$ROUNDS"); do
    n=${#runs[@]}
    for ((k = 0; k < n; k++)); do
        IFS='|' read -r name home dev <<< "${runs[$(((k + r - 1) % n))]}"
        mine=(); [ "${#daemons[@]}" -gt 0 ] && mine=(--mine "$(IFS=,; echo "${daemons[*]}")")
        (cd "$OUT/run" && MPJ_HOME=$home $GATE "$OUT/raw/$name.$dev.r$r.txt" "${mine[@]}" -- \
            timeout 300 "$home/bin/mpjrun.sh" -np 2 -dev "$dev" -cp "$OUT/cls/$name" \
            org.jmpi.benchmarks.mpj.ObjectPingPong < /dev/null > /dev/null 2>&1) || true
    done
done
python3 - "$OUT" <<'PY' | tee "$OUT/summary.md"
import glob, re, statistics, sys, collections
out = sys.argv[1]
v = collections.defaultdict(list)
for f in sorted(glob.glob(out + '/raw/*.txt')):
    name, dev, _ = f.split('/')[-1].split('.', 2)
    for what, ms in re.findall(r'^(rows|strings) .*: ([\d.]+) ms a round trip$', open(f).read(), re.M):
        v[(name, dev, what)].append(float(ms))
print('| implementation | device | rows double[64][1024] (ms) | strings Object[1000] (ms) | runs |')
print('|---|---|---:|---:|---:|')
for name, dev in sorted({k[:2] for k in v}):
    cells = []
    for what in ('rows', 'strings'):
        x = v[(name, dev, what)]
        cells.append(f'{statistics.median(x):.3f} ({min(x):.3f}-{max(x):.3f})' if x else '-')
    print(f'| {name} | {dev} | {cells[0]} | {cells[1]} | {len(v[(name, dev, "rows")])} |')
PY
