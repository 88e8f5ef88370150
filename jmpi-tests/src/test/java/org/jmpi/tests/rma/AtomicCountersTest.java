package org.jmpi.tests.rma;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import mpi.Info;
import mpi.MPI;
import mpi.Win;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * fetchAndOp and compareAndSwap counters hammered by every rank and 4 threads per rank at once (THREAD_MULTIPLE) on
 * every rank's window: no increment is lost, every fetched value is handed out exactly once, and a CAS spin lock
 * protects a plain read-modify-write.
 */
class AtomicCountersTest {
    private static final int THREADS = 4;
    private static final int ROUNDS = 100;

    @MpiTest(ranks = {1, 2, 3, 4, 8}, init = false, timeoutSeconds = 180)
    void nothingIsLost() throws Exception {
        hammer(false);
    }

    /** The same on a window the library allocates: in shared memory, operations run at the origin under a lock word. */
    @MpiTest(ranks = {1, 2, 3, 4, 8}, init = false, timeoutSeconds = 180)
    void nothingIsLostInSharedMemory() throws Exception {
        hammer(true);
    }

    @MpiTest(ranks = {3}, modes = Mode.PROCESSES, init = false, jvmArgs = WindowOperationsTest.TCP,
            timeoutSeconds = 180)
    void nothingIsLostOverTcp() throws Exception {
        hammer(false);
    }

    private static void hammer(boolean allocated) throws Exception {
        assertThat(MPI.InitThread(new String[0], MPI.THREAD_MULTIPLE)).isEqualTo(MPI.THREAD_MULTIPLE);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        LongBuffer given = MPI.newLongBuffer(3);
        Win win = allocated ? new Win(24, 8, new Info(), MPI.COMM_WORLD, null, Win.FLAVOR_PRIVATE)
                : new Win(3, 1, new Info(), MPI.COMM_WORLD, given, Win.FLAVOR_PRIVATE);
        LongBuffer base = allocated ? ((java.nio.ByteBuffer) win.getAttr(MPI.WIN_BASE)).asLongBuffer() : given;
        win.lockAll(0);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        List<Future<long[]>> futures = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            final int thread = t;
            futures.add(pool.submit(() -> {
                long[] fetched = new long[ROUNDS];
                LongBuffer one = MPI.newLongBuffer(1);
                one.put(0, 1);
                LongBuffer old = MPI.newLongBuffer(1);
                for (int i = 0; i < ROUNDS; i++) {
                    int target = (rank + thread + i) % size;
                    win.fetchAndOp(one, old, MPI.LONG, target, 0, MPI.SUM);
                    fetched[i] = target * 1_000_000L + old.get(0);
                    // CAS loop increment of slot 1
                    LongBuffer expect = MPI.newLongBuffer(1);
                    LongBuffer next = MPI.newLongBuffer(1);
                    LongBuffer got = MPI.newLongBuffer(1);
                    win.fetchAndOp(null, expect, MPI.LONG, target, 1, MPI.NO_OP);
                    while (true) {
                        next.put(0, expect.get(0) + 1);
                        win.compareAndSwap(next, expect, got, MPI.LONG, target, 1);
                        if (got.get(0) == expect.get(0)) {
                            break;
                        }
                        expect.put(0, got.get(0));
                    }
                }
                win.flushAll();
                return fetched;
            }));
        }
        List<Long> mine = new ArrayList<>();
        for (Future<long[]> f : futures) {
            for (long x : f.get()) {
                mine.add(x);
            }
        }
        pool.shutdown();
        win.unlockAll();
        MPI.COMM_WORLD.barrier();
        long total = (long) size * THREADS * ROUNDS;
        long[] counts = new long[size];
        MPI.COMM_WORLD.allGather(new long[] {base.get(0)}, 1, MPI.LONG, counts, 1, MPI.LONG);
        long sum = 0;
        for (long c : counts) {
            sum += c;
        }
        assertThat(sum).isEqualTo(total);
        assertThat(base.get(1)).as("CAS increments").isEqualTo(base.get(0));
        // every fetched value is unique across all ranks and threads
        long[] local = mine.stream().mapToLong(Long::longValue).toArray();
        long[] every = new long[(int) total];
        MPI.COMM_WORLD.allGather(local, local.length, MPI.LONG, every, local.length, MPI.LONG);
        assertThat(java.util.Arrays.stream(every).distinct().count()).isEqualTo(total);
        win.free();
        MPI.Finalize();
    }
}
