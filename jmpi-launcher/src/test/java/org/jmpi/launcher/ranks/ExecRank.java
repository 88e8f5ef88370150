package org.jmpi.launcher.ranks;

/** Runs its arguments as a child process with this rank's environment and stdio, and exits with its exit code. */
public final class ExecRank {
    private ExecRank() {
    }

    public static void main(String[] args) throws Exception {
        System.exit(new ProcessBuilder(args).inheritIO().start().waitFor());
    }
}
