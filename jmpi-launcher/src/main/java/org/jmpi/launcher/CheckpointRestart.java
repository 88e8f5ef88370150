package org.jmpi.launcher;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mpi.MPIException;
import org.jmpi.ft.StoredCheckpoint;

/**
 * jmpirun's side of coordinated checkpoint/restart ({@code org.jmpi.ft.Checkpoint} does the checkpointing in the
 * ranks): the flags {@code -ckpoint-prefix}, {@code -ckpoint-interval}, {@code -ckpoint-num}, {@code --ckpoint-keep}
 * and {@code --restart-on-failure}, checked before the job starts, turned into the ranks' {@code JMPI_CKPT_*}
 * variables, and the decision and message of each restart.
 *
 * <p>Variables a rank gets: {@code JMPI_CKPT_PREFIX} (the directory, absolute), {@code JMPI_CKPT_INTERVAL},
 * {@code JMPI_CKPT_KEEP} when given, {@code JMPI_CKPT_NUM} on the first run only (a restart takes the newest complete
 * generation), and {@code JMPI_RESTART_COUNT} (0, 1, ...). In threads mode the same settings go into the system
 * properties {@code jmpi.ckpt.*}, which the ranks read first.
 *
 * @param prefix the checkpoint directory (absolute), or null
 * @param interval seconds as given, or null
 * @param generation the generation to restart from, or null for the newest complete one
 * @param keep generations to keep, or null for the library's default
 * @param restarts how many times a failed job is started again (0: never)
 * @param finished the newest generation in {@code prefix} when a job that checkpointed there last finished (read from
 *     {@value #FINISHED_MARK}; -1 when none was complete then, or no job is known to have finished): the ranks
 *     restore only newer ones ({@code JMPI_CKPT_AFTER}), so that a job run again in the same directory starts afresh
 *     rather than "resuming" one that had finished
 */
record CheckpointRestart(Path prefix, String interval, Long generation, Integer keep, int restarts, long finished) {

    /** Nothing asked: no variables, no restarts. */
    static final CheckpointRestart NONE = new CheckpointRestart(null, null, null, null, 0, -1);

    /** The file of the checkpoint directory in which jmpirun notes that a job checkpointing there finished. */
    static final String FINISHED_MARK = ".jmpirun-finished";

    /**
     * Checks the flags (and {@code JMPI_CKPT_PREFIX} of jmpirun's environment when no directory flag is given): the
     * directory exists, is a directory and can be written; the interval is a number of seconds; the generation asked
     * for is complete.
     *
     * @throws IllegalArgumentException with the message for the user
     */
    static CheckpointRestart of(String prefixFlag, String interval, Long generation, Integer keep,
            Integer restartOnFailure, Map<String, String> environment) {
        String p = prefixFlag;
        String from = "-ckpoint-prefix";
        if (p == null) {
            String inherited = environment.get("JMPI_CKPT_PREFIX");
            if (inherited != null && !inherited.isBlank()) {
                p = inherited.trim();
                from = "JMPI_CKPT_PREFIX";
            }
        }
        if (p == null && (interval != null || generation != null || keep != null)) {
            throw new IllegalArgumentException((interval != null ? "-ckpoint-interval" : generation != null
                    ? "-ckpoint-num" : "--ckpoint-keep") + " needs a checkpoint directory (-ckpoint-prefix DIR)");
        }
        if (restartOnFailure != null && restartOnFailure < 0) {
            throw new IllegalArgumentException("--restart-on-failure needs a count of 0 or more, not "
                    + restartOnFailure);
        }
        int restarts = restartOnFailure == null ? 0 : restartOnFailure;
        if (p == null) {
            return new CheckpointRestart(null, null, null, null, restarts, -1);
        }
        Path dir;
        try {
            dir = Path.of(p).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException(from + " " + p + " is not a path");
        }
        checkDirectory(from, dir);
        if (interval != null) {
            try {
                BigDecimal s = new BigDecimal(interval.trim());
                if (s.signum() < 0 || s.compareTo(BigDecimal.valueOf(1_000_000_000L)) > 0) {
                    throw new NumberFormatException();
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("-ckpoint-interval needs a number of seconds (0 or more), not '"
                        + interval + "'");
            }
        }
        if (keep != null && keep < 1) {
            throw new IllegalArgumentException("--ckpoint-keep needs at least 1, not " + keep);
        }
        if (generation != null) {
            if (generation < 0) {
                throw new IllegalArgumentException("-ckpoint-num needs a generation of 0 or more, not " + generation);
            }
            List<Long> complete = complete(dir);
            if (!complete.contains(generation)) {
                throw new IllegalArgumentException("-ckpoint-num " + generation + ": " + dir + " holds no complete "
                        + "generation " + generation + (complete.isEmpty() ? " (it holds none)" : " (complete ones: "
                                + complete + ")"));
            }
        }
        // -ckpoint-num names a generation to resume from, whoever wrote it
        long finished = generation != null ? -1 : finishedGeneration(dir);
        return new CheckpointRestart(dir, interval == null ? null : interval.trim(), generation, keep, restarts,
                finished);
    }

    /** The generation {@value #FINISHED_MARK} of {@code dir} names, or -1 (no mark, or unreadable). */
    private static long finishedGeneration(Path dir) {
        try {
            return Long.parseLong(Files.readString(dir.resolve(FINISHED_MARK)).trim());
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    /**
     * The line that says this job starts afresh although its directory holds checkpoints (those of a job that
     * finished), or null when it does not (nothing there, or newer checkpoints of a job that did not finish).
     */
    String freshStartNote() {
        if (prefix == null || finished < 0) {
            return null;
        }
        List<Long> all = complete(prefix);
        if (all.isEmpty() || all.get(0) > finished) {
            return null;
        }
        return "jmpirun: note: the checkpoints in " + prefix + " (newest: generation " + all.get(0) + ") are those "
                + "of a job that finished; this job starts afresh (-ckpoint-num " + all.get(0) + " resumes from one)";
    }

    /**
     * After a job that succeeded: notes in the directory the newest complete generation, which later jobs started
     * there do not take for theirs. Says on {@code err} when it cannot.
     */
    void finished(java.io.PrintStream err) {
        if (prefix == null) {
            return;
        }
        List<Long> all = complete(prefix);
        try {
            Files.writeString(prefix.resolve(FINISHED_MARK), (all.isEmpty() ? -1 : all.get(0)) + "\n");
        } catch (IOException e) {
            err.println("jmpirun: warning: cannot note in " + prefix + " that the job finished (" + e + "); a job "
                    + "started there again will resume from its checkpoints");
        }
    }

    private static void checkDirectory(String from, Path dir) {
        if (!Files.exists(dir)) {
            throw new IllegalArgumentException(from + " " + dir + ": the checkpoint directory does not exist");
        }
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(from + " " + dir + ": not a directory");
        }
        try {
            // writing is what counts (a mode says nothing for root, nor for ACLs or read-only mounts)
            Files.delete(Files.createTempFile(dir, ".jmpirun-probe-", ""));
        } catch (IOException | SecurityException e) {
            throw new IllegalArgumentException(from + " " + dir + ": the checkpoint directory cannot be written ("
                    + (e instanceof java.nio.file.AccessDeniedException ? "permission denied" : e.toString()) + ")");
        }
    }

    /** The generations of {@code dir} that look complete, newest first (empty when it cannot be read). */
    static List<Long> complete(Path dir) {
        try {
            return StoredCheckpoint.completeGenerations(dir);
        } catch (MPIException e) {
            return List.of();
        }
    }

    /** Whether any checkpoint setting is to be passed to the ranks. */
    boolean checkpointing() {
        return prefix != null;
    }

    /** The variables of run {@code attempt} (0 for the first): checkpoint settings and the restart count. */
    Map<String, String> environment(int attempt) {
        Map<String, String> env = new LinkedHashMap<>();
        if (prefix != null) {
            env.put("JMPI_CKPT_PREFIX", prefix.toString());
            if (interval != null) {
                env.put("JMPI_CKPT_INTERVAL", interval);
            }
            if (keep != null) {
                env.put("JMPI_CKPT_KEEP", Integer.toString(keep));
            }
            // a restart takes the newest complete generation (an inherited variable is cleared too)
            env.put("JMPI_CKPT_NUM", attempt == 0 && generation != null ? Long.toString(generation) : "");
            // but not one of a job that finished
            env.put("JMPI_CKPT_AFTER", Long.toString(finished));
        }
        if (prefix != null || restarts > 0) {
            env.put("JMPI_RESTART_COUNT", Integer.toString(attempt));
        }
        return env;
    }

    /**
     * Whether a job that ended as {@code r} is started again after {@code attempt} restarts: when it failed because a
     * rank failed or a host was lost (not on success, timeout, MPI_Abort, Ctrl-C or SIGTERM), at most
     * {@link #restarts} times.
     */
    boolean restartAfter(LaunchResult r, int attempt) {
        return attempt < restarts && !r.succeeded() && !r.timedOut() && !r.aborted() && r.failedRank() >= 0;
    }

    /** The line printed for restart {@code number} (1-based) after a run that ended as {@code r}. */
    String restartLine(LaunchResult r, int number) {
        String what = r.summary().startsWith("jmpirun: ") ? r.summary().substring(9) : r.summary();
        String from;
        if (prefix == null) {
            from = "from the beginning (no -ckpoint-prefix)";
        } else {
            List<Long> complete = complete(prefix);
            from = complete.isEmpty() ? "from the beginning (no complete checkpoint yet in " + prefix + ")"
                    : "from checkpoint generation " + complete.get(0) + " in " + prefix;
        }
        return "jmpirun: " + what + "; restart " + number + " of " + restarts + ", " + from;
    }
}
