package org.jmpi.launcher;

import java.time.Duration;
import java.util.List;

/**
 * How a job ended.
 *
 * @param exitCode the job's exit code: 255 when it timed out; else the code of the first {@code abort} a rank sent
 *     (MPI_Abort); else the exit code of the first rank that failed (exited non-zero, including 128+signal when a
 *     signal ended it; 1 when it exited 0 without finalizing or broke the PMI protocol; 254 when its host was
 *     lost); 130 when it was interrupted; 143 when the caller killed the job; else 0
 * @param rankExitCodes each rank's process exit code, by rank (128+signal for ranks the launcher killed)
 * @param timedOut whether the job hit its timeout
 * @param aborted whether a rank sent {@code abort} before the launcher began tearing the job down
 * @param failedRank the rank whose failure or abort ended the job, or -1
 * @param summary one line for the user naming what went wrong (rank, pid, code), or "" for a clean job
 * @param elapsed wall time from start to the last rank's exit
 * @param teardownTime time from the decision to end the job to the last rank's exit; zero for a clean job
 */
public record LaunchResult(int exitCode, List<Integer> rankExitCodes, boolean timedOut, boolean aborted,
        int failedRank, String summary, Duration elapsed, Duration teardownTime) {

    /** Exit code when the job exceeded its timeout (Hydra's choice for {@code MPIEXEC_TIMEOUT}). */
    public static final int TIMEOUT_EXIT_CODE = 255;

    /** Exit code when the caller killed the job ({@link Launcher.Job#kill()}, or jmpirun got SIGTERM). */
    public static final int KILLED_EXIT_CODE = 143;

    /** Exit code when the job was interrupted ({@link Launcher.Job#interrupt()}, Ctrl-C): 128 + SIGINT. */
    public static final int INTERRUPTED_EXIT_CODE = 130;

    /**
     * The code recorded for the ranks of a host that was lost (its proxy ended or stopped answering), and the job's
     * exit code when that loss was the first failure.
     */
    public static final int HOST_LOST_EXIT_CODE = 254;

    public LaunchResult {
        rankExitCodes = List.copyOf(rankExitCodes);
    }

    /** Whether the job ended cleanly (exit code 0). */
    public boolean succeeded() {
        return exitCode == 0;
    }

    /** The exit code of one rank's process. */
    public int rankExitCode(int rank) {
        return rankExitCodes.get(rank);
    }
}
