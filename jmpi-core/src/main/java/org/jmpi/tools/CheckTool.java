package org.jmpi.tools;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import mpi.Comm;
import mpi.Datatype;
import mpi.Intercomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import org.jmpi.profile.MpiCall;
import org.jmpi.profile.MpiTool;

/**
 * {@code jmpirun --check}: a debug mode built on the profiling interface, a user of package {@code mpi} like any
 * program (its own MPI calls are not reported to tools).
 *
 * <ul>
 *   <li><b>Collective consistency.</b> Before each collective on an intracommunicator every rank of it exchanges
 *       what it is about to call (an allgather of the call, the root, the size of the data each rank
 *       contributes); when the ranks disagree, each prints {@code jmpi --check: rank R ...: called X(root, count x
 *       TYPE) at <call site>} and the job ends with exit code {@value #EXIT_MISMATCH}.</li>
 *   <li><b>Blocked ranks.</b> A call that has not returned after {@code JMPI_CHECK_BLOCKED_SECONDS} (default 60) is
 *       reported with what it waits for and where it was called. When every rank of the job is blocked, the lowest
 *       prints who waits on whom and the job ends with exit code {@value #EXIT_DEADLOCK}.</li>
 *   <li><b>Leaks.</b> At {@code MPI_Finalize}, communicators created and never freed and requests started and never
 *       completed or freed (as far as wait/test/free on them shows) are listed, with where each was made.</li>
 * </ul>
 *
 * <p>Threading: per-thread state in concurrent maps; the watchdog is a daemon thread of its own.
 */
public final class CheckTool implements MpiTool {
    /** Exit code of a job stopped by a collective mismatch. */
    public static final int EXIT_MISMATCH = 86;
    /** Exit code of a job stopped because every rank was blocked. */
    public static final int EXIT_DEADLOCK = 87;
    private static final Set<String> ROOTED = Set.of("bcast", "reduce", "gather", "gatherv", "scatter", "scatterv");
    private static final Set<String> SIZED = Set.of("bcast", "reduce", "allReduce", "gather", "allGather", "allToAll",
            "scan", "exScan", "reduceScatterBlock");
    private static final Set<String> COLLECTIVES = Set.of("barrier", "bcast", "reduce", "allReduce", "gather",
            "gatherv", "scatter", "scatterv", "allGather", "allGatherv", "allToAll", "allToAllv", "allToAllw",
            "reduceScatter", "reduceScatterBlock", "scan", "exScan");

    private final Map<Thread, MpiCall> inProgress = new ConcurrentHashMap<>();
    private final Map<MpiCall, Boolean> reported = new ConcurrentHashMap<>();
    private final Map<Object, String> comms = new ConcurrentHashMap<>();
    private final Map<Object, String> requests = new ConcurrentHashMap<>();
    private final long blockedNanos;
    private final Path dir;
    private volatile int worldRank = -1;
    private volatile int worldSize = -1;
    private volatile boolean watching;

    public CheckTool() {
        long s = 60;
        String v = System.getenv("JMPI_CHECK_BLOCKED_SECONDS");
        if (v != null) {
            try {
                s = Math.max(1, Long.parseLong(v.trim()));
            } catch (NumberFormatException e) {
                // default
            }
        }
        blockedNanos = s * 1_000_000_000L;
        String d = System.getProperty("jmpi.check.dir", System.getenv("JMPI_CHECK_DIR"));
        dir = d == null ? null : Path.of(d);
    }

    /** The method name without its class, and without the leading i of a non-blocking collective. */
    private static String base(MpiCall call) {
        String m = call.name().substring(call.name().indexOf('.') + 1);
        if (m.length() > 1 && m.charAt(0) == 'i' && Character.isUpperCase(m.charAt(1))) {
            String b = Character.toLowerCase(m.charAt(1)) + m.substring(2);
            return COLLECTIVES.contains(b) ? b : m;
        }
        return m;
    }

    @Override
    public void before(MpiCall call) {
        if (call.rank() >= 0 && worldRank < 0) {
            started();
        }
        inProgress.put(Thread.currentThread(), call);
        String b = base(call);
        if (COLLECTIVES.contains(b) && call.target() instanceof Comm c && !(c instanceof Intercomm)) {
            checkCollective(c, b, call);
        }
    }

    @Override
    public void after(MpiCall call) {
        inProgress.remove(Thread.currentThread());
        reported.remove(call);
        clearBlocked();
        if (call.failure() != null) {
            return;
        }
        Object r = call.result();
        if (r instanceof Comm c && r != MPI.COMM_WORLD && r != MPI.COMM_SELF) {
            comms.put(c, site());
        } else if (r instanceof Request q) {
            requests.put(q, site());
        }
        String m = call.name();
        if (m.endsWith(".free") || m.endsWith(".disconnect")) {
            comms.remove(call.target());
            requests.remove(call.target());
        } else if (m.equals("Request.waitFor") || m.equals("Request.cancel")
                || (m.equals("Request.test") && r != null)) {
            requests.remove(call.target());
        } else if (m.startsWith("Request.waitAll") || m.startsWith("Request.testAll") && Boolean.TRUE.equals(r)) {
            for (Object a : call.arguments()) {
                if (a instanceof Request[] all) {
                    for (Request q : all) {
                        requests.remove(q);
                    }
                }
            }
        } else if (m.equals("MPI.Finalize")) {
            leaks();
        }
    }

    private void started() {
        try {
            worldRank = MPI.COMM_WORLD.getRank();
            worldSize = MPI.COMM_WORLD.getSize();
        } catch (MPIException e) {
            return;
        }
        if (!watching) {
            watching = true;
            Thread.ofPlatform().daemon().name("jmpi-check-watchdog").start(this::watch);
        }
    }

    // ---------------------------------------------------------------------------------------- collectives

    private void checkCollective(Comm c, String base, MpiCall call) {
        try {
            int root = ROOTED.contains(base) ? lastInt(call) : -1;
            int pair = SIZED.contains(base) ? 0 : base.equals("scatter") ? 1 : -1;
            long bytes = pair < 0 ? -1 : nthUnits(call, pair);
            int[] mine = {base.hashCode(), root, (int) (bytes >>> 32), (int) bytes};
            int n = c.getSize();
            int[] all = new int[4 * n];
            c.allGather(mine, 4, MPI.INT, all, 4, MPI.INT);
            boolean same = true;
            for (int r = 1; r < n && same; r++) {
                for (int k = 0; k < 4; k++) {
                    same &= all[4 * r + k] == all[k];
                }
            }
            if (same) {
                return;
            }
            System.err.println("jmpi --check: collective mismatch on " + describe(c) + ": rank " + c.getRank()
                    + " (world rank " + worldRank + ") called " + call.name() + "(" + (root >= 0 ? "root " + root
                    + (pair >= 0 ? ", " : "") : "") + (pair >= 0 ? nthData(call, pair) : "") + ") at " + site());
            System.err.flush();
            c.barrier();
            if (c.getRank() == 0) {
                System.err.println("jmpi --check: the ranks of " + describe(c) + " disagree on this collective "
                        + "(call, root or data size): see each rank's line; ending the job (exit code "
                        + EXIT_MISMATCH + ")");
                System.err.flush();
                c.abort(EXIT_MISMATCH);
            } else {
                c.barrier(); // rank 0 ends the job
            }
        } catch (MPIException e) {
            // the check could not run: let the call itself report what is wrong
        }
    }

    private static int lastInt(MpiCall call) {
        List<Object> a = call.arguments();
        return a.get(a.size() - 1) instanceof Integer i ? i : -1;
    }

    /** count * size (in units of the base type, as Datatype.getSize counts) of the n-th (count, type) argument pair. */
    private static long nthUnits(MpiCall call, int n) throws MPIException {
        List<Object> a = call.arguments();
        int seen = 0;
        for (int i = 0; i + 1 < a.size(); i++) {
            if (a.get(i) instanceof Integer count && a.get(i + 1) instanceof Datatype t && seen++ == n) {
                return (long) count * t.getSize();
            }
        }
        return -1;
    }

    /** "count x TYPE" of the n-th (count, type) argument pair. */
    private static String nthData(MpiCall call, int n) throws MPIException {
        List<Object> a = call.arguments();
        int seen = 0;
        for (int i = 0; i + 1 < a.size(); i++) {
            if (a.get(i) instanceof Integer count && a.get(i + 1) instanceof Datatype t && seen++ == n) {
                String name = t.getName();
                return count + " x " + (name == null || name.isEmpty() ? "a derived datatype" : name);
            }
        }
        return "";
    }

    private static String describe(Comm c) throws MPIException {
        String name = c.getName();
        return (name == null || name.isEmpty() ? "a communicator" : name) + " of " + c.getSize() + " ranks";
    }

    /** The first frame of the program: outside package mpi, jmpi and the JDK. */
    private static String site() {
        return StackWalker.getInstance().walk(s -> s.map(StackWalker.StackFrame::toStackTraceElement)
                .filter(f -> !f.getClassName().startsWith("mpi.") && !f.getClassName().startsWith("org.jmpi.tools.")
                        && !f.getClassName().startsWith("org.jmpi.profile.") && !f.getClassName().startsWith("java.")
                        && !f.getClassName().startsWith("jdk."))
                .findFirst().map(StackTraceElement::toString).orElse("(unknown)"));
    }

    // ---------------------------------------------------------------------------------------- blocked ranks

    private void watch() {
        while (true) {
            try {
                Thread.sleep(200); // a watchdog's poll period, not a synchronisation
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (Map.Entry<Thread, MpiCall> e : inProgress.entrySet()) {
                MpiCall c = e.getValue();
                if (now - c.startNanos() > blockedNanos && reported.putIfAbsent(c, Boolean.TRUE) == null) {
                    String what = waitsFor(c);
                    System.err.println("jmpi --check: rank " + worldRank + " blocked for " + (now - c.startNanos())
                            / 1_000_000_000L + " s in " + c.name() + what + " (thread " + e.getKey().getName() + ")");
                    System.err.flush();
                    markBlocked(c.name() + what);
                }
            }
            if (dir != null && worldRank == 0 && !reported.isEmpty()) {
                deadlock();
            }
        }
    }

    /** What a call waits for, from its arguments: the peer of a point-to-point call, the communicator of others. */
    private static String waitsFor(MpiCall c) {
        String m = c.name().substring(c.name().indexOf('.') + 1).toLowerCase(java.util.Locale.ROOT);
        List<Object> a = c.arguments();
        if ((m.contains("recv") || m.contains("probe")) && a.size() >= 2 && a.get(a.size() - 2) instanceof Integer s
                && a.get(a.size() - 1) instanceof Integer t) {
            return "(source " + s + ", tag " + t + ")";
        }
        if (m.contains("send") && a.size() >= 2 && a.get(a.size() - 2) instanceof Integer d
                && a.get(a.size() - 1) instanceof Integer t) {
            return "(dest " + d + ", tag " + t + ")";
        }
        return "()";
    }

    private void markBlocked(String what) {
        if (dir == null || worldRank < 0) {
            return;
        }
        try {
            // written aside and renamed: rank 0 must never read a mark that exists but is still empty
            Path tmp = dir.resolve("blocked-" + worldRank + ".tmp");
            Files.writeString(tmp, what);
            Files.move(tmp, dir.resolve("blocked-" + worldRank), java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            // the report above stands
        }
    }

    private void clearBlocked() {
        if (dir != null && worldRank >= 0 && reported.isEmpty()) {
            try {
                Files.deleteIfExists(dir.resolve("blocked-" + worldRank));
            } catch (IOException e) {
                // stale marks only make the deadlock report later
            }
        }
    }

    /** Rank 0: when every rank has a blocked mark, print who waits on whom and end the job. */
    private void deadlock() {
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < worldSize; r++) {
            Path p = dir.resolve("blocked-" + r);
            try {
                if (!Files.exists(p)) {
                    return;
                }
                String what = Files.readString(p);
                if (what.isEmpty()) {
                    return;
                }
                sb.append("\n  rank ").append(r).append(" waits in ").append(what);
            } catch (IOException e) {
                return;
            }
        }
        System.err.println("jmpi --check: every rank is blocked (a deadlock); who waits on whom:" + sb
                + "\njmpi --check: ending the job (exit code " + EXIT_DEADLOCK + ")");
        System.err.flush();
        try {
            MPI.COMM_WORLD.abort(EXIT_DEADLOCK);
        } catch (MPIException e) {
            Runtime.getRuntime().halt(EXIT_DEADLOCK);
        }
    }

    // ---------------------------------------------------------------------------------------- leaks

    private void leaks() {
        if (comms.isEmpty() && requests.isEmpty()) {
            return;
        }
        StringBuilder sb = new StringBuilder("jmpi --check: rank " + worldRank + " finalized with");
        if (!comms.isEmpty()) {
            sb.append(' ').append(comms.size()).append(" communicator(s) never freed (made at ")
                    .append(String.join("; ", comms.values())).append(')');
        }
        if (!requests.isEmpty()) {
            sb.append(comms.isEmpty() ? " " : " and ").append(requests.size())
                    .append(" request(s) never completed or freed (started at ")
                    .append(String.join("; ", requests.values())).append(')');
        }
        System.err.println(sb);
    }
}
