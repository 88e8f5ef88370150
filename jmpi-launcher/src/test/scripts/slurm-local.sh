#!/usr/bin/env bash
# A one-node Slurm cluster on localhost for the launch-integration tests: munged (unless one already answers),
# slurmctld and slurmd with a private configuration in DIR (two ports below the kernel's ephemeral range, the first
# free pair from 26817/26818 on; state, spool, logs and pid files in DIR), so it does not touch /etc/slurm. Needs
# root, slurmctld, slurmd, slurm-client and munge. (Fixed ports inside the ephemeral range, 46817/46818 before, could
# be taken by any client socket of the tests running beside it: slurmd then failed with "Address already in use".)
#
#   slurm-local.sh up DIR     start; prints "export SLURM_CONF=DIR/slurm.conf" (every Slurm command needs it)
#   slurm-local.sh down DIR   stop the daemons by pid (and munged if this script started it), and any job step
#                             daemon (slurmstepd) left from them
set -euo pipefail

cmd="${1:-}"
dir="${2:-}"
die() { echo "slurm-local: $*" >&2; exit 1; }

up() {
  [ "$(id -u)" = 0 ] || die "needs root"
  [ -n "$dir" ] || die "usage: $0 up DIR"
  for x in /usr/sbin/slurmctld /usr/sbin/slurmd /usr/sbin/munged; do [ -x "$x" ] || die "needs $x"; done
  command -v srun >/dev/null || die "needs srun (slurm-client)"
  down_quiet
  mkdir -p "$dir/state" "$dir/spool"
  local host
  host="$(hostname -s)"
  # munge: reuse a running daemon, else start one and remember its pid
  if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    mkdir -p /run/munge /var/log/munge /var/lib/munge
    chown munge:munge /run/munge /var/log/munge /var/lib/munge
    [ -f /etc/munge/munge.key ] || { /usr/sbin/mungekey --create 2>/dev/null || dd if=/dev/urandom bs=1 count=1024 \
      of=/etc/munge/munge.key 2>/dev/null; chown munge:munge /etc/munge/munge.key; chmod 600 /etc/munge/munge.key; }
    runuser -u munge -- /usr/sbin/munged --pid-file=/run/munge/jmpi-test-munged.pid
    echo started > "$dir/munged.ours"
    for _ in $(seq 1 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
    munge -n | unmunge >/dev/null || die "munged does not answer"
  fi
  local ctld_port=26817 slurmd_port=26818
  while [ -n "$(ss -Htan "( sport = :$ctld_port or sport = :$slurmd_port )" 2>/dev/null)" ]; do
    ctld_port=$((ctld_port + 10)); slurmd_port=$((slurmd_port + 10))
    [ "$ctld_port" -lt 32000 ] || die "no free pair of ports for slurmctld and slurmd below 32000"
  done
  cat > "$dir/slurm.conf" <<EOF
ClusterName=jmpitest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
MpiDefault=none
ReturnToService=2
KillWait=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=8 RealMemory=2000 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
EOF
  export SLURM_CONF="$dir/slurm.conf"
  /usr/sbin/slurmctld -f "$SLURM_CONF"
  /usr/sbin/slurmd -f "$SLURM_CONF"
  for _ in $(seq 1 100); do
    if [ "$(sinfo -h -o %T 2>/dev/null | head -1)" = "idle" ]; then
      echo "export SLURM_CONF=$SLURM_CONF"
      return 0
    fi
    sleep 0.2
  done
  sinfo >&2 || true
  die "the node did not become idle (see $dir/slurmctld.log, $dir/slurmd.log)"
}

down_quiet() {
  [ -n "$dir" ] || return 0
  for d in slurmd slurmctld; do
    if [ -f "$dir/$d.pid" ]; then
      local pid
      pid="$(cat "$dir/$d.pid")"
      if [ "$d" = slurmd ]; then
        # job step daemons our slurmd started (their spool files live in our directory)
        for s in $(pgrep -x slurmstepd 2>/dev/null || true); do
          if grep -qs "$dir" "/proc/$s/cmdline" "/proc/$s/environ" 2>/dev/null || [ "$(ps -o ppid= -p "$s" | tr -d ' ')" = "$pid" ]; then
            kill -9 "$s" 2>/dev/null || true
          fi
        done
      fi
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
      rm -f "$dir/$d.pid"
    fi
  done
  if [ -f "$dir/munged.ours" ]; then
    [ -f /run/munge/jmpi-test-munged.pid ] && kill "$(cat /run/munge/jmpi-test-munged.pid)" 2>/dev/null || true
    rm -f "$dir/munged.ours" /run/munge/jmpi-test-munged.pid
  fi
}

case "$cmd" in
  up) up ;;
  down) down_quiet; echo "slurm-local: down" ;;
  *) die "usage: $0 up|down DIR" ;;
esac
