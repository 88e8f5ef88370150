package org.jmpi.tests.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.transport.shm.ShmTransport;

/**
 * Threads mode: the ranks of one JVM talk through shared-memory rings, as processes of a host do, and a message that
 * takes the rendezvous is copied once, by its receiver, straight out of the sender's buffer (an array or a direct
 * buffer), without a system call. Small and large messages of one sender keep their order, whichever way each goes.
 */
class ThreadsModeRingsTest {

    /** Sizes on both sides of the rendezvous (lane and eager frames below 256 KiB, rendezvous from 1 MiB). */
    private static final int[] SIZES = {8, 1 << 20, 16, 0, 3 << 20, 100, 65536, (2 << 20) + 3};

    @MpiTest(ranks = {2, 3}, modes = Mode.THREADS)
    void theRanksOfTheJvmTalkThroughRings() throws MPIException {
        org.jmpi.transport.Transport t = JmpiRuntime.get().progress().transport();
        assertThat(t).isInstanceOf(ShmTransport.class);
        int rank = MPI.COMM_WORLD.getRank();
        for (int p = 0; p < MPI.COMM_WORLD.getSize(); p++) {
            // blocking small messages take the lane, as between processes
            assertThat(t.lane(p)).as("lane to rank %d", p).isEqualTo(p == rank ? null : t);
        }
    }

    @MpiTest(ranks = {2, 3}, modes = Mode.THREADS, timeoutSeconds = 60)
    void smallAndLargeMessagesOfOneSenderArriveInOrder() throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int last = MPI.COMM_WORLD.getSize() - 1;
        if (rank == 0) {
            Request[] sent = new Request[SIZES.length];
            Object[] keep = new Object[SIZES.length];
            for (int i = 0; i < SIZES.length; i++) {
                // arrays and direct buffers in turn: the receiver reads either in place
                byte[] a = pattern(i, SIZES[i]);
                if (i % 2 == 0) {
                    keep[i] = a;
                    sent[i] = MPI.COMM_WORLD.iSend(a, a.length, MPI.BYTE, last, 5);
                } else {
                    ByteBuffer b = MPI.newByteBuffer(a.length).put(a);
                    keep[i] = b;
                    sent[i] = MPI.COMM_WORLD.iSend(b, a.length, MPI.BYTE, last, 5);
                }
            }
            Request.waitAll(sent);
            assertThat(keep).doesNotContainNull();
        } else if (rank == last) {
            byte[] in = new byte[(3 << 20) + 64];
            for (int i = 0; i < SIZES.length; i++) {
                Status st = MPI.COMM_WORLD.recv(in, in.length, MPI.BYTE, 0, MPI.ANY_TAG);
                assertThat(st.getCount(MPI.BYTE)).as("message %d", i).isEqualTo(SIZES[i]);
                byte[] got = java.util.Arrays.copyOf(in, SIZES[i]);
                assertThat(got).as("message %d", i).isEqualTo(pattern(i, SIZES[i]));
            }
        }
        MPI.COMM_WORLD.barrier();
    }

    /**
     * A large message whose receive is posted late (its request waits unexpected), and one received into a strided
     * datatype (no contiguous buffer to copy into: the sender sends the data through the rings instead).
     */
    @MpiTest(ranks = {2, 3}, modes = Mode.THREADS, timeoutSeconds = 60)
    void aLateReceiveAndANonContiguousReceiveGetTheWholeMessage() throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int last = MPI.COMM_WORLD.getSize() - 1;
        int n = 1 << 18; // doubles: 2 MiB
        if (rank == 0) {
            double[] out = new double[n];
            for (int i = 0; i < n; i++) {
                out[i] = i * 0.5;
            }
            Request r = MPI.COMM_WORLD.iSend(out, n, MPI.DOUBLE, last, 1);
            MPI.COMM_WORLD.barrier(); // the receive is posted after this
            r.waitFor();
            MPI.COMM_WORLD.send(out, n, MPI.DOUBLE, last, 2);
        } else {
            MPI.COMM_WORLD.barrier();
            if (rank == last) {
                double[] in = new double[n];
                MPI.COMM_WORLD.recv(in, n, MPI.DOUBLE, 0, 1);
                for (int i = 0; i < n; i++) {
                    assertThat(in[i]).as("element %d", i).isEqualTo(i * 0.5);
                }
                // every other double of a buffer twice as long
                Datatype everyOther = Datatype.createVector(n, 1, 2, MPI.DOUBLE);
                everyOther.commit();
                double[] wide = new double[2 * n];
                java.util.Arrays.fill(wide, -1);
                MPI.COMM_WORLD.recv(wide, 1, everyOther, 0, 2);
                everyOther.free();
                for (int i = 0; i < n; i++) {
                    assertThat(wide[2 * i]).as("element %d", i).isEqualTo(i * 0.5);
                    assertThat(wide[2 * i + 1]).as("gap %d", i).isEqualTo(-1);
                }
            }
        }
    }

    /**
     * A rank that waits long sleeps in its transport (parked: threads mode links no futex), each sleep up to 50 ms
     * once its cap (2 ms) is raised; the peer that sends to it must wake it at once, not leave the message to the
     * sleep's end. The ranks share a clock: the median of four sends' lags is under a millisecond when the send wakes
     * the sleeper (the code is still cold), some 25 ms when it does not.
     */
    @MpiTest(ranks = {2}, modes = Mode.THREADS, timeoutSeconds = 60)
    void aRankAsleepInItsTransportIsWokenByTheMessage() throws Exception {
        java.lang.reflect.Field cap = ShmTransport.class.getDeclaredField("futexCapNanos");
        cap.setAccessible(true);
        cap.setLong(null, java.util.concurrent.TimeUnit.SECONDS.toNanos(30)); // this rank's class: its loader's own
        int rank = MPI.COMM_WORLD.getRank();
        long[] sentAt = new long[1];
        long[] lags = new long[4];
        for (int i = 0; i < lags.length; i++) {
            if (rank == 0) {
                Thread.sleep(1000); // rank 1 waits: it spins, yields, then sleeps
                sentAt[0] = System.nanoTime();
                MPI.COMM_WORLD.send(sentAt, 1, MPI.LONG, 1, 9);
            } else {
                MPI.COMM_WORLD.recv(sentAt, 1, MPI.LONG, 0, 9);
                lags[i] = System.nanoTime() - sentAt[0];
            }
            MPI.COMM_WORLD.barrier();
        }
        if (rank == 1) {
            java.util.Arrays.sort(lags);
            assertThat(lags[1]).as("median lag from send to receive, ns (all: %s)", java.util.Arrays.toString(lags))
                    .isLessThan(8_000_000L);
        }
    }

    private static byte[] pattern(int message, int bytes) {
        byte[] b = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            b[i] = (byte) (message * 37 + i * 7 + (i >> 11));
        }
        return b;
    }
}
