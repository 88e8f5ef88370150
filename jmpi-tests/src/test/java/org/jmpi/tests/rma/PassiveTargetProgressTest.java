package org.jmpi.tests.rma;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.LongBuffer;
import mpi.Info;
import mpi.MPI;
import mpi.MPIException;
import mpi.Win;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;
import org.jmpi.rma.Windows;
import org.jmpi.runtime.JmpiRuntime;

/**
 * Passive-target progress: rank 0 computes for 2 s without calling MPI while every other rank locks it, puts,
 * flushes, gets and unlocks. They must be done long before rank 0 calls MPI again: each records the time it finished
 * against the time rank 0 stops computing. The target's progress thread serves them (in threads mode too, whose ranks
 * talk through shared-memory rings).
 */
class PassiveTargetProgressTest {
    private static final long COMPUTE_NANOS = 2_000_000_000L;

    @MpiTest(ranks = {2, 3, 4}, timeoutSeconds = 120)
    void lockPutFlushUnlockCompleteWhileTheTargetComputes() throws MPIException {
        run();
    }

    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES, jvmArgs = WindowOperationsTest.TCP, timeoutSeconds = 120)
    void overTcp() throws MPIException {
        run();
    }

    private static void run() throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        LongBuffer mem = MPI.newLongBuffer(size);
        Win win = new Win(mem, size, 1, new Info(), MPI.COMM_WORLD);
        // documented: the progress thread exists while a window allows locks and the ranks talk through transports
        // (threads mode too: its ranks talk through shared-memory rings)
        assertThat(Windows.hasPassiveProgressThread(win)).isEqualTo(JmpiRuntime.get().progress().hasTransport());
        long[] times = new long[2];
        MPI.COMM_WORLD.barrier();
        if (rank == 0) {
            long start = System.nanoTime();
            long x = 0;
            while (System.nanoTime() - start < COMPUTE_NANOS) {
                x += Long.numberOfTrailingZeros(x + 1); // compute, never call MPI
            }
            times[0] = System.currentTimeMillis();
            times[1] = x;
        } else {
            LongBuffer v = MPI.newLongBuffer(1);
            LongBuffer back = MPI.newLongBuffer(1);
            for (int i = 0; i < 5; i++) {
                win.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
                v.put(0, rank * 100L + i);
                win.put(v, 1, MPI.LONG, 0, rank, 1, MPI.LONG);
                win.flush(0);
                win.get(back, 1, MPI.LONG, 0, rank, 1, MPI.LONG);
                win.unlock(0);
                assertThat(back.get(0)).isEqualTo(rank * 100L + i);
            }
            times[0] = System.currentTimeMillis();
        }
        long[] all = new long[size];
        MPI.COMM_WORLD.gather(new long[] {times[0]}, 1, MPI.LONG, all, 1, MPI.LONG, 0);
        if (rank == 0) {
            for (int r = 1; r < size; r++) {
                assertThat(all[0] - all[r]).as("rank %d finished this long before the target called MPI again", r)
                        .isGreaterThan(1000);
                assertThat(mem.get(r)).isEqualTo(r * 100L + 4);
            }
        }
        MPI.COMM_WORLD.barrier();
        win.free();
    }
}
