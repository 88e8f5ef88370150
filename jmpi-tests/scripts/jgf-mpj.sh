#!/usr/bin/env bash
# Runs the Java Grande Forum MPJ benchmarks (EPCC's JGF MPJ v1.0 as MPJ Express ships it, test/jgf_mpj_benchmarks,
# packages jgf_mpj_benchmarks.*) on an implementation of the mpiJava 1.2 API (jmpi's MPJ facade, or MPJ Express
# itself: the same script and the same arguments give the side-by-side), from a copy outside the tree.
#
#   jmpi-tests/scripts/jgf-mpj.sh SRC OUT
#
#   SRC  a checkout of MPJ Express (at least test/jgf_mpj_benchmarks)
#   OUT  a new or empty directory: OUT/work holds the copy of the sources (src), the classes, conf/hitData and the
#        working directory of the runs (run); OUT/logs the javac output and one log per run; OUT/compile.tsv one line
#        per source file (ok or fail); OUT/results.tsv one line per run (section, benchmark, np, dev, verdict,
#        seconds of the whole run, the time the benchmark itself reports, note); OUT/section1.tsv every performance
#        line section 1 prints (benchmark, np, dev, timer, array size, performance, unit); OUT/summary.txt the counts
#        and a table of the reported times.
#
# Compile gate: every file of test/jgf_mpj_benchmarks, all together with javac -nowarn -encoding ISO-8859-1
# -cp $MPJ_HOME/lib/mpj.jar, file by file when that fails. Section 1's benchmarks have empty mains and do their work in
# a (String[]) constructor: each runs through a generated class jgfmpj.Section1_<class> whose main calls it.
# Run gate, for every DEV and NP:
#   section 1: JGF{Alltoall,Barrier,Bcast,Gather,PingPong,Reduce,Scatter}Bench (PingPong at np 2 only), at S1_NP;
#   section 2: JGF{Crypt,LUFact,SOR,Series,SparseMatmult}BenchSize$SIZE;
#   section 3: JGF{MolDyn,MonteCarlo,RayTracer}BenchSize$SIZE;
# each as  $MPJ_HOME/bin/mpjrun.sh -np N -dev DEV -cp OUT/work/classes <class>  from OUT/work/run, stdin /dev/null,
# under timeout. A run passes when it exits 0, prints no "Validation failed" line and no error (an exception, a stack
# trace, "Error", a "failed" timer), and prints its results: the Kernel line (section 2), the Total line (section 3),
# every performance line (section 1: 40 Alltoall, 1 Barrier, 50 Bcast, 50 Gather, 50 PingPong, 2 Reduce, 4 Scatter).
# MPJ Express's multicore launcher exits 0 when a rank throws: the output decides there. Verdicts: pass, fail,
# timeout, skip (PingPong at np other than 2), no-data (MonteCarlo without hitData), no-class, leftover (passed but
# left a process naming its class, or a /dev/shm file of a jmpirun job that has ended, behind; both are then removed;
# files of other launchers and of live jobs are never touched).
#
# MonteCarlo reads ../conf/hitData relative to its working directory (CallAppDemo). The file is not in MPJ Express's
# tree: it is the original JGF distribution's Data/hitData (2597 lines, 122705 bytes, md5
# c250e67e35339a16ed0cfc1f4bce352f; e.g. github.com/miguelgrdotcom/JGF, MPJv1.0/Data/hitData). Give it as HITDATA;
# it is copied to OUT/work/conf/hitData.
#
# Section 1 times each message size until one batch takes TARGETTIME seconds: with JGF's 10 s a full section 1 takes
# about an hour per configuration. S1_TARGETTIME (default 1.0) is written into the copy of the sources; 10.0 gives
# JGF's own figures. Section 1's numbers are throughputs, not times: they go to section1.tsv.
#
# MPJ Express's niodev needs its daemon: when MPJ_HOME is MPJ Express's (lib/daemon.jar) and nothing listens on the
# daemon port of its conf/mpjexpress.conf, the script starts runtime.daemon.MPJDaemon on this host itself and stops it
# at the end; OUT/work/run/machines names localhost. jmpi needs no daemon.
#
# Environment: MPJ_HOME (default: the distribution this script belongs to, jmpi-dist/target/jmpi/mpj), NP (default
# "2 4"), DEV (default "multicore niodev"), S1_NP (section 1's process counts, default NP), SECTIONS (default "1 2 3"),
# SIZE (A, B or C; section 3 has A and B; default A), ONLY (an extended regular expression on benchmark names, e.g.
# "Crypt|MolDyn"), S1_TARGETTIME (default 1.0), HITDATA (the hitData file), TIMEOUT seconds per run (default 900),
# JAVAC (default $JAVA_HOME/bin/javac, else javac), JAVA (default $JAVA_HOME/bin/java, else java; for MPJ Express's
# daemon), GATE (a quiet-machine gate such as ../shared/baseline/gate.py: each run waits for an idle machine and its
# log ends with the gate's line; MPJ Express's daemon, whose children the niodev ranks are, counts as the run's own).
set -euo pipefail

[ $# -eq 2 ] || { sed -n '2,/^set /{/^set /!p}' "$0"; exit 2; }
src=$(cd "$1" && pwd)
out=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/leftovers.sh"
mpj=${MPJ_HOME:-$here/../../jmpi-dist/target/jmpi/mpj}
nps=${NP:-2 4}
devs=${DEV:-multicore niodev}
s1nps=${S1_NP:-$nps}
sections=${SECTIONS:-1 2 3}
size=${SIZE:-A}
target=${S1_TARGETTIME:-1.0}
timeout=${TIMEOUT:-900}
javac=${JAVAC:-${JAVA_HOME:+$JAVA_HOME/bin/}javac}
java=${JAVA:-${JAVA_HOME:+$JAVA_HOME/bin/}java}
[ -f "$mpj/lib/mpj.jar" ] && [ -x "$mpj/bin/mpjrun.sh" ] \
    || { echo "no lib/mpj.jar and bin/mpjrun.sh under $mpj (build first, or set MPJ_HOME)" >&2; exit 2; }
mpj=$(cd "$mpj" && pwd)
export MPJ_HOME=$mpj
jgf=$src/test/jgf_mpj_benchmarks
[ -d "$jgf/section2" ] && [ -d "$jgf/jgfutil" ] \
    || { echo "$src is not a checkout of MPJ Express (no test/jgf_mpj_benchmarks)" >&2; exit 2; }
case $size in A|B|C) ;; *) echo "SIZE is A, B or C" >&2; exit 2 ;; esac
[[ $target =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "S1_TARGETTIME is a number of seconds" >&2; exit 2; }
if [ -f "$mpj/lib/starter.jar" ] && [ -f "$mpj/lib/daemon.jar" ]; then impl="MPJ Express"
else impl="jmpi"; fi
mkdir -p "$out/work" "$out/logs"
out=$(cd "$out" && pwd)
work=$out/work
classes=$work/classes

# ---- compile gate ---------------------------------------------------------------------------------------------------
rm -rf "$work/src" "$classes" "$work/driver"
mkdir -p "$work/src" "$classes" "$work/run" "$work/conf"
(cd "$src/test" && find jgf_mpj_benchmarks -name '*.java' -type f | sort | tar -cf - -T -) | tar -xf - -C "$work/src"
if [ "$target" != 10.0 ] && [ "$target" != 10 ]; then
    sed -i -E "s/(private static final double TARGETTIME *= *)[0-9.]+;/\1$target;/" \
        "$work/src"/jgf_mpj_benchmarks/section1/JGF*Bench.java
fi
files=$(cd "$work/src" && find jgf_mpj_benchmarks -name '*.java' | sort)
printf 'file\tresult\n' > "$out/compile.tsv"
log=$out/logs/javac.txt
if (cd "$work/src" && "$javac" -nowarn -encoding ISO-8859-1 -cp "$mpj/lib/mpj.jar" -d "$classes" $files) > "$log" 2>&1
then
    for f in $files; do printf '%s\tok\n' "${f#jgf_mpj_benchmarks/}"; done >> "$out/compile.tsv"
else
    for f in $files; do
        echo "=== $f" >> "$log"
        if (cd "$work/src" && "$javac" -nowarn -encoding ISO-8859-1 -cp "$mpj/lib/mpj.jar:$classes" -sourcepath . \
            -d "$classes" "$f") >> "$log" 2>&1; then r=ok; else r=fail; fi
        printf '%s\t%s\n' "${f#jgf_mpj_benchmarks/}" "$r" >> "$out/compile.tsv"
    done
fi
compiled=$(awk -F'\t' 'NR > 1 { n++; c[$2]++ } END { printf "compiled %d of %d (%d failed)", c["ok"], n, c["fail"] }' \
    "$out/compile.tsv")
echo "$compiled"
# section 1's drivers: a main that calls the benchmark's (String[]) constructor
mkdir -p "$work/driver/jgfmpj"
for b in Alltoall Barrier Bcast Gather PingPong Reduce Scatter; do
    c=JGF${b}Bench
    [ -f "$classes/jgf_mpj_benchmarks/section1/$c.class" ] || continue
    printf 'package jgfmpj;\n\n/** Runs %s, whose main is empty, through its (String[]) constructor. */\npublic class Section1_%s {\n    public static void main(String[] args) throws Exception {\n        new jgf_mpj_benchmarks.section1.%s(args);\n    }\n}\n' \
        "$c" "$c" "$c" > "$work/driver/jgfmpj/Section1_$c.java"
done
if ls "$work/driver/jgfmpj/"*.java > /dev/null 2>&1; then
    (cd "$work/driver" && "$javac" -nowarn -cp "$mpj/lib/mpj.jar:$classes" -d "$classes" jgfmpj/*.java) \
        > "$out/logs/javac.driver.txt" 2>&1 || echo "the section 1 drivers did not compile: $out/logs/javac.driver.txt" >&2
fi

# ---- MonteCarlo's data and MPJ Express's niodev daemon --------------------------------------------------------------
for h in "${HITDATA:-}" "$jgf/conf/hitData" "$src/conf/hitData" "$work/conf/hitData"; do
    if [ -n "$h" ] && [ -f "$h" ]; then
        [ "$h" -ef "$work/conf/hitData" ] || cp "$h" "$work/conf/hitData"
        break
    fi
done
echo localhost > "$work/run/machines"
daemon_pid=""
stop_daemon() { [ -z "$daemon_pid" ] || { kill "$daemon_pid" 2>/dev/null || true; wait "$daemon_pid" 2>/dev/null || true; }; }
trap stop_daemon EXIT
if [ "$impl" = "MPJ Express" ] && [[ " $devs " == *" niodev "* ]]; then
    port=$(sed -n 's/^mpjexpress\.mpjdaemon\.port\.1=//p' "$mpj/conf/mpjexpress.conf" 2>/dev/null | tr -d '\r ')
    port=${port:-40055}
    listening() { ss -ltn 2>/dev/null | awk '{ print $4 }' | grep -qE "[:.]$port\$"; }
    if ! listening; then
        mkdir -p "$work/daemon"
        (cd "$work/daemon" && exec "$java" -cp "$mpj/lib/daemon.jar:." runtime.daemon.MPJDaemon "$port") \
            < /dev/null > "$out/logs/mpjdaemon.txt" 2>&1 &
        daemon_pid=$!
        for _ in $(seq 1 40); do listening && break; sleep 0.5; done
        listening || echo "MPJ Express's daemon does not listen on port $port: $out/logs/mpjdaemon.txt" >&2
    fi
fi

# ---- run gate -------------------------------------------------------------------------------------------------------
# section, benchmark, class; section 1's expected number of performance lines
runlist=""
for s in $sections; do
    case $s in
        1) for b in Alltoall Barrier Bcast Gather PingPong Reduce Scatter; do
               runlist+="1 $b jgfmpj.Section1_JGF${b}Bench"$'\n'; done ;;
        2) for b in Crypt LUFact SOR Series SparseMatmult; do
               runlist+="2 $b jgf_mpj_benchmarks.section2.JGF${b}BenchSize$size"$'\n'; done ;;
        3) for b in MolDyn MonteCarlo RayTracer; do
               runlist+="3 $b jgf_mpj_benchmarks.section3.JGF${b}BenchSize$size"$'\n'; done ;;
        *) echo "SECTIONS are 1, 2 and 3" >&2; exit 2 ;;
    esac
done
s1lines() { case $1 in Alltoall) echo 40 ;; Barrier) echo 1 ;; Bcast|Gather|PingPong) echo 50 ;; Reduce) echo 2 ;;
    Scatter) echo 4 ;; esac; }
errors='Exception|Error|^[[:space:]]+at [[:alnum:]_$.]+\(|failed|Caused by:'

printf 'section\tbenchmark\tnp\tdev\tverdict\tseconds\treported\tnote\n' > "$out/results.tsv"
printf 'benchmark\tnp\tdev\ttimer\tarray_size\tperformance\tunit\n' > "$out/section1.tsv"
for dev in $devs; do
    allnp=$(echo $nps $( [[ " $sections " == *" 1 "* ]] && echo $s1nps) | tr ' ' '\n' | sort -nu)
    for np in $allnp; do
        while read -r s b cls; do
            [ -n "$cls" ] || continue
            [ -z "${ONLY:-}" ] || [[ $b =~ $ONLY ]] || continue
            if [ "$s" = 1 ]; then [[ " $(echo $s1nps) " == *" $np "* ]] || continue
            else [[ " $(echo $nps) " == *" $np "* ]] || continue; fi
            log=$out/logs/section$s.$b.$np.$dev.txt
            start=$(date +%s%N)
            note="" reported="" rc=-
            if [ ! -f "$classes/${cls//.//}.class" ]; then
                verdict=no-class
            elif [ "$b" = PingPong ] && [ "$np" != 2 ]; then
                verdict=skip note="PingPong runs at np 2 only"
            elif [ "$b" = MonteCarlo ] && [ ! -f "$work/conf/hitData" ]; then
                verdict=no-data note="no hitData: set HITDATA"
            else
                shm_before=$(shm_snapshot)
                set +e
                if [ -n "${GATE:-}" ]; then
                    # gate.py appends the run's output to the log and ends it with a "# gate:" line; its exit status
                    # is the run's, or 99 for a contaminated run of status 0
                    rm -f "$log"
                    (cd "$work/run" && python3 "$GATE" "$log" ${daemon_pid:+--mine "$daemon_pid"} -- \
                        timeout -k 10 "$timeout" "$mpj/bin/mpjrun.sh" -np "$np" -dev "$dev" -cp "$classes" "$cls" \
                        < /dev/null > /dev/null 2>&1)
                    rc=$?
                    gateline=$(grep -m1 '^# gate:' "$log" || true)
                    [ "$rc" != 99 ] || rc=0 note="contaminated: ${gateline#\# gate: }"
                else
                    (cd "$work/run" && timeout -k 10 "$timeout" "$mpj/bin/mpjrun.sh" -np "$np" -dev "$dev" \
                        -cp "$classes" "$cls" < /dev/null > "$log" 2>&1)
                    rc=$?
                fi
                set -e
                errline=$(grep -v -e '^Exception in thread "Thread-[0-9]*" java.lang.NoClassDefFoundError: org/apache/commons/io' \
                    "$log" | grep -m1 -E -- "$errors" || true)
                case $s in
                    2) result=$(grep -m1 -E "^Section2:$b:Kernel:Size$size"$'\t' "$log" || true) ;;
                    3) result=$(grep -m1 -E "^Section3:$b:Total:Size$size"$'\t' "$log" || true)
                       run=$(grep -m1 -E "^Section3:$b:Run:Size$size"$'\t' "$log" | cut -f2 | sed 's/ *(s) *//' || true)
                       [ -z "$run" ] || note="${note:+$note; }Run $run s" ;;
                    1) got=$(grep -cE '^Section1:' "$log" || true); want=$(s1lines "$b") ;;
                esac
                if [ "$s" != 1 ] && [ -n "$result" ]; then
                    reported=$(echo "$result" | cut -f2 | sed 's/ *(s) *//')
                fi
                if [ "$s" = 1 ]; then
                    awk -v b="$b" -v np="$np" -v dev="$dev" '/^Section1:/ {
                        line = $0; timer = $1; perf = $2; unit = ""; n = ""
                        if (match(line, /\([^)]*\/s\)/)) unit = substr(line, RSTART + 1, RLENGTH - 2)
                        if (match(line, /Array Size = [0-9]+/)) n = substr(line, RSTART + 13, RLENGTH - 13)
                        printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", b, np, dev, timer, n, perf, unit }' "$log" \
                        >> "$out/section1.tsv"
                fi
                if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
                    verdict=timeout note="no end within $timeout s${note:+; $note}"
                elif grep -q 'Validation failed' "$log"; then
                    verdict=fail note="$(grep -m1 -A1 'Validation failed' "$log" | tr '\n' ' ')"
                elif [ -n "$errline" ]; then
                    verdict=fail note=$errline
                elif [ "$rc" != 0 ]; then
                    verdict=fail note="exit code $rc"
                elif [ "$s" != 1 ] && [ -z "$result" ]; then
                    verdict=fail note="no result line"
                elif [ "$s" = 1 ] && [ "$got" != "$want" ]; then
                    verdict=fail note="$got of $want performance lines"
                else
                    verdict=pass
                fi
                left=$(leftover_processes "$cls")
                files=$(leftover_files "$shm_before")
                if [ -n "$left" ] || [ -n "$files" ]; then
                    [ "$verdict" = pass ] && verdict=leftover
                    note="${note:+$note; }left behind: ${left:+processes $(echo $left)} ${files:+files $(echo $files)}"
                    remove_leftovers "$left" "$files"
                fi
            fi
            secs=$(( ($(date +%s%N) - start) / 100000000 ))
            printf '%s\t%s\t%s\t%s\t%s\t%d.%d\t%s\t%s\n' "$s" "$b" "$np" "$dev" "$verdict" $((secs / 10)) $((secs % 10)) \
                "$reported" "$(echo "$note" | tr '\t' ' ' | cut -c1-200)" | tee -a "$out/results.tsv"
        done <<< "$runlist"
    done
done

{
    echo "implementation: $impl (MPJ_HOME=$mpj, mpj.jar md5 $(md5sum < "$mpj/lib/mpj.jar" | cut -c1-32))"
    echo "$compiled"
    echo "size $size, section 1 TARGETTIME $target s, hitData: $([ -f "$work/conf/hitData" ] && echo present || echo absent)"
    awk -F'\t' 'NR > 1 { k = $4 " np " $3; n[k]++; v[k, $5]++; t[$5]++; tot++ }
        END { for (k in n) { line = sprintf("%s: %d runs", k, n[k])
                  for (x in v) { split(x, a, SUBSEP); if (a[1] == k) line = line sprintf(", %s %d", a[2], v[x]) }
                  print line | "sort" }
              close("sort")
              printf "total: %d runs", tot; for (x in t) printf ", %s %d", x, t[x]; printf "\n" }' "$out/results.tsv"
    echo
    echo "seconds: section 2 the Kernel time and section 3 the Total time the benchmark prints, section 1 the wall time"
    echo "of the run (its throughputs are in section1.tsv); a verdict other than pass follows the figure"
    awk -F'\t' 'NR > 1 { c = $4 "/" $3; if (!(c in seen)) { seen[c] = 1; cols[++nc] = c }
            r = $1 " " $2; if (!(r in rs)) { rs[r] = 1; rows[++nr] = r }
            f = $1 == 1 ? $6 : ($7 == "" ? "-" : $7); if ($5 != "pass") f = f " " $5; cell[r, c] = f }
        END { printf "%-22s", "benchmark"; for (i = 1; i <= nc; i++) printf "%18s", cols[i]; printf "\n"
              for (j = 1; j <= nr; j++) { printf "%-22s", rows[j]
                  for (i = 1; i <= nc; i++) printf "%18s", ((rows[j], cols[i]) in cell ? cell[rows[j], cols[i]] : "-")
                  printf "\n" } }' "$out/results.tsv"
} | tee "$out/summary.txt"
