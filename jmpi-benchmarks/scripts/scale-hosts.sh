#!/bin/bash
# scale-hosts.sh: jobs of many ranks across four hosts (network namespaces on this machine, jmpi-launcher's
# netns-hosts.sh), each run of ScaleCheck (barrier, allreduce, alltoall, a ring exchange, every value checked; then each
# rank's file descriptors, sockets, threads, resident memory and start time) at the given job sizes, every run under
# $BASELINE/gate.py. Writes OUTDIR/<ranks>.txt (the program's output), OUTDIR/<ranks>.txt.gate (the gate's) and
# OUTDIR/summary.md
# (one row per job size: wall time of the whole job, the check, and min/median/max of each measure over the ranks).
# Needs root, iproute2, openssh-server, python3, a built jmpi distribution and jmpi-benchmarks' classes
# (./mvnw -q install -DskipTests).
#
# Usage: jmpi-benchmarks/scripts/scale-hosts.sh OUTDIR [RANKS_PER_HOST...]   (default 1 4 16 64: 4 to 256 ranks)
# Environment: JMPI_HOME (default this tree's jmpi-dist/target/jmpi), BASELINE (default /work/shared/baseline),
#   MAXWAIT (seconds the gate waits for a quiet machine, default 120), LINK_TIMEOUT (jmpirun --link-timeout, default
#   60: 256 JVMs starting on two cores keep jmpirun's heartbeats from its host proxies for longer than the default 4 s)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=${1:?usage: scale-hosts.sh OUTDIR [RANKS_PER_HOST...]}
shift
PER=("$@")
[ ${#PER[@]} -gt 0 ] || PER=(1 4 16 64)
JMPI_HOME=${JMPI_HOME:-$ROOT/jmpi-dist/target/jmpi}
BASELINE=${BASELINE:-/work/shared/baseline}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
CLASSES=$ROOT/jmpi-benchmarks/target/classes
[ -e "$CLASSES/org/jmpi/benchmarks/cold/ScaleCheck.class" ] || { echo "scale-hosts: build jmpi-benchmarks first" >&2; exit 2; }
mkdir -p "$OUT"
NETNS=$ROOT/jmpi-launcher/src/test/scripts/netns-hosts.sh
KEYS=$(mktemp -d /tmp/jmpi-scale-hosts.XXXXXX)
export NETNS_HOSTS=4
trap 'bash "$NETNS" down "$KEYS" > /dev/null 2>&1 || true; rm -rf "$KEYS"' EXIT
bash "$NETNS" up "$KEYS"
{
    echo "# Jobs across 4 hosts (network namespaces), $(date -u +%FT%TZ)"
    echo
    echo "jmpi $(git -C "$ROOT" rev-parse --short HEAD), $(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB"
    echo
    echo "| ranks | wall (s) | collectives (s) | check | start, JVM to end of MPI.Init (ms) | fds | sockets | threads | RSS (MB) |"
    echo "|---:|---:|---:|---|---|---|---|---|---|"
} > "$OUT/summary.md"
for per in "${PER[@]}"; do
    n=$((4 * per))
    f=$OUT/$n.txt
    rc=0
    python3 "$BASELINE/gate.py" "$f" -- "$JMPI_HOME/bin/jmpirun" --link-timeout "${LINK_TIMEOUT:-60}" -n "$n" \
        -H "10.78.0.1:$per,10.78.0.2:$per,10.78.0.3:$per,10.78.0.4:$per" --launcher-exec "$KEYS/nsexec" \
        -cp "$CLASSES" org.jmpi.benchmarks.cold.ScaleCheck > "$f.gate" 2>&1 || rc=$?
    wall=$(sed -n 's/.* wall=\([0-9.]*\).*/\1/p' "$f.gate" | head -1)
    echo "$n ranks: $(head -1 "$f.gate")"
    python3 - "$f" "$n" "$wall" "$rc" >> "$OUT/summary.md" <<'EOF'
import re, sys
f, n, wall, rc = sys.argv[1:]
text = open(f, errors='replace').read()
m = re.search(r'RESULT scale-check seconds=(\S+) check=(\S+)', text)
cells = [n, wall or '—', '%.2f' % float(m.group(1)) if m else '—', (m.group(2) if m else 'no result') + ('' if rc == '0' else ' (exit %s)' % rc)]
for k, scale in (('init_ms', 1), ('fds', 1), ('sockets', 1), ('threads', 1), ('rss_kb', 1024)):
    s = re.search(r'SCALE ranks=\d+ %s min=(-?\d+) median=(-?\d+) max=(-?\d+)' % k, text)
    cells.append('%g / %g / %g' % tuple(round(int(x) / scale) for x in s.groups()) if s else '—')
print('| ' + ' | '.join(cells) + ' |')
EOF
done
echo >> "$OUT/summary.md"
echo "fds, sockets, threads, RSS and start: min / median / max over the ranks." >> "$OUT/summary.md"
cat "$OUT/summary.md"
