package org.jmpi.tests.coll;

import static org.jmpi.tests.coll.CollTesting.BIG;
import static org.jmpi.tests.coll.CollTesting.assertArray;
import static org.jmpi.tests.coll.CollTesting.counts;
import static org.jmpi.tests.coll.CollTesting.describe;
import static org.jmpi.tests.coll.CollTesting.forEachAlgorithm;
import static org.jmpi.tests.coll.CollTesting.marked;
import static org.jmpi.tests.coll.CollTesting.values;

import mpi.Comm;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import org.jmpi.coll.Algorithm;
import org.jmpi.coll.Collective;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * Allgather, allgatherv (with their in-place forms), alltoall, alltoallv and alltoallw: every algorithm, block counts
 * from 0 to about 2 MiB in all.
 */
class AllgatherAlltoallTest {

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
        forEachAlgorithm(Collective.ALLGATHER, a -> {
            for (int count : counts) {
                allgather(a, count);
            }
        });
        forEachAlgorithm(Collective.ALLGATHERV, a -> {
            for (int count : counts) {
                allgatherv(a, count);
            }
        });
        forEachAlgorithm(Collective.ALLTOALL, a -> {
            for (int count : counts) {
                alltoall(a, count);
            }
        });
        forEachAlgorithm(Collective.ALLTOALLV, a -> {
            for (int count : counts) {
                alltoallv(a, count);
            }
        });
        forEachAlgorithm(Collective.ALLTOALLW, a -> {
            for (int count : counts) {
                alltoallw(a, count);
            }
        });
    }

    static int[] concatenation(int size, int count) {
        int[] e = new int[size * count];
        for (int i = 0; i < size; i++) {
            System.arraycopy(values(i, 0, count), 0, e, i * count, count);
        }
        return e;
    }

    static void allgather(Algorithm a, int count) throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int[] recv = marked(size * count);
        w.allGather(values(rank, 0, count), count, MPI.INT, recv, count, MPI.INT);
        assertArray(recv, concatenation(size, count), describe(a, count, -1));
        int[] buf = marked(size * count);
        System.arraycopy(values(rank, 0, count), 0, buf, rank * count, count);
        w.allGather(buf, count, MPI.INT);
        assertArray(buf, concatenation(size, count), describe(a, count, -1) + " in place");
    }

    static void allgatherv(Algorithm a, int count) throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int mine = GatherScatterTest.vcount(rank, count);
        int[] counts = GatherScatterTest.vcounts(size, count);
        int[] displs = GatherScatterTest.vdispls(size, count);
        int[] expected = GatherScatterTest.vexpected(size, count);
        int[] recv = marked(expected.length);
        w.allGatherv(values(rank, 0, mine), mine, MPI.INT, recv, counts, displs, MPI.INT);
        assertArray(recv, expected, describe(a, count, -1));
        int[] buf = marked(expected.length);
        System.arraycopy(values(rank, 0, mine), 0, buf, displs[rank], mine);
        w.allGatherv(buf, counts, displs, MPI.INT);
        assertArray(buf, expected, describe(a, count, -1) + " in place");
    }

    /** The block rank {@code src} sends rank {@code dst}. */
    static int[] block(int src, int dst, int n) {
        return values(src * 64 + dst, 0, n);
    }

    static void alltoall(Algorithm a, int count) throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int[] send = new int[size * count];
        int[] expected = new int[size * count];
        for (int j = 0; j < size; j++) {
            System.arraycopy(block(rank, j, count), 0, send, j * count, count);
            System.arraycopy(block(j, rank, count), 0, expected, j * count, count);
        }
        int[] recv = marked(size * count);
        w.allToAll(send, count, MPI.INT, recv, count, MPI.INT);
        assertArray(recv, expected, describe(a, count, -1));
    }

    /** Elements rank {@code src} sends rank {@code dst} in the v- and w-forms: some zero, all different. */
    static int pairCount(int src, int dst, int count) {
        return count == 0 || (src + 2 * dst) % 4 == 3 ? 0 : count + (src + dst) % 3;
    }

    /** Displacements for blocks of the given lengths, in reverse order with a gap of 1 (send) or in order (recv). */
    static int[] layout(int[] lengths, boolean reverse) {
        int n = lengths.length;
        int[] d = new int[n];
        int at = 0;
        for (int k = 0; k < n; k++) {
            int i = reverse ? n - 1 - k : k;
            d[i] = at;
            at += lengths[i] + 1;
        }
        return d;
    }

    static int end(int[] lengths, int[] displs) {
        int e = 0;
        for (int i = 0; i < lengths.length; i++) {
            e = Math.max(e, displs[i] + lengths[i] + 1);
        }
        return e;
    }

    static void alltoallv(Algorithm a, int count) throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int[] sc = new int[size];
        int[] rc = new int[size];
        for (int j = 0; j < size; j++) {
            sc[j] = pairCount(rank, j, count);
            rc[j] = pairCount(j, rank, count);
        }
        int[] sd = layout(sc, true);
        int[] rd = layout(rc, false);
        int[] send = marked(end(sc, sd));
        int[] expected = marked(end(rc, rd));
        for (int j = 0; j < size; j++) {
            System.arraycopy(block(rank, j, sc[j]), 0, send, sd[j], sc[j]);
            System.arraycopy(block(j, rank, rc[j]), 0, expected, rd[j], rc[j]);
        }
        int[] recv = marked(expected.length);
        w.allToAllv(send, sc, sd, MPI.INT, recv, rc, rd, MPI.INT);
        assertArray(recv, expected, describe(a, count, -1));
    }

    /**
     * Alltoallw with a datatype per peer: odd destinations get MPI.INT2 (pairs of ints), the others MPI.INT, while
     * every receive uses MPI.INT; displacements are in bytes.
     */
    static void alltoallw(Algorithm a, int count) throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int[] sc = new int[size];
        int[] rc = new int[size];
        Datatype[] st = new Datatype[size];
        Datatype[] rt = new Datatype[size];
        for (int j = 0; j < size; j++) {
            // even lengths, so that pairs fit
            sc[j] = 2 * pairCount(rank, j, count);
            rc[j] = 2 * pairCount(j, rank, count);
            st[j] = j % 2 == 1 ? MPI.INT2 : MPI.INT;
            rt[j] = MPI.INT;
        }
        int[] sd = layout(sc, true);
        int[] rd = layout(rc, false);
        int[] send = marked(end(sc, sd));
        int[] expected = marked(end(rc, rd));
        for (int j = 0; j < size; j++) {
            System.arraycopy(block(rank, j, sc[j]), 0, send, sd[j], sc[j]);
            System.arraycopy(block(j, rank, rc[j]), 0, expected, rd[j], rc[j]);
        }
        int[] sCount = new int[size];
        int[] sBytes = new int[size];
        int[] rBytes = new int[size];
        for (int j = 0; j < size; j++) {
            sCount[j] = st[j] == MPI.INT2 ? sc[j] / 2 : sc[j];
            sBytes[j] = 4 * sd[j];
            rBytes[j] = 4 * rd[j];
        }
        int[] recv = marked(expected.length);
        w.allToAllw(send, sCount, sBytes, st, recv, rc, rBytes, rt);
        assertArray(recv, expected, describe(a, count, -1));
    }
}
