package org.jmpi.tests.pt2pt;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.LongBuffer;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import org.jmpi.junit.MpiTest;

/** Progress while waiting on something else, flow control under a flood, and payloads over 2 GiB. */
class ProgressAndFlowTest {

    /** Both ranks start a large send, then both receive, then wait: needs progress inside the receive. */
    @MpiTest(ranks = {2, 3, 4})
    void largeSendsProgressWhileTheSenderReceives() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int n = 1 << 20;
        long[] out = new long[n];
        out[0] = rank;
        out[n - 1] = -rank;
        long[] in = new long[n];
        Request s = w.iSend(out, n, MPI.LONG, (rank + 1) % size, 1);
        Status st = w.recv(in, n, MPI.LONG, (rank + size - 1) % size, 1);
        s.waitFor();
        assertThat(st.getCount(MPI.LONG)).isEqualTo(n);
        assertThat(in[0]).isEqualTo((rank + size - 1) % size);
        assertThat(in[n - 1]).isEqualTo(-((rank + size - 1) % size));
    }

    /** A receive posted early completes while its rank waits for an unrelated request. */
    @MpiTest(ranks = {2, 3})
    void requestsCompleteWhileWaitingForOthers() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        if (rank == 0) {
            Request early = w.iRecv(LongBuffer.allocate(300_000), 300_000, MPI.LONG, 1, 1);
            Request late = w.iRecv(new int[1], 1, MPI.INT, 1, 2);
            late.waitFor(); // rank 1 sends tag 2 only after its large tag-1 send completed
            assertThat(early.test()).isTrue();
        } else if (rank == 1) {
            w.send(new long[300_000], 300_000, MPI.LONG, 0, 1);
            w.send(new int[1], 1, MPI.INT, 0, 2);
        }
    }

    /**
     * A sender floods a slow receiver with a million small messages: every message arrives, in order, and the
     * receiver's heap stays small (the rank JVMs run with a 96 MiB heap; unbounded buffering of a million
     * unexpected messages would need several times that).
     */
    @MpiTest(ranks = {2}, modes = org.jmpi.junit.Mode.PROCESSES, jvmArgs = {"-Xmx96m"}, timeoutSeconds = 240)
    void floodOfSmallMessagesIsHeldBack() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int messages = 1_000_000;
        if (w.getRank() == 0) {
            int[] one = new int[2];
            for (int i = 0; i < messages; i++) {
                one[0] = i;
                w.send(one, 2, MPI.INT, 1, 3);
            }
        } else {
            int[] got = new int[2];
            long work = 0;
            for (int i = 0; i < messages; i++) {
                w.recv(got, 2, MPI.INT, 0, 3);
                if (got[0] != i) {
                    throw new AssertionError("message " + got[0] + " arrived when " + i + " was due");
                }
                for (int k = 0; k < 300; k++) { // a slow consumer: some work per message
                    work = work * 31 + k;
                }
            }
            assertThat(work).isNotEqualTo(1);
        }
    }

    /** 300 million longs (2.4 GB) in one message, between processes. */
    @MpiTest(ranks = {2}, modes = org.jmpi.junit.Mode.PROCESSES, jvmArgs = {"-Xmx6g"}, timeoutSeconds = 300)
    void payloadOverTwoGigabytes() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int n = 300_000_000;
        long[] data = new long[n];
        if (w.getRank() == 0) {
            for (int i = 0; i < n; i += 1_000_003) {
                data[i] = i * 3L + 1;
            }
            data[n - 1] = 42;
            w.send(data, n, MPI.LONG, 1, 5);
        } else {
            Status s = w.recv(data, n, MPI.LONG, 0, 5);
            assertThat(s.getCount(MPI.LONG)).isEqualTo(n);
            assertThat(s.getElements(MPI.LONG)).isEqualTo(n);
            for (int i = 0; i < n; i += 1_000_003) {
                assertThat(data[i]).isEqualTo(i * 3L + 1);
            }
            assertThat(data[n - 1]).isEqualTo(42);
        }
    }
}
