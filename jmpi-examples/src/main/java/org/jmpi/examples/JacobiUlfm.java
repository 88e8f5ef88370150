package org.jmpi.examples;

import java.nio.file.Path;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.jmpi.ft.Checkpoint;
import org.jmpi.ft.CheckpointOptions;
import org.jmpi.ft.StoredCheckpoint;
import org.jmpi.ft.Ulfm;

/**
 * {@link Jacobi}, finishing on the survivors when ranks fail (ULFM): run under {@code jmpirun --continue-on-failure}.
 * It checkpoints its rows every K iterations into a directory; when an MPI call fails because a rank died (or
 * because another survivor revoked the communicator on seeing it), every survivor revokes the working communicator,
 * shrinks it to the survivors, re-partitions the rows over them, reloads the newest complete checkpoint (the dead
 * ranks' rows included: they are on disk) and goes on from its iteration. The checksum at the end is the same bits as
 * an uninterrupted run's on any number of ranks.
 *
 * <pre>
 * jmpirun -n 4 --continue-on-failure org.jmpi.examples.JacobiUlfm --checkpoint-dir /shared/jacobi \
 *     [--size N] [--iterations T] [--checkpoint-every K]
 * </pre>
 *
 * The checkpoint directory is required (it is where the dead ranks' rows come back from) and must be one every host
 * sees; the program resumes from the newest complete checkpoint it holds (of a grid of the same size). Before the
 * first checkpoint exists a failure restarts the computation from the beginning on the survivors.
 *
 * <p>Whether to go on is decided with {@link Ulfm#agree}: a survivor whose call failed revokes the communicator (so
 * that no survivor waits for it any more) and contributes 0; the loop ends only when every survivor finished, so they
 * all leave it together.
 */
public final class JacobiUlfm {
    private JacobiUlfm() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        Path dir = null;
        java.util.List<String> rest = new java.util.ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--checkpoint-dir") && i + 1 < args.length) {
                dir = Path.of(args[++i]);
            } else {
                rest.add(args[i]);
            }
        }
        Jacobi.Settings s;
        try {
            if (dir == null) {
                throw new IllegalArgumentException("--checkpoint-dir DIR is required");
            }
            s = Jacobi.Settings.parse(rest.toArray(String[]::new));
        } catch (IllegalArgumentException e) {
            if (MPI.COMM_WORLD.getRank() == 0) {
                System.err.println("JacobiUlfm: " + e.getMessage() + "\nusage: JacobiUlfm --checkpoint-dir DIR "
                        + "[--size N] [--iterations T] [--checkpoint-every K]");
            }
            MPI.Finalize();
            System.exit(2);
            return;
        }
        // the directory given here; other settings (the keep count, say) as jmpirun's JMPI_CKPT_* variables say
        CheckpointOptions options = CheckpointOptions.fromEnvironment().prefix(dir).allowRankCountChange(true);
        // the world itself at first (a dup would already be a collective that a failure can break)
        Intracomm work = MPI.COMM_WORLD;
        int recoveries = 0;
        String sum;
        while (true) {
            String result = null;
            try {
                result = solve(work, s, options);
            } catch (MPIException e) {
                if (!Ulfm.isRevoked(work) && Ulfm.getFailed(work).getSize() == 0
                        && e.getErrorClass() != Ulfm.ERR_PROC_FAILED && e.getErrorClass() != Ulfm.ERR_REVOKED) {
                    throw e; // not a failure: a real error
                }
                Ulfm.revoke(work); // the others may wait on this rank: make them stop too
            }
            // uniform across the survivors: done only if every one of them finished
            if (Ulfm.agree(work, result != null ? 1 : 0) == 1) {
                sum = result;
                break;
            }
            Ulfm.revoke(work);
            Intracomm survivors = Ulfm.shrink(work);
            survivors.setErrhandler(MPI.ERRORS_RETURN);
            work = survivors;
            recoveries++;
        }
        if (work.getRank() == 0) {
            System.out.println("JacobiUlfm: " + s.n() + " x " + s.n() + " grid, " + s.iterations() + " iterations, "
                    + "finished on " + work.getSize() + " of " + MPI.COMM_WORLD.getSize() + " ranks after "
                    + recoveries + (recoveries == 1 ? " recovery" : " recoveries"));
            System.out.println("JacobiUlfm: checksum " + sum);
        }
        MPI.Finalize();
    }

    /**
     * Runs the solver on {@code comm} from the newest complete checkpoint (or from the start) to the end; returns the
     * checksum on rank 0 ("" elsewhere). Throws what a failure makes an MPI call throw.
     */
    private static String solve(Intracomm comm, Jacobi.Settings s, CheckpointOptions options) throws MPIException {
        int rank = comm.getRank();
        int size = comm.getSize();
        Jacobi.Grid g = new Jacobi.Grid(s.n(), RowBlocks.of(1, s.n() - 2, size, rank));
        double[] saved = new double[g.block().count() * s.n()];
        long[] meta = new long[4]; // iteration, first row, row count, n
        Checkpoint ckpt = Checkpoint.open(comm, options);
        ckpt.register("rows", saved);
        ckpt.register("meta", meta);
        long start = 0;
        // every survivor reads the same generation: the newest complete one (none is being written now: the ranks
        // that could write one are all here, past the call that failed)
        // rank 0 looks (and reports the partial generations it passes over, once), the others follow
        long[] gen = {-1};
        if (rank == 0) {
            StoredCheckpoint newest = StoredCheckpoint.latest(options.prefix());
            gen[0] = newest == null ? -1 : newest.generation();
        }
        comm.bcast(gen, 1, MPI.LONG, 0);
        if (gen[0] >= 0) {
            start = Jacobi.loadRows(StoredCheckpoint.of(options.prefix(), gen[0]), s.n(), g.block(), saved);
            g.setInterior(saved);
        }
        for (long it = start; it < s.iterations(); ) {
            g.exchange(comm);
            g.sweep();
            it++;
            if (it % s.checkpointEvery() == 0 && it < s.iterations()) {
                g.save(it, saved, meta);
                ckpt.checkpointNow();
            }
        }
        return g.checksum(comm);
    }
}
