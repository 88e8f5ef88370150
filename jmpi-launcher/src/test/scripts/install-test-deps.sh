#!/usr/bin/env bash
# Installs the real components the launch-integration tests run against (Debian/Ubuntu, as root):
#   mpich (mpiexec.hydra, mpicc.mpich) and libmpich-dev (mpi.h: the C programs the interop tests compile; apt-get
#   --no-install-recommends leaves it out of mpich), slurmctld + slurmd + slurm-client + munge, openssh-server + client,
#   iproute2 (ip netns, tc), nftables (packet loss on the namespace hosts' links), procps (pgrep/ps for the no-orphans checks), libpmix-dev (so that srun --mpi=pmix runs, for
#   the test of the PMIx-only message: Slurm's plugin opens libpmix.so), dataset-fashion-mnist (jmpi-dl's training
#   tests and example).
# Idempotent: does nothing when everything is present. Without root or apt-get it explains and exits 0, and the
# tests that need the missing pieces skip with a message.
set -euo pipefail

need=()
have() { command -v "$1" >/dev/null 2>&1 || [ -x "$1" ]; }
have mpiexec.hydra || need+=(mpich)
compgen -G "/usr/include/*/mpich/mpi.h" >/dev/null || need+=(libmpich-dev)
have /usr/sbin/slurmctld || need+=(slurmctld)
have /usr/sbin/slurmd || need+=(slurmd)
have srun || need+=(slurm-client)
have /usr/sbin/munged || need+=(munge)
have /usr/sbin/sshd || need+=(openssh-server)
have ssh || need+=(openssh-client)
have ip || need+=(iproute2)
have nft || need+=(nftables)
have pgrep || need+=(procps)
[ -e /usr/lib/x86_64-linux-gnu/libpmix.so ] || [ -e /usr/lib/aarch64-linux-gnu/libpmix.so ] || need+=(libpmix-dev)
[ -e /usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz ] || need+=(dataset-fashion-mnist)

if [ ${#need[@]} -eq 0 ]; then
  echo "install-test-deps: everything is installed"
  exit 0
fi
if [ "$(id -u)" != 0 ] || ! have apt-get; then
  echo "install-test-deps: missing ${need[*]}, and no root or apt-get here: those integration tests will skip" >&2
  exit 0
fi
echo "install-test-deps: installing ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# policy-rc.d stops the packages from starting daemons on installation (the tests start their own, by pid).
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
  chmod +x /usr/sbin/policy-rc.d
  trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
echo "install-test-deps: done"
