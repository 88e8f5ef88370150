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
 *   <li>{@code spawn N [CMD]}: spawns N children (this class, mode child), exchanges with them, disconnects;</li>
 *   <li>{@code child}: the spawned side;</li>
 *   <li>{@code cycles K}: K spawn+disconnect cycles of one child, printing the process's thread and fd counts;</li>
 *   <li>{@code bad}: every bad input under ERRORS_RETURN, printing each error class.</li>
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
            case "spawn" -> spawn(Integer.parseInt(args[1]), args.length > 2 ? args[2] : null);
            case "child" -> child(args);
            case "quiet" -> Intercomm.getParent().disconnect();
            case "cycles" -> cycles(Integer.parseInt(args[1]));
            case "bad" -> bad();
            case "nested" -> nested();
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
        children.disconnect();
        System.out.println("ok spawn " + n + " from " + MPI.COMM_WORLD.getSize());
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
        parent.disconnect();
        check(Intercomm.getParent().isNull(), "parent after disconnect");
        System.out.println("ok child " + rank + " of " + MPI.COMM_WORLD.getSize());
    }

    private static void cycles(int k) throws Exception {
        for (int i = 0; i < k; i++) {
            Intercomm c = MPI.COMM_WORLD.spawn(DpmRank.class.getName(), new String[] {"quiet"}, 1, MPI.INFO_NULL, 0,
                    null);
            c.disconnect();
            if (i == 1 || i == k - 1) {
                System.out.println("census " + i + " threads " + Thread.activeCount() + " fds "
                        + Files.list(Path.of("/proc/self/fd")).count());
            }
        }
    }

    private static void nested() throws Exception {
        System.out.println("ok nested");
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
