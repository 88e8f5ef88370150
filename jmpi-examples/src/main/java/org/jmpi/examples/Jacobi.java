package org.jmpi.examples;

import java.util.Arrays;
import java.util.Locale;
import mpi.Comm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.jmpi.ft.Checkpoint;
import org.jmpi.ft.CheckpointOptions;
import org.jmpi.ft.StoredCheckpoint;

/**
 * The steady heat equation on an n x n plate by Jacobi iteration, rows split among the ranks, surviving failures by
 * checkpoints. The top edge is held at 100 degrees, the other edges at 0; every interior point becomes the mean of its
 * four neighbours, a fixed number of times. Each rank owns a block of interior rows ({@link RowBlocks}) and swaps its
 * first and last row with its neighbours (halo exchange) before every sweep.
 *
 * <pre>
 * jmpirun -n 4 org.jmpi.examples.Jacobi [--size N] [--iterations T] [--checkpoint-every K]
 * jmpirun -n 4 -ckpoint-prefix /shared/jacobi --restart-on-failure 3 org.jmpi.examples.Jacobi --iterations 20000
 * </pre>
 *
 * <p>Every K iterations (default 100) it offers a checkpoint ({@link Checkpoint#checkpoint()}: written when jmpirun's
 * {@code -ckpoint-interval} has passed, or at every offer without one) of its rows and the iteration number; started
 * again, it resumes from the newest complete checkpoint. Restarted with another number of ranks, it re-partitions: each
 * rank reads its new rows from whichever old ranks' parts hold them ({@link #loadRows}).
 *
 * <p>At the end rank 0 prints a checksum of the whole grid (a hash of every value's bits, and their sum, both taken
 * in row order). Each point's arithmetic is the same whatever the partition, so the checksum is the same bits for any
 * number of ranks, with or without restarts: {@code Jacobi: checksum 5c0b7a3e19d2f481 (sum 1.2345678901234e+05)}.
 */
public final class Jacobi {
    private Jacobi() {}

    /** The hot edge's temperature. */
    static final double HOT = 100.0;

    /** Command-line settings. */
    record Settings(int n, long iterations, long checkpointEvery) {
        static Settings parse(String[] args) {
            int n = 256;
            long iterations = 2000;
            long every = 100;
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("unknown argument or missing value: " + a);
                }
                String v = args[++i];
                switch (a) {
                    case "--size" -> n = Integer.parseInt(v);
                    case "--iterations" -> iterations = Long.parseLong(v);
                    case "--checkpoint-every" -> every = Long.parseLong(v);
                    default -> throw new IllegalArgumentException("unknown argument " + a);
                }
            }
            if (n < 3 || iterations < 0 || every < 1) {
                throw new IllegalArgumentException("need --size of 3 or more, --iterations of 0 or more and "
                        + "--checkpoint-every of 1 or more");
            }
            return new Settings(n, iterations, every);
        }
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        Settings s;
        try {
            s = Settings.parse(args);
            if (s.n() - 2 < size) {
                throw new IllegalArgumentException("a grid of " + s.n() + " has " + (s.n() - 2)
                        + " interior rows, fewer than the " + size + " ranks");
            }
        } catch (IllegalArgumentException e) {
            if (rank == 0) {
                System.err.println("Jacobi: " + e.getMessage() + "\nusage: Jacobi [--size N] [--iterations T] "
                        + "[--checkpoint-every K]");
            }
            MPI.Finalize();
            System.exit(2);
            return;
        }
        Grid g = new Grid(s.n(), RowBlocks.of(1, s.n() - 2, size, rank));
        Checkpoint ckpt = Checkpoint.open(world, CheckpointOptions.fromEnvironment().allowRankCountChange(true));
        double[] saved = new double[g.block().count() * s.n()];
        long[] meta = new long[4]; // iteration, first row, row count, n
        ckpt.register("rows", saved);
        ckpt.register("meta", meta);
        long start = 0;
        String origin = "started afresh";
        if (ckpt.restore()) {
            if (meta[1] != g.block().first() || meta[2] != g.block().count() || meta[3] != s.n()) {
                throw new IllegalStateException("the checkpoint holds rows " + meta[1] + "+" + meta[2] + " of a grid "
                        + "of " + meta[3] + ", not rows " + g.block() + " of " + s.n());
            }
            g.setInterior(saved);
            start = meta[0];
            origin = "resumed at iteration " + start + " from checkpoint generation " + ckpt.generation();
        } else if (ckpt.stored() != null) {
            StoredCheckpoint old = ckpt.stored();
            start = loadRows(old, s.n(), g.block(), saved);
            g.setInterior(saved);
            origin = "resumed at iteration " + start + " from checkpoint generation " + old.generation()
                    + ", written by " + old.ranks() + " ranks (re-partitioned)";
        }
        for (long it = start; it < s.iterations(); ) {
            g.exchange(world);
            g.sweep();
            it++;
            if (it % s.checkpointEvery() == 0 && it < s.iterations()) {
                g.save(it, saved, meta);
                ckpt.checkpoint();
            }
        }
        String sum = g.checksum(world);
        if (rank == 0) {
            System.out.println("Jacobi: " + s.n() + " x " + s.n() + " grid, " + s.iterations() + " iterations, " + size
                    + (size == 1 ? " rank; " : " ranks; ") + origin);
            System.out.println("Jacobi: checksum " + sum);
        }
        MPI.Finalize();
    }

    /**
     * Fills {@code into} (rows {@code block} of an n-column grid, row after row) from a stored checkpoint of this
     * program written by any number of ranks: each old rank's part holds its rows ("rows") and where they start
     * ("meta": iteration, first row, row count, n). Returns the iteration of the checkpoint.
     *
     * @throws IllegalStateException when the checkpoint is of another grid, or does not cover the block
     */
    public static long loadRows(StoredCheckpoint stored, int n, RowBlocks.Block block, double[] into)
            throws MPIException {
        long iteration = -1;
        int covered = 0;
        for (int old = 0; old < stored.ranks(); old++) {
            long[] meta = stored.readLongs(old, "meta");
            if (meta[3] != n) {
                throw new IllegalStateException("the checkpoint is of a grid of " + meta[3] + ", not " + n);
            }
            if (iteration >= 0 && meta[0] != iteration) {
                throw new IllegalStateException("the parts of the checkpoint are of different iterations");
            }
            iteration = meta[0];
            int oldFirst = (int) meta[1];
            int oldEnd = oldFirst + (int) meta[2];
            int from = Math.max(oldFirst, block.first());
            int to = Math.min(oldEnd, block.end());
            if (from >= to) {
                continue;
            }
            double[] rows = stored.readDoubles(old, "rows");
            System.arraycopy(rows, (from - oldFirst) * n, into, (from - block.first()) * n, (to - from) * n);
            covered += to - from;
        }
        if (covered != block.count()) {
            throw new IllegalStateException("the checkpoint holds " + covered + " of the " + block.count()
                    + " rows of " + block);
        }
        return iteration;
    }

    /**
     * One rank's rows of the grid: its block of interior rows with a halo row above and below, each row of n values
     * (the first and last are the fixed side edges). Rows above the first block and below the last are the fixed top
     * and bottom edges.
     */
    public static final class Grid {
        private final int n;
        private final RowBlocks.Block block;
        private double[] u;
        private double[] next;

        /** Rows {@code block} of an n x n grid at its initial state: the top edge hot, everything else 0. */
        public Grid(int n, RowBlocks.Block block) {
            this.n = n;
            this.block = block;
            this.u = new double[(block.count() + 2) * n];
            this.next = new double[u.length];
            if (block.first() == 1) {
                Arrays.fill(u, 1, n - 1, HOT); // the halo above the first block is the top edge
                Arrays.fill(next, 1, n - 1, HOT);
            }
        }

        /** The rows this grid holds. */
        public RowBlocks.Block block() {
            return block;
        }

        /** Copies the block's rows (without halos) into {@code out}, row after row. */
        public void interior(double[] out) {
            System.arraycopy(u, n, out, 0, block.count() * n);
        }

        /**
         * Puts what a checkpoint holds into the registered arrays: the block's rows into {@code rows}, and into
         * {@code meta} the iteration, the first row, the row count and n (what {@link #loadRows} reads back).
         */
        public void save(long iteration, double[] rows, long[] meta) {
            interior(rows);
            meta[0] = iteration;
            meta[1] = block.first();
            meta[2] = block.count();
            meta[3] = n;
        }

        /** Sets the block's rows from {@code in}, row after row. */
        public void setInterior(double[] in) {
            System.arraycopy(in, 0, u, n, block.count() * n);
        }

        /**
         * Swaps boundary rows with the neighbouring blocks: this block's first row goes up and its last row down;
         * the halos receive theirs. The first and last blocks keep the fixed edges in their outer halos.
         */
        public void exchange(Comm comm) throws MPIException {
            int rank = comm.getRank();
            int size = comm.getSize();
            int up = rank == 0 ? MPI.PROC_NULL : rank - 1;
            int down = rank == size - 1 ? MPI.PROC_NULL : rank + 1;
            int last = block.count();
            comm.sendRecv(MPI.slice(u, n), n, MPI.DOUBLE, up, 1, MPI.slice(u, (last + 1) * n), n, MPI.DOUBLE, down, 1);
            comm.sendRecv(MPI.slice(u, last * n), n, MPI.DOUBLE, down, 2, MPI.slice(u, 0), n, MPI.DOUBLE, up, 2);
        }

        /** One Jacobi sweep over the block: each interior point becomes the mean of its four neighbours. */
        public void sweep() {
            for (int i = 1; i <= block.count(); i++) {
                int row = i * n;
                next[row] = u[row];
                for (int j = 1; j < n - 1; j++) {
                    next[row + j] = 0.25 * (u[row - n + j] + u[row + n + j] + u[row + j - 1] + u[row + j + 1]);
                }
                next[row + n - 1] = u[row + n - 1];
            }
            // the halos are refreshed by the next exchange; the outer ones are the fixed edges in both arrays
            double[] t = u;
            u = next;
            next = t;
        }

        /**
         * Collective: a checksum of the whole grid, on rank 0 ("" elsewhere): each rank hashes and sums its rows,
         * rank 0 combines the rows' figures in row order (the edges included), so the result depends only on the
         * values.
         */
        public String checksum(Intracomm comm) throws MPIException {
            int size = comm.getSize();
            long[] hashes = new long[block.count()];
            double[] sums = new double[block.count()];
            for (int i = 0; i < block.count(); i++) {
                hashes[i] = rowHash(u, (i + 1) * n, n);
                sums[i] = rowSum(u, (i + 1) * n, n);
            }
            int interior = n - 2;
            long[] allHashes = comm.getRank() == 0 ? new long[interior] : null;
            double[] allSums = comm.getRank() == 0 ? new double[interior] : null;
            int[] counts = new int[size];
            int[] displs = new int[size];
            for (int r = 0; r < size; r++) {
                RowBlocks.Block b = RowBlocks.of(1, interior, size, r);
                counts[r] = b.count();
                displs[r] = b.first() - 1;
            }
            if (comm.getRank() == 0) {
                comm.gatherv(hashes, block.count(), MPI.LONG, allHashes, counts, displs, MPI.LONG, 0);
                comm.gatherv(sums, block.count(), MPI.DOUBLE, allSums, counts, displs, MPI.DOUBLE, 0);
            } else {
                comm.gatherv(hashes, block.count(), MPI.LONG, 0);
                comm.gatherv(sums, block.count(), MPI.DOUBLE, 0);
                return "";
            }
            double[] top = new double[n];
            Arrays.fill(top, 1, n - 1, HOT);
            double[] bottom = new double[n];
            long h = 0xcbf29ce484222325L;
            h = mix(h, rowHash(top, 0, n));
            double sum = rowSum(top, 0, n);
            for (int i = 0; i < interior; i++) {
                h = mix(h, allHashes[i]);
                sum += allSums[i];
            }
            h = mix(h, rowHash(bottom, 0, n));
            sum += rowSum(bottom, 0, n);
            return String.format(Locale.ROOT, "%016x (sum %.13e)", h, sum);
        }

        private static long rowHash(double[] a, int from, int n) {
            long h = 0xcbf29ce484222325L;
            for (int j = 0; j < n; j++) {
                h = mix(h, Double.doubleToRawLongBits(a[from + j]));
            }
            return h;
        }

        private static double rowSum(double[] a, int from, int n) {
            double s = 0;
            for (int j = 0; j < n; j++) {
                s += a[from + j];
            }
            return s;
        }

        /** FNV-1a over a 64-bit word, a byte at a time. */
        private static long mix(long h, long word) {
            for (int k = 0; k < 8; k++) {
                h ^= (word >>> (8 * k)) & 0xff;
                h *= 0x100000001b3L;
            }
            return h;
        }
    }
}
