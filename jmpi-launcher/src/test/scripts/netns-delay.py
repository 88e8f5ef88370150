#!/usr/bin/env python3
"""A delay line for netns-hosts.sh's hosts on a kernel without netem: "netns-delay.py MS NS..." puts each host's link
through this process, which holds every frame the host sends for MS milliseconds before it reaches the bridge (frames
to the host pass at once), as netem's "delay MSms" on the host's outgoing link would. A path between two such hosts
then takes 2 x MS more per round trip.

How: per host, two TAP devices; one takes the place of the host's eth0 inside its namespace (same MAC and address,
eth0 down), the other is a port of the bridge instead of the host's veth. This process copies frames between the two.
It forks once the links are in place: the parent prints the child's pid and exits, so that "pid=$(netns-delay.py ...)"
returns with the delay in force. SIGTERM puts eth0 and the veth back and ends it. Root only; Python 3 alone.
"""
import fcntl
import json
import os
import select
import signal
import struct
import subprocess
import sys
import time
from collections import deque

TUNSETIFF = 0x400454CA
IFF_TAP = 0x0002
IFF_NO_PI = 0x1000
BRIDGE = "jmpibr0"


def ip(*args):
    subprocess.run(["ip", *args], check=True, stdout=subprocess.DEVNULL)


def ip_json(*args):
    return json.loads(subprocess.run(["ip", "-j", *args], check=True, capture_output=True, text=True).stdout)


def tap(name):
    fd = os.open("/dev/net/tun", os.O_RDWR | os.O_NONBLOCK)
    fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH", name.encode(), IFF_TAP | IFF_NO_PI))
    return fd


def attach(ns):
    """Puts host ns's link through two TAPs; returns (host-side fd, bridge-side fd, how to undo it)."""
    link = ip_json("-n", ns, "link", "show", "eth0")[0]
    addrs = [f"{a['local']}/{a['prefixlen']}" for a in ip_json("-n", ns, "addr", "show", "eth0")[0]["addr_info"]
             if a["family"] == "inet"]
    host_tap, bridge_tap = f"{ns}-t", f"{ns}-b"
    host_fd, bridge_fd = tap(host_tap), tap(bridge_tap)
    ip("link", "set", host_tap, "netns", ns)
    ip("-n", ns, "addr", "flush", "dev", "eth0")
    ip("-n", ns, "link", "set", "eth0", "down")
    ip("-n", ns, "link", "set", host_tap, "address", link["address"], "mtu", str(link["mtu"]), "up")
    for a in addrs:
        ip("-n", ns, "addr", "add", a, "dev", host_tap)
    ip("link", "set", f"{ns}-h", "nomaster")
    ip("link", "set", bridge_tap, "mtu", str(link["mtu"]), "master", BRIDGE, "up")

    def undo():
        ip("link", "set", f"{ns}-h", "master", BRIDGE)
        ip("-n", ns, "link", "set", "eth0", "up")
        for a in addrs:
            subprocess.run(["ip", "-n", ns, "addr", "add", a, "dev", "eth0"], stderr=subprocess.DEVNULL)

    return host_fd, bridge_fd, undo


def relay(delay, links):
    """Copies frames: host -> bridge after the delay, bridge -> host at once; until SIGTERM."""
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    late = deque()  # (due, fd, frame), in order of arrival: one delay for all, so also in order of due time
    to = {}
    for host_fd, bridge_fd in links:
        to[host_fd] = (bridge_fd, True)
        to[bridge_fd] = (host_fd, False)
    poller = select.poll()
    for fd in to:
        poller.register(fd, select.POLLIN)
    while not stop:
        now = time.monotonic()
        while late and late[0][0] <= now:
            _, fd, frame = late.popleft()
            send(fd, frame)
        wait = max(0, int((late[0][0] - now) * 1000) + 1) if late else 200
        try:
            ready = poller.poll(wait)
        except InterruptedError:
            continue
        for fd, _ in ready:
            out, delayed = to[fd]
            for _ in range(64):
                try:
                    frame = os.read(fd, 65536)
                except BlockingIOError:
                    break
                if delayed:
                    late.append((time.monotonic() + delay, out, frame))
                else:
                    send(out, frame)


def send(fd, frame):
    try:
        os.write(fd, frame)
    except OSError:
        pass  # a full or vanished device drops the frame, as a link would


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: netns-delay.py MS NS...")
    delay = float(sys.argv[1]) / 1000.0
    links, undos = [], []
    try:
        for ns in sys.argv[2:]:
            host_fd, bridge_fd, undo = attach(ns)
            links.append((host_fd, bridge_fd))
            undos.append(undo)
        for ns in sys.argv[2:]:
            ip("-n", ns, "neigh", "flush", "all")
    except Exception:
        for undo in undos:
            undo()
        raise
    pid = os.fork()
    if pid:
        print(pid, flush=True)
        os._exit(0)
    os.setsid()
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    try:
        relay(delay, links)
    finally:
        for host_fd, bridge_fd in links:
            os.close(host_fd)
            os.close(bridge_fd)
        for undo in undos:
            try:
                undo()
            except Exception:
                pass  # the namespace went away meanwhile ("down")


if __name__ == "__main__":
    main()
