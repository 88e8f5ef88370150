#!/bin/bash
# hosts-startup.sh: the whole time of a job that does nothing (MPI_Init, a barrier, MPI_Finalize), as the shell that
# starts the launcher sees it, across two network-namespace hosts (jmpi-launcher's netns-hosts.sh, as tcp-hosts.sh
# uses them) with one and with two ranks on each, and on this host alone with two and four ranks; jmpi beside Open
# MPI's Java bindings (same JDK; over their TCP transport between the hosts). Every run goes through
# ../shared/baseline/gate.py and reap.py (Open MPI's daemons on the other hosts may outlive mpirun: their CPU is the
# run's); the time is the launcher command's own, from fork to exit. Interleaved rounds, medians. The namespaces are
# taken down whatever happens. Needs root, iproute2, openssh-server, javac.
#
# Usage: jmpi-benchmarks/scripts/hosts-startup.sh OUTDIR [ROUNDS=5]
# Environment: JMPI_HOME (default jmpi-dist/target/jmpi), BASE_JMPI_HOME (another jmpi build, e.g. of an earlier
# commit, run beside it), PEERS (default /work/peers: ompi-java/mpi.jar), OMPI_LIB, BASELINE (gate.py), MAXWAIT.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=${1:?usage: hosts-startup.sh OUTDIR [ROUNDS]}
ROUNDS=${2:-5}
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JMPI_HOME=${JMPI_HOME:-$ROOT/jmpi-dist/target/jmpi}
PEERS=${PEERS:-/work/peers}
OMPI_JAR=$PEERS/ompi-java/mpi.jar
OMPI_LIB=${OMPI_LIB:-/usr/lib/x86_64-linux-gnu}
BASELINE=${BASELINE:-/work/shared/baseline}
export MAXWAIT=${MAXWAIT:-60}
mkdir -p "$OUT"
KEYS=$(mktemp -d /tmp/jmpi-hosts-startup.XXXXXX)
trap 'bash "$ROOT/jmpi-launcher/src/test/scripts/netns-hosts.sh" down "$KEYS" > /dev/null 2>&1 || true; rm -rf "$KEYS"' EXIT
export NETNS_HOSTS=2
bash "$ROOT/jmpi-launcher/src/test/scripts/netns-hosts.sh" up "$KEYS" > /dev/null
SSH=$KEYS/nsexec

# the program, for both Java MPIs (the same source compiles against either API)
mkdir -p "$KEYS/src" "$KEYS/jmpi" "$KEYS/ompi"
cat > "$KEYS/src/StartupHello.java" <<'EOF'
public final class StartupHello {
    public static void main(String[] args) throws Exception {
        mpi.MPI.Init(args);
        mpi.MPI.COMM_WORLD.barrier();
        mpi.MPI.Finalize();
    }
}
EOF
"$JAVA_HOME/bin/javac" -cp "$JMPI_HOME/lib/jmpi-core.jar" -d "$KEYS/jmpi" "$KEYS/src/StartupHello.java"
impls=(jmpi)
[ -z "${BASE_JMPI_HOME:-}" ] || impls+=(jmpi-base)
if [ -r "$OMPI_JAR" ] && command -v mpirun.openmpi > /dev/null; then
    "$JAVA_HOME/bin/javac" -cp "$OMPI_JAR" -d "$KEYS/ompi" "$KEYS/src/StartupHello.java"
    impls+=(ompi-java)
fi

timed() { # the command's own wall time, in ms, as the last line of the run's file
    local s e rc=0
    s=$(date +%s%N)
    "$@" || rc=$?
    e=$(date +%s%N)
    echo "RET_MS $(((e - s) / 1000000))"
    return $rc
}
export -f timed

run() { # run CASE IMPL ROUND NP [HOSTS]
    local f="$OUT/$2-$1-r$3.txt" np=$4 hosts=${5:-} home=$JMPI_HOME
    rm -f "$f"
    [ "$2" = jmpi-base ] && home=$BASE_JMPI_HOME
    local where=() yield=$((np > $(nproc) ? 1 : 0))
    case $2 in
        jmpi | jmpi-base)
            [ -z "$hosts" ] || where=(-H "$hosts" --launcher-exec "$SSH")
            cmd=("$home/bin/jmpirun" -n "$np" ${where[@]+"${where[@]}"} -cp "$KEYS/jmpi" StartupHello) ;;
        ompi-java)
            if [ -n "$hosts" ]; then
                where=(--host "$hosts" --mca plm_rsh_agent "$SSH" --mca rtc ^hwloc --mca btl tcp,vader,self
                    --mca btl_tcp_if_include 10.78.0.0/24 --mca oob_tcp_if_include 10.78.0.0/24)
            else
                where=(--oversubscribe)
            fi
            cmd=(mpirun.openmpi --allow-run-as-root --bind-to none -n "$np" "${where[@]}" --mca pml ob1
                --mca mpi_yield_when_idle "$yield" "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED
                -Djava.library.path="$OMPI_LIB" -cp "$OMPI_JAR:$KEYS/ompi" StartupHello) ;;
    esac
    python3 "$BASELINE/gate.py" "$f" -- python3 "$HERE/reap.py" bash -c 'timed "$@"' timed "${cmd[@]}" < /dev/null \
        > /dev/null || true
}

for r in $(seq "$ROUNDS"); do
    for impl in "${impls[@]}"; do run hosts2x1 "$impl" "$r" 2 10.78.0.1:1,10.78.0.2:1; done
    for impl in "${impls[@]}"; do run hosts2x2 "$impl" "$r" 4 10.78.0.1:2,10.78.0.2:2; done
    for impl in "${impls[@]}"; do run local2 "$impl" "$r" 2; done
    for impl in "${impls[@]}"; do run local4 "$impl" "$r" 4; done
done

python3 - "$OUT" "${impls[@]}" <<'PY'
import collections, glob, os, re, statistics, sys
out, impls = sys.argv[1], sys.argv[2:]
d = collections.defaultdict(list); left = []
for f in sorted(glob.glob(out + '/*.txt')):
    impl, case, _ = os.path.basename(f)[:-4].rsplit('-', 2)
    t = open(f).read()
    g = re.search(r'# gate: .*rc=(\d+)( CONTAMINATED)?', t); ms = re.search(r'RET_MS (\d+)', t)
    if not g or g.group(1) != '0' or g.group(2) or not ms:
        left.append(os.path.basename(f)); continue
    d[(case, impl)].append(int(ms.group(1)) / 1000)
print('| job | ' + ' | '.join(impls) + ' |')
print('|---|' + '---:|' * len(impls))
for case in ['hosts2x1', 'hosts2x2', 'local2', 'local4']:
    cells = []
    for i in impls:
        v = d.get((case, i))
        cells.append(f'{statistics.median(v):.3f} s ({min(v):.2f}-{max(v):.2f})' if v else '-')
    print(f'| {case} | ' + ' | '.join(cells) + ' |')
print('left out (failed or disturbed):', ' '.join(left) or 'none')
PY
