package org.jmpi.launcher;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Merges the ranks' trace files ({@code org.jmpi.tools.TraceTool}) into one trace in the Chrome trace event format,
 * which Perfetto and chrome://tracing open: one process track per rank ({@code pid} = world rank, named
 * {@code rank R}), a complete event ({@code ph X}) per MPI call, and a flow ({@code ph s} at the start of the send's
 * span, {@code ph f} at the end of the receive's span, bound to it) per message, pairing the k-th send from A to B with tag T on a communicator with
 * the k-th receive at B of a message from A with tag T on it (MPI's order between two ranks).
 *
 * <p>Threading: used by jmpirun's main thread only.
 */
final class TraceMerge {
    private TraceMerge() {}

    private record Point(int rank, String ts) {}

    /** Writes {@code out} from the files of {@code dir}; returns the number of messages drawn. */
    static int merge(Path dir, Path out) throws IOException {
        Map<String, ArrayDeque<Point>> sends = new HashMap<>();
        Map<String, ArrayDeque<Point>> receives = new HashMap<>();
        int flows = 0;
        try (BufferedWriter w = Files.newBufferedWriter(out)) {
            w.write("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n");
            boolean first = true;
            for (List<String> lines : Profiling.rankFiles(dir)) {
                String[] head = lines.get(0).split("\t");
                int rank = Integer.parseInt(head[1]);
                first = event(w, first, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":" + rank
                        + ",\"args\":{\"name\":\"rank " + rank + (head.length > 3 && !head[3].equals("0")
                                ? " (" + head[3] + " calls not recorded)" : "") + "\"}}");
                first = event(w, first, "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":" + rank
                        + ",\"args\":{\"sort_index\":" + rank + "}}");
                for (String l : lines.subList(1, lines.size())) {
                    String[] c = l.split("\t", -1);
                    first = event(w, first, "{\"name\":" + quote(c[0]) + ",\"cat\":\"mpi\",\"ph\":\"X\",\"ts\":" + c[1]
                            + ",\"dur\":" + c[2] + ",\"pid\":" + rank + ",\"tid\":0}");
                    collect(sends, c.length > 3 ? c[3] : "", rank, c[1]);
                    // the arrow ends where the receive ended (inside its span, so Perfetto binds it there)
                    String end = String.format(java.util.Locale.ROOT, "%.3f",
                            Double.parseDouble(c[1]) + Math.max(0, Double.parseDouble(c[2]) - 0.001));
                    collect(receives, c.length > 4 ? c[4] : "", rank, end);
                }
            }
            for (Map.Entry<String, ArrayDeque<Point>> e : sends.entrySet()) {
                ArrayDeque<Point> rq = receives.get(e.getKey());
                while (rq != null && !e.getValue().isEmpty() && !rq.isEmpty()) {
                    Point s = e.getValue().poll();
                    Point r = rq.poll();
                    flows++;
                    first = event(w, first, "{\"name\":\"message\",\"cat\":\"p2p\",\"ph\":\"s\",\"id\":" + flows
                            + ",\"ts\":" + s.ts() + ",\"pid\":" + s.rank() + ",\"tid\":0}");
                    first = event(w, first, "{\"name\":\"message\",\"cat\":\"p2p\",\"ph\":\"f\",\"bp\":\"e\",\"id\":"
                            + flows + ",\"ts\":" + r.ts() + ",\"pid\":" + r.rank() + ",\"tid\":0}");
                }
            }
            w.write("\n]}\n");
        }
        return flows;
    }

    /** Adds each {@code src,dst,tag,comm} of {@code ends} to its queue, keyed by the whole tuple. */
    private static void collect(Map<String, ArrayDeque<Point>> into, String ends, int rank, String ts) {
        if (ends.isEmpty()) {
            return;
        }
        for (String e : ends.split(";")) {
            if (!e.isEmpty()) {
                into.computeIfAbsent(e, k -> new ArrayDeque<>()).add(new Point(rank, ts));
            }
        }
    }

    private static boolean event(BufferedWriter w, boolean first, String json) throws IOException {
        if (!first) {
            w.write(",\n");
        }
        w.write(json);
        return false;
    }

    static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                default -> {
                    if (ch < 0x20) {
                        sb.append(String.format("\\u%04x", (int) ch));
                    } else {
                        sb.append(ch);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
