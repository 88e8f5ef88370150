# shellcheck shell=bash
# The JIT hints jmpi gives every Java rank (org.jmpi.runtime.JitHints.JVM_OPTIONS, the same list; a test in jmpi-dist
# keeps the two equal). Sourced by bin/jmpirun (for --threads, where the ranks run in the launcher's JVM) and by
# bin/jmpi-java (ranks started by another launcher). JMPI_JIT_HINTS=0 leaves them out. What they do: docs/launching.md,
# "Per-call latency and the heap".
# shellcheck disable=SC2034
jmpi_jit_hints=(
  -XX:CompileCommand=quiet
  --add-opens=jdk.management/com.sun.management.internal=ALL-UNNAMED
  '-XX:CompileCommand=dontinline,mpi.*::*OutOfLine'
  '-XX:CompileCommand=CompileThresholdScaling,org.jmpi.runtime.*::*,0.4'
  '-XX:CompileCommand=CompileThresholdScaling,org.jmpi.pt2pt.*::*,0.4'
  '-XX:CompileCommand=CompileThresholdScaling,org.jmpi.transport.*::*,0.4'
  '-XX:CompileCommand=CompileThresholdScaling,org.jmpi.shared.*::*,0.4'
  '-XX:CompileCommand=CompileThresholdScaling,jdk.internal.classfile.*::*,10.0'
  -XX:C1InlineStackLimit=10
)
