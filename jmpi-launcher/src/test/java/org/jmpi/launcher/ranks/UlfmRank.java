package org.jmpi.launcher.ranks;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import org.jmpi.ft.Ulfm;

/**
 * An MPI program for the ULFM tests (run under {@code --continue-on-failure}); every rank prints
 * {@code ready <rank> pid <pid>}, and the first argument chooses the scenario. The victim is the rank named by the
 * second argument (default: the last); it dies by SIGKILL.
 *
 * <ul>
 *   <li>{@code collective}: every rank loops allreduce on a dup of the world; the victim dies in iteration 5; each
 *       survivor sees an error, prints its class, revokes the dup, shrinks it, and prints the shrunk size and an
 *       allreduce of the world ranks over it, then an agree of (1 if world rank even else 3) over it;
 *   <li>{@code anysource}: rank 0 posts a receive from ANY_SOURCE; the victim dies; rank 0 sees
 *       PROC_FAILED_PENDING from the wait, PROC_FAILED from a blocking receive from ANY_SOURCE, the failed group,
 *       acknowledges it, and then the pending request completes with the message rank 1 sends after an agreement;
 *   <li>{@code agree}: the victim dies just before an agree on the world; the survivors print the agreed value (the
 *       AND of their flags) and the failed group's size, then shrink the world and print the new size;
 *   <li>{@code early}: the victim exits (code 3) before MPI_Init; the others start, learn of it (the failure notice
 *       sent before they opened their notice channel is replayed to them) and go on as in {@code collective};
 *   <li>{@code host}: as {@code collective} with no victim: the test kills a host's proxy (all its ranks);
 *   <li>{@code rma}: a window on the world; the victim dies; a lock and put to it fail, a fence fails, and the
 *       survivors' accumulates into rank 0's window (passive target) still work: rank 0 prints the count;
 *   <li>{@code io}: a file (third argument) opened on the world; the victim dies; an independent write still works,
 *       a collective write and the close fail;
 *   <li>{@code revoke} (no failure): rank 0 revokes a dup while the others wait in a receive from it there; they
 *       print the error class; everyone then agrees and shrinks the revoked dup and prints its size.
 * </ul>
 */
public final class UlfmRank {
    private UlfmRank() {}

    public static void main(String[] args) throws Exception {
        if (args[0].equals("early") && Integer.parseInt(System.getenv("PMI_RANK")) == Integer.parseInt(args[1])) {
            System.exit(3); // dies before MPI_Init, while the others start
        }
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int victim = args.length > 1 ? Integer.parseInt(args[1]) : size - 1;
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        boolean early = args[0].equals("early"); // then a dup or barrier of the world would fail at once
        Intracomm dup = early ? MPI.COMM_WORLD : MPI.COMM_WORLD.dup();
        dup.setErrhandler(MPI.ERRORS_RETURN);
        if (!early) {
            // everyone is here before a victim dies; an agreement, because a barrier's last message from a rank that
            // dies right after it may never arrive (its peers would then fail the barrier, rightly)
            Ulfm.agree(MPI.COMM_WORLD, 1);
        }
        System.out.println("ready " + rank + " pid " + ProcessHandle.current().pid());
        switch (args[0]) {
            case "collective" -> collective(dup, rank, victim);
            case "anysource" -> anySource(dup, rank, victim);
            case "agree" -> agree(rank, victim);
            case "revoke" -> revoke(dup, rank);
            case "host" -> collective(dup, rank, -1);
            case "early" -> collective(dup, rank, -1);
            case "rma" -> rma(rank, victim);
            case "io" -> io(rank, victim, args[2]);
            default -> throw new IllegalArgumentException(args[0]);
        }
        MPI.Finalize();
    }

    private static void die() throws Exception {
        System.out.flush();
        new ProcessBuilder("kill", "-9", Long.toString(ProcessHandle.current().pid())).start().waitFor();
        Thread.sleep(60_000);
    }

    private static void collective(Intracomm dup, int rank, int victim) throws Exception {
        int[] v = new int[1];
        int iterations = 0;
        try {
            while (true) {
                if (rank == victim && iterations == 5) {
                    die();
                }
                v[0] = 1;
                dup.allReduce(v, 1, MPI.INT, MPI.SUM);
                iterations++;
            }
        } catch (MPIException e) {
            System.out.println("rank " + rank + " allreduce failed with error class " + e.getErrorClass());
        }
        try {
            dup.iAllReduce(java.nio.IntBuffer.allocate(1), 1, MPI.INT, MPI.SUM).waitFor();
            System.out.println("rank " + rank + " iallreduce passed?");
        } catch (MPIException e) {
            int c = e.getErrorClass();
            System.out.println("rank " + rank + " iallreduce failed with error class " + (c == 77 ? 75 : c));
        }
        Ulfm.revoke(dup);
        Intracomm small = Ulfm.shrink(dup);
        small.setErrhandler(MPI.ERRORS_RETURN);
        int[] sum = {rank};
        small.allReduce(sum, 1, MPI.INT, MPI.SUM);
        int agreed = Ulfm.agree(small, rank % 2 == 0 ? 1 : 3);
        System.out.println("rank " + rank + " revoked " + Ulfm.isRevoked(dup) + " shrunk to " + small.getSize()
                + " sum " + sum[0] + " agreed " + agreed);
        small.free();
    }

    private static void anySource(Intracomm dup, int rank, int victim) throws Exception {
        int[] buf = {-1};
        if (rank == victim) {
            die();
        }
        if (rank == 0) {
            Request r = dup.iRecv(buf, 1, MPI.INT, MPI.ANY_SOURCE, 7);
            try {
                r.waitFor();
                System.out.println("rank 0 wait returned " + buf[0] + "?");
            } catch (MPIException e) {
                System.out.println("rank 0 wait failed with error class " + e.getErrorClass() + " null "
                        + r.isNull());
            }
            try {
                dup.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 8);
            } catch (MPIException e) {
                System.out.println("rank 0 blocking recv failed with error class " + e.getErrorClass());
            }
            try {
                MPI.COMM_WORLD.probe(victim, 0);
            } catch (MPIException e) {
                System.out.println("rank 0 probe of the dead rank failed with error class " + e.getErrorClass());
            }
            try {
                dup.iProbe(MPI.ANY_SOURCE, 8);
            } catch (MPIException e) {
                System.out.println("rank 0 iprobe from ANY_SOURCE failed with error class " + e.getErrorClass());
            }
            System.out.println("rank 0 failed group size " + Ulfm.getFailed(dup).getSize() + " acked "
                    + Ulfm.ackFailed(dup, Integer.MAX_VALUE));
            System.out.println("rank 0 iprobe after the acknowledgement " + dup.iProbe(MPI.ANY_SOURCE, 8));
            Ulfm.agree(MPI.COMM_WORLD, 1); // now rank 1 may send
            Status s = r.waitStatus();
            System.out.println("rank 0 then received " + buf[0] + " from " + s.getSource());
        } else {
            Ulfm.agree(MPI.COMM_WORLD, 1);
            if (rank == 1) {
                dup.send(new int[] {41}, 1, MPI.INT, 0, 7);
            }
        }
    }

    private static void rma(int rank, int victim) throws Exception {
        java.nio.IntBuffer base = MPI.newIntBuffer(4);
        mpi.Win win = new mpi.Win(base, 4, 4, MPI.INFO_NULL, MPI.COMM_WORLD);
        win.setErrhandler(MPI.ERRORS_RETURN);
        win.fence(0);
        if (rank == victim) {
            die();
        }
        // Survivors lock the victim only once they know it is dead: a lock request that reaches it while it is still
        // being killed (the kill forks a process) is rightly granted, and the put then succeeds. A wildcard probe
        // drives progress, and raises PROC_FAILED itself once the failure is known and not acknowledged.
        while (Ulfm.getFailed(MPI.COMM_WORLD).getSize() == 0) {
            try {
                MPI.COMM_WORLD.iProbe(MPI.ANY_SOURCE, 999);
            } catch (MPIException e) {
                break;
            }
            Thread.onSpinWait();
        }
        java.nio.IntBuffer one = MPI.newIntBuffer(1).put(0, 1);
        int putError = 0;
        boolean locked = false;
        try {
            win.lock(MPI.LOCK_EXCLUSIVE, victim, 0);
            locked = true;
            win.put(one, 1, MPI.INT, victim, 0, 1, MPI.INT);
        } catch (MPIException e) {
            putError = e.getErrorClass();
        }
        if (locked) {
            try {
                win.unlock(victim); // ends the epoch even when the target is dead
            } catch (MPIException e) {
                putError = putError != 0 ? putError : e.getErrorClass();
            }
        }
        System.out.println("rank " + rank + " put to the dead rank failed with error class " + putError);
        try {
            win.fence(0);
            System.out.println("rank " + rank + " fence passed?");
        } catch (MPIException e) {
            int c = e.getErrorClass();
            System.out.println("rank " + rank + " fence failed with error class " + c);
        }
        win.lock(MPI.LOCK_SHARED, 0, 0);
        win.accumulate(one, 1, MPI.INT, 0, 0, 1, MPI.INT, MPI.SUM);
        win.unlock(0);
        Ulfm.agree(MPI.COMM_WORLD, 1); // every survivor's accumulate is done
        if (rank == 0) {
            System.out.println("rank 0 counted " + base.get(0) + " accumulates");
        }
    }

    private static void io(int rank, int victim, String path) throws Exception {
        mpi.File f = new mpi.File(MPI.COMM_WORLD, path, MPI.MODE_CREATE | MPI.MODE_RDWR);
        f.setErrhandler(MPI.ERRORS_RETURN);
        if (rank == victim) {
            die();
        }
        int[] v = {rank};
        f.writeAt(4L * rank, v, 1, MPI.INT);
        System.out.println("rank " + rank + " wrote independently");
        try {
            f.writeAtAll(4L * rank, v, 1, MPI.INT);
            System.out.println("rank " + rank + " collective write passed?");
        } catch (MPIException e) {
            System.out.println("rank " + rank + " collective write failed with error class " + e.getErrorClass());
        }
        try {
            f.close();
            System.out.println("rank " + rank + " close passed?");
        } catch (MPIException e) {
            System.out.println("rank " + rank + " close failed with error class " + e.getErrorClass());
        }
    }

    private static void agree(int rank, int victim) throws Exception {
        if (rank == victim) {
            die();
        }
        int agreed = Ulfm.agree(MPI.COMM_WORLD, rank == 0 ? 6 : 7);
        System.out.println("rank " + rank + " agreed " + agreed + " failed " + Ulfm.getFailed(MPI.COMM_WORLD)
                .getSize());
        Intracomm small = Ulfm.shrink(MPI.COMM_WORLD);
        int[] one = {1};
        small.allReduce(one, 1, MPI.INT, MPI.SUM);
        System.out.println("rank " + rank + " shrunk to " + small.getSize() + " counted " + one[0]);
    }

    private static void revoke(Intracomm dup, int rank) throws Exception {
        if (rank == 0) {
            Ulfm.revoke(dup);
        } else {
            try {
                dup.recv(new int[1], 1, MPI.INT, 0, 3);
                System.out.println("rank " + rank + " received on a revoked communicator?");
            } catch (MPIException e) {
                System.out.println("rank " + rank + " recv failed with error class " + e.getErrorClass());
            }
        }
        try {
            dup.barrier();
            System.out.println("rank " + rank + " barrier on a revoked communicator passed?");
        } catch (MPIException e) {
            System.out.println("rank " + rank + " barrier failed with error class " + e.getErrorClass());
        }
        int agreed = Ulfm.agree(dup, 5);
        Intracomm small = Ulfm.shrink(dup);
        int[] one = {1};
        small.allReduce(one, 1, MPI.INT, MPI.SUM);
        System.out.println("rank " + rank + " revoked " + Ulfm.isRevoked(dup) + " agreed " + agreed + " shrunk to "
                + small.getSize() + " counted " + one[0]);
    }
}
