#!/usr/bin/env bash
# mpjrun.sh: MPJ Express's launcher, on jmpi. Programs written for MPJ Express (the mpiJava 1.2 API) run unchanged:
#
#   export MPJ_HOME=<jmpi>/mpj            # this directory's parent: lib/mpj.jar to compile against
#   javac -cp $MPJ_HOME/lib/mpj.jar Hello.java
#   $MPJ_HOME/bin/mpjrun.sh -np 4 Hello [args...]
#
#   -np N                  ranks (default 1)
#   -dev multicore         ranks as threads of one JVM (the default, as in MPJ Express)
#   -dev niodev|hybdev|native|mxdev
#                          ranks as JVM processes: shared memory on a host, TCP between hosts
#   -machinesfile F        hosts, one per line (processes only; ssh as jmpirun -f F does)
#   -wdir D                the ranks' working directory
#   -cp|-classpath CP      the program's class path (default: $CLASSPATH, else .)
#   -jar J                 run J's Main-Class, with J on the class path
#   other -options         JVM options for every rank (-Xmx2g, -Dkey=value, ...)
#
# The ranks get MPJ Express's three leading arguments (rank, configuration, device) before the program's own, and
# MPI.Init(args) returns the program's own. The exit status is non-zero when a rank fails (unlike MPJ Express's
# multicore device). MPJ Express's daemon options (-dport, -sport, -src, -psl, -debug ...) are accepted and have no
# effect: jmpi needs no daemons (mpjboot and mpjhalt do nothing). Everything else is jmpirun's: `jmpirun --help`.
set -eu

self="$(readlink -f -- "${BASH_SOURCE[0]}")"
home="$(cd -- "$(dirname -- "$self")/.." && pwd)"
jmpirun="$home/../bin/jmpirun"

usage() { sed -n '2,24p' "$self" | sed 's/^# \{0,1\}//'; }

np=1
dev=multicore
cp=""
jar=""
wdir=""
machines=""
jvm=()
while [ $# -gt 0 ]; do
  case "$1" in
    -np|-n) np=$2; shift 2 ;;
    -dev) dev=$2; shift 2 ;;
    -machinesfile) machines=$2; shift 2 ;;
    -wdir) wdir=$2; shift 2 ;;
    -cp|-classpath) cp=$2; shift 2 ;;
    -jar) jar=$2; shift 2; break ;;
    -dport|-sport|-src|-psl|-mpjport|-np_ext) shift 2 ;;
    -debug|-profile|-headnodeip*) shift ;;
    -h|-help|--help) usage; exit 0 ;;
    --) shift; break ;;
    -*) jvm+=("$1"); shift ;;
    *) break ;;
  esac
done

main=""
if [ -n "$jar" ]; then
  # the jar's Main-Class, read with the JDK's jar tool
  jartool=""
  for j in "${JAVA_HOME:-}/bin/jar" "$(command -v jar 2>/dev/null || true)"; do
    [ -n "$j" ] && [ -x "$j" ] && { jartool=$j; break; }
  done
  tmp="$(mktemp -d)"
  # removed before the exec below, which would skip an EXIT trap
  trap 'rm -rf "$tmp"' EXIT
  if [ -z "$jartool" ] || ! (cd "$tmp" && "$jartool" xf "$(readlink -f -- "$jar")" META-INF/MANIFEST.MF 2>/dev/null); then
    echo "mpjrun.sh: cannot read the manifest of $jar (needs the JDK's jar tool: set JAVA_HOME)" >&2
    exit 2
  fi
  main="$(tr -d '\r' < "$tmp/META-INF/MANIFEST.MF" | sed -n 's/^Main-Class: *//p' | head -1)"
  rm -rf "$tmp"
  trap - EXIT
  [ -n "$main" ] || { echo "mpjrun.sh: $jar names no Main-Class" >&2; exit 2; }
  cp="$jar${cp:+:$cp}"
else
  [ $# -gt 0 ] || { usage >&2; exit 2; }
  main=$1
  shift
fi

opts=(--api mpj -n "$np")
[ -n "$cp" ] && opts+=(-cp "$cp")
[ -n "$wdir" ] && opts+=(--wdir "$wdir")
case "$dev" in
  multicore|smpdev)
    opts+=(--threads)
    # the ranks share the launcher's JVM: its options are theirs
    if [ ${#jvm[@]} -gt 0 ]; then
      export JMPI_LAUNCHER_JVM_ARGS="${JMPI_LAUNCHER_JVM_ARGS:-} ${jvm[*]}"
    fi ;;
  niodev|hybdev|native|mxdev)
    [ -n "$machines" ] && opts+=(-f "$machines")
    for a in "${jvm[@]}"; do opts+=(--jvm-arg "$a"); done ;;
  *)
    echo "mpjrun.sh: unknown device '$dev' (multicore, niodev, hybdev, native or mxdev)" >&2
    exit 2 ;;
esac
exec "$jmpirun" "${opts[@]}" "$main" "$@"
