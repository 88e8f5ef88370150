#!/usr/bin/env python3
"""reap.py CMD...: runs CMD as a child subreaper (Linux prctl PR_SET_CHILD_SUBREAPER), so that processes CMD leaves
behind (a launcher's remote daemons, say, orphaned when it exits before them) are reparented to this one, waited for
and reaped here: their CPU time counts in this process's children's, which a benchmark gate (gate.py) reads as the
run's own rather than foreign load. Exit status: CMD's. Waits at most REAP_WAIT seconds (default 30) for the rest."""
import ctypes, os, signal, subprocess, sys, time

PR_SET_CHILD_SUBREAPER = 36
if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
    sys.exit('reap.py: prctl(PR_SET_CHILD_SUBREAPER) failed')
rc = subprocess.call(sys.argv[1:])
deadline = time.time() + float(os.environ.get('REAP_WAIT', '30'))
while True:
    try:
        pid, _ = os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        break
    if pid == 0:
        if time.time() > deadline:
            for line in os.popen(f'ps -o pid= --ppid {os.getpid()}'):
                try:
                    os.kill(int(line), signal.SIGKILL)
                except (OSError, ValueError):
                    pass
            deadline = float('inf')
        time.sleep(0.05)
sys.exit(rc)
