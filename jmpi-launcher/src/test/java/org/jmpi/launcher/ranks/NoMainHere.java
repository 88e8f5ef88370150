package org.jmpi.launcher.ranks;

/** A class without a main method, for the launcher's message. */
public final class NoMainHere {
    private NoMainHere() {}

    public static int notMain() {
        return 0;
    }
}
