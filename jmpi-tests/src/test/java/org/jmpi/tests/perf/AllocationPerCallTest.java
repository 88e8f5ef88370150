package org.jmpi.tests.perf;

import static org.assertj.core.api.Assertions.assertThat;

import mpi.MPI;
import mpi.MPIException;
import org.jmpi.benchmarks.AllocationPerCall;
import org.jmpi.benchmarks.AllocationPerCall.Family;
import org.jmpi.junit.MpiTest;
import org.jmpi.junit.MpiTestContext;

/**
 * Bytes allocated per operation in steady state, per call family (a count, not a timing): the regression test of
 * "no garbage per message". Each family runs 20,000 warm-up operations, then two windows of 20,000 counted ones, and
 * the lower count is taken (2,000 each for 256 KiB messages) ({@link AllocationPerCall#measure}). The limits are what the API itself makes the call return: {@code recv} a new
 * {@code Status} (48 bytes with compressed class pointers), {@code iSend}/{@code iRecv} a new {@code Request} each
 * (32 bytes). On top of that each limit leaves 48 bytes for what depends on the JIT's progress (escape analysis of
 * short-lived objects in code not yet compiled by C2 when the rank JVM is busy) and for rare amortised work (credit
 * frames, a buffer view made again after a GC): far below what one request or frame header per message costs
 * (100-200 bytes each; 500-1,100 bytes per round trip before requests were recycled).
 */
class AllocationPerCallTest {
    /** Warm-up and counted operations per family. */
    private static final int OPS = 20_000;
    /** One Status per round trip and rank, plus slack. */
    private static final double STATUS_ONLY = 48 + 48;
    /** Two Requests per round trip and rank, plus slack. */
    private static final double TWO_REQUESTS = 64 + 48;
    /** A window's Requests (32 bytes each) and the acknowledgement's Status, plus slack. */
    private static final double WINDOW_OF_REQUESTS = Family.WINDOW * 32 + 48 + 48;

    private static void check(Family f, double limit) throws MPIException {
        int ops = f.name().endsWith("256K") ? OPS / 10 : OPS; // 256 KiB messages: fewer, the copies dominate the time
        // two counted windows back to back, the lower one taken: on a loaded host C2 may not have compiled the path
        // yet in the first one (a clean-clone CI run once saw 111 bytes per 4-byte allreduce at 3 ranks, where
        // escape analysis had not run yet); garbage the calls make per message shows in both windows
        double perOp = Math.min(AllocationPerCall.measure(f, ops, ops), AllocationPerCall.measure(f, 0, ops));
        double[] max = {perOp};
        MPI.COMM_WORLD.allReduce(max, 1, MPI.DOUBLE, MPI.MAX);
        assertThat(max[0]).as("bytes allocated per %s operation (max over ranks)", f).isLessThanOrEqualTo(limit);
    }

    @MpiTest(ranks = 2, timeoutSeconds = 180)
    void blockingSendAndReceiveAllocateOnlyTheStatus() throws MPIException {
        check(Family.SEND_RECV_ARRAY_8B, STATUS_ONLY);
        check(Family.SEND_RECV_DIRECT_8B, STATUS_ONLY);
        check(Family.SEND_RECV_DIRECT_0B, STATUS_ONLY);
        check(Family.SENDRECV_ARRAY_8B, STATUS_ONLY);
        // twelve buffers in turn: each call made a new buffer view while the per-thread cache kept four
        check(Family.SEND_RECV_ROTATING_ARRAYS_8B, STATUS_ONLY);
    }

    @MpiTest(ranks = 2, modes = org.jmpi.junit.Mode.THREADS, timeoutSeconds = 180)
    void rendezvousInThreadsModeAllocatesOnlyTheStatus() throws MPIException {
        check(Family.SEND_RECV_ARRAY_256K, STATUS_ONLY);
        check(Family.SEND_RECV_DIRECT_256K, STATUS_ONLY);
    }

    @MpiTest(ranks = 2, timeoutSeconds = 180)
    void nonBlockingCallsAllocateOnlyTheirRequests() throws MPIException {
        check(Family.ISEND_IRECV_WAIT_ARRAY_8B, TWO_REQUESTS);
        check(Family.ISEND_IRECV_WAIT_DIRECT_8B, TWO_REQUESTS);
        check(Family.IRECV_TEST_ARRAY_8B, STATUS_ONLY);
        // a window of 64: each rank's pool kept 8 requests, so 56 were made new per window, and waitAll made a status
        // per request and two arrays (about 18,000 bytes per window)
        check(Family.ISEND_WINDOW_WAITALL_DIRECT_8B, WINDOW_OF_REQUESTS);
    }

    /**
     * A program that passes new arrays to every call pays for the arrays and a view of each, 32 bytes for a small
     * primitive array with a predefined type (MessageData.SmallArrayData: no memory segment is made for the lane and
     * the collectives' copies): not for a cache entry, nor for a segment and its session (288 bytes per call for the
     * two here when each view had them, 704 when the general view's plan, bounds and slices were made too). With a
     * lane that asks for the views' segments, the blocking send and receive fail the bound (checked 2026-12-06).
     */
    @MpiTest(ranks = 2, timeoutSeconds = 180)
    void freshArraysCostTheirViewsOnly() throws MPIException {
        check(Family.ALLREDUCE_FRESH_ARRAYS_8B, 2 * 24 + 2 * 40 + 48);
        check(Family.SEND_RECV_FRESH_ARRAYS_8B, 2 * 24 + 2 * 32 + STATUS_ONLY);
    }

    /**
     * A barrier, and the fence epoch built on it, allocate nothing of their own in steady state (they used to build a
     * collective schedule per call, ~650 bytes). The limit is twice the slack: in threads mode the ranks' threads
     * contend for each other's locks, whose waiting nodes the JDK allocates (54 bytes per fence were seen at 3 ranks).
     */
    @MpiTest(ranks = {2, 3}, timeoutSeconds = 180)
    void barrierAndFenceAllocateNothing(MpiTestContext ctx) throws MPIException {
        // threads mode: the lock queue nodes grow with contention, i.e. with the host's load (146 bytes per fence at
        // 3 ranks on a loaded 2-core host); still far below a schedule per call
        double limit = ctx.mode() == org.jmpi.junit.Mode.THREADS ? 320 : 2 * 48;
        check(Family.BARRIER, limit);
        check(Family.WIN_FENCE, limit);
    }

    /**
     * Small blocking bcast, allreduce and alltoall run without a schedule (org.jmpi.coll.Immediate):
     * nothing allocated per call in steady state, on direct buffers and on Java arrays (a schedule per call was
     * 600-1,500 bytes). Processes only: in threads mode a bcast root that runs ahead leaves unexpected messages whose
     * entries the receiver's pool cannot always absorb.
     *
     * <p>At 3 ranks on this 2-core host the ranks sleep on their doorbells between messages, so every call also wakes
     * a peer with {@code futex}. That downcall captured {@code errno}, and the JDK slices the capture segment on each
     * call: an object that escape analysis removed in most rank JVMs and kept in some (62-121 bytes per call on one
     * rank, in about one whole-class run in three; the limit here was 160 bytes until it was found). The futex call
     * no longer captures anything; {@link #withoutEscapeAnalysisOnlyWhatTheApiReturnsIsAllocated} pins that the path
     * needs no escape analysis at all.
     */
    @MpiTest(ranks = {2, 3}, modes = org.jmpi.junit.Mode.PROCESSES, timeoutSeconds = 180)
    void smallBlockingCollectivesAllocateNothing() throws MPIException {
        double limit = 48;
        check(Family.BCAST_8B, limit);
        check(Family.BCAST_ARRAY_8B, limit);
        check(Family.ALLREDUCE_4B, limit);
        check(Family.ALLREDUCE_ARRAY_4B, limit);
        check(Family.ALLTOALL_8B, limit); // at 3 ranks 8-byte blocks take Bruck's algorithm, also on the immediate path
        check(Family.REDUCE_4B, limit);
        check(Family.GATHER_8B, limit);
        check(Family.SCATTER_8B, limit);
    }

    /**
     * With C2's escape analysis turned off, every object the path makes is allocated, so the count no longer depends
     * on which methods the JIT happened to inline (the source of the 3-rank lottery above): the point-to-point calls
     * allocate exactly what the API returns ({@code Status} 48 bytes, {@code Request} 32), and the small collectives
     * nothing. The slack is 8 bytes per call, less than the smallest object, so one object per call more fails.
     *
     * <p>The rooted ones (reduce, gather, scatter, bcast) at 3 ranks too: their senders used to run ahead of the root
     * by up to a flow window of 4-byte messages (about 40,000 per peer), more than the receiver keeps pooled
     * unexpected entries for (2,048), and the root allocated entries while the backlog swung (225-245 bytes per call).
     * Pacing (org.jmpi.coll.Immediate) keeps a sender within two paces (768 calls at 2 ranks, 384 at 3: two paces of
     * every sender take at most three quarters of the pool); a paced call itself costs its
     * sender about 100 bytes (the send's entry in the engine's table of sends that wait for an answer), under a byte
     * per call.
     */
    @MpiTest(ranks = {2, 3}, modes = org.jmpi.junit.Mode.PROCESSES, timeoutSeconds = 240,
            jvmArgs = "-XX:-DoEscapeAnalysis")
    void withoutEscapeAnalysisOnlyWhatTheApiReturnsIsAllocated() throws MPIException {
        double slack = 8;
        check(Family.SEND_RECV_ARRAY_8B, 48 + slack);
        check(Family.SEND_RECV_DIRECT_8B, 48 + slack);
        check(Family.SENDRECV_ARRAY_8B, 48 + slack);
        check(Family.SEND_RECV_ROTATING_ARRAYS_8B, 48 + slack);
        check(Family.ISEND_IRECV_WAIT_ARRAY_8B, 64 + slack);
        check(Family.ISEND_IRECV_WAIT_DIRECT_8B, 64 + slack);
        check(Family.ISEND_WINDOW_WAITALL_DIRECT_8B, Family.WINDOW * 32 + 48 + slack);
        check(Family.IRECV_TEST_ARRAY_8B, 32 + slack);
        check(Family.BARRIER, slack);
        check(Family.BCAST_8B, slack);
        check(Family.BCAST_ARRAY_8B, slack);
        check(Family.ALLREDUCE_4B, slack);
        check(Family.ALLREDUCE_ARRAY_4B, slack);
        check(Family.ALLGATHER_8B, slack);
        check(Family.ALLTOALL_8B, slack);
        check(Family.SCATTER_8B, slack);
        check(Family.REDUCE_4B, slack);
        check(Family.GATHER_8B, slack);
    }

    /**
     * One-sided operations between processes stay within a bound of heap bytes per operation (a regression guard:
     * 944 bytes per put + flush, 864 per get + flush, 707 per fetchAndOp were measured when this was written; the
     * request, header, status and callbacks of each operation are still fresh objects).
     */
    @MpiTest(ranks = 2, modes = org.jmpi.junit.Mode.PROCESSES, timeoutSeconds = 180)
    void oneSidedOperationsAllocateLittle() throws MPIException {
        check(Family.WIN_PUT_FLUSH_8B, 1200);
        check(Family.WIN_GET_FLUSH_8B, 1200);
        check(Family.WIN_FETCH_AND_OP, 1200);
    }

    /**
     * A handle whose completion was observed keeps behaving as a null request while the engine reuses the request
     * behind it for the next operations: its status is empty, waiting returns at once, and the new operation gets
     * its own data.
     */
    @MpiTest(ranks = 2)
    void completedHandlesStayNullWhileTheirRequestIsReused() throws MPIException {
        mpi.Comm w = MPI.COMM_WORLD;
        int peer = 1 - w.getRank();
        int[] first = new int[1];
        int[] second = new int[1];
        int[] out = {10 + w.getRank()};
        mpi.Request r1 = w.iRecv(first, 1, MPI.INT, peer, 5);
        w.send(out, 1, MPI.INT, peer, 5);
        r1.waitFor();
        assertThat(r1.isNull()).isTrue();
        out[0] = 20 + w.getRank();
        mpi.Request r2 = w.iRecv(second, 1, MPI.INT, peer, 6);
        mpi.Request s2 = w.iSend(out, 1, MPI.INT, peer, 6);
        mpi.Status s = r1.getStatus();
        assertThat(s.getSource()).isEqualTo(MPI.ANY_SOURCE);
        r1.waitFor(); // a null handle: returns at once
        assertThat(r1.test()).isTrue();
        mpi.Status got = r2.waitStatus();
        s2.waitFor();
        assertThat(got.getSource()).isEqualTo(peer);
        assertThat(got.getTag()).isEqualTo(6);
        assertThat(first[0]).isEqualTo(10 + peer);
        assertThat(second[0]).isEqualTo(20 + peer);
        assertThat(r2.isNull()).isTrue();
        r1.free();
    }
}
