package org.jmpi.tests.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.Progress;
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
     * A rank asleep in its transport (parked: threads mode links no futex) is woken by a peer's send at once, not at the
     * sleep's end. The receiving rank sleeps in the transport directly, the sleep's cap and its next length raised to
     * 30 s, for up to 10 s; the sender sends 0.3 s later. Woken, the lag from send to wake-up is a wake-up's (on the
     * project's VM 1-15 ms after such a pause, as for Open MPI's Java bindings); not woken, it is the rest of the 10 s.
     * (Through {@code MPI.recv} the sleeps are at most 50 ms, which a slow wake-up on a loaded machine comes close to.)
     */
    @MpiTest(ranks = {2}, modes = Mode.THREADS, timeoutSeconds = 60)
    void aRankAsleepInItsTransportIsWokenByTheMessage() throws Exception {
        java.lang.reflect.Field cap = ShmTransport.class.getDeclaredField("futexCapNanos");
        cap.setAccessible(true);
        cap.setLong(null, TimeUnit.SECONDS.toNanos(30)); // this rank's class: its loader's own
        java.lang.reflect.Field next = ShmTransport.class.getDeclaredField("parkNanos");
        next.setAccessible(true);
        int rank = MPI.COMM_WORLD.getRank();
        Progress progress = JmpiRuntime.get().progress();
        ShmTransport t = (ShmTransport) progress.transport();
        long[] sentAt = new long[1];
        long[] lags = new long[4];
        for (int i = 0; i < lags.length; i++) {
            if (rank == 0) {
                Thread.sleep(300);
                sentAt[0] = System.nanoTime();
                MPI.COMM_WORLD.send(sentAt, 1, MPI.LONG, 1, 9);
            } else {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                assertThat(progress.tryOwn()).as("the progress lock is free").isTrue();
                try {
                    while (!t.mayHaveWork() && System.nanoTime() < deadline) { // a park may return early
                        next.setLong(t, TimeUnit.SECONDS.toNanos(30));
                        t.await(deadline - System.nanoTime());
                    }
                } finally {
                    progress.disown();
                }
                long woke = System.nanoTime();
                MPI.COMM_WORLD.recv(sentAt, 1, MPI.LONG, 0, 9);
                lags[i] = woke - sentAt[0];
            }
            MPI.COMM_WORLD.barrier();
        }
        if (rank == 1) {
            assertThat(java.util.Arrays.stream(lags).max().getAsLong())
                    .as("longest lag from send to wake-up, ns (all: %s)", java.util.Arrays.toString(lags))
                    .isLessThan(TimeUnit.SECONDS.toNanos(2));
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
