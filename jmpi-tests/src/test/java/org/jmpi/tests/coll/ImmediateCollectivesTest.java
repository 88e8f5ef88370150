package org.jmpi.tests.coll;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.IntBuffer;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import org.jmpi.junit.MpiTest;

/**
 * The blocking bcast, reduce, allreduce, gather, scatter, allgather and alltoall of small data run without a schedule
 * (org.jmpi.coll.Immediate), the non-blocking ones build it: both must leave the same bytes in the same places, on
 * direct buffers whose datatype leaves holes (a vector type; the holes must stay untouched), for every root, in place
 * and not, at sizes below and above the immediate path's limit.
 */
class ImmediateCollectivesTest {
    private static final int HOLE = -77;

    @MpiTest(ranks = {1, 2, 3, 4, 5, 8}, timeoutSeconds = 180)
    void blockingAndNonBlockingAgree() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        // ints 0 and 2 of every 3, int 1 a hole (extent 3 ints: the resize is in base elements, as in Open MPI)
        Datatype pair = Datatype.createVector(2, 1, 2, MPI.INT);
        Datatype every = Datatype.createResized(pair, 0, 3);
        every.commit();
        try {
            for (int count : new int[] {1, 5, 300, 5000}) { // 5000 * 8 bytes is past the 32 KiB limit
                for (int root = 0; root < w.getSize(); root++) {
                    bcast(w, every, count, root);
                    reduce(w, every, count, root);
                    gather(w, every, count, root);
                    scatter(w, every, count, root);
                }
                allreduce(w, every, count);
                allgather(w, every, count);
                alltoall(w, every, count);
            }
        } finally {
            every.free();
            pair.free();
        }
    }

    /** {@code count} elements of the resized pair type: 3 ints each, the middle one a hole. */
    private static IntBuffer buffer(int count, int rank, boolean filled) {
        IntBuffer b = MPI.newIntBuffer(3 * count);
        for (int i = 0; i < 3 * count; i++) {
            b.put(i, i % 3 == 1 ? HOLE : filled ? rank * 100_003 + i : -1);
        }
        return b;
    }

    private static void same(IntBuffer blocking, IntBuffer reference, String what) {
        for (int i = 0; i < reference.capacity(); i++) {
            assertThat(blocking.get(i)).as("%s, int %d", what, i).isEqualTo(reference.get(i));
            if (i % 3 == 1) {
                assertThat(blocking.get(i)).as("%s, hole at int %d", what, i).isEqualTo(HOLE);
            }
        }
    }

    private static void bcast(Intracomm w, Datatype t, int count, int root) throws MPIException {
        int r = w.getRank();
        IntBuffer a = buffer(count, r == root ? 1 : 9, r == root);
        IntBuffer b = buffer(count, r == root ? 1 : 9, r == root);
        w.bcast(a, count, t, root);
        w.iBcast(b, count, t, root).waitFor();
        same(a, b, "bcast " + count + " root " + root);
        assertThat(a.get(0)).isEqualTo(100_003);
    }

    private static void reduce(Intracomm w, Datatype t, int count, int root) throws MPIException {
        int r = w.getRank();
        IntBuffer in = buffer(count, r, true);
        IntBuffer a = buffer(count, 0, false);
        IntBuffer b = buffer(count, 0, false);
        w.reduce(in, a, count, t, MPI.SUM, root);
        w.iReduce(in, b, count, t, MPI.SUM, root).waitFor();
        same(a, b, "reduce " + count + " root " + root);
        if (r == root) {
            int p = w.getSize();
            assertThat(a.get(0)).isEqualTo(p * (p - 1) / 2 * 100_003);
        }
        // in place at the root
        IntBuffer c = buffer(count, r, true);
        IntBuffer d = buffer(count, r, true);
        if (r == root) {
            w.reduce(c, count, t, MPI.SUM, root);
            w.iReduce(d, count, t, MPI.SUM, root).waitFor();
        } else {
            w.reduce(c, null, count, t, MPI.SUM, root);
            w.iReduce(d, null, count, t, MPI.SUM, root).waitFor();
        }
        same(c, d, "reduce in place " + count + " root " + root);
    }

    private static void allreduce(Intracomm w, Datatype t, int count) throws MPIException {
        int r = w.getRank();
        IntBuffer in = buffer(count, r, true);
        IntBuffer a = buffer(count, 0, false);
        IntBuffer b = buffer(count, 0, false);
        w.allReduce(in, a, count, t, MPI.MAX);
        w.iAllReduce(in, b, count, t, MPI.MAX).waitFor();
        same(a, b, "allreduce " + count);
        assertThat(a.get(0)).isEqualTo((w.getSize() - 1) * 100_003);
        IntBuffer c = buffer(count, r, true);
        IntBuffer d = buffer(count, r, true);
        w.allReduce(c, count, t, MPI.SUM);
        w.iAllReduce(d, count, t, MPI.SUM).waitFor();
        same(c, d, "allreduce in place " + count);
    }

    private static void gather(Intracomm w, Datatype t, int count, int root) throws MPIException {
        int r = w.getRank();
        int p = w.getSize();
        IntBuffer in = buffer(count, r, true);
        IntBuffer a = buffer(p * count, 0, false);
        IntBuffer b = buffer(p * count, 0, false);
        w.gather(in, count, t, a, count, t, root);
        Request q = w.iGather(in, count, t, b, count, t, root);
        q.waitFor();
        if (r == root) {
            same(a, b, "gather " + count + " root " + root);
            assertThat(a.get(3 * count * (p - 1))).isEqualTo((p - 1) * 100_003);
        }
        IntBuffer c = r == root ? buffer(p * count, r, true) : buffer(count, r, true);
        IntBuffer d = r == root ? buffer(p * count, r, true) : buffer(count, r, true);
        w.gather(c, count, t, root);
        w.iGather(d, count, t, root).waitFor();
        same(c, d, "gather in place " + count + " root " + root);
    }

    private static void scatter(Intracomm w, Datatype t, int count, int root) throws MPIException {
        int r = w.getRank();
        int p = w.getSize();
        IntBuffer in = buffer(p * count, r, true);
        IntBuffer a = buffer(count, 0, false);
        IntBuffer b = buffer(count, 0, false);
        w.scatter(in, count, t, a, count, t, root);
        w.iScatter(in, count, t, b, count, t, root).waitFor();
        same(a, b, "scatter " + count + " root " + root);
        assertThat(a.get(0)).isEqualTo(root * 100_003 + 3 * count * r);
        IntBuffer c = r == root ? buffer(p * count, r, true) : buffer(count, 9, false);
        IntBuffer d = r == root ? buffer(p * count, r, true) : buffer(count, 9, false);
        w.scatter(c, count, t, root);
        w.iScatter(d, count, t, root).waitFor();
        same(c, d, "scatter in place " + count + " root " + root);
    }

    private static void alltoall(Intracomm w, Datatype t, int count) throws MPIException {
        int r = w.getRank();
        int p = w.getSize();
        IntBuffer in = buffer(p * count, r, true);
        IntBuffer a = buffer(p * count, 0, false);
        IntBuffer b = buffer(p * count, 0, false);
        w.allToAll(in, count, t, a, count, t);
        w.iAllToAll(in, count, t, b, count, t).waitFor();
        same(a, b, "alltoall " + count);
        // block i of rank r's result is block r of rank i's input
        assertThat(a.get(3 * count * (p - 1))).isEqualTo((p - 1) * 100_003 + 3 * count * r);
    }

    private static void allgather(Intracomm w, Datatype t, int count) throws MPIException {
        int r = w.getRank();
        int p = w.getSize();
        IntBuffer in = buffer(count, r, true);
        IntBuffer a = buffer(p * count, 0, false);
        IntBuffer b = buffer(p * count, 0, false);
        w.allGather(in, count, t, a, count, t);
        w.iAllGather(in, count, t, b, count, t).waitFor();
        same(a, b, "allgather " + count);
        assertThat(a.get(3 * count * (p - 1))).isEqualTo((p - 1) * 100_003);
        IntBuffer c = buffer(p * count, r, true);
        IntBuffer d = buffer(p * count, r, true);
        w.allGather(c, count, t);
        w.iAllGather(d, count, t).waitFor();
        same(c, d, "allgather in place " + count);
    }

    /**
     * Allreduces past the immediate path's limits, with each rank's buffers of its own kind, so that on 2 ranks one
     * rank may swap halves straight between its buffers (two direct buffers, or two whole int[]) while the other
     * builds the schedule (in place, or an input that is a slice of a larger array): both must send the same
     * messages. Odd counts (the halves differ by one element), empty and one-element vectors, 1.2 MB ones.
     */
    @MpiTest(ranks = {1, 2, 3}, timeoutSeconds = 180)
    void largeAllreduceOverMixedBuffers() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int r = w.getRank();
        int p = w.getSize();
        for (int count : new int[] {0, 1, 7, 70_001, 300_001}) {
            int[] expected = new int[count];
            for (int i = 0; i < count; i++) {
                expected[i] = (i % 1000 + 1) * p * (p + 1) / 2;
            }
            for (int mine = 0; mine < 5; mine++) {
                for (int theirs = 0; theirs < 5; theirs++) {
                    int kind = r % 2 == 0 ? mine : theirs;
                    String what = "allreduce of " + count + " ints, buffer kinds " + mine + "/" + theirs + " at rank "
                            + r;
                    assertThat(allreduceInts(w, kind, count)).as(what).isEqualTo(expected);
                }
            }
        }
        // doubles with MPI.MAX on direct buffers: another kernel of the halves' combining step
        int count = 100_003;
        java.nio.DoubleBuffer in = MPI.newDoubleBuffer(count);
        java.nio.DoubleBuffer out = MPI.newDoubleBuffer(count);
        for (int i = 0; i < count; i++) {
            in.put(i, (i + r) % p == 0 ? i + 0.5 : -i);
        }
        w.allReduce(in, out, count, MPI.DOUBLE, MPI.MAX);
        for (int i = 0; i < count; i++) {
            assertThat(out.get(i)).as("MPI.MAX of doubles, element %d", i).isEqualTo(i + 0.5);
        }
    }

    /**
     * One allreduce (MPI.SUM) of this rank's input {@code (rank + 1) * (i % 1000 + 1)}: kind 0 two direct buffers,
     * 1 two int[], 2 an int[] in place, 3 a slice of a larger int[] into an int[], 4 a direct buffer in place.
     */
    private static int[] allreduceInts(Intracomm w, int kind, int count) throws MPIException {
        int r = w.getRank();
        int[] input = new int[count];
        for (int i = 0; i < count; i++) {
            input[i] = (r + 1) * (i % 1000 + 1);
        }
        int[] result = new int[count];
        switch (kind) {
            case 0, 4 -> {
                IntBuffer a = MPI.newIntBuffer(Math.max(count, 1));
                a.put(0, input);
                IntBuffer b = kind == 0 ? MPI.newIntBuffer(Math.max(count, 1)) : a;
                if (kind == 0) {
                    w.allReduce(a, b, count, MPI.INT, MPI.SUM);
                    int[] back = new int[count];
                    a.get(0, back);
                    assertThat(back).as("direct input unchanged").isEqualTo(input);
                } else {
                    w.allReduce(a, count, MPI.INT, MPI.SUM);
                }
                b.get(0, result);
            }
            case 1 -> {
                w.allReduce(input.clone(), result, count, MPI.INT, MPI.SUM);
            }
            case 2 -> {
                result = input.clone();
                w.allReduce(result, count, MPI.INT, MPI.SUM);
            }
            default -> {
                int[] padded = new int[count + 3];
                System.arraycopy(input, 0, padded, 3, count);
                w.allReduce(MPI.slice(padded, 3), result, count, MPI.INT, MPI.SUM);
            }
        }
        return result;
    }
}
