package org.jmpi.tools;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import mpi.Comm;
import mpi.Group;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import org.jmpi.profile.MpiCall;
import org.jmpi.profile.MpiTool;
import org.jmpi.runtime.FacadeAccess;

/**
 * The tool behind {@code jmpirun --trace FILE}: records every MPI call of the rank as a span, and for point-to-point
 * calls what jmpirun needs to draw a flow from each send to the receive that matched it (the world ranks of both
 * ends, the tag, the communicator). At {@code MPI_Finalize} it writes {@code trace-<rank>.tsv} into
 * {@code jmpi.trace.dir} / {@code JMPI_TRACE_DIR}; jmpirun merges the ranks' files into one Chrome/Perfetto trace.
 * Keeps at most {@value #MAX_EVENTS} calls per rank (then counts the rest).
 *
 * <p>File format, one call per line, tab-separated: {@code name, start (microseconds since the epoch), duration
 * (microseconds), sends, receives}, where sends and receives are {@code ;}-separated {@code src,dst,tag,comm} with
 * world ranks and a communicator key. First line: {@code rank <r> dropped <n>}.
 *
 * <p>Threading: calls are appended under the list's lock; the pending receives are in a concurrent map.
 */
public final class TraceTool implements MpiTool {
    static final int MAX_EVENTS = 1_000_000;
    private final long wallOriginMicros;
    private final long nanoOrigin;
    private final List<String> lines = new ArrayList<>();
    /** Receives started by iRecv and not completed yet, with their communicator and the order they were posted in. */
    private final Map<Request, Pending> pendingReceives = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong posted = new java.util.concurrent.atomic.AtomicLong();
    private long dropped;
    private volatile int rank = -1;

    private record Pending(Comm comm, long seq) {}

    public TraceTool() {
        Instant now = Instant.now();
        nanoOrigin = System.nanoTime();
        wallOriginMicros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }

    @Override
    public void after(MpiCall call) {
        if (call.rank() >= 0) {
            rank = call.rank();
        }
        String sends = "";
        String receives = "";
        if (call.failure() == null) {
            try {
                String[] f = flows(call);
                sends = f[0];
                receives = f[1];
            } catch (MPIException | RuntimeException e) {
                // a span without its flows
            }
        }
        double start = wallOriginMicros + (call.startNanos() - nanoOrigin) / 1000.0;
        String line = call.name() + "\t" + String.format(java.util.Locale.ROOT, "%.3f\t%.3f", start,
                call.durationNanos() / 1000.0) + "\t" + sends + "\t" + receives;
        synchronized (lines) {
            if (lines.size() < MAX_EVENTS) {
                lines.add(line);
            } else {
                dropped++;
            }
        }
        if (call.name().equals("MPI.Finalize")) {
            write();
        }
    }

    /** {sends, receives} of a call, as described in the class comment. */
    private String[] flows(MpiCall call) throws MPIException {
        String m = call.name();
        List<Object> a = call.arguments();
        if (!(call.target() instanceof Comm c) && !m.startsWith("Request.")) {
            return new String[] {"", ""};
        }
        switch (m) {
            case "Comm.send", "Comm.bSend", "Comm.sSend", "Comm.rSend", "Comm.iSend", "Comm.ibSend", "Comm.isSend",
                    "Comm.irSend" -> {
                Comm c = (Comm) call.target();
                return new String[] {end(c, c.getRank(), (Integer) a.get(3), (Integer) a.get(4)), ""};
            }
            case "Comm.recv" -> {
                Comm c = (Comm) call.target();
                Status s = (Status) call.result();
                return new String[] {"", end(c, s.getSource(), c.getRank(), s.getTag())};
            }
            case "Comm.sendRecv" -> {
                Comm c = (Comm) call.target();
                Status s = (Status) call.result();
                return new String[] {end(c, c.getRank(), (Integer) a.get(3), (Integer) a.get(4)),
                    end(c, s.getSource(), c.getRank(), s.getTag())};
            }
            case "Comm.iRecv" -> {
                Comm c = (Comm) call.target();
                if (call.result() instanceof Request r) {
                    FacadeAccess.get().keepOperation(r); // its source and tag stay readable after its completion
                    pendingReceives.put(r, new Pending(c, posted.incrementAndGet()));
                }
                return new String[] {"", ""};
            }
            default -> {
                return new String[] {"", m.startsWith("Request.") ? completed(call) : ""};
            }
        }
    }

    /**
     * The receive ends of the pending receives a call on requests completed: whichever call it is (waitFor,
     * waitStatus, test, testStatus, and the Any, All and Some forms with or without statuses), a receive it completed
     * is a null handle now, and its source and tag are still readable (kept by {@code keepOperation} at the iRecv).
     * In the order the receives were posted.
     */
    private String completed(MpiCall call) throws MPIException {
        if (pendingReceives.isEmpty()) {
            return "";
        }
        List<Request> mentioned = new ArrayList<>();
        if (call.target() instanceof Request r) {
            mentioned.add(r);
        }
        for (Object a : call.arguments()) {
            if (a instanceof Request r) {
                mentioned.add(r);
            } else if (a instanceof Request[] rs) {
                mentioned.addAll(java.util.Arrays.asList(rs));
            }
        }
        List<Map.Entry<Pending, int[]>> done = new ArrayList<>();
        FacadeAccess access = FacadeAccess.get();
        for (Request r : mentioned) {
            if (r == null || !r.isNull()) {
                continue; // still pending (a test that found it incomplete, the others of a waitAny)
            }
            Pending p = pendingReceives.remove(r);
            int[] st = p == null ? null : access.completedReceive(r);
            if (st != null) {
                done.add(Map.entry(p, st));
            }
        }
        done.sort(java.util.Comparator.comparingLong(e -> e.getKey().seq()));
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<Pending, int[]> e : done) {
            Comm c = e.getKey().comm();
            String end = end(c, e.getValue()[0], c.getRank(), e.getValue()[1]);
            if (!end.isEmpty()) {
                sb.append(sb.length() == 0 ? "" : ";").append(end);
            }
        }
        return sb.toString();
    }

    /** {@code src,dst,tag,comm} in world ranks (negative peers, e.g. PROC_NULL, give no flow). */
    private static String end(Comm c, int src, int dst, int tag) throws MPIException {
        if (src < 0 || dst < 0) {
            return "";
        }
        return world(c, src) + "," + world(c, dst) + "," + tag + "," + key(c);
    }

    private static int world(Comm c, int r) throws MPIException {
        if (c == MPI.COMM_WORLD) {
            return r;
        }
        Group g = c.getGroup();
        Group w = MPI.COMM_WORLD.getGroup();
        return Group.translateRanks(g, new int[] {r}, w)[0];
    }

    /** The communicator as both ends name it: its name (set or predefined) and size. */
    private static String key(Comm c) throws MPIException {
        String n = c.getName();
        return (n == null ? "" : n.replaceAll("[\\t;,:|\\n]", "_")) + "#" + c.getSize();
    }

    private void write() {
        String dir = System.getProperty("jmpi.trace.dir", System.getenv("JMPI_TRACE_DIR"));
        if (dir == null) {
            return;
        }
        List<String> copy;
        long drop;
        synchronized (lines) {
            copy = new ArrayList<>(lines);
            drop = dropped;
        }
        Path tmp = Path.of(dir, "trace-" + rank + ".tsv.tmp");
        try (BufferedWriter w = Files.newBufferedWriter(tmp)) {
            w.write("rank\t" + rank + "\tdropped\t" + drop + "\n");
            for (String l : copy) {
                w.write(l);
                w.write('\n');
            }
        } catch (IOException e) {
            System.err.println("jmpi: rank " + rank + " cannot write its trace into " + dir + ": " + e);
            return;
        }
        try {
            Files.move(tmp, Path.of(dir, "trace-" + rank + ".tsv"), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            System.err.println("jmpi: rank " + rank + " cannot write its trace into " + dir + ": " + e);
        }
    }
}
