package org.jmpi.dl;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;

/**
 * A Chrome/Perfetto trace of the reducer (JSON array format: load it at ui.perfetto.dev or chrome://tracing). One
 * process per rank, one track per tensor name; each tensor's trip shows as the phases
 * {@code NEGOTIATE} (submitted until every rank had submitted it), {@code WAIT_FOR_FUSION} (until its fused buffer's
 * turn), {@code COPY_IN}, {@code ALLREDUCE} and {@code COPY_OUT}. Track 0 ("fused buffers") shows each fused
 * all-reduce with its tensor count and bytes. Times are microseconds since the Unix epoch, so the files of several
 * ranks line up.
 *
 * <p>Threading: written by the background thread only; {@link #close()} after that thread ended.
 */
final class Timeline implements AutoCloseable {
    private final BufferedWriter out;
    private final int pid;
    private final long baseNanos;
    private final long baseEpochMicros;
    private final Map<String, Integer> tracks = new HashMap<>();
    private boolean first = true;

    private Timeline(BufferedWriter out, int pid) throws IOException {
        this.out = out;
        this.pid = pid;
        baseNanos = System.nanoTime();
        baseEpochMicros = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
        out.write("[\n");
        meta("process_name", 0, "rank " + pid);
        meta("thread_name", 0, "fused buffers");
    }

    /** Opens the file for this rank ({@code {rank}} in the name is replaced), or returns null: not this rank's. */
    static Timeline open(Path file, int rank) throws IOException {
        String name = file.toString();
        boolean perRank = name.contains("{rank}");
        if (!perRank && rank != 0) {
            return null;
        }
        Path p = Path.of(name.replace("{rank}", Integer.toString(rank)));
        return new Timeline(Files.newBufferedWriter(p, StandardCharsets.UTF_8), rank);
    }

    /** Opens nothing, but says what is wrong with the file: called before the job's first cycle. */
    static void check(Path file, int rank) throws IOException {
        String name = file.toString();
        if (!name.contains("{rank}") && rank != 0) {
            return;
        }
        Path p = Path.of(name.replace("{rank}", Integer.toString(rank))).toAbsolutePath();
        Path dir = p.getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new IOException("timeline " + p + ": directory " + dir + " does not exist");
        }
        if (!Files.isWritable(dir) || Files.exists(p) && !Files.isWritable(p)) {
            throw new IOException("timeline " + p + ": not writable");
        }
    }

    private int track(String tensor) throws IOException {
        Integer t = tracks.get(tensor);
        if (t == null) {
            t = tracks.size() + 1;
            tracks.put(tensor, t);
            meta("thread_name", t, tensor);
        }
        return t;
    }

    private void meta(String what, int tid, String name) throws IOException {
        sep();
        out.write("{\"ph\":\"M\",\"pid\":" + pid + ",\"tid\":" + tid + ",\"name\":\"" + what
                + "\",\"args\":{\"name\":" + quote(name) + "}}");
    }

    /** One phase of one tensor, [fromNanos, toNanos) in System.nanoTime(). */
    void span(String tensor, String phase, long fromNanos, long toNanos) throws IOException {
        complete(track(tensor), phase, fromNanos, toNanos, null);
    }

    /** One fused all-reduce on track 0. */
    void fused(int tensors, long bytes, String algorithm, long fromNanos, long toNanos) throws IOException {
        complete(0, "ALLREDUCE " + tensors + (tensors == 1 ? " tensor" : " tensors"), fromNanos, toNanos,
                "\"tensors\":" + tensors + ",\"bytes\":" + bytes + ",\"algorithm\":" + quote(algorithm));
    }

    private void complete(int tid, String name, long fromNanos, long toNanos, String args) throws IOException {
        sep();
        long ts = baseEpochMicros + (fromNanos - baseNanos) / 1000;
        long dur = Math.max(0, (toNanos - fromNanos) / 1000);
        out.write("{\"ph\":\"X\",\"pid\":" + pid + ",\"tid\":" + tid + ",\"name\":" + quote(name) + ",\"ts\":" + ts
                + ",\"dur\":" + dur + (args == null ? "" : ",\"args\":{" + args + "}") + "}");
    }

    private void sep() throws IOException {
        if (!first) {
            out.write(",\n");
        }
        first = false;
    }

    void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        out.write("\n]\n");
        out.close();
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (ch < 0x20) {
                        b.append(String.format("\\u%04x", (int) ch));
                    } else {
                        b.append(ch);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
