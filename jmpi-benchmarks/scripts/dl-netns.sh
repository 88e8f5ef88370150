#!/bin/bash
# Fashion-MNIST training across two "hosts": the network namespaces of jmpi-launcher's netns-hosts.sh (10.78.0.1 and
# 10.78.0.2, each with its own sshd), two ranks on each, TCP between them, shared memory within each. The reducer
# should pick its hierarchical all-reduce by itself. Needs root, iproute2, openssh-server, dataset-fashion-mnist and
# a built tree. Every run is wrapped in gate.py; the namespaces are taken down at the end, whatever happens.
# Usage: jmpi-benchmarks/scripts/dl-netns.sh OUTDIR [ROUNDS=3] [EPOCHS=3]
set -euo pipefail
OUT=${1:?usage: dl-netns.sh OUTDIR [ROUNDS] [EPOCHS]}
ROUNDS=${2:-3}
EPOCHS=${3:-3}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
BASE=${BASELINE:-$REPO/../shared/baseline}
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
JMPIRUN="$REPO/jmpi-dist/target/jmpi/bin/jmpirun"
NETNS="$REPO/jmpi-launcher/src/test/scripts/netns-hosts.sh"
KEYS=$(mktemp -d /tmp/jmpi-dl-netns.XXXXXX)
mkdir -p "$OUT/raw"
trap 'bash "$NETNS" down "$KEYS" >/dev/null 2>&1 || true; rm -rf "$KEYS"' EXIT
bash "$NETNS" up "$KEYS"
for r in $(seq 1 "$ROUNDS"); do
  f="$OUT/raw/netns.n4.r$r.txt"
  echo "# $(date +%T) 2 hosts x 2 ranks" > "$f"
  python3 "$BASE/gate.py" "$f" -- "$JMPIRUN" --no-stdin ${JMPIRUN_ARGS:-} -n 4 -H 10.78.0.1:2,10.78.0.2:2 \
    --launcher-exec "ssh -F $KEYS/ssh_config" org.jmpi.dl.examples.FashionMnistTraining --epochs "$EPOCHS" || true
done
echo "dl-netns: raw outputs in $OUT/raw"
