package org.jmpi.launcher;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.util.Map;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * {@code jmpirun --jfr DIR}: JDK Flight Recorder recordings of the ranks, with the JDK's default settings plus jmpi's
 * MPI events ({@code org.jmpi.*}, at the threshold {@code JMPI_JFR_THRESHOLD}, default that of the event types,
 * 20 us). Processes mode: every rank JVM gets {@code -XX:StartFlightRecording} writing {@code DIR/rank-<pid>.jfr} at
 * exit (the rank's number is in the recording's environment, {@code JMPI_RANK}) and {@code JMPI_JFR_COUNTERS=1}, so
 * that it also records {@code org.jmpi.Traffic} every second; threads mode: one recording of jmpirun's JVM,
 * {@code DIR/threads.jfr} (no traffic events: threads mode has no transports).
 *
 * <p>Threading: used by jmpirun's main thread only.
 */
final class JfrRecording {
    private static final String[] EVENTS = {"org.jmpi.PointToPoint", "org.jmpi.Collective", "org.jmpi.RmaEpoch",
        "org.jmpi.FileAccess", "org.jmpi.Spawn"};
    /** The periodic event (every second; ranks register it when {@code JMPI_JFR_COUNTERS} is set). */
    private static final String TRAFFIC = "org.jmpi.Traffic";
    private static final String QUEUES = "org.jmpi.Queues";

    private JfrRecording() {}

    /** The directory, made now (a clear error before the job when it cannot be). */
    private static Path directory(Path dir) {
        try {
            Files.createDirectories(dir);
            if (!Files.isWritable(dir)) {
                throw new IOException("not writable");
            }
            return dir.toAbsolutePath();
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("--jfr " + dir + ": cannot write recordings there (" + e + ")");
        }
    }

    private static String threshold(Map<String, String> env) {
        String t = env.get("JMPI_JFR_THRESHOLD");
        return t == null || t.isBlank() ? null : t.replace(" ", "");
    }

    /** The option for every rank JVM. */
    static String rankOption(Path dir, Map<String, String> env) {
        Path d = directory(dir);
        StringBuilder sb = new StringBuilder("-XX:StartFlightRecording:filename=" + d.resolve("rank-%p.jfr")
                + ",settings=default");
        String t = threshold(env);
        for (String e : EVENTS) {
            sb.append(",+").append(e).append("#enabled=true");
            if (t != null) {
                sb.append(",+").append(e).append("#threshold=").append(t);
            }
        }
        sb.append(",+").append(TRAFFIC).append("#enabled=true");
        sb.append(",+").append(QUEUES).append("#enabled=true");
        return sb.toString();
    }

    /** Threads mode: a recording of this JVM until the returned handle is closed (then written). */
    static Closeable startHere(Path dir, Map<String, String> env) {
        Path d = directory(dir);
        Recording r;
        try {
            r = new Recording(Configuration.getConfiguration("default"));
        } catch (IOException | ParseException e) {
            throw new IllegalArgumentException("--jfr: the JDK's default recording settings cannot be read: " + e);
        }
        String t = threshold(env);
        for (String e : EVENTS) {
            var s = r.enable(e);
            if (t != null) {
                s.withThreshold(java.time.Duration.ofNanos(parseNanos(t)));
            }
        }
        r.enable(TRAFFIC);
        r.enable(QUEUES);
        r.setName("jmpirun --threads");
        r.start();
        return () -> {
            r.stop();
            r.dump(d.resolve("threads.jfr"));
            r.close();
        };
    }

    /** "0ms", "20us", "1s" and the like, in nanoseconds. */
    static long parseNanos(String t) {
        String s = t.trim().toLowerCase(java.util.Locale.ROOT);
        long unit;
        String digits;
        if (s.endsWith("ns")) {
            unit = 1;
            digits = s.substring(0, s.length() - 2);
        } else if (s.endsWith("us")) {
            unit = 1_000;
            digits = s.substring(0, s.length() - 2);
        } else if (s.endsWith("ms")) {
            unit = 1_000_000;
            digits = s.substring(0, s.length() - 2);
        } else if (s.endsWith("s")) {
            unit = 1_000_000_000;
            digits = s.substring(0, s.length() - 1);
        } else {
            throw new IllegalArgumentException("JMPI_JFR_THRESHOLD=" + t + ": a duration such as 0ms or 20us");
        }
        return Long.parseLong(digits.trim()) * unit;
    }
}
