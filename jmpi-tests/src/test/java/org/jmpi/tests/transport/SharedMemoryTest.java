package org.jmpi.tests.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import mpi.Comm;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.transport.select.SelectingTransport;
import org.junit.jupiter.api.Assumptions;

/**
 * Processes on one host talk through shared memory: the transport choice, the protocols over it (eager, chunked
 * rendezvous, single copy between direct buffers, truncation, derived datatypes), and waiting when there are more
 * ranks than cores.
 */
class SharedMemoryTest {

    private static SelectingTransport transport() {
        return (SelectingTransport) JmpiRuntime.get().progress().transport();
    }

    /** The whole suite also runs with TCP forced (JMPI_TRANSPORT=tcp); then there is no shared memory to look at. */
    private static void assumeSharedMemory() {
        String forced = System.getProperty("jmpi.transport", System.getenv("JMPI_TRANSPORT"));
        Assumptions.assumeFalse("tcp".equalsIgnoreCase(forced), "TCP is forced");
    }

    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES)
    void ranksOfOneHostUseSharedMemoryWithAPrivateSegment() throws Exception {
        assumeSharedMemory();
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        SelectingTransport t = transport();
        for (int p = 0; p < size; p++) {
            if (p != rank) {
                assertThat(t.transportOf(p)).as("transport to rank %d", p).isEqualTo("shm");
            }
        }
        Path segment = t.shm().segmentPath();
        assertThat(segment.getParent()).isEqualTo(Path.of("/dev/shm"));
        assertThat(segment.getFileName().toString()).startsWith("jmpi-").endsWith("-" + rank)
                .contains(JmpiRuntime.get().bootstrap().jobId());
        // every rank of the host mapped every segment in MPI_Init and the last to map each removed its file (issue 20);
        // the file's mode 0600 is checked in jmpi-core's ShmTransportTest
        assertThat(Files.exists(segment)).as("segment file after MPI_Init").isFalse();
        assertThat(t.describeRoutes()).contains("shm -> ");
    }

    /**
     * The system calls of the shared-memory transport (futex, process_vm_readv) are linked by the time MPI_Init
     * returns, without a message being sent: not inside whatever the program times, neither when a first large
     * message, a first sleep or a record count asks for them nor in a thread of their own beside the program's start.
     * (The parent-death signal links them in any case, but only ten seconds after start-up.)
     */
    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES, timeoutSeconds = 60)
    void theSystemCallsAreLinkedWhenMpiInitReturns() throws Exception {
        assumeSharedMemory();
        assertThat(org.jmpi.shared.Syscall.awaitLinked(0)).as("linked when MPI_Init has returned").isTrue();
    }

    @MpiTest(ranks = {2}, modes = Mode.PROCESSES, jvmArgs = "-Djmpi.transport=tcp")
    void tcpCanBeForced() throws Exception {
        SelectingTransport t = transport();
        assertThat(t.transportOf(1 - MPI.COMM_WORLD.getRank())).isEqualTo("tcp");
        assertThat(t.shm()).isNull();
        int[] x = {MPI.COMM_WORLD.getRank()};
        MPI.COMM_WORLD.allReduce(x, 1, MPI.INT, MPI.SUM);
        assertThat(x[0]).isEqualTo(1);
    }

    /** Sizes around every protocol switch: eager, rendezvous in chunks, single copy, ring wrap, long messages. */
    private static final int[] SIZES = {0, 1, 8, 56, 57, 4095, 4096, 4097, 16 << 10, (16 << 10) + 3, 64 << 10,
        (64 << 10) + 3, 100_000, (256 << 10) + 1, 3 << 20};

    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES, timeoutSeconds = 120)
    void everyBufferKindAndSizeArrivesIntact() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int to = (rank + 1) % size;
        int from = (rank + size - 1) % size;
        for (int n : SIZES) {
            for (int kinds = 0; kinds < 4; kinds++) {
                boolean directOut = (kinds & 1) != 0;
                boolean directIn = (kinds & 2) != 0;
                Object out = directOut ? ByteBuffer.allocateDirect(Math.max(n, 1)) : new byte[Math.max(n, 1)];
                Object in = directIn ? ByteBuffer.allocateDirect(Math.max(n, 1)) : new byte[Math.max(n, 1)];
                for (int i = 0; i < n; i++) {
                    put(out, i, (byte) (i * 7 + rank + n));
                }
                Request s = w.iSend(out, n, MPI.BYTE, to, kinds);
                Status st = w.recv(in, n, MPI.BYTE, from, kinds);
                s.waitFor();
                assertThat(st.getCount(MPI.BYTE)).isEqualTo(n);
                for (int i = 0; i < n; i++) {
                    if (get(in, i) != (byte) (i * 7 + from + n)) {
                        throw new AssertionError("byte " + i + " of " + n + " (kinds " + kinds + ") is wrong");
                    }
                }
            }
        }
    }

    /**
     * Direct buffers whose page offsets make the kernel's single copy slow (the receiver's buffer 1-31 bytes after the
     * sender's, modulo 4 KiB): the transport refuses that copy, for the whole message and for either half of a split
     * one, and the data travels through the ring instead. Every byte must arrive, at every such distance tried and
     * at the ordinary ones beside them, for plain and split single copies (300 KiB and 3 MiB).
     */
    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES, timeoutSeconds = 120)
    void directBuffersAtShortPageDistancesArriveIntact() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int to = (rank + 1) % size;
        int from = (rank + size - 1) % size;
        ByteBuffer outBase = ByteBuffer.allocateDirect((4 << 20) + 8192);
        ByteBuffer inBase = ByteBuffer.allocateDirect((4 << 20) + 8192);
        int[] distances = {0, 1, 8, 16, 31, 32, 4088};
        int tag = 0;
        for (int n : new int[] {300 << 10, 3 << 20}) {
            for (int d : distances) {
                ByteBuffer out = atPageOffset(outBase, 0, n);
                ByteBuffer in = atPageOffset(inBase, d, n);
                for (int i = 0; i < n; i++) {
                    out.put(i, (byte) (i * 13 + rank + d));
                }
                Request s = w.iSend(out, n, MPI.BYTE, to, tag);
                Status st = w.recv(in, n, MPI.BYTE, from, tag);
                s.waitFor();
                tag++;
                assertThat(st.getCount(MPI.BYTE)).isEqualTo(n);
                for (int i = 0; i < n; i++) {
                    if (in.get(i) != (byte) (i * 13 + from + d)) {
                        throw new AssertionError("byte " + i + " of " + n + " at distance " + d + " is wrong");
                    }
                }
            }
        }
    }

    /**
     * Blocking sends of large direct buffers, which the receiver copies straight out of the sender's buffer (an ADDRESS
     * record, from {@code jmpi.shm.address.min}, 8 KiB): each send returns only once its buffer has been read, so a
     * sender that overwrites it at once spoils nothing, even for messages that wait unexpected (here received in the
     * reverse order); two ranks that both send before they receive do not wait for each other (the receiver reads while
     * it waits for its own send); a receive into a Java array, at a short page distance (the kernel's copy refused) or
     * posted before the message comes takes the copy through the receiver's own buffer; the probe sees the message's
     * length; bcast from every root. Sizes on both sides of the threshold and of the lane's largest message. In threads
     * mode the receiver copies from the sender's buffer as from any memory of its process. A sendRecv's send goes the
     * same way, and its call waits for the read after its own receive.
     */
    @MpiTest(ranks = {2, 3}, timeoutSeconds = 120)
    void blockingSendsOfLargeDirectBuffersAreReadWhereTheyAre() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int to = (rank + 1) % size;
        int from = (rank + size - 1) % size;
        ByteBuffer outBase = ByteBuffer.allocateDirect((256 << 10) + 8192);
        ByteBuffer inBase = ByteBuffer.allocateDirect((256 << 10) + 8192);
        byte[] array = new byte[256 << 10];
        for (int n : new int[] {(8 << 10) - 1, 8 << 10, 40_001, 100_001, (256 << 10) - 64, 256 << 10}) {
            for (int d : new int[] {0, 16}) {
                ByteBuffer out = atPageOffset(outBase, 0, n);
                ByteBuffer in = atPageOffset(inBase, d, n);
                // a ring: even ranks send first; with 2 ranks both send first (both wait to be read meanwhile)
                for (int turn = 0; turn < 2; turn++) {
                    if ((rank % 2 == 0 || size == 2) == (turn == 0)) {
                        fill(out, n, rank + d);
                        w.send(out, n, MPI.BYTE, to, 1);
                    } else {
                        Status st = w.recv(in, n, MPI.BYTE, from, 1);
                        assertThat(st.getCount(MPI.BYTE)).isEqualTo(n);
                        check(in, n, from + d, "ring");
                    }
                }
                // sendRecv around the ring: every rank's send and receive at once, the send buffer overwritten as
                // soon as the call returns (a message that went by address has been read by then)
                fill(out, n, rank + d + 1);
                Status sr = w.sendRecv(out, n, MPI.BYTE, to, 5, in, n, MPI.BYTE, from, 5);
                fill(out, n, rank + d + 2);
                assertThat(sr.getCount(MPI.BYTE)).isEqualTo(n);
                check(in, n, from + d + 1, "sendRecv");
                // two messages from one buffer, overwritten after each send; received in reverse order, one by probe
                if (rank == 0) {
                    fill(out, n, 3);
                    w.send(out, n, MPI.BYTE, 1, 2);
                    fill(out, n, 4);
                    w.send(out, n, MPI.BYTE, 1, 3);
                    fill(out, n, 5);
                } else if (rank == 1) {
                    assertThat(w.probe(0, 3).getCount(MPI.BYTE)).isEqualTo(n);
                    w.recv(in, n, MPI.BYTE, 0, 3);
                    check(in, n, 4, "second");
                    w.recv(array, n, MPI.BYTE, 0, 2);
                    check(ByteBuffer.wrap(array), n, 3, "first, into an array");
                }
                // a receive posted before the message comes
                if (rank == 1) {
                    Request r = w.iRecv(in, n, MPI.BYTE, 0, 4);
                    w.barrier();
                    r.waitFor();
                    check(in, n, 6, "posted");
                } else {
                    w.barrier();
                    if (rank == 0) {
                        fill(out, n, 6);
                        w.send(out, n, MPI.BYTE, 1, 4);
                    }
                }
                for (int root = 0; root < size; root++) {
                    if (rank == root) {
                        fill(out, n, 7 + root);
                    }
                    w.bcast(rank == root ? out : in, n, MPI.BYTE, root);
                    check(rank == root ? out : in, n, 7 + root, "bcast");
                }
            }
        }
    }

    /**
     * The exchanges of sendRecv, alltoall and allgather send by address above the lane's short messages too (256 KiB
     * with 2-3 ranks), up to a quarter of the flow window; larger ones (3 MiB) take the rendezvous. Around the ring:
     * every rank's send buffer overwritten as soon as its call returns; with Java arrays on odd ranks, so that a
     * receive into a large direct buffer meets a streamed message and an array meets one by address; a message by
     * address above half a ring that waits unexpected (a probe reads it) before its sendRecv's receive; an alltoall
     * and an allgather of such blocks, direct and arrays.
     */
    @MpiTest(ranks = {2, 3}, timeoutSeconds = 120)
    void exchangesAboveTheLanesShortMessagesAreReadWhereTheyAre() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int to = (rank + 1) % size;
        int from = (rank + size - 1) % size;
        int max = 3 << 20;
        ByteBuffer out = ByteBuffer.allocateDirect(max);
        ByteBuffer in = ByteBuffer.allocateDirect(max);
        byte[] outArray = new byte[max];
        byte[] inArray = new byte[max];
        for (int n : new int[] {(256 << 10) + 64, 512 << 10, (1 << 20) - 4096, 1 << 20, max}) {
            for (boolean arrays : new boolean[] {false, true}) {
                boolean mine = arrays && rank % 2 == 1; // arrays on odd ranks in the second round
                fill(out, n, rank + n);
                out.get(0, outArray, 0, n);
                Status st = w.sendRecv(mine ? outArray : out, n, MPI.BYTE, to, 5, mine ? inArray : in, n, MPI.BYTE,
                        from, 5);
                fill(out, n, rank + 1);
                java.util.Arrays.fill(outArray, (byte) 0);
                assertThat(st.getCount(MPI.BYTE)).isEqualTo(n);
                String what = "sendRecv of " + n + (mine ? " (arrays)" : "");
                check(mine ? ByteBuffer.wrap(inArray) : in, n, from + n, what);
            }
        }
        if (rank < 2) { // above half a ring (512 KiB here), read while it waits unexpected
            int n = 768 << 10;
            int peer = 1 - rank;
            fill(out, n, 40 + rank);
            if (rank == 1) {
                assertThat(w.probe(0, 7).getCount(MPI.BYTE)).isEqualTo(n);
            }
            w.sendRecv(out, n, MPI.BYTE, peer, 7, in, n, MPI.BYTE, peer, 7);
            fill(out, n, 0);
            check(in, n, 40 + peer, "unexpected by address");
        }
        for (int block : new int[] {300 << 10, 768 << 10}) {
            for (boolean arrays : new boolean[] {false, true}) {
                ByteBuffer send = ByteBuffer.allocateDirect(size * block);
                ByteBuffer recv = ByteBuffer.allocateDirect(size * block);
                for (int p = 0; p < size; p++) {
                    fill(send.slice(p * block, block), block, 100 * rank + p);
                }
                byte[] sendArray = bytes(send, size * block);
                byte[] recvArray = new byte[size * block];
                w.allToAll(arrays ? sendArray : send, block, MPI.BYTE, arrays ? recvArray : recv, block, MPI.BYTE);
                ByteBuffer got = arrays ? ByteBuffer.wrap(recvArray) : recv;
                for (int p = 0; p < size; p++) {
                    check(got.slice(p * block, block), block, 100 * p + rank, "alltoall of " + block + " from " + p);
                }
                w.allGather(arrays ? sendArray : send, block, MPI.BYTE, arrays ? recvArray : recv, block, MPI.BYTE);
                for (int p = 0; p < size; p++) {
                    check(got.slice(p * block, block), block, 100 * p, "allgather of " + block + " from " + p);
                }
            }
        }
    }

    private static byte[] bytes(ByteBuffer b, int n) {
        byte[] a = new byte[n];
        b.get(0, a, 0, n);
        return a;
    }

    private static void fill(ByteBuffer b, int n, int seed) {
        for (int i = 0; i < n; i++) {
            b.put(i, (byte) (i * 31 + seed));
        }
    }

    private static void check(ByteBuffer b, int n, int seed, String what) {
        for (int i = 0; i < n; i++) {
            if (b.get(i) != (byte) (i * 31 + seed)) {
                throw new AssertionError(what + ": byte " + i + " of " + n + " is wrong");
            }
        }
    }

    /** The {@code n} bytes of {@code base} from the first address at {@code offset} bytes into a 4 KiB page. */
    private static ByteBuffer atPageOffset(ByteBuffer base, int offset, int n) {
        long address = java.lang.foreign.MemorySegment.ofBuffer(base).address();
        int start = (int) ((offset - address) & 4095);
        return base.slice(start, n);
    }

    private static void put(Object buf, int i, byte v) {
        if (buf instanceof byte[] a) {
            a[i] = v;
        } else {
            ((ByteBuffer) buf).put(i, v);
        }
    }

    private static byte get(Object buf, int i) {
        return buf instanceof byte[] a ? a[i] : ((ByteBuffer) buf).get(i);
    }

    /**
     * Streamed arrays (above the eager limit, up to jmpi.shm.stream.limit) that nobody receives yet: more of them than
     * the ring holds, so the receiver must gather them out of the ring while it waits for the one it wants (taken in
     * reverse order, each checked). Every rank sends to every other, so the rings fill both ways at once.
     */
    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES, timeoutSeconds = 120)
    void unexpectedStreamedArraysAreGatheredWhileTheRingIsFull() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int[] lengths = {20_000, 65_536, 100_003, 200_000, 262_144, 17_000};
        java.util.List<Request> sends = new java.util.ArrayList<>();
        for (int p = 0; p < size; p++) {
            if (p == rank) {
                continue;
            }
            for (int t = 0; t < lengths.length; t++) {
                double[] out = new double[lengths[t] / 8];
                for (int i = 0; i < out.length; i++) {
                    out[i] = rank * 1e6 + t * 1e4 + i;
                }
                sends.add(w.iSend(out, out.length, MPI.DOUBLE, p, t));
            }
        }
        for (int p = 0; p < size; p++) {
            if (p == rank) {
                continue;
            }
            for (int t = lengths.length - 1; t >= 0; t--) {
                double[] in = new double[lengths[t] / 8 + 3];
                Status st = w.recv(in, in.length, MPI.DOUBLE, p, t);
                assertThat(st.getCount(MPI.DOUBLE)).isEqualTo(lengths[t] / 8);
                for (int i = 0; i < lengths[t] / 8; i++) {
                    if (in[i] != p * 1e6 + t * 1e4 + i) {
                        throw new AssertionError("element " + i + " of tag " + t + " from rank " + p + " is wrong");
                    }
                }
                assertThat(in[lengths[t] / 8]).as("past the message").isZero();
            }
        }
        Request.waitAll(sends.toArray(new Request[0]));
    }

    @MpiTest(ranks = {2}, modes = Mode.PROCESSES)
    void aLongMessageIntoAShortDirectBufferIsTruncated() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        w.setErrhandler(MPI.ERRORS_RETURN);
        int n = 1 << 20;
        if (w.getRank() == 0) {
            ByteBuffer out = ByteBuffer.allocateDirect(n);
            for (int i = 0; i < n; i++) {
                out.put(i, (byte) i);
            }
            w.send(out, n, MPI.BYTE, 1, 3);
        } else {
            ByteBuffer in = ByteBuffer.allocateDirect(n / 2);
            try {
                w.recv(in, n / 2, MPI.BYTE, 0, 3);
                throw new AssertionError("no truncation error");
            } catch (MPIException e) {
                assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_TRUNCATE);
            }
            for (int i = 0; i < n / 2; i += 4099) {
                assertThat(in.get(i)).isEqualTo((byte) i);
            }
        }
    }

    @MpiTest(ranks = {2}, modes = Mode.PROCESSES)
    void stridedLayoutsTakeTheChunkedPathBetweenDirectBuffers() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int count = 100_000;
        Datatype column = Datatype.createVector(count, 1, 3, MPI.DOUBLE);
        column.commit();
        ByteBuffer buf = ByteBuffer.allocateDirect(3 * 8 * count).order(java.nio.ByteOrder.nativeOrder());
        if (w.getRank() == 0) {
            for (int i = 0; i < 3 * count; i++) {
                buf.putDouble(8 * i, i);
            }
            w.send(buf.asDoubleBuffer(), 1, column, 1, 4);
        } else {
            java.nio.DoubleBuffer in = buf.asDoubleBuffer();
            w.recv(in, count, MPI.DOUBLE, 0, 4);
            for (int i = 0; i < count; i++) {
                assertThat(in.get(i)).isEqualTo(3.0 * i);
            }
        }
        column.free();
    }

    /**
     * More ranks than processors on the host: waiting threads do not spin, they yield from their first look (in the
     * waiting loop and in the blocking receive's lane); with a processor per rank, or {@code jmpi.spin.iterations}
     * set, they spin first. And the collectives are right either way.
     */
    @MpiTest(ranks = {3}, modes = Mode.PROCESSES, jvmArgs = "-Djmpi.host.cpus=1")
    void ranksOfACrowdedHostDoNotSpin() throws MPIException {
        assertThat(JmpiRuntime.get().progress().spins()).as("spins with 3 ranks on 1 processor").isFalse();
        allReduceOfRanksIsRight();
    }

    @MpiTest(ranks = {3}, modes = Mode.PROCESSES, jvmArgs = "-Djmpi.host.cpus=64")
    void ranksWithAProcessorEachSpinFirst() throws MPIException {
        assertThat(JmpiRuntime.get().progress().spins()).as("spins with 3 ranks on 64 processors").isTrue();
        allReduceOfRanksIsRight();
    }

    @MpiTest(ranks = {3}, modes = Mode.PROCESSES, jvmArgs = {"-Djmpi.host.cpus=1", "-Djmpi.spin.iterations=100"})
    void aSpinSettingHoldsOnACrowdedHost() throws MPIException {
        assertThat(JmpiRuntime.get().progress().spins()).as("spins with jmpi.spin.iterations=100").isTrue();
        allReduceOfRanksIsRight();
    }

    private static void allReduceOfRanksIsRight() throws MPIException {
        int[] x = new int[1];
        for (int i = 0; i < 200; i++) {
            x[0] = MPI.COMM_WORLD.getRank() + i;
            MPI.COMM_WORLD.allReduce(x, 1, MPI.INT, MPI.SUM);
            assertThat(x[0]).isEqualTo(3 + 3 * i);
        }
    }

    /** 1,000 allreduces on 8 processes sharing 2 cores: waiting must let the others run. */
    @MpiTest(ranks = {8}, modes = Mode.PROCESSES, timeoutSeconds = 180)
    void eightRanksOnFewCoresMakeSteadyProgress() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        float[] x = new float[1];
        w.barrier();
        long t0 = System.nanoTime();
        for (int i = 0; i < 1000; i++) {
            x[0] = w.getRank() + i;
            w.allReduce(x, 1, MPI.FLOAT, MPI.SUM);
            if (x[0] != 28 + 8 * i) {
                throw new AssertionError("iteration " + i + ": " + x[0]);
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf("rank %d: 1000 allreduces on 8 ranks in %.2f s%n", w.getRank(), seconds);
        assertThat(seconds).as("seconds for 1000 allreduces on 8 ranks").isLessThan(60);
    }
}
