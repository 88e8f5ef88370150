package org.jmpi.profile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The tool behind {@code jmpirun --summary} (the report mpiP users know): per call name, how many calls and how long
 * they took in all, the longest one; and the rank's time from the start of {@code MPI_Init} to the end of
 * {@code MPI_Finalize}. At {@code MPI_Finalize} it writes {@code rank-<r>.tsv} into {@code jmpi.summary.dir}
 * (system property) or {@code JMPI_SUMMARY_DIR}, which jmpirun reads and merges when the job ends; without either it
 * prints the rank's table on standard error.
 *
 * <p>Threading: the counters are per call name in a concurrent map, updated under the entry's lock.
 */
public final class SummaryTool implements MpiTool {
    /** Created by the profiling interface when the tool is named (jmpirun --summary). */
    public SummaryTool() {}

    private final Map<String, long[]> calls = new ConcurrentHashMap<>();
    private volatile long initStart;
    private volatile int rank = -1;

    @Override
    public void before(MpiCall call) {
        if (initStart == 0 && call.name().startsWith("MPI.Init")) {
            initStart = call.startNanos();
        }
        if (call.rank() >= 0) {
            rank = call.rank();
        }
    }

    @Override
    public void after(MpiCall call) {
        long d = call.durationNanos();
        long[] s = calls.computeIfAbsent(call.name(), k -> new long[3]);
        synchronized (s) {
            s[0]++;
            s[1] += d;
            s[2] = Math.max(s[2], d);
        }
        if (call.rank() >= 0) {
            rank = call.rank();
        }
        if (call.name().equals("MPI.Finalize")) {
            write(System.nanoTime() - (initStart == 0 ? call.startNanos() : initStart));
        }
    }

    private void write(long wallNanos) {
        List<String> lines = new ArrayList<>();
        lines.add("rank\t" + rank + "\t" + wallNanos);
        calls.forEach((name, s) -> {
            synchronized (s) {
                lines.add(name + "\t" + s[0] + "\t" + s[1] + "\t" + s[2]);
            }
        });
        String dir = System.getProperty("jmpi.summary.dir");
        if (dir == null) {
            dir = System.getenv("JMPI_SUMMARY_DIR");
        }
        if (dir == null) {
            System.err.println("jmpi: summary of rank " + rank + " (name, calls, total ns, max ns):");
            lines.forEach(l -> System.err.println("  " + l));
            return;
        }
        try {
            Path tmp = Path.of(dir, "rank-" + rank + ".tsv.tmp");
            Files.write(tmp, lines);
            Files.move(tmp, Path.of(dir, "rank-" + rank + ".tsv"), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            System.err.println("jmpi: rank " + rank + " cannot write its summary into " + dir + ": " + e);
        }
    }
}
