/**
 * JDK Flight Recorder events of MPI calls, one type per call family ({@code org.jmpi.PointToPoint},
 * {@code org.jmpi.Collective}, {@code org.jmpi.RmaEpoch}, {@code org.jmpi.FileAccess}, {@code org.jmpi.Spawn}),
 * committed by package {@code mpi}. Off unless a recording enables them (e.g. {@code -XX:StartFlightRecording} with
 * the default settings, or {@code jmpirun --jfr DIR}); off, an event costs a check the JIT folds away. See
 * docs/observability.md.
 */
package org.jmpi.runtime.events;
