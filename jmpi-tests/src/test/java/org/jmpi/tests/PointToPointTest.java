package org.jmpi.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import org.jmpi.junit.MpiTest;

/** Blocking and non-blocking point-to-point, over every transport and at several sizes. */
class PointToPointTest {

    private static int rank() throws MPIException {
        return MPI.COMM_WORLD.getRank();
    }

    private static int size() throws MPIException {
        return MPI.COMM_WORLD.getSize();
    }

    /** Fills {@code n} elements of the given kind with values that depend on (seed, index). */
    private static Object filled(Datatype t, int n, int seed) {
        if (t == MPI.BYTE) {
            byte[] a = new byte[n];
            for (int i = 0; i < n; i++) {
                a[i] = (byte) (seed * 31 + i);
            }
            return a;
        } else if (t == MPI.CHAR) {
            char[] a = new char[n];
            for (int i = 0; i < n; i++) {
                a[i] = (char) (seed * 1000 + i);
            }
            return a;
        } else if (t == MPI.SHORT) {
            short[] a = new short[n];
            for (int i = 0; i < n; i++) {
                a[i] = (short) (seed * 100 - i);
            }
            return a;
        } else if (t == MPI.BOOLEAN) {
            boolean[] a = new boolean[n];
            for (int i = 0; i < n; i++) {
                a[i] = ((i + seed) % 3) == 0;
            }
            return a;
        } else if (t == MPI.INT) {
            int[] a = new int[n];
            for (int i = 0; i < n; i++) {
                a[i] = seed * 1_000_003 + i;
            }
            return a;
        } else if (t == MPI.LONG) {
            long[] a = new long[n];
            for (int i = 0; i < n; i++) {
                a[i] = seed * 10_000_000_019L - i;
            }
            return a;
        } else if (t == MPI.FLOAT) {
            float[] a = new float[n];
            for (int i = 0; i < n; i++) {
                a[i] = seed + i / 7f;
            }
            return a;
        } else {
            double[] a = new double[n];
            for (int i = 0; i < n; i++) {
                a[i] = seed - i / 3.0;
            }
            return a;
        }
    }

    private static final Datatype[] PRIMITIVES = {
        MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.BOOLEAN, MPI.INT, MPI.LONG, MPI.FLOAT, MPI.DOUBLE
    };

    @MpiTest(ranks = {1, 2, 3, 4, 8})
    void ringOfEveryPrimitiveTypeOverArrays() throws MPIException {
        int next = (rank() + 1) % size();
        int prev = (rank() + size() - 1) % size();
        for (int k = 0; k < PRIMITIVES.length; k++) {
            Datatype t = PRIMITIVES[k];
            for (int n : new int[] {0, 1, 17, 5000, 40_000}) {
                Object out = filled(t, n, rank());
                Object in = java.lang.reflect.Array.newInstance(out.getClass().getComponentType(), n);
                Request r = MPI.COMM_WORLD.iRecv(null, 0, MPI.BYTE, MPI.PROC_NULL, 0); // a PROC_NULL request
                assertThat(r.waitStatus().getSource()).isEqualTo(MPI.PROC_NULL);
                Status s = MPI.COMM_WORLD.sendRecv(out, n, t, next, k, in, n, t, prev, k);
                assertThat(s.getSource()).isEqualTo(prev);
                assertThat(s.getTag()).isEqualTo(k);
                assertThat(s.getCount(t)).isEqualTo(n);
                Object expected = filled(t, n, prev);
                assertThat(Arrays.deepEquals(new Object[] {in}, new Object[] {expected}))
                        .as("%s x %d from %d", t, n, prev).isTrue();
            }
        }
    }

    @MpiTest(ranks = {2, 3})
    void directHeapAndSlicedBuffers() throws MPIException {
        int next = (rank() + 1) % size();
        int prev = (rank() + size() - 1) % size();
        int n = 1000;
        // direct IntBuffer from MPI.newIntBuffer
        IntBuffer out = MPI.newIntBuffer(n);
        for (int i = 0; i < n; i++) {
            out.put(i, rank() * 7 + i);
        }
        IntBuffer in = MPI.newIntBuffer(n);
        Request rr = MPI.COMM_WORLD.iRecv(in, n, MPI.INT, prev, 1);
        Request sr = MPI.COMM_WORLD.iSend(out, n, MPI.INT, next, 1);
        Request.waitAll(new Request[] {rr, sr});
        for (int i = 0; i < n; i++) {
            assertThat(in.get(i)).isEqualTo(prev * 7 + i);
        }
        // a slice of a double[]: send elements 10..19 into elements 5..14 of the receiver
        double[] src = (double[]) filled(MPI.DOUBLE, 30, rank());
        double[] dst = new double[30];
        Arrays.fill(dst, -1);
        DoubleBuffer target = MPI.slice(dst, 5);
        Status s = MPI.COMM_WORLD.sendRecv(MPI.slice(src, 10), 10, MPI.DOUBLE, next, 2, target, 10, MPI.DOUBLE,
                prev, 2);
        assertThat(s.getCount(MPI.DOUBLE)).isEqualTo(10);
        double[] from = (double[]) filled(MPI.DOUBLE, 30, prev);
        for (int i = 0; i < 30; i++) {
            double want = i >= 5 && i < 15 ? from[i + 5] : -1;
            assertThat(dst[i]).as("element %d", i).isEqualTo(want);
        }
        // a direct ByteBuffer carrying longs, received into a long[]
        ByteBuffer bb = ByteBuffer.allocateDirect(8 * 4).order(ByteOrder.nativeOrder());
        for (int i = 0; i < 4; i++) {
            bb.putLong(8 * i, 100L * rank() + i);
        }
        long[] longs = new long[4];
        MPI.COMM_WORLD.sendRecv(bb, 4, MPI.LONG, next, 3, longs, 4, MPI.LONG, prev, 3);
        assertThat(longs).containsExactly(100L * prev, 100L * prev + 1, 100L * prev + 2, 100L * prev + 3);
    }

    @MpiTest(ranks = {2, 3, 4, 8})
    void anySourceAndAnyTag() throws MPIException {
        if (rank() == 0) {
            boolean[] seen = new boolean[size()];
            int[] v = new int[1];
            for (int i = 1; i < size(); i++) {
                Status s = MPI.COMM_WORLD.recv(v, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                assertThat(v[0]).isEqualTo(s.getSource() * 10);
                assertThat(s.getTag()).isEqualTo(s.getSource() + 100);
                assertThat(seen[s.getSource()]).isFalse();
                seen[s.getSource()] = true;
            }
        } else {
            MPI.COMM_WORLD.send(new int[] {rank() * 10}, 1, MPI.INT, 0, rank() + 100);
        }
    }

    /** Messages from one sender that match the same receive arrive in the order sent, whatever their sizes. */
    @MpiTest(ranks = {2, 3, 4})
    void nonOvertakingAcrossEagerAndRendezvousSizes() throws MPIException {
        int[] sizes = {1, 70_000, 0, 3, 300_000, 16, 1 << 20, 2};
        if (rank() != 0) {
            List<Request> reqs = new ArrayList<>();
            for (int i = 0; i < sizes.length; i++) {
                int[] msg = new int[Math.max(1, sizes[i])];
                msg[0] = rank() * 1000 + i;
                // alternate blocking and non-blocking sends, two tags
                if (i % 2 == 0) {
                    MPI.COMM_WORLD.send(msg, sizes[i] == 0 ? 0 : sizes[i], MPI.INT, 0, 5 + (i % 2));
                } else {
                    IntBuffer b = MPI.newIntBuffer(Math.max(1, sizes[i]));
                    b.put(0, msg[0]);
                    reqs.add(MPI.COMM_WORLD.iSend(b, sizes[i], MPI.INT, 0, 5 + (i % 2)));
                }
            }
            Request.waitAll(reqs.toArray(new Request[0]));
        } else {
            int[] next = new int[size()];
            int[] buf = new int[1 << 20];
            for (int k = 0; k < (size() - 1) * sizes.length; k++) {
                Status s = MPI.COMM_WORLD.recv(buf, buf.length, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                int src = s.getSource();
                int i = next[src]++;
                assertThat(s.getCount(MPI.INT)).as("message %d from %d", i, src).isEqualTo(sizes[i]);
                assertThat(s.getTag()).isEqualTo(5 + (i % 2));
                if (sizes[i] > 0) {
                    assertThat(buf[0]).as("message %d from %d", i, src).isEqualTo(src * 1000 + i);
                }
            }
        }
    }

    @MpiTest(ranks = {1, 2, 3})
    void selfSendsAndProcNull() throws MPIException {
        int me = rank();
        long[] out = {1, 2, 3, 4, 5};
        long[] in = new long[5];
        Request r = MPI.COMM_WORLD.iSend(MPI.newLongBuffer(5).put(0, 42L), 5, MPI.LONG, me, 9);
        MPI.COMM_WORLD.recv(in, 5, MPI.LONG, me, 9);
        r.waitFor();
        assertThat(r.isNull()).isTrue();
        assertThat(in[0]).isEqualTo(42L);
        // a large self message: receive posted first, then a blocking send
        double[] big = (double[]) filled(MPI.DOUBLE, 200_000, me);
        double[] got = new double[200_000];
        Request rr = MPI.COMM_WORLD.iRecv(DoubleBuffer.wrap(got), got.length, MPI.DOUBLE, me, 10);
        MPI.COMM_WORLD.send(big, big.length, MPI.DOUBLE, me, 10);
        Status s = rr.waitStatus();
        assertThat(s.getCount(MPI.DOUBLE)).isEqualTo(200_000);
        assertThat(got).isEqualTo(big);
        MPI.COMM_WORLD.send(out, 5, MPI.LONG, MPI.PROC_NULL, 1);
        Status ps = MPI.COMM_WORLD.recv(in, 5, MPI.LONG, MPI.PROC_NULL, 1);
        assertThat(ps.getSource()).isEqualTo(MPI.PROC_NULL);
        assertThat(ps.getTag()).isEqualTo(MPI.ANY_TAG);
        assertThat(ps.getCount(MPI.LONG)).isZero();
    }

    @MpiTest(ranks = {2, 4})
    void probeThenReceiveExactSize() throws MPIException {
        if (rank() == 1) {
            MPI.COMM_WORLD.send(new short[] {1, 2, 3, 4, 5, 6, 7}, 7, MPI.SHORT, 0, 33);
            MPI.COMM_WORLD.send(new short[100_000], 100_000, MPI.SHORT, 0, 34);
        } else if (rank() == 0) {
            Status s = MPI.COMM_WORLD.probe(1, 33);
            assertThat(s.getCount(MPI.SHORT)).isEqualTo(7);
            assertThat(s.getSource()).isEqualTo(1);
            short[] buf = new short[s.getCount(MPI.SHORT)];
            MPI.COMM_WORLD.recv(buf, buf.length, MPI.SHORT, 1, 33);
            assertThat(buf).containsExactly(1, 2, 3, 4, 5, 6, 7);
            Status big;
            do {
                big = MPI.COMM_WORLD.iProbe(MPI.ANY_SOURCE, 34);
            } while (big == null);
            assertThat(big.getCount(MPI.SHORT)).isEqualTo(100_000);
            assertThat(big.getElements(MPI.SHORT)).isEqualTo(100_000);
            MPI.COMM_WORLD.recv(new short[100_000], 100_000, MPI.SHORT, 1, 34);
            assertThat(MPI.COMM_WORLD.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG)).isNull();
        }
    }

    @MpiTest(ranks = {2, 3, 4})
    void requestArrays() throws MPIException {
        int n = size();
        int me = rank();
        Request[] reqs = new Request[2 * n + 1];
        IntBuffer[] inbox = new IntBuffer[n];
        for (int p = 0; p < n; p++) {
            inbox[p] = MPI.newIntBuffer(1);
            reqs[p] = MPI.COMM_WORLD.iRecv(inbox[p], 1, MPI.INT, p, 4);
        }
        reqs[2 * n] = MPI.REQUEST_NULL;
        // before anything is sent, nothing from a peer can be complete
        for (int p = 0; p < n; p++) {
            reqs[n + p] = MPI.COMM_WORLD.iSend(MPI.newIntBuffer(1).put(0, me * 100 + p), 1, MPI.INT, p, 4);
        }
        int completed = 0;
        boolean[] done = new boolean[2 * n + 1];
        while (completed < 2 * n) {
            int[] some = Request.waitSome(reqs);
            assertThat(some).isNotEmpty();
            for (int i : some) {
                assertThat(done[i]).isFalse();
                done[i] = true;
                completed++;
                assertThat(reqs[i].isNull()).isTrue();
            }
        }
        assertThat(Request.waitSome(reqs)).isNull();
        assertThat(Request.waitAny(reqs)).isEqualTo(MPI.UNDEFINED);
        assertThat(Request.testAll(reqs)).isTrue();
        for (int p = 0; p < n; p++) {
            assertThat(inbox[p].get(0)).isEqualTo(p * 100 + me);
        }
        // waitAny / testAny / waitAllStatus
        Request[] two = {
            MPI.COMM_WORLD.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, (me + 1) % n, 6),
            MPI.COMM_WORLD.iSend(MPI.newIntBuffer(1), 1, MPI.INT, (me + n - 1) % n, 6)
        };
        int first = Request.waitAny(two);
        assertThat(first).isIn(0, 1);
        Status[] rest = Request.waitAllStatus(two);
        assertThat(rest).hasSize(2);
        assertThat(rest[1 - first].getIndex()).isEqualTo(1 - first);
        assertThat(Request.testAny(two)).isEqualTo(MPI.UNDEFINED);
        assertThat(Request.testSome(two)).isNull();
    }

    @MpiTest(ranks = {2, 3})
    void largeMessagesOverRendezvous() throws MPIException {
        int n = 3 * (1 << 20) + 5; // just over 12 MiB of ints, not a multiple of the chunk size
        int next = (rank() + 1) % size();
        int prev = (rank() + size() - 1) % size();
        int[] out = (int[]) filled(MPI.INT, n, rank());
        int[] in = new int[n];
        Status s = MPI.COMM_WORLD.sendRecv(out, n, MPI.INT, next, 0, in, n, MPI.INT, prev, 0);
        assertThat(s.getCount(MPI.INT)).isEqualTo(n);
        assertThat(in).isEqualTo(filled(MPI.INT, n, prev));
    }
}
