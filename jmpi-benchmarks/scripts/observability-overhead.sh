#!/bin/bash
# Interleaved rounds: events compiled in (this tree) against a build without them (OLD_DIST, OLD_BENCH: its
# distribution and benchmarks jar), no recording; and this tree with the profiling interface and a no-op tool.
NOW=$(cd "$(dirname "$0")/../.." && pwd)/jmpi-dist/target/jmpi/bin/jmpirun
OLD=${OLD_DIST:-/work/wt/nojfr/jmpi-dist/target/jmpi}/bin/jmpirun
BNOW=$(cd "$(dirname "$0")/../.." && pwd)/jmpi-benchmarks/target/jmpi-benchmarks-0.1.0-SNAPSHOT.jar
BOLD=${OLD_BENCH:-/work/wt/nojfr/jmpi-benchmarks/target/jmpi-benchmarks-0.1.0-SNAPSHOT.jar}
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
for r in 1 2 3; do
  for v in now old; do
    if [ $v = now ]; then J=$NOW; B=$BNOW; else J=$OLD; B=$BOLD; fi
    echo "## $v pingpong8 round $r"; $J -n 2 -cp $B org.jmpi.benchmarks.CallTimes --pingpong --bytes 8 --calls 200000 --reps 3
    echo "## $v allreduce4 round $r"; $J -n 2 -cp $B org.jmpi.benchmarks.CallTimes --call allreduce --bytes 4 --calls 200000 --reps 3
  done
  echo "## tool pingpong8 round $r"; $NOW -n 2 -cp $BNOW --tool org.jmpi.benchmarks.NoopTool org.jmpi.benchmarks.CallTimes --pingpong --bytes 8 --calls 200000 --reps 3
  echo "## tool allreduce4 round $r"; $NOW -n 2 -cp $BNOW --tool org.jmpi.benchmarks.NoopTool org.jmpi.benchmarks.CallTimes --call allreduce --bytes 4 --calls 200000 --reps 3
done
