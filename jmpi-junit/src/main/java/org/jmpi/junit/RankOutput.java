package org.jmpi.junit;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The captured output of the rank JVMs of one processes-mode invocation: every line, tagged with its rank, in the
 * order lines arrived; plus the failure blocks that {@link RankMain} printed, taken out of the stream.
 *
 * <p>Threading: {@link #line} is called by the launcher's output pump threads (several at once); the reading
 * methods by the JUnit thread after the job ended or was killed. All methods synchronise on this object.
 */
final class RankOutput {
    /** Lines kept in total; older ones are dropped (and counted) once the cap is reached. */
    static final int MAX_LINES = 4000;

    private final Deque<String> lines = new ArrayDeque<>();
    private int dropped;
    private final StringBuilder[] openBlock;
    private final String[] blockHeader;
    private final SortedMap<Integer, String> failureText = new TreeMap<>();
    private final SortedMap<Integer, String> assumptionText = new TreeMap<>();
    private final long[] lastLineNanos;

    RankOutput(int size) {
        openBlock = new StringBuilder[size];
        blockHeader = new String[size];
        lastLineNanos = new long[size];
    }

    /** One line (without its terminator) printed by {@code rank} on stdout or (with {@code stderr}) on stderr. */
    synchronized void line(int rank, boolean stderr, String line) {
        if (rank < 0 || rank >= openBlock.length) {
            add("[?] " + line);
            return;
        }
        lastLineNanos[rank] = System.nanoTime();
        if (stderr && line.startsWith(RankMain.MARKER)) {
            String what = line.substring(RankMain.MARKER.length());
            if (what.equals("end")) {
                StringBuilder b = openBlock[rank];
                if (b != null) {
                    String text = b.toString().stripTrailing();
                    if (blockHeader[rank].endsWith("assumption failed")) {
                        assumptionText.put(rank, text);
                    } else {
                        failureText.put(rank, text);
                    }
                    openBlock[rank] = null;
                }
            } else {
                openBlock[rank] = new StringBuilder();
                blockHeader[rank] = what;
            }
            return;
        }
        if (stderr && openBlock[rank] != null) {
            openBlock[rank].append(line).append('\n');
            return;
        }
        add("[" + rank + "] " + line);
    }

    private void add(String line) {
        lines.addLast(line);
        if (lines.size() > MAX_LINES) {
            lines.removeFirst();
            dropped++;
        }
    }

    /** The stack trace text each failing rank reported, by rank (a block cut short by a kill counts too). */
    synchronized SortedMap<Integer, String> failures() {
        SortedMap<Integer, String> out = new TreeMap<>(failureText);
        for (int r = 0; r < openBlock.length; r++) {
            if (openBlock[r] != null && !blockHeader[r].endsWith("assumption failed")) {
                out.putIfAbsent(r, openBlock[r].toString().stripTrailing() + "\n(cut short)");
            }
        }
        return out;
    }

    /** The first line (exception and message) of each rank's failed assumption, by rank. */
    synchronized SortedMap<Integer, String> assumptions() {
        SortedMap<Integer, String> out = new TreeMap<>();
        assumptionText.forEach((r, t) -> out.put(r, t.lines().findFirst().orElse("").strip()));
        return out;
    }

    /** When {@code rank} last printed, in {@link System#nanoTime()} terms (0: never). */
    synchronized long lastLineNanos(int rank) {
        return lastLineNanos[rank];
    }

    /** Every line kept, each prefixed with {@code [rank]}. */
    synchronized String text() {
        List<String> all = new ArrayList<>(lines);
        StringBuilder sb = new StringBuilder();
        if (dropped > 0) {
            sb.append("(").append(dropped).append(" earlier lines dropped)\n");
        }
        for (String l : all) {
            sb.append(l).append('\n');
        }
        return sb.toString();
    }
}
