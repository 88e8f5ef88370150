package org.jmpi.tests.coll;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jmpi.tests.coll.CollTesting.BIG;
import static org.jmpi.tests.coll.CollTesting.assertArray;
import static org.jmpi.tests.coll.CollTesting.counts;
import static org.jmpi.tests.coll.CollTesting.describe;
import static org.jmpi.tests.coll.CollTesting.forEachAlgorithm;
import static org.jmpi.tests.coll.CollTesting.marked;
import static org.jmpi.tests.coll.CollTesting.values;

import java.nio.IntBuffer;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import org.jmpi.coll.Collective;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/** Barrier and broadcast: every algorithm, every root, counts 0 to about 2 MiB. */
class BarrierBcastTest {

    @MpiTest(ranks = {1, 2, 3, 4, 5, 6, 7, 8, 9}, modes = Mode.THREADS, timeoutSeconds = 120)
    void threads() throws MPIException {
        barrierHoldsEveryoneBack();
        bcastEveryAlgorithm();
    }

    @MpiTest(ranks = {2, 3, 4}, modes = Mode.PROCESSES, timeoutSeconds = 120)
    void processes() throws MPIException {
        barrierHoldsEveryoneBack();
        bcastEveryAlgorithm();
    }

    /**
     * Each rank in turn is late: before it enters the barrier it checks that no rank has yet sent the message every
     * rank sends right after the barrier. Then it collects those messages.
     */
    static void barrierHoldsEveryoneBack() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        forEachAlgorithm(Collective.BARRIER, a -> {
            for (int late = 0; late < size; late++) {
                int tag = 100 + late;
                if (rank == late) {
                    assertThat(w.iProbe(MPI.ANY_SOURCE, tag)).as(a.key() + ": a rank left the barrier early").isNull();
                }
                w.barrier();
                w.send(new int[] {rank}, 1, MPI.INT, late, tag);
                if (rank == late) {
                    for (int i = 0; i < size; i++) {
                        w.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, tag);
                    }
                }
            }
        });
    }

    static void bcastEveryAlgorithm() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        forEachAlgorithm(Collective.BCAST, a -> {
            for (int count : counts(BIG)) {
                for (int root = 0; root < size; root++) {
                    int[] expected = values(root, 0, count);
                    int[] buf = rank == root ? expected.clone() : marked(count);
                    w.bcast(buf, count, MPI.INT, root);
                    assertArray(buf, expected, describe(a, count, root));
                }
            }
            // a direct buffer and a slice of an array, root size - 1
            int root = size - 1;
            IntBuffer direct = MPI.newIntBuffer(1000);
            if (rank == root) {
                direct.put(values(root, 0, 1000));
            }
            w.bcast(direct, 1000, MPI.INT, root);
            int[] got = new int[1000];
            direct.get(0, got);
            assertArray(got, values(root, 0, 1000), describe(a, 1000, root) + " direct buffer");
            int[] big = marked(20);
            if (rank == root) {
                System.arraycopy(values(root, 0, 10), 0, big, 5, 10);
            }
            w.bcast(MPI.slice(big, 5), 10, MPI.INT, root);
            assertThat(big[4]).isEqualTo(-777);
            assertThat(big[15]).isEqualTo(-777);
            assertArray(java.util.Arrays.copyOfRange(big, 5, 15), values(root, 0, 10), describe(a, 10, root) + " slice");
        });
    }
}
