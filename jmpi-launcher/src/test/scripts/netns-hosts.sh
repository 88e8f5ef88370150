#!/usr/bin/env bash
# Two extra "hosts" on this machine for the launch-integration tests: network namespaces jmpiA (10.78.0.1) and
# jmpiB (10.78.0.2) on a bridge jmpibr0 (10.78.0.254 here), each running its own sshd on port 2222, as
# mpi-operator's workers do. Needs root and iproute2; sshd comes from openssh-server.
#
#   netns-hosts.sh up DIR      create everything; DIR receives keys, sshd configs, pid files, ssh_config
#   netns-hosts.sh down DIR    stop the sshds (by pid), kill anything left in the namespaces, delete them, the
#                              bridge, /etc/netns/<ns> and the ssh_config.d drop-in
#   netns-hosts.sh cut B|A     take a host's link down (its veth on the bridge): a cut network cable
#   netns-hosts.sh heal B|A    bring it back
#   netns-hosts.sh operator-ssh-config DIR   install /etc/ssh/ssh_config.d/jmpi-test.conf (Port 2222, the test key)
#                              for 10.78.0.*, the way mpi-operator's image sets Port 2222 in /etc/ssh/ssh_config
#
# Everything started here is stopped by pid; nothing is left behind by "down", even after a failed "up".
set -euo pipefail

BR=jmpibr0
NET=10.78.0
NS=(jmpiA jmpiB)
DROPIN=/etc/ssh/ssh_config.d/jmpi-test.conf

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
  for i in 1 2; do
    local ok=""
    for _ in $(seq 1 50); do
      if ssh -F "$dir/ssh_config" -o BatchMode=yes "$NET.$i" true 2>/dev/null; then ok=1; break; fi
      sleep 0.1
    done
    [ -n "$ok" ] || die "sshd on $NET.$i does not answer (see $dir/sshd.*.log)"
  done
  echo "netns-hosts: up: $NET.1 and $NET.2 (sshd port 2222), ssh config $dir/ssh_config"
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

down_quiet() {
  for ns in "${NS[@]}"; do
    if [ -n "$dir" ] && [ -f "$dir/sshd.$ns.pid" ]; then
      kill "$(cat "$dir/sshd.$ns.pid")" 2>/dev/null || true
      rm -f "$dir/sshd.$ns.pid"
    fi
    if ip netns list 2>/dev/null | grep -qw "$ns"; then
      for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; done
      ip netns delete "$ns" 2>/dev/null || true
    fi
    ip link delete "$ns-h" 2>/dev/null || true
    rm -rf "/etc/netns/$ns"
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
  *) die "usage: $0 up|down DIR | cut|heal A|B | operator-ssh-config DIR" ;;
esac
