#!/usr/bin/env bash
# Runs Open MPI's Java test programs (github.com/open-mpi/ompi-java-test, ported from IBM's C suite) on jmpi, from a
# copy outside the tree, the way the suite's own make_<directory> scripts run them: every program of a directory's
# lists, with 2 processes, then with each further count given.
#
#   jmpi-tests/scripts/ompi-java-test.sh SRC OUT [NP...]
#
#   SRC  a checkout of the suite (git clone https://github.com/open-mpi/ompi-java-test)
#   OUT  a new or empty directory: OUT/work holds the copy and the classes, OUT/logs one log per run,
#        OUT/results.tsv one line per run (directory, program, processes, verdict, exit code, seconds) and
#        OUT/summary.txt the counts per process count.
#   NP   process counts after 2 (default: 4), for the programs of the directory's NUM_PROC list
#
# Environment: JMPI_HOME (default: the distribution this script belongs to, jmpi-dist/target/jmpi), TIMEOUT seconds
# per run (default 120), DIRS (default: every directory with a make_<directory> script), ONLY (an extended regular
# expression on program names). A run passes when it exits 0 within the timeout; it is skipped when it exits 77, as the
# suite's programs do when they cannot run here (too few processes, no thread support); "leftover" when it passed but
# left a process of its own or a /dev/shm file of its jobs behind (both are then removed; the files of other jmpi jobs
# running on the machine are left alone).
set -euo pipefail

[ $# -ge 2 ] || { sed -n '2,20p' "$0"; exit 2; }
src=$(cd "$1" && pwd)
out=$2
shift 2
nps=(2 "${@:-4}")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/leftovers.sh"
jmpi=${JMPI_HOME:-$here/../../jmpi-dist/target/jmpi}
timeout=${TIMEOUT:-120}
[ -x "$jmpi/bin/jmpirun" ] || { echo "no jmpirun under $jmpi (build first, or set JMPI_HOME)" >&2; exit 2; }
[ -d "$src/reporting" ] || { echo "$src is not a checkout of ompi-java-test (no reporting/)" >&2; exit 2; }
mkdir -p "$out/work" "$out/logs"
out=$(cd "$out" && pwd)
printf 'directory\tprogram\tprocesses\tverdict\texit\tseconds\n' > "$out/results.tsv"

# a directory's programs: the lists of its make_<d> script (TWO_PROC for 2 processes, NUM_PROC for more), else the
# EXAMPLES of its Makefile for every count; directories with neither (performance, request, status) hold no tests
dirs=${DIRS:-$(cd "$src" && for d in */; do d=${d%/}; { [ -f "$d/make_$d" ] || grep -qs '^EXAMPLES' "$d/Makefile"; } \
    && echo "$d"; done)}
for d in $dirs; do
    w=$out/work/$d
    rm -rf "$w"
    mkdir -p "$w"
    # the directory's sources (todo/ holds unfinished ports); the reporting helpers are links into ../reporting
    find "$src/$d" -maxdepth 1 -name '*.java' -xtype f -exec cp -L {} "$w/" \; # not the link to the generated config
    cp "$src"/reporting/*.java "$w/" 2>/dev/null || true
    # reporting/OmpitestConfig.java is made by the suite's configure; its values for an MPI without ompi_info
    # (API parameters checked, no threads, no dist graph, no affinity extension)
    [ -f "$w/OmpitestConfig.java" ] || [ ! -f "$src/reporting/OmpitestConfig.java.in" ] \
        || sed -e 's/@OMPITEST_CHECKING_MPI_API_PARAMS@/1/' -e 's/@OMPI_PARAM_CHECK@/1/' -e 's/@[A-Z_]*@/0/' \
            "$src/reporting/OmpitestConfig.java.in" > "$w/OmpitestConfig.java"
    (cd "$w" && "$jmpi/bin/mpijavac" -nowarn -d . ./*.java > "$out/logs/$d.javac.txt" 2>&1) \
        || (cd "$w" && for f in ./*.java; do "$jmpi/bin/mpijavac" -nowarn -d . "$f" >> "$out/logs/$d.javac.txt" 2>&1 || true; done)
    TWO_PROC="" NUM_PROC=""
    if [ -f "$src/$d/make_$d" ]; then
        eval "$(awk '/^(TWO|NUM)_PROC=/ { p = 1 } p { print; if ($0 !~ /\\$/) p = 0 }' "$src/$d/make_$d")"
    else
        TWO_PROC=$(awk '/^EXAMPLES/ { p = 1; next }
            p { c = $0 ~ /\\$/; if ($0 ~ /\.class/) { sub(/\.class.*/, ""); print $1 } if (!c) p = 0 }' "$src/$d/Makefile")
        NUM_PROC=$TWO_PROC
    fi
    for np in "${nps[@]}"; do
        list=$NUM_PROC
        [ "$np" = 2 ] && list=$TWO_PROC
        for p in $list; do
            p=${p%.java} # make_collective_intercomm lists the sources
            [ -z "${ONLY:-}" ] || [[ $p =~ $ONLY ]] || continue
            log=$out/logs/$d.$p.$np.txt
            start=$(date +%s%N)
            shm_before=$(shm_snapshot)
            if [ ! -f "$w/$p.class" ]; then
                verdict=no-class rc=-
            else
                set +e
                (cd "$w" && timeout -k 10 "$timeout" "$jmpi/bin/jmpirun" -n "$np" -cp . "$p" > "$log" 2>&1)
                rc=$?
                set -e
                case $rc in 0) verdict=pass ;; 77) verdict=skip ;; 124|137) verdict=timeout ;; *) verdict=fail ;; esac
                left=$(leftover_processes "$p")
                files=$(leftover_files "$shm_before")
                if [ -n "$left" ] || [ -n "$files" ]; then
                    [ "$verdict" = pass ] && verdict=leftover
                    remove_leftovers "$left" "$files"
                fi
            fi
            secs=$(( ($(date +%s%N) - start) / 100000000 ))
            printf '%s\t%s\t%s\t%s\t%s\t%d.%d\n' "$d" "$p" "$np" "$verdict" "$rc" $((secs / 10)) $((secs % 10)) \
                | tee -a "$out/results.tsv"
        done
    done
done

awk -F'\t' 'NR > 1 { n[$3]++; v[$3 " " $4]++ }
    END { for (np in n) { printf "%s processes: %d programs", np, n[np];
            for (k in v) { split(k, a, " "); if (a[1] == np) printf ", %s %d", a[2], v[k] }
            printf "\n" } }' "$out/results.tsv" | sort -n | tee "$out/summary.txt"
