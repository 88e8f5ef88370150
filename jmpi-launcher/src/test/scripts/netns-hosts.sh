#!/usr/bin/env bash
# Extra "hosts" on this machine for the launch-integration tests and the benchmarks between hosts: network namespaces
# jmpiA (10.78.0.1), jmpiB (10.78.0.2), ... on a bridge jmpibr0 (10.78.0.254 here), each running its own sshd on port
# 2222, as mpi-operator's workers do. NETNS_HOSTS=2..4 (default 2) sets how many. Needs root and iproute2; sshd comes
# from openssh-server; netem from iproute2's tc (sch_netem).
#
#   netns-hosts.sh up DIR      create everything; DIR receives keys, sshd configs, pid files, ssh_config
#   netns-hosts.sh down DIR    stop the sshds (by pid), kill anything left in the namespaces, delete them, the
#                              bridge, /etc/netns/<ns> and the ssh_config.d drop-in
#   netns-hosts.sh cut B|A     take a host's link down (its veth on the bridge): a cut network cable
#   netns-hosts.sh heal B|A    bring it back
#   netns-hosts.sh netem "SPEC"  every host's link gets the netem qdisc SPEC on its way out (e.g. "delay 1ms",
#                              "rate 100mbit", "loss 1%"); "off" removes it. Both directions of a path pass two
#                              hosts' links, so "delay 1ms" adds 2 ms to a round trip between two hosts. On a kernel
#                              without netem, "loss N%" (whole percent, nftables) and "rate R" (tbf) still work, and
#                              "delay Nms" alone (netns-delay.py, a user-space delay line)
#   netns-hosts.sh operator-ssh-config DIR   install /etc/ssh/ssh_config.d/jmpi-test.conf (Port 2222, the test key)
#                              for 10.78.0.*, the way mpi-operator's image sets Port 2222 in /etc/ssh/ssh_config
#
# Everything started here is stopped by pid; nothing is left behind by "down", even after a failed "up".
set -euo pipefail

BR=jmpibr0
NET=10.78.0
NS_ALL=(jmpiA jmpiB jmpiC jmpiD)
N=${NETNS_HOSTS:-2}
[[ $N =~ ^[2-4]$ ]] || { echo "netns-hosts: NETNS_HOSTS must be 2, 3 or 4" >&2; exit 1; }
NS=("${NS_ALL[@]:0:N}")
DROPIN=/etc/ssh/ssh_config.d/jmpi-test.conf
DELAY_PID=/tmp/jmpi-netns-delay.pid

cmd="${1:-}"
dir="${2:-}"

die() { echo "netns-hosts: $*" >&2; exit 1; }

up() {
  [ "$(id -u)" = 0 ] || die "needs root"
  command -v ip >/dev/null || die "needs iproute2 (ip)"
  [ -x /usr/sbin/sshd ] || die "needs openssh-server (/usr/sbin/sshd)"
  [ -n "$dir" ] || die "usage: $0 up DIR"
  down_quiet
  mkdir -p "$dir"
  chmod 700 "$dir"
  ip link add "$BR" type bridge
  ip addr add "$NET.254/24" dev "$BR"
  ip link set "$BR" up
  local i=1
  for ns in "${NS[@]}"; do
    ip netns add "$ns"
    ip link add "$ns-h" type veth peer name eth0 netns "$ns"
    ip link set "$ns-h" master "$BR" up
    ip -n "$ns" addr add "$NET.$i/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$ns" link set lo up
    i=$((i + 1))
  done
  # keys: one host key for both sshds, one client key for root
  [ -f "$dir/hostkey" ] || ssh-keygen -q -t ed25519 -N "" -f "$dir/hostkey" >/dev/null
  [ -f "$dir/id" ] || ssh-keygen -q -t ed25519 -N "" -f "$dir/id" >/dev/null
  cp "$dir/id.pub" "$dir/authorized_keys"
  chmod 600 "$dir/authorized_keys"
  mkdir -p /run/sshd
  i=1
  for ns in "${NS[@]}"; do
    cat > "$dir/sshd_config.$ns" <<EOF
Port 2222
ListenAddress $NET.$i
HostKey $dir/hostkey
PidFile $dir/sshd.$ns.pid
AuthorizedKeysFile $dir/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PrintMotd no
AcceptEnv LANG LC_*
Subsystem sftp internal-sftp
EOF
    ip netns exec "$ns" /usr/sbin/sshd -f "$dir/sshd_config.$ns" -E "$dir/sshd.$ns.log"
    i=$((i + 1))
  done
  cat > "$dir/ssh_config" <<EOF
Host $NET.*
  Port 2222
  IdentityFile $dir/id
  StrictHostKeyChecking no
  UserKnownHostsFile /dev/null
  LogLevel ERROR
  ConnectTimeout 5
EOF
  # wait until both answer (sshd daemonizes after binding, so this is quick)
  for i in $(seq 1 "$N"); do
    local ok=""
    for _ in $(seq 1 50); do
      if ssh -F "$dir/ssh_config" -o BatchMode=yes "$NET.$i" true 2>/dev/null; then ok=1; break; fi
      sleep 0.1
    done
    [ -n "$ok" ] || die "sshd on $NET.$i does not answer (see $dir/sshd.*.log)"
  done
  # an "ssh" for launchers (jmpirun --launcher-exec, Hydra's -launcher-exec, Open MPI's plm_rsh_agent) that takes
  # ssh's arguments but enters the host's namespace itself, with the environment of an ssh session: what it starts
  # stays a descendant of the launcher (benchmarks' gates count its CPU time as theirs)
  cat > "$dir/nsexec" <<'EOF2'
#!/bin/bash
while [ $# -gt 0 ]; do
  case $1 in
    -[bcDEeFIiJLlmOopQRSWw]) shift 2 ;;
    -*) shift ;;
    *) break ;;
  esac
done
host=${1:?nsexec: no host}; shift
case ${host#*@} in
  10.78.0.1) ns=jmpiA ;; 10.78.0.2) ns=jmpiB ;; 10.78.0.3) ns=jmpiC ;; 10.78.0.4) ns=jmpiD ;;
  *) echo "nsexec: unknown host $host" >&2; exit 255 ;;
esac
# The hosts share this machine's host name, /tmp and /dev/shm; Open MPI names its session directory and its
# shared-memory segments after the host name, so that its ranks on two hosts would take each other's: each host's
# get their own directories.
mkdir -p "/tmp/$ns" "/dev/shm/$ns"
exec ip netns exec "$ns" env -i HOME="$HOME" USER=root LOGNAME=root SHELL=/bin/sh \
  PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  OMPI_MCA_orte_tmpdir_base="/tmp/$ns" OMPI_MCA_btl_vader_backing_directory="/dev/shm/$ns" /bin/sh -c "$*"
EOF2
  chmod 755 "$dir/nsexec"
  echo "netns-hosts: up: $NET.1 to $NET.$N (sshd port 2222), ssh config $dir/ssh_config, $dir/nsexec"
}

operator_ssh_config() {
  [ -n "$dir" ] || die "usage: $0 operator-ssh-config DIR"
  mkdir -p /etc/ssh/ssh_config.d
  cat > "$DROPIN" <<EOF
# written by jmpi's launch-integration tests (netns-hosts.sh); removed by "netns-hosts.sh down"
Host $NET.*
  Port 2222
  IdentityFile $dir/id
  StrictHostKeyChecking no
  UserKnownHostsFile /dev/null
  LogLevel ERROR
EOF
}

netem() {
  # netem where the kernel has it; else loss through nftables (numgen random), rates through tbf and a delay alone
  # through netns-delay.py (a process every host's frames pass; any other combination with a delay is an error, not
  # a silently unshaped link).
  local ns spec=$dir delay_ms=""
  delay_off
  for ns in "${NS[@]}"; do
    ip netns exec "$ns" tc qdisc del dev eth0 root 2>/dev/null || true
    ip netns exec "$ns" nft delete table inet jmpinetem 2>/dev/null || true
    [ "$spec" = off ] && continue
    # shellcheck disable=SC2086
    if ip netns exec "$ns" tc qdisc add dev eth0 root netem $spec limit 100000 2>/dev/null; then
      continue
    fi
    set -- $spec
    while [ $# -gt 0 ]; do
      case $1 in
        loss)
          local pct=${2%\%}
          [[ $pct =~ ^[0-9]+$ ]] || die "loss takes a whole percentage without netem (got $2)"
          command -v nft > /dev/null || die "loss without netem needs nftables (nft)"
          ip netns exec "$ns" nft add table inet jmpinetem
          ip netns exec "$ns" nft add chain inet jmpinetem out '{ type filter hook output priority 0; }'
          ip netns exec "$ns" nft add rule inet jmpinetem out oifname eth0 numgen random mod 100 '<' "$pct" drop
          shift 2 ;;
        rate)
          ip netns exec "$ns" tc qdisc add dev eth0 root tbf rate "$2" burst 256kb latency 100ms
          shift 2 ;;
        delay)
          [[ $spec =~ ^delay\ ([0-9]+(\.[0-9]+)?)ms$ ]] || die "without netem a delay goes alone, in ms (got '$spec')"
          delay_ms=${BASH_REMATCH[1]}
          shift 2 ;;
        *) die "'$1' needs the kernel's netem (sch_netem), which this kernel does not have" ;;
      esac
    done
  done
  if [ -n "$delay_ms" ]; then
    python3 "$(dirname "$0")/netns-delay.py" "$delay_ms" "${NS[@]}" > "$DELAY_PID" || die "netns-delay.py failed"
  fi
}

# Ends netns-delay.py (by pid; it puts the hosts' links back) and waits for it.
delay_off() {
  [ -f "$DELAY_PID" ] || return 0
  local pid
  pid=$(cat "$DELAY_PID")
  rm -f "$DELAY_PID"
  [[ $pid =~ ^[0-9]+$ ]] || return 0
  kill "$pid" 2>/dev/null || return 0
  local i
  for i in $(seq 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.05; done
  kill -9 "$pid" 2>/dev/null || true
}

down_quiet() {
  delay_off
  for ns in "${NS_ALL[@]}"; do
    if [ -n "$dir" ] && [ -f "$dir/sshd.$ns.pid" ]; then
      kill "$(cat "$dir/sshd.$ns.pid")" 2>/dev/null || true
      rm -f "$dir/sshd.$ns.pid"
    fi
    if ip netns list 2>/dev/null | grep -qw "$ns"; then
      for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; done
      ip netns delete "$ns" 2>/dev/null || true
    fi
    ip link delete "$ns-h" 2>/dev/null || true
    rm -rf "/etc/netns/$ns" "/tmp/$ns" "/dev/shm/$ns"
  done
  ip link delete "$BR" 2>/dev/null || true
  rm -f "$DROPIN"
}

case "$cmd" in
  up) up ;;
  down) down_quiet; echo "netns-hosts: down" ;;
  cut) ip link set "jmpi${dir:-B}-h" down ;;
  heal) ip link set "jmpi${dir:-B}-h" up ;;
  operator-ssh-config) operator_ssh_config ;;
  netem) [ -n "$dir" ] || die "usage: $0 netem SPEC|off"; netem ;;
  *) die "usage: $0 up|down DIR | cut|heal A|B | netem SPEC|off | operator-ssh-config DIR" ;;
esac
