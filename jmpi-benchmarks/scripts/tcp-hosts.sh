#!/bin/bash
# tcp-hosts.sh: the cold suite between hosts. Network namespaces on this machine stand in for hosts (jmpi-launcher's
# netns-hosts.sh: 10.78.0.1, 10.78.0.2, ... on a bridge, each with its own network stack), so every message
# between ranks of different hosts crosses TCP over a veth pair and a bridge (MTU 1500), optionally through netem
# (delay, rate limit, loss). Runs cold-suite.sh with HOSTS set (jmpi, Open MPI's Java bindings over their TCP
# transport, MPICH's C twins over UCX's TCP; see cold-suite.sh), then takes the namespaces down, whatever happens.
# The launchers reach a host through netns-hosts.sh's nsexec, an ssh that enters the namespace directly (not its
# sshd), so that the ranks stay descendants of the gated command: gate.py counts their CPU time as the run's, not as
# foreign load.
# Needs root, iproute2 (ip, tc), openssh-server and what cold-suite.sh needs.
#
# Usage: jmpi-benchmarks/scripts/tcp-hosts.sh OUTDIR [ROUNDS=3] [FILTER]
# Environment (besides cold-suite.sh's):
#   PER_HOST   ranks per host (default 1); NHOSTS hosts, 2-4 (default 2)
#   NETEM      a netem specification for every host's outgoing link, e.g. "delay 1ms" (2 ms more per round trip),
#              "rate 100mbit", "loss 1%"; default none. Without the kernel's netem a delay alone still works
#              (netns-hosts.sh's user-space delay line, about 1 Gbit/s, whose CPU time counts as the runs')
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
NETNS=$ROOT/jmpi-launcher/src/test/scripts/netns-hosts.sh
OUT=${1:?usage: tcp-hosts.sh OUTDIR [ROUNDS] [FILTER]}
shift
export NETNS_HOSTS=${NHOSTS:-2}
PER_HOST=${PER_HOST:-1}
KEYS=$(mktemp -d /tmp/jmpi-tcp-hosts.XXXXXX)
trap 'bash "$NETNS" down "$KEYS" > /dev/null 2>&1 || true; rm -rf "$KEYS"' EXIT
bash "$NETNS" up "$KEYS"
[ -z "${NETEM:-}" ] || bash "$NETNS" netem "$NETEM"
hosts=()
for i in $(seq 1 "$NETNS_HOSTS"); do hosts+=("10.78.0.$i:$PER_HOST"); done
HOSTS=$(IFS=,; echo "${hosts[*]}") SSH=$KEYS/nsexec HOSTS_NET=10.78.0.0/24 HOSTS_IFACE=jmpibr0 NETEM=${NETEM:-} \
    bash "$HERE/cold-suite.sh" "$OUT" "$@"
