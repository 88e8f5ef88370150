package org.jmpi.tests.pt2pt;

import static org.assertj.core.api.Assertions.assertThat;

import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import org.jmpi.junit.MpiTest;

/**
 * Exchanges whose messages are as often unexpected as not: each rank sends to its right neighbour and receives from
 * its left at once, so a message finds its receive posted or not by a hair. In threads mode an unexpected eager message
 * is queued by reference and copied into the receiver's buffer outside the matching lock; a receive posted during
 * that copy takes it from the sender instead. Either way every byte must arrive, the buffering must be given back (the
 * head-to-head blocking sends at the end rely on it: they complete only because eager messages are buffered), and
 * large kept buffers must not mix messages of different sizes.
 */
class ExchangeBufferingTest {

    /** Sizes in bytes around the kept-buffer size (1 KiB) and up to the eager limit (64 KiB). */
    private static final int[] SIZES = {0, 1, 1000, 1025, 2048, 4096, 16384, 40000, 65536};

    @MpiTest(ranks = {2, 3, 5}, timeoutSeconds = 120)
    void everyExchangedByteArrivesAndBufferingIsGivenBack() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int right = (rank + 1) % size;
        int left = (rank - 1 + size) % size;
        for (int round = 0; round < 300; round++) {
            int bytes = SIZES[round % SIZES.length];
            byte[] out = pattern(rank, round, bytes);
            byte[] in = new byte[bytes];
            if (round % 3 == 0) {
                w.sendRecv(out, bytes, MPI.BYTE, right, 7, in, bytes, MPI.BYTE, left, 7);
            } else if (round % 3 == 1) { // the send posted before the receive
                Request s = w.iSend(out, bytes, MPI.BYTE, right, 7);
                w.recv(in, bytes, MPI.BYTE, left, 7);
                s.waitFor();
            } else { // a blocking send: an unexpected one is buffered before it returns
                Request r = w.iRecv(in, bytes, MPI.BYTE, left, 7);
                w.send(out, bytes, MPI.BYTE, right, 7);
                r.waitFor();
            }
            assertThat(in).as("round %d, %d bytes from rank %d", round, bytes, left)
                    .isEqualTo(pattern(left, round, bytes));
        }
        // head to head: every rank sends before it receives, which completes only when eager messages are buffered
        for (int round = 0; round < 200; round++) {
            int bytes = 32768 + round;
            byte[] out = pattern(rank, round, bytes);
            byte[] in = new byte[bytes];
            w.send(out, bytes, MPI.BYTE, right, 8);
            w.recv(in, bytes, MPI.BYTE, left, 8);
            assertThat(in).as("head to head round %d", round).isEqualTo(pattern(left, round, bytes));
        }
    }

    private static byte[] pattern(int rank, int round, int bytes) {
        byte[] b = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            b[i] = (byte) (rank * 31 + round * 7 + i);
        }
        return b;
    }
}
