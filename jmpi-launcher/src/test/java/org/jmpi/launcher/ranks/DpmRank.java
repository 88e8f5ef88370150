package org.jmpi.launcher.ranks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import mpi.Info;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Rank program of the dynamic-process tests. Modes:
 * <ul>
 *   <li>{@code server FILE [SERVICE]}: opens a port, writes its name to FILE (and publishes it under SERVICE), accepts,
 *       checks the intercommunicator (sizes, point-to-point, bcast, allreduce, merge), disconnects, closes the port;</li>
 *   <li>{@code client PORT|-FILE|@SERVICE}: connects and does the same from the other side;</li>
 *   <li>{@code names}: rank 0 publishes a port under a name, every rank looks it up, rank 0 unpublishes it;</li>
 *   <li>{@code refused-server FILE}, {@code refused-client PORT}: a server and a client that cannot reach each other
 *       (one job runs as threads, the other as processes): each rank prints the error class it got;</li>
 *   <li>{@code spawn N [CMD]}: spawns N children (this class, mode child), exchanges with them, disconnects;</li>
 *   <li>{@code child}: the spawned side;</li>
 *   <li>{@code cycles K}: K spawn+disconnect cycles of one child, printing the process's thread and fd counts;</li>
 *   <li>{@code bad}: every bad input under ERRORS_RETURN, printing each error class;</li>
 *   <li>{@code progress}: a rank blocked in accept and then in connect must deliver what it sent before (its
 *       children need that message before they can connect or accept); {@code progress-child PORT} its children.</li>
 * </ul>
 * Every line a check prints starts with {@code ok}; a failed check throws (the rank exits non-zero).
 */
public final class DpmRank {
    private DpmRank() {}

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        switch (args[0]) {
            case "server" -> server(args, rank);
            case "client" -> client(args, rank);
            case "refused-server" -> refusedServer(args, rank);
            case "names" -> names(rank);
            case "refused-client" -> refused(MPI.COMM_WORLD, args[1], false);
            case "spawn" -> spawn(Integer.parseInt(args[1]), args.length > 2 ? args[2] : null);
            case "child" -> child(args);
            case "quiet" -> quiet();
            case "multi" -> multi(args);
            case "appcheck" -> appcheck(args);
            case "nested-child" -> nestedChild();
            case "dying" -> dying();
            case "dying-child" -> {
                Intercomm.getParent().barrier();
                Runtime.getRuntime().halt(3);
            }
            case "cycles" -> cycles(Integer.parseInt(args[1]));
            case "bad" -> bad();
            case "nested" -> nested();
            case "progress" -> progressWhileBlocked();
            case "progress-child" -> progressWhileBlockedChild(args[1]);
            case "orphaning" -> {
                MPI.COMM_WORLD.spawn(DpmRank.class.getName(), new String[] {"waiting"}, 2, MPI.INFO_NULL, 0, null);
                System.out.println("spawned " + ProcessHandle.current().pid());
                Thread.sleep(600_000); // killed by the test
            }
            case "waiting" -> {
                System.out.println("waiting " + ProcessHandle.current().pid());
                Intercomm.getParent().recv(new int[1], 1, MPI.INT, 0, 99); // never sent
            }
            case "grandchild" -> {
                Intercomm.getParent().send(new int[] {1}, 1, MPI.INT, 0, 12);
                Intercomm.getParent().disconnect();
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
        MPI.Finalize();
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    private static void server(String[] args, int rank) throws Exception {
        String port = null;
        if (rank == 0) {
            port = Intracomm.openPort();
            if (args.length > 2) {
                Intracomm.publishName(args[2], port);
            }
            Path tmp = Path.of(args[1] + ".tmp");
            Files.writeString(tmp, port);
            Files.move(tmp, Path.of(args[1]), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
        Intercomm inter = MPI.COMM_WORLD.accept(port, 0);
        exercise(inter, false);
        inter.disconnect();
        if (rank == 0) {
            if (args.length > 2) {
                Intracomm.unpublishName(args[2], port);
            }
            Intracomm.closePort(port);
        }
        System.out.println("ok server " + rank);
    }

    private static void names(int rank) throws Exception {
        String service = "svc-" + ProcessHandle.current().pid();
        char[] port = new char[MPI.MAX_PORT_NAME];
        int n = 0;
        if (rank == 0) {
            String p = Intracomm.openPort();
            Intracomm.publishName(service, p);
            n = p.length();
            p.getChars(0, n, port, 0);
        }
        int[] len = {n};
        MPI.COMM_WORLD.bcast(len, 1, MPI.INT, 0);
        MPI.COMM_WORLD.bcast(port, len[0], MPI.CHAR, 0);
        String found = Intracomm.lookupName(service);
        check(found.equals(new String(port, 0, len[0])), "lookup gave " + found);
        MPI.COMM_WORLD.barrier();
        if (rank == 0) {
            Intracomm.unpublishName(service, found);
            Intracomm.closePort(found);
        }
        System.out.println("ok names " + rank);
    }

    private static void refusedServer(String[] args, int rank) throws Exception {
        String port = null;
        if (rank == 0) {
            port = Intracomm.openPort();
            Path tmp = Path.of(args[1] + ".tmp");
            Files.writeString(tmp, port);
            Files.move(tmp, Path.of(args[1]), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
        refused(MPI.COMM_WORLD, port, true);
        if (rank == 0) {
            Intracomm.closePort(port);
        }
    }

    /** An accept or connect that must fail; prints {@code refused <error class>}. */
    private static void refused(Intracomm comm, String port, boolean accept) throws Exception {
        comm.setErrhandler(MPI.ERRORS_RETURN);
        try {
            Intercomm c = accept ? comm.accept(port, 0) : comm.connect(port, 0);
            throw new AssertionError("connected to " + c.getRemoteSize() + " processes");
        } catch (MPIException e) {
            System.out.println("refused " + e.getErrorClass());
        }
        comm.barrier(); // still usable
    }

    private static void client(String[] args, int rank) throws Exception {
        String port = null;
        if (rank == 0) {
            String a = args[1];
            if (a.startsWith("@")) {
                port = Intracomm.lookupName(a.substring(1));
            } else if (a.startsWith("-")) {
                Path f = Path.of(a.substring(1));
                while (!Files.exists(f)) {
                    Thread.sleep(20); // waiting for another job to start: no MPI synchronisation exists yet
                }
                port = Files.readString(f).trim();
            } else {
                port = a;
            }
        }
        Intercomm inter = MPI.COMM_WORLD.connect(port, 0);
        exercise(inter, true);
        inter.disconnect();
        System.out.println("ok client " + rank);
    }

    /** Point-to-point, bcast, allreduce and merge across the intercommunicator; both sides call it. */
    private static void exercise(Intercomm inter, boolean high) throws MPIException {
        int rank = inter.getRank();
        int local = inter.getSize();
        int remote = inter.getRemoteSize();
        // ring across: local rank r sends to remote r % remote, receives from every remote q with q % local == r
        int[] out = {1000 * (high ? 1 : 0) + rank};
        int peer = rank % remote;
        mpi.Request s = inter.iSend(out, 1, MPI.INT, peer, 7);
        for (int q = 0; q < remote; q++) {
            if (q % local == rank) {
                int[] in = new int[1];
                inter.recv(in, 1, MPI.INT, q, 7);
                check(in[0] == 1000 * (high ? 0 : 1) + q, "point-to-point from " + q + ": " + in[0]);
            }
        }
        s.waitFor();
        // bcast from the accepting group's rank 0 to the connecting group
        int[] b = {high ? 0 : 4242};
        if (!high) {
            inter.bcast(b, 1, MPI.INT, rank == 0 ? MPI.ROOT : MPI.PROC_NULL);
        } else {
            inter.bcast(b, 1, MPI.INT, 0);
            check(b[0] == 4242, "bcast got " + b[0]);
        }
        // allreduce: each group gets the sum over the other group
        int[] mine = {rank + 1};
        int[] sum = new int[1];
        inter.allReduce(mine, sum, 1, MPI.INT, MPI.SUM);
        check(sum[0] == remote * (remote + 1) / 2, "allreduce got " + sum[0] + " for remote size " + remote);
        Intracomm all = inter.merge(high);
        check(all.getSize() == local + remote, "merged size " + all.getSize());
        check(all.getRank() == (high ? remote + rank : rank), "merged rank " + all.getRank());
        int[] total = new int[1];
        all.allReduce(new int[] {1}, total, 1, MPI.INT, MPI.SUM);
        check(total[0] == local + remote, "merged allreduce " + total[0]);
        all.free();
        System.out.println("ok exercise local " + local + " remote " + remote);
    }

    private static void spawn(int n, String command) throws Exception {
        int rank = MPI.COMM_WORLD.getRank();
        int[] errcodes = new int[n];
        String[] argv = {"child", "a b", "", "\"quoted\"", "it's"};
        Intercomm children = MPI.COMM_WORLD.spawn(command == null ? DpmRank.class.getName() : command, argv, n,
                MPI.INFO_NULL, 0, errcodes);
        check(children.getRemoteSize() == n, "remote size " + children.getRemoteSize());
        for (int e : errcodes) {
            check(e == MPI.SUCCESS, "errcodes " + Arrays.toString(errcodes));
        }
        if (rank == 0) {
            for (int c = 0; c < n; c++) {
                int[] in = new int[1];
                children.recv(in, 1, MPI.INT, c, 1);
                check(in[0] == c * c, "child " + c + " sent " + in[0]);
            }
        }
        int[] sum = new int[1];
        children.allReduce(new int[] {1}, sum, 1, MPI.INT, MPI.SUM);
        check(sum[0] == n, "allreduce over children " + sum[0]);
        mergeBothLow(children);
        children.disconnect();
        System.out.println("ok spawn " + n + " from " + MPI.COMM_WORLD.getSize());
    }

    /**
     * Both groups merge with {@code high = false} (Open MPI's Spawn test does): the order of the groups is then left
     * open, but every process must see the same one, so the merged ranks are a permutation. Then an all-to-all of
     * ranks by "nice" receives ({@code iRecv}, then {@code test} and a short sleep until done), as that test does.
     */
    private static void mergeBothLow(Intercomm inter) throws Exception {
        Intracomm all = inter.merge(false);
        int me = all.getRank();
        int n = all.getSize();
        check(n == inter.getSize() + inter.getRemoteSize(), "merged size " + n);
        int[] ranks = new int[n];
        all.allGather(new int[] {me}, 1, MPI.INT, ranks, 1, MPI.INT);
        int[] sorted = ranks.clone();
        Arrays.sort(sorted);
        for (int i = 0; i < n; i++) {
            check(sorted[i] == i, "merged ranks " + Arrays.toString(ranks));
        }
        for (int i = 0; i < n; i++) {
            if (i == me) {
                continue;
            }
            java.nio.IntBuffer in = MPI.newIntBuffer(1);
            java.nio.IntBuffer out = MPI.newIntBuffer(1).put(0, me);
            if (i < me) {
                all.send(out, 1, MPI.INT, i, 201);
            }
            mpi.Request r = all.iRecv(in, 1, MPI.INT, i, 201);
            while (!r.test()) {
                Thread.sleep(0, 100_000);
            }
            if (i > me) {
                all.send(out, 1, MPI.INT, i, 201);
            }
            check(in.get(0) == i, "rank " + me + " got " + in.get(0) + " from " + i);
        }
        all.free();
    }

    private static void child(String[] args) throws Exception {
        check(Arrays.equals(args, new String[] {"child", "a b", "", "\"quoted\"", "it's"}),
                "argv " + Arrays.toString(args));
        Intercomm parent = Intercomm.getParent();
        check(!parent.isNull(), "no parent");
        int rank = MPI.COMM_WORLD.getRank();
        parent.send(new int[] {rank * rank}, 1, MPI.INT, 0, 1);
        int[] sum = new int[1];
        parent.allReduce(new int[] {1}, sum, 1, MPI.INT, MPI.SUM);
        check(sum[0] == parent.getRemoteSize(), "allreduce over parents " + sum[0]);
        mergeBothLow(parent);
        parent.disconnect();
        check(Intercomm.getParent().isNull(), "parent after disconnect");
        System.out.println("ok child " + rank + " of " + MPI.COMM_WORLD.getSize() + " on node "
                + System.getenv("JMPI_NODE_ID"));
    }

    /** K cycles of spawning 2 children and disconnecting; checks threads, fds and the children's /dev/shm files. */
    private static void cycles(int k) throws Exception {
        java.util.List<String> jobs = new java.util.ArrayList<>();
        long threads = 0;
        long fds = 0;
        for (int i = 0; i < k; i++) {
            Intercomm c = MPI.COMM_WORLD.spawn(DpmRank.class.getName(), new String[] {"quiet"}, 2, MPI.INFO_NULL, 0,
                    null);
            byte[] job = new byte[200];
            mpi.Status st = c.recv(job, job.length, MPI.BYTE, 0, 5);
            jobs.add(new String(job, 0, st.getCount(MPI.BYTE), java.nio.charset.StandardCharsets.UTF_8));
            c.disconnect();
            if (i == k / 2) {
                // half way: a leak per cycle still shows k/2 times over, while what a JVM starts once in its first
                // seconds (compiler threads, the parent-death watcher linking its native call after 1 s) does not
                threads = count("/proc/self/task");
                fds = count("/proc/self/fd");
            }
        }
        MPI.COMM_WORLD.barrier();
        // the children's jobs end on their own after the disconnect: give them time to go before counting
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (ProcessHandle.current().children().findAny().isPresent() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        long threadsNow = count("/proc/self/task");
        long fdsNow = count("/proc/self/fd");
        System.out.println("census after " + k + " cycles: threads " + threads + " -> " + threadsNow + ", fds " + fds
                + " -> " + fdsNow);
        check(threadsNow <= threads + 2, "threads grew from " + threads + " to " + threadsNow);
        check(fdsNow <= fds, "file descriptors grew from " + fds + " to " + fdsNow);
        check(ProcessHandle.current().children().findAny().isEmpty(), "launchers still running");
        try (var files = Files.list(Path.of("/dev/shm"))) {
            java.util.List<String> left = files.map(f -> f.getFileName().toString())
                    .filter(n -> jobs.stream().anyMatch(j -> n.startsWith("jmpi-" + j + "-"))).toList();
            check(left.isEmpty(), "children's shared-memory files left: " + left);
        }
        check(new java.util.HashSet<>(jobs).size() == k, "job ids " + jobs);
        System.out.println("ok cycles " + k);
    }

    private static void quiet() throws Exception {
        Intercomm p = Intercomm.getParent();
        // one message over shared memory inside the children's job, so that their segments exist
        int[] v = {MPI.COMM_WORLD.getRank()};
        MPI.COMM_WORLD.allReduce(v, 1, MPI.INT, MPI.SUM);
        if (MPI.COMM_WORLD.getRank() == 0) {
            byte[] job = System.getenv("JMPI_JOBID").getBytes(java.nio.charset.StandardCharsets.UTF_8);
            p.send(job, job.length, MPI.BYTE, 0, 5);
        }
        p.disconnect();
    }

    /** spawnMultiple: a Java class with Info wdir, and "java" with its own -cp; children check APPNUM and wdir. */
    private static void multi(String[] args) throws Exception {
        String wdir = args[1];
        Info a = new Info();
        a.set("wdir", wdir);
        Info b = new Info();
        b.set("soft", "1:3");
        StringBuilder cp = new StringBuilder();
        for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            cp.append(cp.length() > 0 ? java.io.File.pathSeparator : "").append(Path.of(e).toAbsolutePath());
        }
        Intercomm c = MPI.COMM_WORLD.spawnMultiple(new String[] {DpmRank.class.getName(), "java"},
                new String[][] {{"appcheck", "0", wdir}, {"--enable-native-access=ALL-UNNAMED", "-cp", cp.toString(), DpmRank.class.getName(),
                    "appcheck", "1", "-"}},
                new int[] {2, 3}, new Info[] {a, b}, 0, null);
        check(c.getRemoteSize() == 5, "remote size " + c.getRemoteSize());
        java.util.Set<Integer> universes = new java.util.TreeSet<>();
        if (MPI.COMM_WORLD.getRank() == 0) {
            int[] apps = new int[5];
            for (int r = 0; r < 5; r++) {
                int[] two = new int[2];
                c.recv(two, 2, MPI.INT, r, 9);
                apps[r] = two[0];
                universes.add(two[1]);
            }
            check(Arrays.equals(apps, new int[] {0, 0, 1, 1, 1}), "appnums " + Arrays.toString(apps));
        }
        c.disconnect();
        System.out.println("ok multi" + (universes.isEmpty() ? "" : " children's universe " + universes));
    }

    private static void appcheck(String[] args) throws Exception {
        int app = (Integer) MPI.COMM_WORLD.getAttr(MPI.APPNUM);
        check(app == Integer.parseInt(args[1]), "APPNUM " + app + " for " + Arrays.toString(args));
        if (!args[2].equals("-")) {
            check(Path.of("").toAbsolutePath().toString().equals(args[2]), "wdir " + Path.of("").toAbsolutePath());
        }
        // Open MPI's keys of INFO_ENV describe the two commands (the children's jmpirun says them); under Hydra,
        // whose PMI-1 spawn does not, they are left out
        String layout = MPI.INFO_ENV.get("ompi_num_apps") + "/" + MPI.INFO_ENV.get("ompi_first_rank") + "/"
                + MPI.INFO_ENV.get("ompi_np");
        String expected = "1".equals(System.getenv("PMI_SPAWNED")) ? "null/null/null" : "2/0 2/2 3";
        check(layout.equals(expected), "INFO_ENV ompi_num_apps/ompi_first_rank/ompi_np " + layout);
        Intercomm p = Intercomm.getParent();
        p.send(new int[] {app, (Integer) MPI.COMM_WORLD.getAttr(MPI.UNIVERSE_SIZE)}, 2, MPI.INT, 0, 9);
        p.disconnect();
    }

    /** A child that spawns a grandchild; the grandchild's intercommunicator is checked, then everyone goes. */
    private static void nested() throws Exception {
        Intercomm c = MPI.COMM_WORLD.spawn(DpmRank.class.getName(), new String[] {"nested-child"}, 1, MPI.INFO_NULL,
                0, null);
        int[] depth = new int[1];
        c.recv(depth, 1, MPI.INT, 0, 11);
        check(depth[0] == 2, "the grandchild says depth " + depth[0]);
        c.disconnect();
        System.out.println("ok nested");
    }

    private static void nestedChild() throws Exception {
        Intercomm parent = Intercomm.getParent();
        Intercomm g = MPI.COMM_WORLD.spawn(DpmRank.class.getName(), new String[] {"grandchild"}, 1, MPI.INFO_NULL, 0,
                null);
        int[] d = new int[1];
        g.recv(d, 1, MPI.INT, 0, 12);
        g.disconnect();
        parent.send(new int[] {d[0] + 1}, 1, MPI.INT, 0, 11);
        parent.disconnect();
    }

    /**
     * A blocking accept and a blocking connect drive this rank's progress (MPI's progress rule), as every blocking call
     * does: each is entered right after a send to a child that opens this rank's first connection to that child, and
     * the other side of the accept or connect needs that message before it calls connect or accept. First, child 1
     * receives the message and connects to the port this rank accepts on; then child 0 receives one and tells child 1,
     * which accepts on a port of its own that this rank connects to. Without progress in accept and connect the
     * message stays unsent (its connection is never finished) and the two sides wait for each other for ever.
     */
    private static void progressWhileBlocked() throws Exception {
        String port = Intracomm.openPort();
        Intercomm children = MPI.COMM_SELF.spawn(DpmRank.class.getName(), new String[] {"progress-child", port}, 2,
                MPI.INFO_NULL, 0, null);
        children.send(new int[] {1}, 1, MPI.INT, 1, 31);
        Intercomm viaAccept = MPI.COMM_SELF.accept(port, 0);
        int[] v = new int[1];
        viaAccept.recv(v, 1, MPI.INT, 0, 32);
        check(v[0] == 2, "through the accepted intercommunicator " + v[0]);
        viaAccept.disconnect();
        Intracomm.closePort(port);
        char[] name = new char[MPI.MAX_PORT_NAME];
        mpi.Status st = children.recv(name, name.length, MPI.CHAR, 1, 33);
        children.send(new int[] {3}, 1, MPI.INT, 0, 34);
        Intercomm viaConnect = MPI.COMM_SELF.connect(new String(name, 0, st.getCount(MPI.CHAR)), 0);
        viaConnect.recv(v, 1, MPI.INT, 0, 35);
        check(v[0] == 4, "through the connected intercommunicator " + v[0]);
        viaConnect.disconnect();
        children.disconnect();
        System.out.println("ok progress");
    }

    private static void progressWhileBlockedChild(String parentPort) throws Exception {
        Intercomm parent = Intercomm.getParent();
        int[] v = new int[1];
        if (MPI.COMM_WORLD.getRank() == 1) {
            parent.recv(v, 1, MPI.INT, 0, 31);
            check(v[0] == 1, "the parent sent " + v[0]);
            Intercomm c = MPI.COMM_SELF.connect(parentPort, 0);
            c.send(new int[] {2}, 1, MPI.INT, 0, 32);
            c.disconnect();
            String mine = Intracomm.openPort();
            parent.send(mine.toCharArray(), mine.length(), MPI.CHAR, 0, 33);
            MPI.COMM_WORLD.recv(v, 1, MPI.INT, 0, 36);
            check(v[0] == 3, "child 0 passed on " + v[0]);
            Intercomm a = MPI.COMM_SELF.accept(mine, 0);
            a.send(new int[] {4}, 1, MPI.INT, 0, 35);
            a.disconnect();
            Intracomm.closePort(mine);
        } else {
            parent.recv(v, 1, MPI.INT, 0, 34);
            MPI.COMM_WORLD.send(v, 1, MPI.INT, 1, 36);
        }
        parent.disconnect();
    }

    /** A child that dies: the parent's receive from it fails (ERR_PROC_FAILED), it does not hang. */
    private static void dying() throws Exception {
        Intercomm c = MPI.COMM_WORLD.spawn(DpmRank.class.getName(), new String[] {"dying-child"}, 1, MPI.INFO_NULL,
                0, null);
        c.setErrhandler(MPI.ERRORS_RETURN);
        c.barrier();
        try {
            c.recv(new int[1], 1, MPI.INT, 0, 13);
            throw new AssertionError("a receive from a dead child completed");
        } catch (MPIException e) {
            System.out.println("ok dying " + e.getErrorClass());
        }
    }

    private static long count(String dir) throws java.io.IOException {
        try (var s = Files.list(Path.of(dir))) {
            return s.count();
        }
    }


    private static void bad() throws Exception {
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        int[] errcodes = new int[2];
        try {
            MPI.COMM_WORLD.spawn("/nonexistent/program", new String[0], 2, MPI.INFO_NULL, 0, errcodes);
            throw new AssertionError("spawn of a missing program succeeded");
        } catch (MPIException e) {
            System.out.println("bad spawn-missing " + e.getErrorClass() + " " + Arrays.toString(errcodes));
        }
        try {
            MPI.COMM_WORLD.spawn(DpmRank.class.getName(), new String[0], 0, MPI.INFO_NULL, 0, null);
        } catch (MPIException e) {
            System.out.println("bad spawn-zero " + e.getErrorClass());
        }
        System.setProperty("jmpi.universe.size", "3");
        try {
            MPI.COMM_WORLD.spawn(DpmRank.class.getName(), new String[] {"grandchild"}, 4, MPI.INFO_NULL, 0, null);
        } catch (MPIException e) {
            System.out.println("bad spawn-universe " + e.getErrorClass());
        }
        Info soft = new Info();
        soft.set("soft", "2,4");
        Intercomm two = MPI.COMM_WORLD.spawn(DpmRank.class.getName(), new String[] {"grandchild"}, 4, soft, 0, null);
        if (MPI.COMM_WORLD.getRank() == 0) {
            for (int c = 0; c < two.getRemoteSize(); c++) {
                two.recv(new int[1], 1, MPI.INT, c, 12);
            }
        }
        int got = two.getRemoteSize();
        two.disconnect();
        System.out.println("ok spawn-soft " + got);
        System.clearProperty("jmpi.universe.size");
        try {
            Intracomm.lookupName("no-such-service-" + ProcessHandle.current().pid());
        } catch (MPIException e) {
            System.out.println("bad lookup " + e.getErrorClass());
        }
        String port = Intracomm.openPort();
        Intracomm.closePort(port);
        try {
            MPI.COMM_WORLD.connect(port, 0);
        } catch (MPIException e) {
            System.out.println("bad connect-closed " + e.getErrorClass());
        }
        try {
            MPI.COMM_WORLD.connect("no port at all", 0);
        } catch (MPIException e) {
            System.out.println("bad connect-malformed " + e.getErrorClass());
        }
        try {
            MPI.COMM_WORLD.accept(port, 0);
        } catch (MPIException e) {
            System.out.println("bad accept-closed " + e.getErrorClass());
        }
        try {
            Intracomm.closePort(port);
        } catch (MPIException e) {
            System.out.println("bad close-twice " + e.getErrorClass());
        }
    }
}
