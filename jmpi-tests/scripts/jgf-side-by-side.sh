#!/usr/bin/env bash
# The Java Grande Forum MPJ benchmarks on jmpi's MPJ Express API and on MPJ Express itself, one sitting, interleaved
# rounds (the order alternates), every run behind the quiet-machine gate: jgf-mpj.sh once per implementation and
# round, then jgf-compare.py for the table of medians and ratios and the plot.
#
#   jmpi-tests/scripts/jgf-side-by-side.sh SRC MPJE_HOME OUT [ROUNDS=3]
#
#   SRC        a checkout of MPJ Express (test/jgf_mpj_benchmarks)
#   MPJE_HOME  MPJ Express 0.44 built from it (ant all: lib/mpj.jar, lib/starter.jar, bin/mpjrun.sh)
#   OUT        OUT/jmpi.rN and OUT/mpje.rN (jgf-mpj.sh's outputs), OUT/summary.md, OUT/jgf.svg
#
# Environment: as jgf-mpj.sh (NP, DEV, SECTIONS (default "2 3"), SIZE, HITDATA, TIMEOUT); JMPI_HOME (default this
# tree's jmpi-dist/target/jmpi); GATE (default ../shared/baseline/gate.py beside the repository; "none" for no gate).
set -euo pipefail
[ $# -ge 3 ] || { sed -n '2,/^set /{/^set /!p}' "$0"; exit 2; }
src=$1 mpje=$(cd "$2" && pwd) out=$3 rounds=${4:-3}
here=$(cd "$(dirname "$0")" && pwd)
jmpi=${JMPI_HOME:-$here/../../jmpi-dist/target/jmpi}
gate=${GATE:-$here/../../../shared/baseline/gate.py}
[ "$gate" = none ] && gate="" || gate=$(cd "$(dirname "$gate")" && pwd)/$(basename "$gate")
export SECTIONS=${SECTIONS:-2 3}
mkdir -p "$out"
for r in $(seq 1 "$rounds"); do
    order="jmpi mpje"; [ $((r % 2)) = 0 ] && order="mpje jmpi"
    for impl in $order; do
        home=$jmpi/mpj; [ "$impl" = mpje ] && home=$mpje
        echo "round $r: $impl" >&2
        MPJ_HOME=$home GATE=$gate "$here/jgf-mpj.sh" "$src" "$out/$impl.r$r" > "$out/$impl.r$r.log" 2>&1 \
            || echo "jgf-mpj.sh failed for $impl round $r: $out/$impl.r$r.log" >&2
    done
done
python3 "$here/jgf-compare.py" "$out" | tee "$out/summary.md"
