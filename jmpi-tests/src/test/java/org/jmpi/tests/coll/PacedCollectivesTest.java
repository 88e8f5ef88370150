package org.jmpi.tests.coll;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.IntBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.jmpi.coll.CollConfig;
import org.jmpi.coll.Tuning;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;
import org.jmpi.runtime.JmpiRuntime;

/**
 * Pacing of the small rooted collectives (org.jmpi.coll.Immediate, "Pacing"): every {@code jmpi.coll.pace}-th call
 * sends its messages eager synchronous from a private copy, and a sender waits for that message to be matched before
 * its next paced one to the same rank. The data must be what an unpaced call delivers, in every call, for every root,
 * on Java arrays and direct buffers, below and above the paced size; and in a loop of rooted collectives whose root is
 * slower than its senders, the root's backlog of unexpected messages must stay within two paces per sender, where
 * without pacing the senders could run a whole flow window (tens of thousands of messages) ahead.
 */
class PacedCollectivesTest {

    /** Every rank uses {@code pace} (each rank sets it: the ranks of one test agree). */
    private static void pace(long pace) {
        CollConfig d = CollConfig.defaults();
        Tuning.useConfig(new CollConfig(d.forced(), d.bcastLong(), d.bcastPipeline(), d.bcastSegment(), d.gatherShort(),
                d.allgatherShort(), d.alltoallShort(), d.alltoallMedium(), d.allreduceShort(), d.allreduceLong(),
                d.allreduceSegment(), d.reduceLong(), d.reduceScatterLong(), pace, d.hierarchical()));
    }

    @MpiTest(ranks = {2, 3, 5}, timeoutSeconds = 180)
    void pacedCallsDeliverWhatUnpacedOnesDo() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int p = w.getSize();
        int r = w.getRank();
        pace(3); // calls 2, 5, 8, ... are paced; every shape below runs paced and unpaced
        try {
            // 1, 100 and 3,000 ints are paced (at most 16 KiB per message); 6,000 ints are not
            for (int count : new int[] {1, 100, 3000, 6000}) {
                for (int round = 0; round < 4; round++) {
                    for (int root = 0; root < p; root++) {
                        int seed = round * 1000 + root * 10 + count;
                        // bcast, on an array and on a direct buffer
                        int[] a = new int[count];
                        IntBuffer d = MPI.newIntBuffer(count);
                        if (r == root) {
                            for (int i = 0; i < count; i++) {
                                a[i] = seed + i;
                                d.put(i, seed - i);
                            }
                        }
                        w.bcast(a, count, MPI.INT, root);
                        w.bcast(d, count, MPI.INT, root);
                        for (int i = 0; i < count; i++) {
                            assertThat(a[i]).as("bcast count %d root %d int %d", count, root, i).isEqualTo(seed + i);
                            assertThat(d.get(i)).as("bcast direct count %d root %d int %d", count, root, i)
                                    .isEqualTo(seed - i);
                        }
                        // reduce
                        int[] in = new int[count];
                        for (int i = 0; i < count; i++) {
                            in[i] = seed + r * 7 + i;
                        }
                        int[] sum = new int[count];
                        w.reduce(in, sum, count, MPI.INT, MPI.SUM, root);
                        if (r == root) {
                            for (int i = 0; i < count; i++) {
                                assertThat(sum[i]).as("reduce count %d root %d int %d", count, root, i)
                                        .isEqualTo(p * (seed + i) + 7 * p * (p - 1) / 2);
                            }
                        }
                        // gather
                        int[] all = new int[p * count];
                        w.gather(in, count, MPI.INT, all, count, MPI.INT, root);
                        if (r == root) {
                            for (int q = 0; q < p; q++) {
                                for (int i = 0; i < count; i++) {
                                    assertThat(all[q * count + i]).as("gather count %d root %d from %d int %d", count,
                                            root, q, i).isEqualTo(seed + q * 7 + i);
                                }
                            }
                        }
                        // scatter
                        int[] source = new int[p * count];
                        if (r == root) {
                            for (int i = 0; i < p * count; i++) {
                                source[i] = seed * 3 + i;
                            }
                        }
                        int[] mine = new int[count];
                        w.scatter(source, count, MPI.INT, mine, count, MPI.INT, root);
                        for (int i = 0; i < count; i++) {
                            assertThat(mine[i]).as("scatter count %d root %d int %d", count, root, i)
                                    .isEqualTo(seed * 3 + r * count + i);
                        }
                    }
                }
            }
            w.barrier();
        } finally {
            Tuning.useConfig(null);
        }
    }

    /**
     * {@link ImmediateCollectivesTest}'s comparison of blocking and non-blocking calls (a datatype with holes, every
     * root, in place and not) with every other call paced: a paced message is a packed copy of the sender's data.
     */
    @MpiTest(ranks = {3, 4}, timeoutSeconds = 240)
    void pacedCallsAgreeWithTheScheduleOnDatatypesWithHoles() throws MPIException {
        pace(2);
        try {
            new ImmediateCollectivesTest().blockingAndNonBlockingAgree();
        } finally {
            Tuning.useConfig(null);
        }
    }

    /**
     * Gathers of 4 bytes to a root that does some work in each call: the senders are faster and would run ahead by a
     * flow window. With the default pace (by the communicator's size) the root never holds more than two paces of
     * messages per sender (and a few others: the barrier's), at most three quarters of the engine's pool of 2,048 unexpected
     * entries.
     */
    @MpiTest(ranks = {2, 3, 4}, timeoutSeconds = 180)
    void aSlowRootHoldsAtMostTwoPacesPerSender() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int p = w.getSize();
        int r = w.getRank();
        long pace = CollConfig.autoPace(p);
        int[] one = {r};
        int[] all = new int[p];
        int most = 0;
        long sink = 0;
        w.barrier();
        for (int call = 0; call < 20_000; call++) {
            w.gather(one, 1, MPI.INT, all, 1, MPI.INT, 0);
            if (r == 0) {
                assertThat(all[p - 1]).isEqualTo(p - 1);
                most = Math.max(most, JmpiRuntime.get().engine().unexpectedMessages());
                for (int i = 0; i < 2_000; i++) { // the root's own work: its senders get ahead of it
                    sink += (sink ^ i) * 31 + i;
                }
            }
        }
        w.barrier();
        if (r == 0) {
            assertThat(sink).isNotEqualTo(42); // keeps the work
            assertThat(most).as("most unexpected messages at the root, %d senders, pace %d", p - 1, pace)
                    .isLessThanOrEqualTo((int) ((p - 1) * 2 * pace + 8));
        }
    }

    /**
     * Broadcasts of 192 KiB (above the engine's eager limit, within the lane's) from a root faster than its receivers:
     * the root runs ahead until the flow window is half used, then waits for credit before each further message
     * (Engine.sendNowWhenCredited) instead of a rendezvous; every receiver gets every call's data, in order.
     */
    @MpiTest(ranks = {2, 3, 4}, timeoutSeconds = 180)
    void aLargeBcastFromARootThatRunsAheadArrivesWhole() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int r = w.getRank();
        int n = 48 << 10; // ints
        int[] buf = new int[n];
        long sink = 0;
        for (int call = 0; call < 120; call++) {
            if (r == 0) {
                for (int i = 0; i < n; i += 512) {
                    buf[i] = call * 7 + i;
                }
            }
            w.bcast(buf, n, MPI.INT, 0);
            if (r != 0) {
                for (int i = 0; i < n; i += 512) {
                    assertThat(buf[i]).as("call %d int %d", call, i).isEqualTo(call * 7 + i);
                }
                for (int i = 0; i < 20_000; i++) { // slower than the root
                    sink += (sink ^ i) * 31 + i;
                }
            }
        }
        w.barrier();
        assertThat(sink).isNotEqualTo(42);
    }

    /** The same over TCP between processes (the DONE answer travels another transport). */
    @MpiTest(ranks = {3}, modes = Mode.PROCESSES, jvmArgs = "-Djmpi.transport=tcp", timeoutSeconds = 180)
    void overTcp() throws MPIException {
        aSlowRootHoldsAtMostTwoPacesPerSender();
    }
}
