#!/usr/bin/env bash
# Makes the distribution's ahead-of-time class caches (JDK 25 AOT cache, JEP 483/514) in DIST/lib/aot/:
#
#   jmpi-launcher.aot   for jmpirun's own JVM
#   jmpi-launcher-threads.aot  for jmpirun's JVM with --threads (which runs the ranks too)
#   jmpi-rank.aot       for every rank JVM (jmpi-core's classes and the JDK classes a rank loads)
#   jmpi-rank-mpj.aot   for rank JVMs of the MPJ Express API (jmpi-mpj.jar's classes instead of jmpi-core's)
#   stamp               what they were made from: the JDK (home and version) and each jar's size and time; jmpirun
#                       and jmpi-java use a cache only when all of it still holds
#
# by running a two-rank job of org.jmpi.examples.AotTraining under jmpirun, with the launcher and rank 0 recording
# (a few seconds).
#
#   aot-caches.sh DIST JAVA_HOME
#
# Never fails the build: when the JDK cannot make a cache (not 25+, not HotSpot, no room) it says so and leaves no
# cache, and jmpi starts without one. JMPI_AOT=0 skips it.
set -u
dist="$1"
jhome="$2"
aot="$dist/lib/aot"
rm -rf "$aot"
if [ "${JMPI_AOT:-1}" = 0 ]; then
  echo "aot-caches: skipped (JMPI_AOT=0)"
  exit 0
fi
java="$jhome/bin/java"
release_version() { sed -n 's/^JAVA_RUNTIME_VERSION="\(.*\)"$/\1/p' "$1/release" 2>/dev/null; }
version="$(release_version "$jhome")"
if [ -z "$version" ] || ! "$java" -XX:AOTMode=off -version > /dev/null 2>&1; then
  echo "aot-caches: $jhome cannot make AOT caches (needs a JDK 25 or later with its release file); none made"
  exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/cwd" "$aot.tmp"
# The launcher's cache holds no training data (-AOTRecordTraining). The ranks' cache records which of jmpi's methods
# the JIT compiled in the training run, and nothing of the JDK's: the ranks train with C1 alone (TieredStopAtLevel=1)
# and with the JDK's methods left to the interpreter (excluded from compilation). A rank that
# starts from the cache then compiles each of those jmpi methods once, with C1's final tier, as soon as it runs hot,
# instead of first with full profiling and again without (C2 never takes them: JitHints' directives); the JDK's
# methods and the program's own are compiled as without a cache. Cold, 2 ranks on 2 cores, against the cache without
# training data (two gated sittings of 3 rounds, 2026-11-27): OMB-J bcast 0.75x the time, allreduce 0.85x, latency
# 0.85-0.94x, the mini-applications 0.81-1.05x, 0.86x over the 13 cases of the cold suite; a 4-rank Hello no slower
# (0.98x, 16 paired runs). With the JDK's methods recorded too (a training run with every tier), every rank compiled
# at start what the training found hot, and a 4-rank Hello was 15% slower. Until 2026-11-28 the JDK's methods had
# compile thresholds a thousand times higher instead of none: 232 of them still compiled in training (ThreadLocal's
# look-up, DirectByteBuffer.getLong, the foreign-memory accessors' Unsafe calls, ...), and a rank that started from
# the cache compiled those with C1 alone and never with C2: a window of 64 8-byte iSends took 0.32 us a message
# instead of 0.25, and OMB-J's window bandwidth is 1.11x as high without them (cold, 3 gated rounds; the other OMB-J
# cases within 0.94-1.05x).
record="-XX:+UnlockDiagnosticVMOptions -XX:-AOTRecordTraining"
train="-XX:TieredStopAtLevel=1"
# ... but for the socket channels (sun.nio.ch), which JitHints keeps out of C2 as jmpi's own packages: a rank compiles
# them once, with C1's final tier, as it does jmpi's
for pkg in java jdk com sun.invoke sun.jvmstat sun.launcher sun.management sun.misc sun.net sun.nio.cs sun.nio.fs sun.reflect \
    sun.security sun.text sun.util; do
  train="$train -XX:CompileCommand=exclude,$pkg.*::*"
done
# jmpirun's launcher options for processes mode (see bin/jmpirun), plus recording
launcher_opts="-XX:UserThreadWaitAttemptsAtExit=0 -XX:TieredStopAtLevel=1 -XX:+UseSerialGC $record"
launcher_opts="$launcher_opts -XX:AOTCacheOutput=$aot.tmp/jmpi-launcher.aot"
# The training job has two hosts: ranks 0 and 1 on this one, rank 2 on a second that is this machine again, started
# through a launch agent that runs the command here instead of over ssh (the address is a documentation one, never
# contacted: it only makes jmpirun take the host for another one). Rank 0 then also trains TCP's lane and the
# hierarchical collectives, which the ranks of a job across hosts run. Trained on one host alone (until 2026-12-02), a
# rank of such a job compiled those methods first with C1's full profiling and again without: 35-40 KB of profiled
# code per rank in a cold 2 x 2 Jacobi (TCP's lane send alone 13 KB). If that job cannot run here, the training is the
# two ranks of this host alone.
cat > "$work/agent" << 'EOF'
#!/bin/sh
# a launch agent for the training job: jmpirun calls an agent that is not ssh with the host and one shell command
exec /bin/sh -c "$2"
EOF
chmod +x "$work/agent"
# the working directory is an empty directory: the ranks' default class path is '.', and a JDK 25 cannot be made from
# a class path with a non-empty directory
training() { # jmpirun's options for the job's layout
  rm -f "$work"/rank*.aot "$work/rank0.pid" "$aot.tmp/jmpi-launcher.aot"
  (cd "$work/cwd" && JMPI_JAVA="$java" JMPI_AOT=0 JMPI_LAUNCHER_JVM_ARGS="$launcher_opts" \
    JMPI_JVM_ARGS="$train -XX:AOTCacheOutput=$work/rank%p.aot" timeout 300 "$dist/bin/jmpirun" --no-stdin "$@" \
    org.jmpi.examples.AotTraining "$work/rank0.pid") > "$work/log" 2>&1
}
if ! training -n 3 -H localhost:2,198.51.100.7:1 --launcher-exec "$work/agent"; then
  echo "aot-caches: the training job across two hosts failed; training on this host alone. Its output:"
  cat "$work/log"
  if ! training -n 2; then
    echo "aot-caches: the training run failed; no cache made. Its output:"
    cat "$work/log"
    rm -rf "$aot.tmp"
    exit 0
  fi
fi
# jmpirun --threads: its JVM also runs the ranks, and loads the message path they share (RankClassLoader) from its
# own class path, so it gets a cache of its own, from the same workload in threads mode (4-rank Hello: half the wall
# time of a start with the processes-mode cache, 0.19 s against 0.36; docs/launching.md). Options as jmpirun gives a
# crowded threads-mode launcher, and training as the ranks' ($train: C1 alone, the JDK's methods not compiled): its
# jmpi methods then compile once, with C1's final tier, as a rank's do. Without training data each went through C1
# with full profiling first and was compiled again when C2 declined it (JitHints' directives), and the profiled code
# ran meanwhile: cold, threads mode, against the cache without training data (6 interleaved gated rounds,
# 2026-12-01): Jacobi 256^2 x 5000 0.85x the time, Jacobi 1024^2 x 500 0.95x, N-body 0.93x, conjugate gradient 1.09x
# (its runs scatter 0.41-0.57 s in both).
threads_opts="-XX:UserThreadWaitAttemptsAtExit=0 -XX:+UseSerialGC $train"
threads_opts="$threads_opts -XX:AOTCacheOutput=$aot.tmp/jmpi-launcher-threads.aot"
if ! (cd "$work/cwd" && JMPI_JAVA="$java" JMPI_AOT=0 JMPI_LAUNCHER_JVM_ARGS="$threads_opts" timeout 300 \
    "$dist/bin/jmpirun" --no-stdin --threads -n 2 org.jmpi.examples.AotTraining "$work/threads.pid") \
    > "$work/threads.log" 2>&1 || [ ! -s "$aot.tmp/jmpi-launcher-threads.aot" ]; then
  echo "aot-caches: the threads-mode training run failed; jmpirun --threads starts with the launcher's cache. Its output:"
  cat "$work/threads.log"
  rm -f "$aot.tmp/jmpi-launcher-threads.aot"
fi
pid="$(cat "$work/rank0.pid" 2>/dev/null)"
if [ ! -s "$work/rankpid$pid.aot" ] || [ ! -s "$aot.tmp/jmpi-launcher.aot" ]; then
  echo "aot-caches: the training run made no cache; none used. Its output:"
  cat "$work/log"
  rm -rf "$aot.tmp"
  exit 0
fi
mv "$work/rankpid$pid.aot" "$aot.tmp/jmpi-rank.aot"
# the ranks that run the MPJ Express API (jmpirun --api mpj: lib/jmpi-mpj.jar instead of jmpi-core.jar) have a cache of
# their own, from the same workload through that API; without one they started as ranks without any cache do (a cold
# Jacobi 256^2 x 5000, 3 ungated runs each, 2026-11-28: 0.45-0.51 s against 0.33-0.36 through the Open MPI API, and
# 0.44-0.51 there without a cache; gated sittings: docs/mpj-express.md)
if [ -r "$dist/lib/jmpi-mpj.jar" ]; then
  rm -f "$work"/rank*.aot
  if (cd "$work/cwd" && JMPI_JAVA="$java" JMPI_AOT=0 JMPI_LAUNCHER_JVM_ARGS="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC" \
      JMPI_JVM_ARGS="$train -XX:AOTCacheOutput=$work/rank%p.aot" timeout 300 "$dist/bin/jmpirun" --no-stdin --api mpj \
      -n 2 -cp "$dist/lib/jmpi-mpj.jar" org.jmpi.mpj.AotTraining "$work/mpj0.pid") > "$work/log" 2>&1 \
      && pid="$(cat "$work/mpj0.pid" 2>/dev/null)" && [ -s "$work/rankpid$pid.aot" ]; then
    mv "$work/rankpid$pid.aot" "$aot.tmp/jmpi-rank-mpj.aot"
  else
    echo "aot-caches: the MPJ API's training run failed; its ranks start without a cache. Its output:"
    cat "$work/log"
  fi
fi
{
  echo "java.home=$(cd "$jhome" && pwd -P)"
  echo "java.version=$version"
  for jar in "$dist"/lib/*.jar; do
    echo "jar.$(basename "$jar")=$(stat -c '%s:%Y' "$jar")"
  done
} > "$aot.tmp/stamp"
mv "$aot.tmp" "$aot"
echo "aot-caches: made $(cd "$aot" && du -ch ./*.aot | tail -1 | cut -f1) of caches in $aot for Java $version"
