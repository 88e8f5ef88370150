#!/bin/bash
# ShortJob (a short job of ~80 small collectives per rank count, nothing warm) with this tree's distribution and,
# with ALT_DIST/ALT_JAR, a second one in the same rounds: the loop's time as the program prints it and the whole
# process's wall time as gate.py measures it. Every run under ../shared/baseline/gate.py, interleaved.
#
# Usage: jmpi-benchmarks/scripts/shortjob-ab.sh [OUTDIR] [ROUNDS=5] [RANKS="2 3"]
# Environment: BASELINE (default ../shared/baseline), MAXWAIT (default 300), ALT_DIST (its jmpi directory), ALT_JAR.
# A build older than 6027d07 must run where it was built (a git worktree of its own): a copy of its distribution
# gives its ranks the jars and class cache of the place where it was made (docs/benchmarks.md, "A copy of the
# distribution ran the original's jars").
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BASE=${BASELINE:-$(cd "$ROOT/../shared/baseline" && pwd)}
OUT=${1:-$ROOT/jmpi-benchmarks/target/shortjob}
ROUNDS=${2:-5}
RANKS=${3:-"2 3"}
export MAXWAIT=${MAXWAIT:-300}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JAR=$(ls "$ROOT"/jmpi-benchmarks/target/jmpi-benchmarks-*.jar | grep -v -e sources -e javadoc | head -1)
mkdir -p "$OUT/raw"

run() { # name command...
    local f=$OUT/raw/$1.txt; shift
    echo "# $(date +%FT%T) load $(cut -d' ' -f1-3 /proc/loadavg) :: $*" > "$f"
    python3 "$BASE/gate.py" "$f" -- "$@" || echo "# exit status $?" >> "$f"
}

for r in $(seq 1 "$ROUNDS"); do
    for n in $RANKS; do
        run "jmpi.$n.$r" "$ROOT/jmpi-dist/target/jmpi/bin/jmpirun" -n "$n" -cp "$JAR" org.jmpi.benchmarks.ShortJob
        if [ -n "${ALT_DIST:-}" ]; then
            run "base.$n.$r" "$ALT_DIST/bin/jmpirun" -n "$n" -cp "$ALT_JAR" org.jmpi.benchmarks.ShortJob
        fi
    done
done

python3 - "$OUT/raw" <<'PY'
import collections, glob, os, re, statistics, sys
loop = collections.defaultdict(list)
wall = collections.defaultdict(list)
flagged = collections.Counter()
for f in glob.glob(os.path.join(sys.argv[1], '*.txt')):
    impl, n, _ = os.path.basename(f)[:-4].split('.')
    text = open(f).read()
    if 'rc=99' in text or '# exit status' in text:
        flagged[impl] += 1
    m = re.search(r'^shortjob \d+ ([0-9.]+)$', text, re.M)
    if m:
        loop[(impl, int(n))].append(float(m.group(1)))
    m = re.search(r'wall ([0-9.]+)s', text)
    if m:
        wall[(impl, int(n))].append(float(m.group(1)))
print('| build | ranks | loop s (median) | loop s (sorted) | process wall s (median) | wall s (sorted) |')
print('|---|---:|---:|---|---:|---|')
for k in sorted(loop):
    print('| %s | %d | %.3f | %s | %.2f | %s |' % (k[0], k[1], statistics.median(loop[k]),
          ' '.join('%.3f' % v for v in sorted(loop[k])), statistics.median(wall[k]),
          ' '.join('%.2f' % v for v in sorted(wall[k]))))
if flagged:
    print('gate flagged:', dict(flagged))
PY
