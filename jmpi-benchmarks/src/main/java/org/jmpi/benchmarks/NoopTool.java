package org.jmpi.benchmarks;

import org.jmpi.profile.MpiCall;
import org.jmpi.profile.MpiTool;

/** A profiling tool that does nothing: what the interception itself costs per call ({@code jmpirun --tool}). */
public final class NoopTool implements MpiTool {
    @Override
    public void before(MpiCall call) {}

    @Override
    public void after(MpiCall call) {}
}
