#!/usr/bin/env bash
# Runs Open MPI's Java test programs (github.com/open-mpi/ompi-java-test, ported from IBM's C suite) on jmpi, or on Open
# MPI's own Java bindings for comparison, from a copy outside the tree, the way the suite's own make_<directory>
# scripts run them: every program of a directory's lists, with 2 processes, then with each further count given.
#
#   jmpi-tests/scripts/ompi-java-test.sh SRC OUT [NP...]
#
#   SRC  a checkout of the suite (git clone https://github.com/open-mpi/ompi-java-test)
#   OUT  a new or empty directory: OUT/work holds the copy and the classes, OUT/logs one log per run,
#        OUT/results.tsv one line per run (directory, program, processes, verdict, exit code, seconds) and
#        OUT/summary.txt the counts per process count.
#   NP   process counts after 2 (default: 4), for the programs of the directory's NUM_PROC list
#
# Environment: IMPL (jmpi, the default, or ompi: Open MPI's Java bindings), JMPI_HOME (default: the distribution this
# script belongs to, jmpi-dist/target/jmpi), OMPI_JAR (Open MPI's mpi.jar, default /work/peers/ompi-java/mpi.jar, built
# as docs/open-mpi-java.md says), OMPI_LIB (the folder of libmpi_java.so, default /usr/lib/x86_64-linux-gnu), JAVA_HOME
# (the JDK that compiles and runs the suite for Open MPI; its java is also what spawned programs run), TIMEOUT seconds
# per run (default 120), DIRS (default: every directory with a make_<directory> script), ONLY (an extended regular
# expression on program names), LOOPSPAWN_SECONDS (default 20: dynamic/LoopSpawn's own argument, how long it spawns;
# without one it spawns for 600 s). A run passes when it exits 0 within the timeout; it is skipped when it exits 77,
# as the suite's programs do when they cannot run here (too few processes, no thread support); "leftover" when it
# passed but left a process of its own or a /dev/shm file of its jobs behind (both are then removed; the files of
# other jobs running on the machine are left alone). Open MPI's runs carry a variable of their own in their
# environment, which mpirun, its daemons, the ranks and the processes they spawn inherit: any process still holding it
# after the run is left over, and so is a new Open MPI shared-memory file (vader_segment.*, sm_segment.*) in /dev/shm.
set -euo pipefail

[ $# -ge 2 ] || { sed -n '2,20p' "$0"; exit 2; }
src=$(cd "$1" && pwd)
out=$2
shift 2
nps=(2 "${@:-4}")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/leftovers.sh"
impl=${IMPL:-jmpi}
jmpi=${JMPI_HOME:-$here/../../jmpi-dist/target/jmpi}
jar=${OMPI_JAR:-/work/peers/ompi-java/mpi.jar}
lib=${OMPI_LIB:-/usr/lib/x86_64-linux-gnu}
jdk=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}
timeout=${TIMEOUT:-120}
case $impl in
    jmpi) [ -x "$jmpi/bin/jmpirun" ] || { echo "no jmpirun under $jmpi (build first, or set JMPI_HOME)" >&2; exit 2; } ;;
    ompi) [ -f "$jar" ] || { echo "no $jar (build Open MPI's mpi.jar, or set OMPI_JAR)" >&2; exit 2; }
          command -v mpirun.openmpi > /dev/null || { echo "no mpirun.openmpi (apt-get install openmpi-bin)" >&2; exit 2; }
          [ -x "$jdk/bin/javac" ] || { echo "no javac under $jdk (set JAVA_HOME)" >&2; exit 2; } ;;
    *) echo "IMPL is jmpi or ompi, not $impl" >&2; exit 2 ;;
esac
[ -d "$src/reporting" ] || { echo "$src is not a checkout of ompi-java-test (no reporting/)" >&2; exit 2; }
mkdir -p "$out/work" "$out/logs"
out=$(cd "$out" && pwd)
printf 'directory\tprogram\tprocesses\tverdict\texit\tseconds\n' > "$out/results.tsv"

compile() {
    if [ "$impl" = jmpi ]; then "$jmpi/bin/mpijavac" -nowarn -d . "$@"
    else "$jdk/bin/javac" -nowarn -cp "$jar" -d . "$@"; fi
}

# run NP PROGRAM [ARGS...] in the current directory. For Open MPI, "java PROGRAM" as the suite's make scripts run it,
# the JVM's options in the environment: Open MPI gives the first word after java as MPI_INFO_ENV's "command", which
# info/InfoEnv60 checks to be the class, and spawned programs (dynamic/*) are "java Class" with nothing else.
run() {
    local np=$1
    shift
    if [ "$impl" = jmpi ]; then
        timeout -k 10 "$timeout" "$jmpi/bin/jmpirun" -n "$np" -cp . "$@"
    else
        OJT_RUN=$token CLASSPATH="$jar:$PWD" PATH="$jdk/bin:$PATH" \
        JDK_JAVA_OPTIONS="--enable-native-access=ALL-UNNAMED -Djava.library.path=$lib" \
            timeout -k 10 "$timeout" mpirun.openmpi --allow-run-as-root --oversubscribe -n "$np" \
                -x CLASSPATH -x PATH -x JDK_JAVA_OPTIONS -x OJT_RUN "$jdk/bin/java" "$@"
    fi
}

# Open MPI's leftovers: processes whose environment holds this run's token (after up to 3 s for those already
# exiting), new shared-memory files
ompi_processes() {
    local left
    for _ in 1 2 3 4; do
        left=$(grep -lsxzF "OJT_RUN=$token" /proc/[0-9]*/environ | sed 's|/proc/\([0-9]*\)/environ|\1|' || true)
        [ -z "$left" ] && break
        sleep 1
    done
    echo $left
}
ompi_shm() {
    ls /dev/shm 2>/dev/null | grep -E '^(vader_segment|sm_segment)\.' || true
}

# program arguments: dynamic/LoopSpawn spawns for its argument's number of seconds (600 without one)
program_args() {
    case $1 in LoopSpawn) echo "${LOOPSPAWN_SECONDS:-20}" ;; esac
}

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
    (cd "$w" && compile ./*.java > "$out/logs/$d.javac.txt" 2>&1) \
        || (cd "$w" && for f in ./*.java; do compile "$f" >> "$out/logs/$d.javac.txt" 2>&1 || true; done)
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
            ompi_before=$(ompi_shm)
            token=$$.$d.$p.$np.$start
            if [ ! -f "$w/$p.class" ]; then
                verdict=no-class rc=-
            else
                set +e
                (cd "$w" && run "$np" "$p" $(program_args "$p") > "$log" 2>&1)
                rc=$?
                set -e
                case $rc in 0) verdict=pass ;; 77) verdict=skip ;; 124|137) verdict=timeout ;; *) verdict=fail ;; esac
                if [ "$impl" = jmpi ]; then
                    left=$(leftover_processes "$p")
                    files=$(leftover_files "$shm_before")
                else
                    left=$(ompi_processes)
                    files=$(ompi_shm | grep -vxF -e "$ompi_before" -e '' | sed 's|^|/dev/shm/|' || true)
                fi
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
