package org.jmpi.tests.coll;

import static org.jmpi.tests.coll.CollTesting.BIG;
import static org.jmpi.tests.coll.CollTesting.assertArray;
import static org.jmpi.tests.coll.CollTesting.assertRange;
import static org.jmpi.tests.coll.CollTesting.counts;
import static org.jmpi.tests.coll.CollTesting.describe;
import static org.jmpi.tests.coll.CollTesting.forEachAlgorithm;
import static org.jmpi.tests.coll.CollTesting.marked;
import static org.jmpi.tests.coll.CollTesting.values;

import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import org.jmpi.coll.Algorithm;
import org.jmpi.coll.Collective;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * Gather, gatherv, scatter and scatterv with their in-place and root/non-root forms: every algorithm, every root,
 * block counts from 0 to about 2 MiB in all.
 */
class GatherScatterTest {

    @MpiTest(ranks = {1, 2, 3, 4, 5, 6, 7, 8, 9}, modes = Mode.THREADS, timeoutSeconds = 120)
    void threads() throws MPIException {
        all();
    }

    @MpiTest(ranks = {2, 3, 4}, modes = Mode.PROCESSES, timeoutSeconds = 120)
    void processes() throws MPIException {
        all();
    }

    static void all() throws MPIException {
        int size = MPI.COMM_WORLD.getSize();
        int[] counts = counts(BIG / size);
        forEachAlgorithm(Collective.GATHER, a -> {
            for (int count : counts) {
                for (int root = 0; root < size; root++) {
                    gather(a, count, root);
                }
            }
        });
        forEachAlgorithm(Collective.GATHERV, a -> {
            for (int count : counts) {
                for (int root = 0; root < size; root++) {
                    gatherv(a, count, root);
                }
            }
        });
        forEachAlgorithm(Collective.SCATTER, a -> {
            for (int count : counts) {
                for (int root = 0; root < size; root++) {
                    scatter(a, count, root);
                }
            }
        });
        forEachAlgorithm(Collective.SCATTERV, a -> {
            for (int count : counts) {
                for (int root = 0; root < size; root++) {
                    scatterv(a, count, root);
                }
            }
        });
    }

    static void gather(Algorithm a, int count, int root) throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int[] recv = rank == root ? marked(size * count) : null;
        w.gather(values(rank, 0, count), count, MPI.INT, recv, count, MPI.INT, root);
        if (rank == root) {
            for (int i = 0; i < size; i++) {
                assertRange(recv, i * count, values(i, 0, count), 0, count, describe(a, count, root) + " block " + i);
            }
        }
        // in place: the root's block already sits in its buffer; the others send theirs
        int[] buf;
        if (rank == root) {
            buf = marked(size * count);
            System.arraycopy(values(rank, 0, count), 0, buf, root * count, count);
        } else {
            buf = values(rank, 0, count);
        }
        w.gather(buf, count, MPI.INT, root);
        if (rank == root) {
            for (int i = 0; i < size; i++) {
                assertRange(buf, i * count, values(i, 0, count), 0, count,
                        describe(a, count, root) + " in place, block " + i);
            }
        }
    }

    /** Rank i's block length for the v-forms: some empty, all different. */
    static int vcount(int i, int count) {
        return count == 0 || i % 3 == 1 ? 0 : count + i;
    }

    /** Displacements of the v-forms: blocks in reverse rank order, with a gap of 2 after each. */
    static int[] vdispls(int size, int count) {
        int[] d = new int[size];
        int at = 0;
        for (int i = size - 1; i >= 0; i--) {
            d[i] = at;
            at += vcount(i, count) + 2;
        }
        return d;
    }

    static int vtotal(int size, int count) {
        int[] d = vdispls(size, count);
        return d[0] + vcount(0, count) + 2;
    }

    static int[] vcounts(int size, int count) {
        int[] c = new int[size];
        for (int i = 0; i < size; i++) {
            c[i] = vcount(i, count);
        }
        return c;
    }

    /** The v-layout with every rank's block in place and markers in the gaps. */
    static int[] vexpected(int size, int count) {
        int[] e = marked(vtotal(size, count));
        int[] d = vdispls(size, count);
        for (int i = 0; i < size; i++) {
            System.arraycopy(values(i, 0, vcount(i, count)), 0, e, d[i], vcount(i, count));
        }
        return e;
    }

    static void gatherv(Algorithm a, int count, int root) throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int mine = vcount(rank, count);
        int[] recv = rank == root ? marked(vtotal(size, count)) : null;
        w.gatherv(values(rank, 0, mine), mine, MPI.INT, recv, vcounts(size, count), vdispls(size, count), MPI.INT,
                root);
        if (rank == root) {
            assertArray(recv, vexpected(size, count), describe(a, count, root));
        }
        // the root's in-place form and the others' send-only form
        if (rank == root) {
            int[] buf = marked(vtotal(size, count));
            System.arraycopy(values(rank, 0, mine), 0, buf, vdispls(size, count)[rank], mine);
            w.gatherv(buf, vcounts(size, count), vdispls(size, count), MPI.INT, root);
            assertArray(buf, vexpected(size, count), describe(a, count, root) + " in place");
        } else {
            w.gatherv(values(rank, 0, mine), mine, MPI.INT, root);
        }
    }

    static void scatter(Algorithm a, int count, int root) throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int[] send = null;
        if (rank == root) {
            send = new int[size * count];
            for (int i = 0; i < size; i++) {
                System.arraycopy(values(i, 0, count), 0, send, i * count, count);
            }
        }
        int[] recv = marked(count);
        w.scatter(send, count, MPI.INT, recv, count, MPI.INT, root);
        assertArray(recv, values(rank, 0, count), describe(a, count, root));
        // in place: the root keeps its block where it is
        int[] buf = rank == root ? send.clone() : marked(count);
        w.scatter(buf, count, MPI.INT, root);
        if (rank == root) {
            assertArray(buf, send, describe(a, count, root) + " in place (root's buffer unchanged)");
        } else {
            assertArray(buf, values(rank, 0, count), describe(a, count, root) + " in place");
        }
    }

    static void scatterv(Algorithm a, int count, int root) throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int mine = vcount(rank, count);
        int[] send = rank == root ? vexpected(size, count) : null;
        int[] recv = marked(mine + 1);
        w.scatterv(send, vcounts(size, count), vdispls(size, count), MPI.INT, recv, mine, MPI.INT, root);
        assertRange(recv, 0, values(rank, 0, mine), 0, mine, describe(a, count, root));
        assertRange(recv, mine, new int[] {-777}, 0, 1, describe(a, count, root) + " past the block");
        // the root's in-place form and the others' receive-only form
        if (rank == root) {
            int[] buf = vexpected(size, count);
            w.scatterv(buf, vcounts(size, count), vdispls(size, count), MPI.INT, root);
            assertArray(buf, vexpected(size, count), describe(a, count, root) + " in place");
        } else {
            int[] buf = marked(mine);
            w.scatterv(buf, mine, MPI.INT, root);
            assertArray(buf, values(rank, 0, mine), describe(a, count, root) + " receive-only form");
        }
    }
}
