package org.jmpi.tests.dpm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.util.Arrays;
import java.util.Map;
import mpi.Info;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.jmpi.dpm.DynamicProcesses;
import org.jmpi.ft.Ulfm;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;
import org.jmpi.junit.MpiTestContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Spawn in threads mode: the children are threads of the test's JVM, a threads-mode job of their own (own
 * COMM_WORLD, own class loaders), reached from engine to engine. Spawn from 1, 2 and 3 parents, spawnMultiple with two
 * commands (a class name and {@code java -cp}), nested spawn, 100 spawn+disconnect cycles without growth in threads,
 * a child that dies, two spawned jobs that connect to each other through a port, and every bad input.
 *
 * <p>The children are the nested classes' {@code main}s. A child that finds something wrong throws: its job aborts
 * and the parents' next operation on the intercommunicator fails, so the test fails.
 */
class SpawnInThreadsModeTest {
    /** The arguments every child of {@link Child} must get unchanged. */
    static final String[] ARGV = {"a b", "", "\"quoted\"", "it's", "tab\there"};

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    /** A child: checks argv, parent, world and attributes; sends rank² to the parents' root; allreduce; merge. */
    static final class Child {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            check(Arrays.equals(args, ARGV), "argv " + Arrays.toString(args));
            Intercomm parent = Intercomm.getParent();
            check(!parent.isNull(), "no parent");
            int rank = MPI.COMM_WORLD.getRank();
            int size = MPI.COMM_WORLD.getSize();
            check(parent.getRemoteSize() >= 1 && parent.getSize() == size, "parent sizes");
            check((Integer) MPI.COMM_WORLD.getAttr(MPI.APPNUM) == 0, "APPNUM " + MPI.COMM_WORLD.getAttr(MPI.APPNUM));
            check((Integer) MPI.COMM_WORLD.getAttr(MPI.UNIVERSE_SIZE) >= size, "UNIVERSE_SIZE");
            // own world: an allreduce among the children only
            int[] sum = new int[1];
            MPI.COMM_WORLD.allReduce(new int[] {1}, sum, 1, MPI.INT, MPI.SUM);
            check(sum[0] == size, "children's allreduce " + sum[0]);
            parent.send(new int[] {rank * rank}, 1, MPI.INT, 0, 1);
            parent.allReduce(new int[] {1}, sum, 1, MPI.INT, MPI.SUM);
            check(sum[0] == parent.getRemoteSize(), "allreduce over parents " + sum[0]);
            Intracomm all = parent.merge(true);
            check(all.getSize() == size + parent.getRemoteSize(), "merged size");
            check(all.getRank() == parent.getRemoteSize() + rank, "merged rank");
            all.barrier();
            all.free();
            parent.disconnect();
            check(Intercomm.getParent().isNull(), "parent after disconnect");
            MPI.Finalize();
        }
    }

    @MpiTest(ranks = {1, 2, 3}, modes = Mode.THREADS, timeoutSeconds = 120)
    void spawnFromParents(MpiTestContext ctx) throws MPIException {
        int n = ctx.size() == 2 ? 3 : 2;
        int[] errcodes = new int[n];
        Arrays.fill(errcodes, -1);
        Intercomm children = MPI.COMM_WORLD.spawn(Child.class.getName(), ARGV, n, MPI.INFO_NULL, 0, errcodes);
        assertThat(children.getRemoteSize()).isEqualTo(n);
        assertThat(children.getSize()).isEqualTo(ctx.size());
        assertThat(errcodes).containsOnly(MPI.SUCCESS);
        if (ctx.rank() == 0) {
            for (int c = 0; c < n; c++) {
                int[] in = new int[1];
                children.recv(in, 1, MPI.INT, c, 1);
                assertThat(in[0]).isEqualTo(c * c);
            }
        }
        int[] sum = new int[1];
        children.allReduce(new int[] {1}, sum, 1, MPI.INT, MPI.SUM);
        assertThat(sum[0]).isEqualTo(n);
        Intracomm all = children.merge(false);
        assertThat(all.getSize()).isEqualTo(ctx.size() + n);
        assertThat(all.getRank()).isEqualTo(ctx.rank());
        all.barrier();
        all.free();
        children.disconnect();
        assertThat(children.isNull()).isTrue();
        MPI.COMM_WORLD.barrier();
        assertThat(DynamicProcesses.census()).containsEntry("processes", 0).containsEntry("holds", 0);
    }

    /** A child of spawnMultiple: sends its APPNUM and world rank to the parents' root. */
    static final class AppChild {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            int app = (Integer) MPI.COMM_WORLD.getAttr(MPI.APPNUM);
            check(app == Integer.parseInt(args[0]), "APPNUM " + app + " for " + Arrays.toString(args));
            String layout = MPI.INFO_ENV.get("ompi_num_apps") + "/" + MPI.INFO_ENV.get("ompi_first_rank") + "/"
                    + MPI.INFO_ENV.get("ompi_np");
            check(layout.equals("2/0 2/2 3"), "INFO_ENV ompi_num_apps/ompi_first_rank/ompi_np " + layout);
            Intercomm p = Intercomm.getParent();
            p.send(new int[] {app, MPI.COMM_WORLD.getRank(), MPI.COMM_WORLD.getSize()}, 3, MPI.INT, 0, 9);
            p.disconnect();
            MPI.Finalize();
        }
    }

    @MpiTest(ranks = {1, 2}, modes = Mode.THREADS, timeoutSeconds = 120)
    void spawnMultipleWithTwoCommands(MpiTestContext ctx) throws MPIException {
        String cp = String.join(File.pathSeparator, Arrays.stream(((java.net.URLClassLoader) AppChild.class
                .getClassLoader()).getURLs()).map(u -> new File(java.net.URI.create(u.toString())).getPath())
                .toList());
        Info soft = new Info();
        soft.set("soft", "1:3");
        soft.set("host", "ignored-in-threads-mode");
        Info here = new Info();
        here.set("wdir", new File("").getAbsolutePath());
        int[] errcodes = new int[5];
        Intercomm c = MPI.COMM_WORLD.spawnMultiple(new String[] {AppChild.class.getName(), "java"},
                new String[][] {{"0"}, {"--enable-native-access=ALL-UNNAMED", "-cp", cp, AppChild.class.getName(), "1"}},
                new int[] {2, 3}, new Info[] {here, soft}, 0, errcodes);
        assertThat(c.getRemoteSize()).isEqualTo(5);
        assertThat(errcodes).containsOnly(MPI.SUCCESS);
        if (ctx.rank() == 0) {
            int[] apps = new int[5];
            for (int r = 0; r < 5; r++) {
                int[] got = new int[3];
                c.recv(got, 3, MPI.INT, r, 9);
                assertThat(got[1]).isEqualTo(r);
                assertThat(got[2]).isEqualTo(5); // one COMM_WORLD for the children of both commands
                apps[r] = got[0];
            }
            assertThat(apps).containsExactly(0, 0, 1, 1, 1);
        }
        c.disconnect();
    }

    /** A child that spawns a grandchild and reports the grandchild's answer plus one. */
    static final class NestedChild {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intercomm parent = Intercomm.getParent();
            Intercomm g = MPI.COMM_WORLD.spawn(GrandChild.class.getName(), new String[0], 1, MPI.INFO_NULL, 0, null);
            int[] d = new int[1];
            if (MPI.COMM_WORLD.getRank() == 0) {
                g.recv(d, 1, MPI.INT, 0, 12);
            }
            g.disconnect();
            if (MPI.COMM_WORLD.getRank() == 0) {
                parent.send(new int[] {d[0] + 1}, 1, MPI.INT, 0, 11);
            }
            parent.disconnect();
            MPI.Finalize();
        }
    }

    static final class GrandChild {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intercomm.getParent().send(new int[] {1}, 1, MPI.INT, 0, 12);
            Intercomm.getParent().disconnect();
            MPI.Finalize();
        }
    }

    @MpiTest(ranks = {1, 2}, modes = Mode.THREADS, timeoutSeconds = 120)
    void aChildSpawnsAGrandchild(MpiTestContext ctx) throws MPIException {
        Intercomm c = MPI.COMM_WORLD.spawn(NestedChild.class.getName(), new String[0], 2, MPI.INFO_NULL, 0, null);
        if (ctx.rank() == 0) {
            int[] depth = new int[1];
            c.recv(depth, 1, MPI.INT, 0, 11);
            assertThat(depth[0]).isEqualTo(2);
        }
        c.disconnect();
    }

    /** A quiet child: says its job id, then disconnects. */
    static final class QuietChild {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intercomm p = Intercomm.getParent();
            if (MPI.COMM_WORLD.getRank() == 0) {
                int[] v = {MPI.COMM_WORLD.getSize()};
                p.send(v, 1, MPI.INT, 0, 5);
            }
            p.disconnect();
            MPI.Finalize();
        }
    }

    @MpiTest(ranks = 1, modes = Mode.THREADS, timeoutSeconds = 600)
    void spawnAndDisconnectCyclesLeaveNoThreads(MpiTestContext ctx) throws Exception {
        int cycles = 100;
        long halfway = 0;
        for (int i = 0; i < cycles; i++) {
            Intercomm c = MPI.COMM_WORLD.spawn(QuietChild.class.getName(), new String[0], 2, MPI.INFO_NULL, 0, null);
            int[] v = new int[1];
            c.recv(v, 1, MPI.INT, 0, 5);
            assertThat(v[0]).isEqualTo(2);
            c.disconnect();
            if (i == cycles / 2) {
                halfway = liveThreadsAfterChildrenEnded();
            }
        }
        long now = liveThreadsAfterChildrenEnded();
        assertThat(now).as("threads after %d cycles (%d half way)", cycles, halfway).isLessThanOrEqualTo(halfway + 2);
        assertThat(DynamicProcesses.census()).containsEntry("processes", 0).containsEntry("holds", 0)
                .containsEntry("ports", 0).containsEntry("launchers", 0);
    }

    /** Threads of this JVM once every spawned job of this rank has ended (their threads end after disconnect). */
    private static long liveThreadsAfterChildrenEnded() throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (DynamicProcesses.census().get("launchers") > 0 && System.nanoTime() < deadline) {
            Thread.sleep(10); // the children's threads finish after their MPI_Finalize, which nothing here awaits
        }
        assertThat(DynamicProcesses.census().get("launchers")).as("children's jobs still running").isZero();
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).count();
    }

    /** A child that fails (throws) after a barrier with its parents. */
    static final class DyingChild {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intercomm.getParent().barrier();
            throw new IllegalStateException("this child dies on purpose (the test expects it)");
        }
    }

    @MpiTest(ranks = {1, 2}, modes = Mode.THREADS, timeoutSeconds = 120)
    void aChildThatDiesFailsTheParentsOperations(MpiTestContext ctx) throws MPIException {
        Intercomm c = MPI.COMM_WORLD.spawn(DyingChild.class.getName(), new String[0], 1, MPI.INFO_NULL, 0, null);
        c.setErrhandler(MPI.ERRORS_RETURN);
        c.barrier();
        // a receive posted before or after the death fails; so does a synchronous send nobody will receive
        assertThatThrownBy(() -> c.recv(new int[1], 1, MPI.INT, 0, 13)).isInstanceOfSatisfying(MPIException.class,
                e -> assertThat(e.getErrorClass()).isEqualTo(Ulfm.ERR_PROC_FAILED));
        assertThatThrownBy(() -> c.sSend(new int[1], 1, MPI.INT, 0, 14)).isInstanceOfSatisfying(MPIException.class,
                e -> assertThat(e.getErrorClass()).isEqualTo(Ulfm.ERR_PROC_FAILED));
        MPI.COMM_WORLD.barrier(); // the parents' own world is intact
    }

    /** Children of two separate spawns: the first opens a port and accepts, the second connects. */
    static final class PortChild {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intercomm parent = Intercomm.getParent();
            boolean server = args[0].equals("server");
            String port = null;
            if (server && MPI.COMM_WORLD.getRank() == 0) {
                port = Intracomm.openPort();
                char[] name = port.toCharArray();
                parent.send(name, name.length, MPI.CHAR, 0, 20);
            } else if (!server && MPI.COMM_WORLD.getRank() == 0) {
                char[] name = new char[MPI.MAX_PORT_NAME];
                int n = parent.recv(name, name.length, MPI.CHAR, 0, 21).getCount(MPI.CHAR);
                port = new String(name, 0, n);
            }
            Intercomm other = server ? MPI.COMM_WORLD.accept(port, 0) : MPI.COMM_WORLD.connect(port, 0);
            int[] sum = new int[1];
            other.allReduce(new int[] {MPI.COMM_WORLD.getRank() + 1}, sum, 1, MPI.INT, MPI.SUM);
            int r = other.getRemoteSize();
            check(sum[0] == r * (r + 1) / 2, "allreduce across the two spawned jobs " + sum[0]);
            other.disconnect();
            if (port != null && server) {
                Intracomm.closePort(port);
            }
            parent.send(new int[] {sum[0]}, 1, MPI.INT, 0, 22);
            parent.disconnect();
            MPI.Finalize();
        }
    }

    @MpiTest(ranks = 1, modes = Mode.THREADS, timeoutSeconds = 120)
    void twoSpawnedJobsConnectThroughAPort(MpiTestContext ctx) throws MPIException {
        Intercomm a = MPI.COMM_WORLD.spawn(PortChild.class.getName(), new String[] {"server"}, 2, MPI.INFO_NULL, 0,
                null);
        Intercomm b = MPI.COMM_WORLD.spawn(PortChild.class.getName(), new String[] {"client"}, 3, MPI.INFO_NULL, 0,
                null);
        char[] name = new char[MPI.MAX_PORT_NAME];
        int n = a.recv(name, name.length, MPI.CHAR, 0, 20).getCount(MPI.CHAR);
        b.send(name, n, MPI.CHAR, 0, 21);
        for (int r = 0; r < 2; r++) {
            int[] got = new int[1];
            a.recv(got, 1, MPI.INT, r, 22);
            assertThat(got[0]).isEqualTo(6); // 1 + 2 + 3 from the three connecting children
        }
        for (int r = 0; r < 3; r++) {
            int[] got = new int[1];
            b.recv(got, 1, MPI.INT, r, 22);
            assertThat(got[0]).isEqualTo(3);
        }
        a.disconnect();
        b.disconnect();
    }

    /** A Java program that never calls MPI_Init. */
    static final class NotMpi {
        public static void main(String[] args) {
            // ends at once
        }
    }

    @MpiTest(ranks = {1, 2}, modes = Mode.THREADS, timeoutSeconds = 120)
    void badInputFailsWithTheStandardsErrorClasses(MpiTestContext ctx) throws MPIException {
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        Map<String, Object[]> spawnErrors = new java.util.LinkedHashMap<>();
        Info elsewhere = new Info();
        elsewhere.set("wdir", "/");
        Info otherArch = new Info();
        otherArch.set("arch", "sparc-never");
        spawnErrors.put("missing class", new Object[] {"org.example.NoSuchMain", new String[0], MPI.INFO_NULL});
        spawnErrors.put("a program", new Object[] {"/bin/true", new String[0], MPI.INFO_NULL});
        spawnErrors.put("a JVM option", new Object[] {"java", new String[] {"-Xmx64m", Child.class.getName()},
            MPI.INFO_NULL});
        spawnErrors.put("java without a class", new Object[] {"java", new String[] {"-cp", "/tmp"}, MPI.INFO_NULL});
        spawnErrors.put("another wdir", new Object[] {Child.class.getName(), ARGV, elsewhere});
        spawnErrors.put("another arch", new Object[] {Child.class.getName(), ARGV, otherArch});
        spawnErrors.put("never calls MPI_Init", new Object[] {NotMpi.class.getName(), new String[0], MPI.INFO_NULL});
        for (Map.Entry<String, Object[]> e : spawnErrors.entrySet()) {
            Object[] a = e.getValue();
            int[] errcodes = {-1, -1};
            assertThatThrownBy(() -> MPI.COMM_WORLD.spawn((String) a[0], (String[]) a[1], 2, (Info) a[2], 0,
                    errcodes)).as(e.getKey()).isInstanceOfSatisfying(MPIException.class,
                            x -> assertThat(x.getErrorClass()).as(e.getKey() + ": " + x.getMessage())
                                    .isEqualTo(MPI.ERR_SPAWN));
            assertThat(errcodes).as(e.getKey()).containsOnly(MPI.ERR_SPAWN);
        }
        assertThatThrownBy(() -> MPI.COMM_WORLD.spawn(Child.class.getName(), ARGV, 0, MPI.INFO_NULL, 0, null))
                .isInstanceOfSatisfying(MPIException.class, x -> assertThat(x.getErrorClass()).isEqualTo(MPI.ERR_ARG));
        assertThatThrownBy(() -> MPI.COMM_WORLD.spawn(Child.class.getName(), ARGV, 1, MPI.INFO_NULL, 5, null))
                .isInstanceOfSatisfying(MPIException.class,
                        x -> assertThat(x.getErrorClass()).isEqualTo(MPI.ERR_ROOT));
        // nothing of the failed spawns is left, and the communicator still works
        assertThat(DynamicProcesses.census()).containsEntry("processes", 0).containsEntry("holds", 0)
                .containsEntry("launchers", 0).containsEntry("ports", 0);
        MPI.COMM_WORLD.barrier();
    }

    @MpiTest(ranks = {2, 3, 4}, modes = Mode.THREADS)
    void twoHalvesOfAThreadsJobConnectThroughAPort(MpiTestContext ctx) throws MPIException {
        PortsInOneJobTest.halves(ctx);
    }

    /** A parent that spawns children which wait for ever, then aborts its job. */
    static final class AbortingParent {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intercomm c = MPI.COMM_WORLD.spawn(WaitingChild.class.getName(), new String[0], 2, MPI.INFO_NULL, 0, null);
            c.barrier();
            MPI.COMM_WORLD.abort(5);
        }
    }

    /**
     * Waits for a message its parents never send; when that fails (the parents are gone), waits in its own world for
     * a message nobody sends: only the end of its job (tied to the parents') ends it.
     */
    static final class WaitingChild {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Intercomm parent = Intercomm.getParent();
            parent.setErrhandler(MPI.ERRORS_RETURN);
            parent.barrier();
            try {
                parent.recv(new int[1], 1, MPI.INT, 0, 99);
            } catch (MPIException e) {
                MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, MPI.COMM_WORLD.getRank(), 98);
            }
        }
    }

    /** When the parents' job aborts, the children's job ends with it (as killed parents end their children). */
    @Test
    @Timeout(120)
    void whenTheParentsAbortTheirChildrenEnd() throws Exception {
        String[] parts = System.getProperty("java.class.path").split(File.pathSeparator);
        java.net.URL[] urls = new java.net.URL[parts.length];
        for (int i = 0; i < parts.length; i++) {
            urls[i] = java.nio.file.Path.of(parts[i]).toUri().toURL();
        }
        int code = org.jmpi.shared.ThreadsJob.runMain(2, urls, AbortingParent.class.getName(), new String[0], false,
                5000);
        assertThat(code).isEqualTo(5);
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (childThreadsAlive() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(childThreadsAlive()).as("threads still running the children's main").isZero();
    }

    private static long childThreadsAlive() {
        return Thread.getAllStackTraces().entrySet().stream().filter(e -> e.getKey().isAlive()).filter(e -> Arrays
                .stream(e.getValue()).anyMatch(f -> f.getClassName().equals(WaitingChild.class.getName()))).count();
    }
}
