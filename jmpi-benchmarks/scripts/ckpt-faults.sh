#!/bin/bash
# Fault injection for checkpoint/restart: RUNS runs of the 4-rank org.jmpi.examples.Jacobi under
# jmpirun --restart-on-failure 3 -ckpoint-prefix DIR, each with one random rank SIGKILLed at a random time or while a
# checkpoint is being written (org.jmpi.benchmarks.CheckpointFaults does the runs and prints the counts: runs, kills,
# restarts, right answers, hangs, partial generations passed over, leftover processes and /dev/shm files).
#
#   jmpi-benchmarks/scripts/ckpt-faults.sh [RUNS=100] [local|netns]
#
# netns: across the two "hosts" of jmpi-launcher's netns-hosts.sh (10.78.0.1 and 10.78.0.2, 2 ranks each, over ssh;
# needs root, iproute2 and openssh-server), holding /tmp/jmpi-integration.lock while they are up. The checkpoint
# directory is under /tmp, which the namespaces share. Extra driver options go in FAULTS_ARGS (e.g.
# FAULTS_ARGS="--seed 42 --during-write 0.5"). Needs a built tree (./mvnw -B -q package -DskipTests).
set -euo pipefail
RUNS=${1:-100}
MODE=${2:-local}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JMPIRUN="$REPO/jmpi-dist/target/jmpi/bin/jmpirun"
BENCH="$REPO/jmpi-benchmarks/target/jmpi-benchmarks-0.1.0-SNAPSHOT.jar"
[ -x "$JMPIRUN" ] && [ -f "$BENCH" ] || { echo "ckpt-faults: build first (./mvnw -B -q package -DskipTests)" >&2; exit 2; }
WORK=$(mktemp -d /tmp/jmpi-ckpt-faults.XXXXXX)
KEYS=""
cleanup() {
  if [ -n "$KEYS" ]; then
    bash "$REPO/jmpi-launcher/src/test/scripts/netns-hosts.sh" down "$KEYS" >/dev/null 2>&1 || true
    rm -rf "$KEYS"
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
EXTRA=()
case "$MODE" in
  local) ;;
  netns)
    exec 9>/tmp/jmpi-integration.lock
    flock 9
    KEYS=$(mktemp -d /tmp/jmpi-ckpt-netns.XXXXXX)
    bash "$REPO/jmpi-launcher/src/test/scripts/netns-hosts.sh" up "$KEYS"
    EXTRA=(--hosts 10.78.0.1:2,10.78.0.2:2 --launcher-exec "ssh -F $KEYS/ssh_config")
    ;;
  *) echo "usage: $0 [RUNS] [local|netns]" >&2; exit 2 ;;
esac
echo "# $(date -u +%FT%TZ) $(uptime)"
# shellcheck disable=SC2086
"$JAVA_HOME/bin/java" -cp "$BENCH" org.jmpi.benchmarks.CheckpointFaults --jmpirun "$JMPIRUN" --runs "$RUNS" \
  --ranks 4 --restarts 3 --work "$WORK" "${EXTRA[@]}" ${FAULTS_ARGS:-}
