package org.jmpi.launcher.ranks;

import org.jmpi.profile.MpiCall;
import org.jmpi.profile.MpiTool;

/** A tool that fails on every call: the program must go on, and the failure be reported once per rank. */
public final class ThrowingTool implements MpiTool {
    @Override
    public void before(MpiCall call) {
        throw new IllegalStateException("this tool always fails");
    }
}
