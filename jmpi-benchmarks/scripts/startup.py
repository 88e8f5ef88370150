#!/usr/bin/env python3
"""Start-up and footprint of jmpi against Hydra and bare JVMs (issue 17), on this host.

    startup.py [--rounds 9] [--before OLD_DIST] [--scale] [--out FILE]

Interleaved rounds, each running every variant once in the same order, wall time from the shell's point of view
(fork to exit) and the peak resident memory of the largest process (GNU time's %M):

    jmpi4        DIST/bin/jmpirun -n 4 org.jmpi.examples.Hello
    jmpi4-nocache  the same with JMPI_AOT=0 (what the class caches save)
    hydra4       mpiexec.hydra -n 4 java -cp T Trivial          (four JVMs that print a line: the floor)
    threads4     DIST/bin/jmpirun -n 4 --threads org.jmpi.examples.Hello
    trivial      java -cp T Trivial
    hydra-jmpi4  mpiexec.hydra -n 4 DIST/bin/jmpi-java -cp DIST/lib/jmpi-examples.jar org.jmpi.examples.Hello
    before-*     jmpi4, threads4, hydra-jmpi4 of OLD_DIST (--before), e.g. a build of an earlier commit

Prints each variant's median (min-max) and the medians of the per-round ratios jmpi4/hydra4, threads4/trivial,
hydra-jmpi4/hydra4. Then footprint: VmRSS after MPI_Init of each rank of jmpirun -n 4 StartupFootprint, of the bare
JVM running the same main without MPI, and of jmpirun's JVM. With --scale also 16 and 64 ranks as processes and
256 in threads mode (3 runs each; peak of the summed VmRSS of the job's processes, sampled every 20 ms).
Run it on a quiet machine, inside ../shared/baseline/gate.py."""
import argparse, os, statistics, subprocess, sys, tempfile, threading, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '..', '..'))
JAVA_HOME = os.environ.get('JAVA_HOME', '/usr/lib/jvm/temurin-25-jdk-amd64')
JAVA = os.path.join(JAVA_HOME, 'bin', 'java')
REPORTED = set()


def trivial_dir():
    d = tempfile.mkdtemp(prefix='jmpi-startup-')
    with open(os.path.join(d, 'Trivial.java'), 'w') as f:
        f.write('public class Trivial { public static void main(String[] a) { System.out.println("hello"); } }\n')
    subprocess.run([os.path.join(JAVA_HOME, 'bin', 'javac'), '-d', d, os.path.join(d, 'Trivial.java')], check=True)
    return d


def timed(cmd, env=None, cwd=None):
    """(wall seconds, peak KiB of the largest process, exit code)."""
    with tempfile.NamedTemporaryFile('r') as t:
        full = ['/usr/bin/time', '-o', t.name, '-f', '%M'] + cmd
        e = dict(os.environ)
        e['JAVA_HOME'] = JAVA_HOME  # jmpirun and jmpi-java take their java from it
        e.update(env or {})
        t0 = time.perf_counter()
        p = subprocess.run(full, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=e, cwd=cwd)
        wall = time.perf_counter() - t0
        try:
            peak = int(open(t.name).read().strip().splitlines()[-1])
        except (ValueError, IndexError):
            peak = -1
        if p.returncode != 0 and cmd[0] not in REPORTED:
            REPORTED.add(cmd[0])
            sys.stderr.write('exit %d: %s\n%s\n' % (p.returncode, ' '.join(cmd), p.stderr.decode()[-2000:]))
        return wall, peak, p.returncode


def med(xs):
    return statistics.median(xs) if xs else float('nan')


def rounds(variants, n):
    res = {k: [] for k, _, _ in variants}
    for r in range(n):
        for name, cmd, env in variants:
            res[name].append(timed(cmd, env))
    return res


def tree_rss_kib(root_pid):
    """Sum of VmRSS of root_pid and its descendants."""
    children = {}
    rss = {}
    for d in os.listdir('/proc'):
        if not d.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % d) as f:
                s = f.read()
            ppid = int(s.rsplit(')', 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(d))
            with open('/proc/%s/statm' % d) as f:
                rss[int(d)] = int(f.read().split()[1]) * os.sysconf('SC_PAGE_SIZE') // 1024
        except (OSError, ValueError, IndexError):
            pass
    total, todo = 0, [root_pid]
    while todo:
        p = todo.pop()
        total += rss.get(p, 0)
        todo.extend(children.get(p, []))
    return total


def scale_run(cmd):
    peak = [0]
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         env=dict(os.environ, JAVA_HOME=JAVA_HOME))
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], tree_rss_kib(p.pid))
            done.wait(0.02)
    th = threading.Thread(target=sample, daemon=True)
    th.start()
    err = p.communicate()[1]
    wall = time.perf_counter() - t0
    done.set()
    th.join()
    if p.returncode != 0:
        sys.stderr.write('exit %d: %s\n%s\n' % (p.returncode, ' '.join(cmd), err.decode()[-2000:]))
    return wall, peak[0], p.returncode


def footprint(dist, bench_jar, label):
    cp = bench_jar
    out = subprocess.run([os.path.join(dist, 'bin', 'jmpirun'), '-n', '4', '-cp', cp,
                          'org.jmpi.benchmarks.StartupFootprint'], capture_output=True, text=True,
                         env=dict(os.environ, JAVA_HOME=JAVA_HOME))
    bare = subprocess.run([JAVA, '--enable-native-access=ALL-UNNAMED', '-XX:+UseSerialGC', '-cp',
                           cp + ':' + os.path.join(dist, 'lib', 'jmpi-core.jar'),
                           'org.jmpi.benchmarks.StartupFootprint', '--bare'], capture_output=True, text=True)
    ranks, parent, bare_rss = [], None, None
    for line in (out.stdout + bare.stdout).splitlines():
        if not line.startswith('footprint'):
            continue
        kv = dict(x.split('=') for x in line.split()[1:] if '=' in x)
        if 'bare' in line:
            bare_rss = int(kv['rss_kib'])
        else:
            ranks.append(int(kv['rss_kib']))
            if 'parent_rss_kib' in kv:
                parent = int(kv['parent_rss_kib'])
    if not ranks or bare_rss is None:
        print('footprint %s: failed\n%s%s' % (label, out.stdout, out.stderr))
        return
    print('footprint %-7s rank RSS after MPI_Init %s MiB (median %.1f); bare JVM %.1f MiB; above it %.1f MiB;'
          ' jmpirun JVM %.1f MiB' % (label, ' '.join('%.1f' % (r / 1024) for r in ranks), med(ranks) / 1024,
                                     bare_rss / 1024, (med(ranks) - bare_rss) / 1024, (parent or 0) / 1024))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--rounds', type=int, default=9)
    ap.add_argument('--before')
    ap.add_argument('--dist', default=os.path.join(ROOT, 'jmpi-dist', 'target', 'jmpi'))
    ap.add_argument('--scale', action='store_true')
    a = ap.parse_args()
    t = trivial_dir()
    dist = a.dist
    hello = 'org.jmpi.examples.Hello'
    ex = os.path.join(dist, 'lib', 'jmpi-examples.jar')
    v = [
        ('jmpi4', [dist + '/bin/jmpirun', '-n', '4', hello], None),
        ('hydra4', ['mpiexec.hydra', '-n', '4', JAVA, '-cp', t, 'Trivial'], None),
        ('jmpi4-nocache', [dist + '/bin/jmpirun', '-n', '4', hello], {'JMPI_AOT': '0'}),
        ('threads4', [dist + '/bin/jmpirun', '-n', '4', '--threads', hello], None),
        ('trivial', [JAVA, '-cp', t, 'Trivial'], None),
        ('hydra-jmpi4', ['mpiexec.hydra', '-n', '4', dist + '/bin/jmpi-java', '-cp', ex, hello], None),
    ]
    if a.before:
        b = a.before
        v += [('before-jmpi4', [b + '/bin/jmpirun', '-n', '4', hello], None),
              ('before-threads4', [b + '/bin/jmpirun', '-n', '4', '--threads', hello], None),
              ('before-hydra-jmpi4', ['mpiexec.hydra', '-n', '4', b + '/bin/jmpi-java', '-cp',
                                      os.path.join(b, 'lib', 'jmpi-examples.jar'), hello], None)]
    for name, cmd, env in v:  # warm the page cache once
        timed(cmd, env)
    res = rounds(v, a.rounds)
    print('start-up, %d interleaved rounds (wall s: median, min-max; peak MiB of the largest process)' % a.rounds)
    for name, _, _ in v:
        walls = [w for w, _, _ in res[name]]
        peaks = [p for _, p, _ in res[name]]
        fails = sum(1 for _, _, rc in res[name] if rc != 0)
        print('  %-20s %.3f (%.3f-%.3f)  peak %.1f MiB%s' % (name, med(walls), min(walls), max(walls),
                                                          med(peaks) / 1024, '  FAILED %d' % fails if fails else ''))

    def ratio(x, y):
        rs = [res[x][i][0] / res[y][i][0] for i in range(a.rounds)]
        return '%s/%s %.2f (%.2f-%.2f)' % (x, y, med(rs), min(rs), max(rs))
    print('ratios of the same round, median (min-max):')
    for x, y in [('jmpi4', 'hydra4'), ('jmpi4-nocache', 'hydra4'), ('threads4', 'trivial'),
                 ('hydra-jmpi4', 'hydra4')] + ([('before-jmpi4', 'hydra4'), ('before-threads4', 'trivial'),
                                                ('before-hydra-jmpi4', 'hydra4')] if a.before else []):
        print('  ' + ratio(x, y))
    bench = os.path.join(ROOT, 'jmpi-benchmarks', 'target', 'jmpi-benchmarks.jar')
    if not os.path.exists(bench):
        import glob
        jars = [j for j in glob.glob(os.path.join(ROOT, 'jmpi-benchmarks', 'target', 'jmpi-benchmarks*.jar'))
                if not j.endswith('-sources.jar') and not j.endswith('-javadoc.jar')]
        bench = jars[0] if jars else bench
    footprint(dist, bench, 'now')
    if a.before:
        footprint(a.before, bench, 'before')
    if a.scale:
        for label, cmd in [('64 ranks as processes', [dist + '/bin/jmpirun', '-n', '64', hello]),
                           ('16 ranks as processes', [dist + '/bin/jmpirun', '-n', '16', hello]),
                           ('256 ranks in threads mode', [dist + '/bin/jmpirun', '-n', '256', '--threads', hello])]:
            runs = [scale_run(cmd) for _ in range(3)]
            print('%-28s wall %s s; peak summed RSS %s MiB%s' % (
                label, ' '.join('%.2f' % w for w, _, _ in runs), ' '.join('%.0f' % (p / 1024) for _, p, _ in runs),
                '' if all(rc == 0 for _, _, rc in runs) else '  FAILED'))


if __name__ == '__main__':
    main()
