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
 *   <li><b>Blocked ranks.</b> When every rank's one MPI call has waited in the progress engine for a second with
 *       no frame sent or received, and every frame sent has arrived (nothing in flight), rank 0 prints who waits on
 *       whom and the job ends with exit code {@value #EXIT_DEADLOCK}: within seconds (not for THREAD_MULTIPLE
 *       programs, nor after dynamic processes, where someone else may still send). Any other stall: a call that has
 *       not returned after {@code JMPI_CHECK_BLOCKED_SECONDS} (default 60) is reported with what it waits for, and
 *       when every rank is blocked so, the same verdict follows.</li>
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
    /** How long a rank waits in MPI, with no frame sent or received, before it says it is quiet. */
    private static final long QUIET_NANOS = 1_000_000_000L;
    /** The watchdog's poll period. */
    private static final long POLL_MILLIS = 200;
    /** The calls of dynamic process management (another job's ranks, which the watchdog does not see). */
    private static final Set<String> DYNAMIC = Set.of("spawn", "spawnMultiple", "connect", "accept", "join",
            "openPort", "lookupName");
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
    /** Set once the job used dynamic processes: a peer outside the job may end a wait, so only the long timeout. */
    private volatile boolean dynamic;
    /** Watchdog thread only: the call it watches for quiet, the counters then, and since when both are unchanged. */
    private MpiCall quietCall;
    private long[] quietCounters;
    private long quietSince;
    /** Whether this rank's quiet mark is written (watchdog sets, the caller's after() clears). */
    private volatile boolean quietMarked;
    /** Rank 0's watchdog: all ranks' quiet marks at its previous look, to see them unchanged on two looks. */
    private String lastQuiet;

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
        if (DYNAMIC.contains(call.name().substring(call.name().indexOf('.') + 1))) {
            dynamic = true;
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
        if (quietMarked) {
            clearQuiet();
        }
        reported.remove(call);
        clearBlocked();
        if (call.failure() != null) {
            return;
        }
        Object r = call.result();
        if (r != null && call.name().equals("Intercomm.getParent")) {
            dynamic = true; // a spawned job: its parents are not ranks of this job
        }
        if (r instanceof Comm c && r != MPI.COMM_WORLD && r != MPI.COMM_SELF) {
            comms.put(c, site());
        } else if (r instanceof Request q) {
            requests.put(q, site());
        }
        String m = call.name();
        if (m.endsWith(".free") || m.endsWith(".disconnect")) {
            comms.remove(call.target());
            requests.remove(call.target());
        } else if (m.equals("Request.cancel") || m.equals("Request.waitFor") || m.equals("Request.waitStatus")
                || m.startsWith("Request.waitAll")) {
            forget(call, false); // every request it names is complete
        } else if (m.startsWith("Request.")) {
            forget(call, true); // test, testStatus, the Any and Some forms, testAll: those it completed
        } else if (m.equals("MPI.Finalize")) {
            leaks();
        }
    }

    /** Drops the requests a call names (as its target or in an array) from the leak list; or only the completed. */
    private void forget(MpiCall call, boolean onlyCompleted) {
        if (call.target() instanceof Request q && (!onlyCompleted || q.isNull())) {
            requests.remove(q);
        }
        for (Object a : call.arguments()) {
            if (a instanceof Request[] all) {
                for (Request q : all) {
                    if (q != null && (!onlyCompleted || q.isNull())) {
                        requests.remove(q);
                    }
                }
            }
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

    /**
     * The first frame of the program: outside jmpi's own jar (the runtime and its facades, also the MPJ Express one
     * over the moved Open MPI facade in jmpi-mpj.jar) and the JDK.
     */
    private static String site() {
        return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).walk(s -> s
                .filter(f -> !ours(f.getDeclaringClass()) && !f.getClassName().startsWith("java.")
                        && !f.getClassName().startsWith("jdk."))
                .findFirst().map(f -> f.toStackTraceElement().toString()).orElse("(unknown)"));
    }

    private static final java.security.CodeSource OWN = CheckTool.class.getProtectionDomain().getCodeSource();

    /** Whether {@code c} comes from the jar (or class directory) this class comes from. */
    private static boolean ours(Class<?> c) {
        java.security.CodeSource cs = c.getProtectionDomain().getCodeSource();
        return c.getName().startsWith("mpi.") || c.getName().startsWith("org.jmpi.tools.")
                || c.getName().startsWith("org.jmpi.profile.")
                || OWN != null && cs != null && java.util.Objects.equals(OWN.getLocation(), cs.getLocation());
    }

    // ---------------------------------------------------------------------------------------- blocked ranks

    /**
     * Every {@value #POLL_MILLIS} ms: reports calls blocked for longer than {@code JMPI_CHECK_BLOCKED_SECONDS} and
     * marks the rank blocked (the long way, for any stall); marks the rank quiet when it waits in MPI with nothing
     * moving ({@link #watchQuiet}); rank 0 ends the job when every rank is quiet with nothing in flight, or blocked.
     */
    private void watch() {
        while (true) {
            try {
                Thread.sleep(POLL_MILLIS); // a watchdog's poll period, not a synchronisation
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
            watchQuiet(now);
            if (dir != null && worldRank == 0 && (quietDeadlock() || !reported.isEmpty() && deadlock())) {
                return; // the job is ending
            }
        }
    }

    // ---------------------------------------------------------------------------------------- quiet ranks

    /**
     * A rank is quiet when its one MPI call (a program that did not ask for THREAD_MULTIPLE makes one at a time, and
     * no other thread of it can then end the wait) has waited in the progress engine, with no frame sent or received
     * by the rank, for {@value #QUIET_NANOS} ns: then only another rank can end its wait. It writes {@code quiet-R}
     * with what it waits for and its traffic counters; the mark goes when the call returns or anything moves.
     */
    private void watchQuiet(long now) {
        if (dir == null || worldRank < 0) {
            return;
        }
        Map.Entry<Thread, MpiCall> waiting = quietCandidate(now);
        MpiCall c = waiting == null ? null : waiting.getValue();
        long[] counters = c == null ? null : counters();
        if (c == null || counters == null || c != quietCall || !java.util.Arrays.equals(counters, quietCounters)) {
            quietCall = c;
            quietCounters = counters;
            quietSince = now;
            if (quietMarked) {
                clearQuiet();
            }
            return;
        }
        if (!quietMarked && now - quietSince >= QUIET_NANOS) {
            StringBuilder sb = new StringBuilder(c.name()).append(waitsFor(c)).append('\n');
            for (int i = 0; i < counters.length; i++) {
                sb.append(i == 0 ? "" : ",").append(counters[i]);
            }
            writeMark("quiet-" + worldRank, sb.toString());
            quietMarked = true;
            if (inProgress.get(waiting.getKey()) != c) { // returned meanwhile: its after() may have missed the mark
                clearQuiet();
            }
        }
    }

    /** The one call of this rank in progress if it may count as quiet, else null. */
    private Map.Entry<Thread, MpiCall> quietCandidate(long now) {
        org.jmpi.runtime.JmpiRuntime rt = org.jmpi.runtime.JmpiRuntime.current();
        if (dynamic || rt == null || rt.threadLevel() >= mpi.MPI.THREAD_MULTIPLE || inProgress.size() != 1) {
            return null;
        }
        Map.Entry<Thread, MpiCall> e = inProgress.entrySet().stream().findFirst().orElse(null);
        if (e == null) {
            return null;
        }
        String m = e.getValue().name();
        // file access waits on the disk, Init and the name service on the launcher: not only on other ranks
        if (m.startsWith("File.") || m.startsWith("MPI.") && !m.equals("MPI.Finalize")
                || now - e.getValue().startNanos() < POLL_MILLIS * 1_000_000L || !inProgressWait(e.getKey())) {
            return null;
        }
        return e;
    }

    /**
     * Whether the thread is waiting in the progress engine now, with no code of the program (a user-defined
     * reduction, an error handler) above that wait.
     */
    private static boolean inProgressWait(Thread t) {
        for (StackTraceElement f : t.getStackTrace()) {
            String c = f.getClassName();
            if (c.equals("org.jmpi.runtime.Progress") && f.getMethodName().startsWith("await")) {
                return true;
            }
            if (!c.startsWith("org.jmpi.") && !c.startsWith("mpi.") && !c.startsWith("java.")
                    && !c.startsWith("jdk.") && !c.startsWith("sun.")) {
                return false;
            }
        }
        return false;
    }

    /**
     * This rank's traffic counters, {frames sent, bytes sent, frames received, bytes received} per peer; empty in
     * threads mode, which keeps none (a message goes straight to its receiver, or into a ring that the receiver, if
     * it waits, empties within microseconds: nothing stays in flight while both wait); null when they cannot be read.
     */
    private static long[] counters() {
        org.jmpi.runtime.JmpiRuntime rt = org.jmpi.runtime.JmpiRuntime.current();
        if (rt == null) {
            return null;
        }
        if (rt.threadsMode() || rt.size() == 1) {
            return new long[0];
        }
        if (!(rt.progress().transport() instanceof org.jmpi.transport.select.SelectingTransport st)) {
            return null;
        }
        org.jmpi.transport.Traffic t = st.traffic();
        long[] out = new long[4 * t.ranks()];
        for (int p = 0; p < t.ranks(); p++) {
            System.arraycopy(t.of(p), 0, out, 4 * p, 4);
        }
        return out;
    }

    private void clearQuiet() {
        quietMarked = false;
        try {
            Files.deleteIfExists(dir.resolve("quiet-" + worldRank));
        } catch (IOException e) {
            // a stale mark: rank 0 also wants every rank's counters to agree and to stay so
        }
    }

    /**
     * Rank 0: when every rank is quiet, every frame one sent another has arrived (nothing in flight), and the marks
     * are the same on two looks, prints who waits on whom and ends the job. Answers whether it did.
     */
    private boolean quietDeadlock() {
        String[] what = new String[worldSize];
        long[][] counters = new long[worldSize][];
        StringBuilder all = new StringBuilder();
        for (int r = 0; r < worldSize; r++) {
            String mark = readMark("quiet-" + r);
            int nl = mark == null ? -1 : mark.indexOf('\n');
            if (nl < 0) {
                lastQuiet = null;
                return false;
            }
            what[r] = mark.substring(0, nl);
            String[] c = mark.substring(nl + 1).split(",");
            counters[r] = c.length == 1 && c[0].isEmpty() ? new long[0]
                    : java.util.Arrays.stream(c).mapToLong(Long::parseLong).toArray();
            all.append(mark).append('\n');
        }
        for (int a = 0; a < worldSize; a++) {
            for (int b = 0; b < worldSize; b++) {
                if (!inFlightNone(counters[a], counters[b], a, b)) {
                    lastQuiet = null;
                    return false;
                }
            }
        }
        if (!all.toString().equals(lastQuiet)) {
            lastQuiet = all.toString();
            return false;
        }
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < worldSize; r++) {
            sb.append("\n  rank ").append(r).append(" waits in ").append(what[r]);
        }
        endJob(sb);
        return true;
    }

    /** Whether everything rank a sent rank b has arrived at b (frames and bytes), by their counters. */
    private static boolean inFlightNone(long[] a, long[] b, int ra, int rb) {
        if (a.length == 0 && b.length == 0) {
            return true; // threads mode
        }
        if (a.length <= 4 * rb + 1 || b.length <= 4 * ra + 3) {
            return false;
        }
        return a[4 * rb] == b[4 * ra + 2] && a[4 * rb + 1] == b[4 * ra + 3];
    }

    // ---------------------------------------------------------------------------------------- blocked ranks

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
        writeMark("blocked-" + worldRank, what);
    }

    /** Writes a mark aside and renames it: rank 0 must never read a mark that exists but is still empty. */
    private void writeMark(String name, String text) {
        try {
            Path tmp = dir.resolve(name + ".tmp");
            Files.writeString(tmp, text);
            Files.move(tmp, dir.resolve(name), java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            // the report above stands
        }
    }

    /** A mark's text, or null when it is not there (or cannot be read). */
    private String readMark(String name) {
        try {
            return Files.readString(dir.resolve(name));
        } catch (IOException e) {
            return null;
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

    /** Rank 0: when every rank has a blocked mark, print who waits on whom and end the job; answers whether it did. */
    private boolean deadlock() {
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < worldSize; r++) {
            String what = readMark("blocked-" + r);
            if (what == null || what.isEmpty()) {
                return false;
            }
            sb.append("\n  rank ").append(r).append(" waits in ").append(what);
        }
        endJob(sb);
        return true;
    }

    /**
     * Prints the verdict and ends the job with {@value #EXIT_DEADLOCK}. In threads mode the abort unwinds the calling
     * thread with a JobAbortedError, which ends the job; this watchdog thread then just stops (it would otherwise
     * die with that error's stack trace on standard error).
     */
    private static void endJob(StringBuilder whoWaitsOnWhom) {
        System.err.println("jmpi --check: every rank is blocked (a deadlock); who waits on whom:" + whoWaitsOnWhom
                + "\njmpi --check: ending the job (exit code " + EXIT_DEADLOCK + ")");
        System.err.flush();
        try {
            MPI.COMM_WORLD.abort(EXIT_DEADLOCK);
        } catch (MPIException e) {
            Runtime.getRuntime().halt(EXIT_DEADLOCK);
        } catch (org.jmpi.shared.JobAbortedError e) {
            // threads mode: the job is aborted
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
