#!/usr/bin/env bash
# Runs MPJ Express's own test programs (github.com/mpjexpress-project/mpjexpress, test/mpi) on an implementation of the
# mpiJava 1.2 API as MPJ Express 0.44 has it (jmpi's MPJ facade, or MPJ Express itself), from a copy outside the tree.
#
#   jmpi-tests/scripts/mpj-express-suite.sh SRC OUT
#
#   SRC  a checkout of MPJ Express (at least its test/ directory)
#   OUT  a new or empty directory: OUT/work holds the copy of test/mpi and OUT/work/classes, OUT/logs the javac output
#        and one log per run, OUT/compile.tsv one line per source file (ok, fail, or internal: a file that uses MPJ
#        Express internals failed), OUT/results.tsv one line per run (directory, program, processes, verdict, exit
#        code, seconds, note) and OUT/summary.txt the counts.
#
# Compile gate: every test/mpi directory is compiled with javac -cp $MPJ_HOME/lib/mpj.jar, all files together, and
# file by file when that fails. Run gate: the 126 programs of test/nativetest/runtest.sh at its process counts, each as
#   $MPJ_HOME/bin/mpjrun.sh -np N -dev $DEV -cp OUT/work/classes mpi.<directory>.<program>
# from OUT/work, stdin /dev/null, under timeout. The exit code of MPJ Express's launcher means nothing and the
# programs swallow their exceptions, so a run passes when it exits 0 within the timeout, prints a completion line
# ("... TEST COMPLETE(D)", "... TEST Completed", "<<<<PASSED>>>>", "... test passed") and no error line (ERROR, Error,
# FAIL/failed, bad answer, Wrong value, should be, Expected (, Found N errors, a stack trace; the timing remark
# "ERROR (Not important)" of pt2pt/ssend is ignored). The eight programs without a completion line (pt2pt/BufferTest3,
# dtyp/{Contiguous,Indexed,Vector,DtypTest}, dtyp_ObjSer/hvecO, topo/{cart_topo,sub2}) pass when they print the
# values they should (so must dtyp/hvec, whose completion line comes whatever it received). ccl/allgatherv overruns its own answer array at runtest.sh's np 4 (verdict xfail there; it is
# run at np 3 as well). A run is skipped when it prints "must run with"/"must have"/"runs with" (a wrong process count);
# env/abort passes when the job ends non-zero within the timeout. Verdicts: pass, fail, skip, timeout, leftover (passed
# but left a process of its own or a /dev/shm file of a jmpi job behind; both are then removed), internal (no class,
# and the source uses MPJ Express internals), no-class, xfail/xpass (a known bug of the test failed/passed).
#
# Environment: MPJ_HOME (default: the distribution this script belongs to, jmpi-dist/target/jmpi/mpj), DEV (default
# multicore), TIMEOUT seconds per run (default 120), DIRS (test/mpi directories to compile and run, default all),
# ONLY (an extended regular expression on program names), EXTRA ("dir/program:np ..." runs to add, e.g.
# "topo/cart:6 pt2pt_ObjSer/isendO:2 pt2pt/cancel1:2"; programs whose main is empty run through a generated driver
# class that calls their (String[]) constructor), JAVAC (default $JAVA_HOME/bin/javac, else javac).
set -euo pipefail

[ $# -eq 2 ] || { sed -n '2,/^set /{/^set /!p}' "$0"; exit 2; }
src=$(cd "$1" && pwd)
out=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/leftovers.sh"
mpj=${MPJ_HOME:-$here/../../jmpi-dist/target/jmpi/mpj}
dev=${DEV:-multicore}
timeout=${TIMEOUT:-120}
javac=${JAVAC:-${JAVA_HOME:+$JAVA_HOME/bin/}javac}
[ -f "$mpj/lib/mpj.jar" ] && [ -x "$mpj/bin/mpjrun.sh" ] \
    || { echo "no lib/mpj.jar and bin/mpjrun.sh under $mpj (build first, or set MPJ_HOME)" >&2; exit 2; }
mpj=$(cd "$mpj" && pwd)
export MPJ_HOME=$mpj
[ -f "$src/test/nativetest/runtest.sh" ] && [ -d "$src/test/mpi" ] \
    || { echo "$src is not a checkout of MPJ Express (no test/nativetest/runtest.sh)" >&2; exit 2; }
mkdir -p "$out/work" "$out/logs"
out=$(cd "$out" && pwd)
work=$out/work
classes=$work/classes
# files that use MPJ Express internals (mpjbuf.RawBuffer, section headers, mpi.Packer); not portable by design
internal=" pt2pt/BufferTest3.java pt2pt/BufferBench1.java pt2pt/BufferBench2.java mpi/ContiguousTest.java "

# ---- compile gate ---------------------------------------------------------------------------------------------------
alldirs=$(cd "$src/test/mpi" && find . -mindepth 1 -maxdepth 1 -type d | sed 's|^\./||' | sort)
dirs=${DIRS:-$alldirs}
rm -rf "$work/mpi" "$classes"
mkdir -p "$classes"
for d in $dirs; do
    [ -d "$src/test/mpi/$d" ] || { echo "no directory test/mpi/$d" >&2; exit 2; }
    (cd "$src/test" && find "mpi/$d" -name '*.java' -type f | tar -cf - -T -) | tar -xf - -C "$work"
done
printf 'file\tresult\n' > "$out/compile.tsv"
cp=$mpj/lib/mpj.jar:$classes
# a package directory at a time (ccl_ObjSer/reduceO and its siblings are packages of their own), parents first; the
# files of a directory together, file by file when that fails; the files that use internals always one by one
one() { # $1 file, $2 log; appends its line to compile.tsv
    local r=fail
    echo "=== $1" >> "$2"
    if (cd "$work" && "$javac" -nowarn -encoding ISO-8859-1 -cp "$cp" -sourcepath . -d "$classes" "$1") >> "$2" 2>&1
    then r=ok
    elif [[ $internal == *" ${1#mpi/} "* ]]; then r=internal; fi
    printf '%s\t%s\n' "${1#mpi/}" "$r" >> "$out/compile.tsv"
}
for pd in $(cd "$work" && find mpi -name '*.java' -printf '%h\n' | sort -u); do
    log=$out/logs/javac.$(echo "${pd#mpi/}" | tr / .).txt
    : > "$log"
    group="" singles=""
    for f in $(cd "$work" && ls "$pd"/*.java); do
        if [[ $internal == *" ${f#mpi/} "* ]]; then singles+=" $f"; else group+=" $f"; fi
    done
    if [ -n "$group" ]; then
        if (cd "$work" && "$javac" -nowarn -encoding ISO-8859-1 -cp "$cp" -sourcepath . -d "$classes" $group) \
            >> "$log" 2>&1; then
            for f in $group; do printf '%s\tok\n' "${f#mpi/}"; done >> "$out/compile.tsv"
        else
            for f in $group; do one "$f" "$log"; done
        fi
    fi
    for f in $singles; do one "$f" "$log"; done
done
compiled=$(awk -F'\t' 'NR > 1 { n++; c[$2]++ } END { printf "compiled %d of %d (%d failed, %d internal)",
    c["ok"], n, c["fail"], c["internal"] }' "$out/compile.tsv")
echo "$compiled"

# ---- run list: the programs and process counts of test/nativetest/runtest.sh ----------------------------------------
# its arrays of test names, the loops "for testcase in ${ARRAY[@]}" around "mpjrun.sh -np N ... mpi.<dir>.$testcase",
# and single mpjrun.sh lines; commented lines, the *_BUGS arrays (never looped over) and mpjdev.* device tests left out
runlist=$(awk '
    function emit(cls, np,   d, p) {
        if (cls !~ /^mpi\./) return
        sub(/^mpi\./, "", cls); d = cls; sub(/\..*/, "", d); p = substr(cls, length(d) + 2)
        if (!((d, p, np) in seen)) { seen[d, p, np] = 1; print d, p, np }
    }
    /^[ \t]*#/ { next }
    /^[ \t]*declare -a/ {
        name = $0; sub(/^[ \t]*declare -a[ \t]*/, "", name); sub(/=.*/, "", name)
        body = $0; sub(/^[^(]*\(/, "", body); sub(/\).*/, "", body); gsub(/\047/, "", body)
        arr[name] = body; next
    }
    /^[ \t]*for [A-Za-z_]+ in \$\{[A-Za-z0-9_]+\[@\]\}/ { v = $0; sub(/.*\$\{/, "", v); sub(/\[.*/, "", v); loop = v; next }
    /^[ \t]*done/ { loop = ""; next }
    /mpjrun\.sh/ {
        np = $0; sub(/.*-np[ \t]+/, "", np); sub(/[ \t].*/, "", np); cls = $NF
        if (loop != "" && cls ~ /\$testcase$/) {
            sub(/\$testcase$/, "", cls); n = split(arr[loop], a, /[ \t]+/)
            for (i = 1; i <= n; i++) if (a[i] != "") emit(cls a[i], np)
        } else if (cls !~ /\$/) emit(cls, np)
    }' "$src/test/nativetest/runtest.sh")
# ccl/allgatherv checks 45 answers (3 ranks) but loops over 15 * size of them: at runtest.sh's np 4 it throws
# ArrayIndexOutOfBoundsException after the Allgatherv on every rank, whatever the MPI, and swallows it ("xfail");
# it is run at np 3 as well, where it is a real test
runlist+=$'\n'"ccl allgatherv 3"
xfail=" ccl/allgatherv:4 "
for e in ${EXTRA:-}; do runlist+=$'\n'"$(echo "$e" | sed 's|/| |; s|:| |')"; done
echo "$runlist" | awk 'NF == 3' | wc -l | xargs printf '%s runs listed\n'

# programs whose main is empty run through a generated class mpjsuite.Run_<dir>_<program> that calls the (String[])
# constructor by reflection (none of runtest.sh's programs needs it)
driver() { # $1 dir, $2 program; prints the class to run
    local cls=mpi.$1.$2 f=$work/mpi/$1/${2//.//}.java n=Run_$1_${2//./_}
    if [ -f "$f" ] && tr -s ' \t\r\n' ' ' < "$f" | grep -qE 'void main *\( *String *(\[\] *[A-Za-z_]+|[A-Za-z_]+ *\[\]) *\)[^{]*\{ *\}'; then
        mkdir -p "$work/driver/mpjsuite"
        [ -f "$work/driver/mpjsuite/CtorMain.java" ] || cat > "$work/driver/mpjsuite/CtorMain.java" <<'EOF'
package mpjsuite;

/** Runs a test program whose work is done by its (String[]) constructor, the way its missing main would. */
public class CtorMain {
    public static void run(String className, String[] args) throws Throwable {
        Class<?> c = Class.forName(className, true, Thread.currentThread().getContextClassLoader() != null
                ? Thread.currentThread().getContextClassLoader() : CtorMain.class.getClassLoader());
        try {
            c.getConstructor(String[].class).newInstance((Object) args);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
EOF
        printf 'package mpjsuite;\npublic class %s {\n    public static void main(String[] args) throws Throwable {\n        CtorMain.run("%s", args);\n    }\n}\n' \
            "$n" "$cls" > "$work/driver/mpjsuite/$n.java"
        (cd "$work/driver" && "$javac" -nowarn -cp "$cp" -d "$classes" mpjsuite/CtorMain.java "mpjsuite/$n.java") \
            >> "$out/logs/javac.driver.txt" 2>&1 && echo "mpjsuite.$n" && return
    fi
    echo "$cls"
}

# the values the programs without a completion line must print, in order (sub2: any order), and how to pick them out
expected() { # $1 dir/program
    case $1 in
        dtyp/Contiguous) awk 'BEGIN { for (j = 0; j < 12; j++) printf "rparams[%d]=%.1f\n", j, j * j }' ;;
        dtyp/Vector) awk 'BEGIN { for (j = 0; j < 10; j++) printf "rdata[%d]=%.1f\n", j, 256 * j * j }' ;;
        dtyp/Indexed) awk 'BEGIN { for (i = 0; i < 8; i++) for (k = 0; k < 8; k++)
            printf "data[%d]=%.1f\n", i * 8 + k, (k >= i ? i * 8 + k + 1 : 0) }' ;;
        dtyp/DtypTest) for t in Byte Boolean char short 'int ' float long double; do
                printf '%s***** ext 1\n%s***** lb 0\n%s***** ub 1\n' "$t" "$t" "$t"; done
            for t in 'Upper Bound (UB)' 'Lower Bound (LB)'; do
                printf '%s***** ext 0\n%s***** lb 0\n%s***** ub 0\n' "$t" "$t" "$t"; done ;;
        dtyp/hvec|dtyp_ObjSer/hvecO) awk 'BEGIN { # Vector(2, 3, 4), then Hvector(3, 1, 7 + offset elements) of it
            for (i = 0; i < 32; i++) printf "%d ", !(i == 0 || i == 1 || i == 2 || i == 4 || i == 5 || i == 6); print ""
            for (off = -1; off <= 2; off++) {
                delete sent; for (b = 0; b < 3; b++) for (i = 0; i < 7; i++) if (i != 3) sent[b * (7 + off) + i] = 1
                for (i = 0; i < 32; i++) printf "%d ", !(i in sent); print "" } }' ;;
        topo/cart_topo) for i in 0 1; do for j in 0 1; do for k in 0 1; do
            echo "rank =<$((i * 4 + j * 2 + k))>,i=<$i>=j<$j>,k=<$k"; done; done; done ;;
        topo/sub2) for r in 0 1 2 3 4 5; do echo "rank <$r>,nrank<$((r % 3))>,size<8>,nsize <3"; done
            echo "rank <6,size<8>"; echo "rank <7,size<8>" ;;
        pt2pt/BufferTest3) ;; # no MPI calls at all; prints only on failure
        *) return 1 ;;
    esac
}
observed() { # $1 dir/program, $2 log
    case $1 in
        dtyp/Contiguous) grep -oE 'rparams\[[0-9]+\]=[^[:space:]]+' "$2" ;;
        dtyp/Vector) grep -oE 'rdata\[[0-9]+\]=[^[:space:]]+' "$2" ;;
        dtyp/Indexed) grep -oE 'data\[[0-9]+\]=[^[:space:]]+' "$2" | grep -v '^r' ;;
        dtyp/DtypTest) awk '/\*\*\*\*\*/ { h = $0; sub(/^ /, "", h); sub(/\*\*\*\*\* *$/, "*****", h); next }
            h != "" && /^ (ext|lb|ub) / { $1 = $1; print h " " $0 }' "$2" ;;
        dtyp/hvec|dtyp_ObjSer/hvecO) grep -E '^([01] ){32}$' "$2" ;;
        topo/cart_topo) grep -E '^rank =<' "$2" ;;
        topo/sub2) grep -E '^rank <' "$2" | sort ;;
        *) true ;;
    esac
}
completion='TESTS? COMPLETED?|<<<<PASSED>>>>|test passed'
errors='ERROR|Error|FAIL|[Ff]ailed|bad answer|Wrong value|[Ss]hould be|Expected \(|Found [0-9]+ errors|Exception in thread|Caused by:|^[[:space:]]+at [[:alnum:]_$.]+\(|[[:alnum:]_$]+\.[[:alnum:]_$.]*(Exception|Error)\b'
skips='must run|must have|runs with|requires [0-9]+ tasks'

# ---- run gate -------------------------------------------------------------------------------------------------------
printf 'directory\tprogram\tprocesses\tverdict\texit\tseconds\tnote\n' > "$out/results.tsv"
while read -r d p np; do
    [ -n "$np" ] || continue
    [[ " $(echo $dirs) " == *" $d "* ]] || continue
    [ -z "${ONLY:-}" ] || [[ $p =~ $ONLY ]] || continue
    log=$out/logs/$d.$p.$np.txt
    start=$(date +%s%N)
    note=""
    rc=-
    if [ ! -f "$classes/mpi/$d/${p//.//}.class" ]; then
        if [[ $internal == *" $d/${p//.//}.java "* ]]; then verdict=internal; else verdict=no-class; fi
    else
        cls=$(driver "$d" "$p")
        shm_before=$(shm_snapshot)
        set +e
        (cd "$work" && timeout -k 10 "$timeout" "$mpj/bin/mpjrun.sh" -np "$np" -dev "$dev" -cp "$classes" "$cls" \
            < /dev/null > "$log" 2>&1)
        rc=$?
        set -e
        errline=$(grep -v 'ERROR (Not important)' "$log" | grep -m1 -E -- "$errors" || true)
        if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
            verdict=timeout
        elif [ "$d/$p" = env/abort ]; then
            if [ "$rc" != 0 ]; then verdict=pass; else verdict=fail note="Abort did not end the job"; fi
        elif grep -qiE -- "$skips" "$log"; then
            verdict=skip note=$(grep -m1 -iE -- "$skips" "$log")
        elif [ -n "$errline" ]; then
            verdict=fail note=$errline
        elif [ "$rc" != 0 ]; then
            verdict=fail note="exit code $rc"
        elif want=$(expected "$d/$p"); then
            got=$(observed "$d/$p" "$log")
            [ "$d/$p" != topo/sub2 ] || want=$(echo "$want" | sort)
            if [ "$got" = "$want" ]; then verdict=pass
            else verdict=fail note="values differ from the expected ones ($(echo "$got" | grep -c .) of $(echo "$want" | grep -c .) lines)"; fi
        elif grep -qiE -- "$completion" "$log"; then
            verdict=pass
        else
            verdict=fail note="no completion line"
        fi
        left=$(leftover_processes "$cls")
        files=$(leftover_files "$shm_before")
        if [ -n "$left" ] || [ -n "$files" ]; then
            [ "$verdict" = pass ] && verdict=leftover
            note="${note:+$note; }left behind: ${left:+processes $(echo $left)} ${files:+files $(echo $files)}"
            remove_leftovers "$left" "$files"
        fi
    fi
    if [[ $xfail == *" $d/$p:$np "* ]]; then
        case $verdict in fail) verdict=xfail note="known bug of the test at this np; ${note}" ;; pass) verdict=xpass ;; esac
    fi
    secs=$(( ($(date +%s%N) - start) / 100000000 ))
    printf '%s\t%s\t%s\t%s\t%s\t%d.%d\t%s\n' "$d" "$p" "$np" "$verdict" "$rc" $((secs / 10)) $((secs % 10)) \
        "$(echo "$note" | tr '\t' ' ' | cut -c1-160)" | tee -a "$out/results.tsv"
done <<< "$runlist"

{
    echo "$compiled"
    awk -F'\t' 'NR > 1 { d[$1]++; n++; v[$1, $4]++; t[$4]++
            if (!(($1, $3) in s)) { s[$1, $3] = 1; np[$1] = np[$1] (np[$1] == "" ? "" : ",") $3 } }
        END { for (x in d) { line = sprintf("%s (np %s): %d programs", x, np[x], d[x])
                  for (k in v) { split(k, a, SUBSEP); if (a[1] == x) line = line sprintf(", %s %d", a[2], v[k]) }
                  print line | "sort" }
              close("sort")
              printf "total: %d runs", n; for (k in t) printf ", %s %d", k, t[k]; printf "\n" }' "$out/results.tsv"
} | tee "$out/summary.txt"
