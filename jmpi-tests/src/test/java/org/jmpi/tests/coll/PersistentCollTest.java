package org.jmpi.tests.coll;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.jmpi.tests.coll.CollTesting.assertArray;
import static org.jmpi.tests.coll.CollTesting.marked;
import static org.jmpi.tests.coll.CollTesting.values;

import java.nio.IntBuffer;
import java.util.Arrays;
import mpi.CartComm;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import mpi.Request;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.jmpi.coll.Collective;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * MPI 4.0's persistent collectives: every one, with its in-place and root/non-root forms, under every algorithm, on
 * Java arrays below the eager limit and direct buffers above it, built once and started three times with new
 * contents each time (a start must read the buffers then, not at init). The expected result of each activation is the
 * blocking collective's on copies of the same inputs. Then: starts of two persistent collectives in different orders
 * on different ranks, {@code startAll} over persistent point-to-point and collective requests, completion by
 * {@code test()}, and the errors (a start of an active request, a free of an active collective, a bad root or count
 * at init).
 */
class PersistentCollTest {
    private static final int ACTIVATIONS = 3;
    private static final Datatype T = MPI.INT;

    @MpiTest(ranks = {1, 2, 3, 5, 8}, modes = Mode.THREADS, timeoutSeconds = 240)
    void threads() throws MPIException {
        all();
    }

    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES, timeoutSeconds = 240)
    void processes() throws MPIException {
        all();
    }

    static void all() throws MPIException {
        // 7 ints on arrays: eager messages; 20,011 ints (78 KiB) on direct buffers: above the eager limit (each
        // buffer kind's views are tested with every size by the blocking and non-blocking collectives' tests)
        everyCollective(7, false);
        everyCollective(20_011, true);
        neighbours();
        startsInDifferentOrders();
        startAllMixed();
        errors();
    }

    /** An int[] or a direct IntBuffer, as the collective's buffer argument. */
    static final class B {
        final int[] array;
        final IntBuffer buffer;

        B(int n, boolean direct) {
            array = direct ? null : new int[Math.max(n, 1)];
            buffer = direct ? MPI.newIntBuffer(Math.max(n, 1)) : null;
        }

        Object obj() {
            return array != null ? array : buffer;
        }

        void set(int[] v) {
            if (array != null) {
                System.arraycopy(v, 0, array, 0, v.length);
            } else {
                buffer.put(0, v);
            }
        }

        int[] get(int n) {
            if (array != null) {
                return Arrays.copyOf(array, n);
            }
            int[] a = new int[n];
            buffer.get(0, a);
            return a;
        }
    }

    /** One activation: start it and complete it (by wait or by test, alternately). */
    static void activate(Prequest p, int k) throws MPIException {
        if (k % 2 == 0) {
            p.start();
            p.waitFor();
        } else {
            Prequest.startAll(new Prequest[] {p});
            while (!p.test()) {
                Thread.onSpinWait();
            }
        }
        assertThat(p.isNull()).as("a persistent request stays valid after completion").isFalse();
    }

    /** Input of rank {@code rank} at activation {@code k}: different at every activation. */
    static int[] input(int rank, int k, int n) {
        return values(rank, 100_000 * k, n);
    }

    static void everyCollective(int n, boolean direct) throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int size = w.getSize();
        int rank = w.getRank();
        String how = " n=" + n + (direct ? " direct" : " array");

        CollTesting.forEachAlgorithm(Collective.BARRIER, a -> {
            Prequest p = w.barrierInit();
            for (int k = 0; k < ACTIVATIONS; k++) {
                activate(p, k);
            }
            p.free();
        });

        for (int root : roots(size, n)) {
            String at = how + " root " + root;
            CollTesting.forEachAlgorithm(Collective.BCAST, a -> {
                B buf = new B(n, direct);
                Prequest p = w.bcastInit(buf.obj(), n, T, root);
                for (int k = 0; k < ACTIVATIONS; k++) {
                    buf.set(rank == root ? input(root, k, n) : marked(n));
                    activate(p, k);
                    assertArray(buf.get(n), input(root, k, n), "bcastInit " + a + at + " activation " + k);
                }
                p.free();
            });

            CollTesting.forEachAlgorithm(Collective.REDUCE, a -> {
                B send = new B(n, direct);
                B recv = new B(n, direct);
                B inPlace = new B(n, direct);
                Prequest p = w.reduceInit(send.obj(), recv.obj(), n, T, MPI.SUM, root);
                Prequest q = w.reduceInit(inPlace.obj(), n, T, MPI.SUM, root);
                for (int k = 0; k < ACTIVATIONS; k++) {
                    int[] want = marked(n);
                    w.reduce(input(rank, k, n), want, n, T, MPI.SUM, root);
                    send.set(input(rank, k, n));
                    recv.set(marked(n));
                    inPlace.set(input(rank, k, n));
                    activate(p, k);
                    activate(q, k + 1);
                    if (rank == root) {
                        assertArray(recv.get(n), want, "reduceInit " + a + at + " activation " + k);
                        assertArray(inPlace.get(n), want, "reduceInit in place " + a + at + " activation " + k);
                    }
                }
                p.free();
                q.free();
            });

            CollTesting.forEachAlgorithm(Collective.GATHER, a -> {
                B send = new B(n, direct);
                B recv = new B(size * n, direct);
                B inPlace = new B(size * n, direct);
                Prequest p = w.gatherInit(send.obj(), n, T, recv.obj(), n, T, root);
                Prequest q = w.gatherInit(inPlace.obj(), n, T, root);
                for (int k = 0; k < ACTIVATIONS; k++) {
                    int[] want = marked(size * n);
                    w.gather(input(rank, k, n), n, T, want, n, T, root);
                    send.set(input(rank, k, n));
                    recv.set(marked(size * n));
                    int[] mine = marked(size * n);
                    if (rank == root) {
                        System.arraycopy(input(rank, k, n), 0, mine, root * n, n);
                        inPlace.set(mine);
                    } else {
                        inPlace.set(input(rank, k, n));
                    }
                    activate(p, k);
                    activate(q, k + 1);
                    if (rank == root) {
                        assertArray(recv.get(size * n), want, "gatherInit " + a + at + " activation " + k);
                        assertArray(inPlace.get(size * n), want, "gatherInit in place " + a + at + " " + k);
                    }
                }
                p.free();
                q.free();
            });

            CollTesting.forEachAlgorithm(Collective.SCATTER, a -> {
                B send = new B(size * n, direct);
                B recv = new B(n, direct);
                Prequest p = w.scatterInit(send.obj(), n, T, recv.obj(), n, T, root);
                for (int k = 0; k < ACTIVATIONS; k++) {
                    int[] all = input(root, k, size * n);
                    send.set(rank == root ? all : marked(size * n));
                    recv.set(marked(n));
                    activate(p, k);
                    assertArray(recv.get(n), Arrays.copyOfRange(all, rank * n, rank * n + n),
                            "scatterInit " + a + at + " activation " + k);
                }
                p.free();
            });

            // the v forms: block i has n + i elements, blocks in reverse order
            int[] counts = new int[size];
            int[] displs = new int[size];
            int total = 0;
            for (int i = size - 1; i >= 0; i--) {
                counts[i] = n + i;
                displs[i] = total;
                total += counts[i];
            }
            int vt = total;
            int mineN = counts[rank];
            {
                B send = new B(mineN, direct);
                B recv = new B(vt, direct);
                Prequest p = rank == root ? w.gathervInit(send.obj(), mineN, T, recv.obj(), counts, displs, T, root)
                        : w.gathervInit(send.obj(), mineN, T, root);
                B sv = new B(vt, direct);
                B rv = new B(mineN, direct);
                Prequest q = rank == root ? w.scattervInit(sv.obj(), counts, displs, T, rv.obj(), mineN, T, root)
                        : w.scattervInit(rv.obj(), mineN, T, root);
                for (int k = 0; k < ACTIVATIONS; k++) {
                    int[] want = marked(vt);
                    if (rank == root) {
                        w.gatherv(input(rank, k, mineN), mineN, T, want, counts, displs, T, root);
                    } else {
                        w.gatherv(input(rank, k, mineN), mineN, T, root);
                    }
                    send.set(input(rank, k, mineN));
                    recv.set(marked(vt));
                    int[] all = input(root, k, vt);
                    sv.set(rank == root ? all : marked(vt));
                    rv.set(marked(mineN));
                    activate(p, k);
                    activate(q, k + 1);
                    if (rank == root) {
                        assertArray(recv.get(vt), want, "gathervInit" + at + " activation " + k);
                    }
                    assertArray(rv.get(mineN), Arrays.copyOfRange(all, displs[rank], displs[rank] + mineN),
                            "scattervInit" + at + " activation " + k);
                }
                p.free();
                q.free();
            }
        }

        CollTesting.forEachAlgorithm(Collective.ALLREDUCE, a -> {
            B send = new B(n, direct);
            B recv = new B(n, direct);
            B inPlace = new B(n, direct);
            Prequest p = w.allReduceInit(send.obj(), recv.obj(), n, T, MPI.SUM);
            Prequest q = w.allReduceInit(inPlace.obj(), n, T, MPI.SUM);
            for (int k = 0; k < ACTIVATIONS; k++) {
                int[] want = new int[n];
                w.allReduce(input(rank, k, n), want, n, T, MPI.SUM);
                send.set(input(rank, k, n));
                recv.set(marked(n));
                inPlace.set(input(rank, k, n));
                activate(p, k);
                activate(q, k + 1);
                assertArray(recv.get(n), want, "allReduceInit " + a + how + " activation " + k);
                assertArray(inPlace.get(n), want, "allReduceInit in place " + a + how + " activation " + k);
            }
            p.free();
            q.free();
        });

        CollTesting.forEachAlgorithm(Collective.ALLGATHER, a -> {
            B send = new B(n, direct);
            B recv = new B(size * n, direct);
            B inPlace = new B(size * n, direct);
            Prequest p = w.allGatherInit(send.obj(), n, T, recv.obj(), n, T);
            Prequest q = w.allGatherInit(inPlace.obj(), n, T);
            for (int k = 0; k < ACTIVATIONS; k++) {
                int[] want = new int[size * n];
                w.allGather(input(rank, k, n), n, T, want, n, T);
                send.set(input(rank, k, n));
                recv.set(marked(size * n));
                int[] mine = marked(size * n);
                System.arraycopy(input(rank, k, n), 0, mine, rank * n, n);
                inPlace.set(mine);
                activate(p, k);
                activate(q, k + 1);
                assertArray(recv.get(size * n), want, "allGatherInit " + a + how + " activation " + k);
                assertArray(inPlace.get(size * n), want, "allGatherInit in place " + a + how + " activation " + k);
            }
            p.free();
            q.free();
        });

        CollTesting.forEachAlgorithm(Collective.ALLGATHERV, a -> {
            int[] counts = new int[size];
            int[] displs = new int[size];
            for (int i = 0; i < size; i++) {
                counts[i] = n + i;
                displs[i] = i * (n + size);
            }
            int vt = (size - 1) * (n + size) + n + size - 1;
            B send = new B(counts[rank], direct);
            B recv = new B(vt, direct);
            B inPlace = new B(vt, direct);
            Prequest p = w.allGathervInit(send.obj(), counts[rank], T, recv.obj(), counts, displs, T);
            Prequest q = w.allGathervInit(inPlace.obj(), counts, displs, T);
            for (int k = 0; k < ACTIVATIONS; k++) {
                int[] want = marked(vt);
                w.allGatherv(input(rank, k, counts[rank]), counts[rank], T, want, counts, displs, T);
                send.set(input(rank, k, counts[rank]));
                recv.set(marked(vt));
                int[] mine = marked(vt);
                System.arraycopy(input(rank, k, counts[rank]), 0, mine, displs[rank], counts[rank]);
                inPlace.set(mine);
                activate(p, k);
                activate(q, k + 1);
                assertArray(recv.get(vt), want, "allGathervInit " + a + how + " activation " + k);
                assertArray(inPlace.get(vt), want, "allGathervInit in place " + a + how + " activation " + k);
            }
            p.free();
            q.free();
        });

        int block = Math.max(1, n / size);
        CollTesting.forEachAlgorithm(Collective.ALLTOALL, a -> {
            B send = new B(size * block, direct);
            B recv = new B(size * block, direct);
            Prequest p = w.allToAllInit(send.obj(), block, T, recv.obj(), block, T);
            for (int k = 0; k < ACTIVATIONS; k++) {
                int[] want = new int[size * block];
                w.allToAll(input(rank, k, size * block), block, T, want, block, T);
                send.set(input(rank, k, size * block));
                recv.set(marked(size * block));
                activate(p, k);
                assertArray(recv.get(size * block), want, "allToAllInit " + a + how + " activation " + k);
            }
            p.free();
        });

        {
            // alltoallv with block j of (block + j) elements, and alltoallw with the same layout in bytes
            int[] sc = new int[size];
            int[] sd = new int[size];
            int[] rc = new int[size];
            int[] rd = new int[size];
            int st = 0;
            int rt = 0;
            for (int j = 0; j < size; j++) {
                sc[j] = block + j;
                sd[j] = st;
                st += sc[j];
                rc[j] = block + rank;
                rd[j] = rt;
                rt += rc[j];
            }
            int sTotal = st;
            int rTotal = rt;
            int[] sb = new int[size];
            int[] rb = new int[size];
            Datatype[] types = new Datatype[size];
            for (int j = 0; j < size; j++) {
                sb[j] = 4 * sd[j];
                rb[j] = 4 * rd[j];
                types[j] = T;
            }
            B send = new B(sTotal, direct);
            B recv = new B(rTotal, direct);
            B recvW = new B(rTotal, direct);
            Prequest p = w.allToAllvInit(send.obj(), sc, sd, T, recv.obj(), rc, rd, T);
            Prequest q = w.allToAllwInit(send.obj(), sc, sb, types, recvW.obj(), rc, rb, types);
            for (int k = 0; k < ACTIVATIONS; k++) {
                int[] want = marked(rTotal);
                w.allToAllv(input(rank, k, sTotal), sc, sd, T, want, rc, rd, T);
                send.set(input(rank, k, sTotal));
                recv.set(marked(rTotal));
                recvW.set(marked(rTotal));
                activate(p, k);
                activate(q, k + 1);
                assertArray(recv.get(rTotal), want, "allToAllvInit" + how + " activation " + k);
                assertArray(recvW.get(rTotal), want, "allToAllwInit" + how + " activation " + k);
            }
            p.free();
            q.free();
        }

        CollTesting.forEachAlgorithm(Collective.REDUCE_SCATTER, a -> {
            int[] counts = new int[size];
            int total = 0;
            for (int i = 0; i < size; i++) {
                counts[i] = block + i;
                total += counts[i];
            }
            int all = total;
            int mine = counts[rank];
            B send = new B(all, direct);
            B recv = new B(mine, direct);
            B inPlace = new B(all, direct);
            Prequest p = w.reduceScatterInit(send.obj(), recv.obj(), counts, T, MPI.SUM);
            Prequest q = w.reduceScatterInit(inPlace.obj(), counts, T, MPI.SUM);
            for (int k = 0; k < ACTIVATIONS; k++) {
                int[] want = new int[mine];
                w.reduceScatter(input(rank, k, all), want, counts, T, MPI.SUM);
                send.set(input(rank, k, all));
                recv.set(marked(mine));
                inPlace.set(input(rank, k, all));
                activate(p, k);
                activate(q, k + 1);
                assertArray(recv.get(mine), want, "reduceScatterInit " + a + how + " activation " + k);
                assertArray(inPlace.get(mine), want, "reduceScatterInit in place " + a + how + " activation " + k);
            }
            p.free();
            q.free();
        });

        CollTesting.forEachAlgorithm(Collective.REDUCE_SCATTER_BLOCK, a -> {
            B send = new B(size * block, direct);
            B recv = new B(block, direct);
            B inPlace = new B(size * block, direct);
            Prequest p = w.reduceScatterBlockInit(send.obj(), recv.obj(), block, T, MPI.SUM);
            Prequest q = w.reduceScatterBlockInit(inPlace.obj(), block, T, MPI.SUM);
            for (int k = 0; k < ACTIVATIONS; k++) {
                int[] want = new int[block];
                w.reduceScatterBlock(input(rank, k, size * block), want, block, T, MPI.SUM);
                send.set(input(rank, k, size * block));
                recv.set(marked(block));
                inPlace.set(input(rank, k, size * block));
                activate(p, k);
                activate(q, k + 1);
                assertArray(recv.get(block), want, "reduceScatterBlockInit " + a + how + " activation " + k);
                assertArray(inPlace.get(block), want, "reduceScatterBlockInit in place " + a + how + " " + k);
            }
            p.free();
            q.free();
        });

        for (boolean exclusive : new boolean[] {false, true}) {
            Collective c = exclusive ? Collective.EXSCAN : Collective.SCAN;
            CollTesting.forEachAlgorithm(c, a -> {
                B send = new B(n, direct);
                B recv = new B(n, direct);
                B inPlace = new B(n, direct);
                Prequest p = exclusive ? w.exScanInit(send.obj(), recv.obj(), n, T, MPI.SUM)
                        : w.scanInit(send.obj(), recv.obj(), n, T, MPI.SUM);
                Prequest q = exclusive ? w.exScanInit(inPlace.obj(), n, T, MPI.SUM)
                        : w.scanInit(inPlace.obj(), n, T, MPI.SUM);
                for (int k = 0; k < ACTIVATIONS; k++) {
                    int[] want = new int[n];
                    if (exclusive) {
                        w.exScan(input(rank, k, n), want, n, T, MPI.SUM);
                    } else {
                        w.scan(input(rank, k, n), want, n, T, MPI.SUM);
                    }
                    send.set(input(rank, k, n));
                    recv.set(marked(n));
                    inPlace.set(input(rank, k, n));
                    activate(p, k);
                    activate(q, k + 1);
                    if (rank > 0 || !exclusive) { // exscan leaves rank 0's buffer undefined
                        assertArray(recv.get(n), want, c + "Init " + a + how + " activation " + k);
                        assertArray(inPlace.get(n), want, c + "Init in place " + a + how + " activation " + k);
                    }
                }
                p.free();
                q.free();
            });
        }
    }

    /** Every root for small counts; the first and the last for large ones. */
    static int[] roots(int size, int n) {
        if (n < 100) {
            int[] all = new int[size];
            for (int i = 0; i < size; i++) {
                all[i] = i;
            }
            return all;
        }
        return size == 1 ? new int[] {0} : new int[] {0, size - 1};
    }

    /** The neighbourhood collectives on a periodic ring, against their blocking forms. */
    static void neighbours() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int size = w.getSize();
        int rank = w.getRank();
        CartComm ring = w.createCart(new int[] {size}, new boolean[] {true}, false);
        int n = 3;
        int[] send = new int[2 * n];
        int[] gathered = new int[2 * n];
        int[] exchanged = new int[2 * n];
        int[] gatheredV = new int[2 * n + 1];
        int[] exchangedV = new int[2 * n];
        int[] counts = {n, n};
        int[] displs = {0, n};
        int[] gCounts = {n, n};
        int[] gDispls = {n + 1, 0};
        Prequest ag = ring.neighborAllGatherInit(send, n, T, gathered, n, T);
        Prequest aa = ring.neighborAllToAllInit(send, n, T, exchanged, n, T);
        Prequest agv = ring.neighborAllGathervInit(send, n, T, gatheredV, gCounts, gDispls, T);
        Prequest aav = ring.neighborAllToAllvInit(send, counts, displs, T, exchangedV, counts, displs, T);
        for (int k = 0; k < ACTIVATIONS; k++) {
            System.arraycopy(input(rank, k, 2 * n), 0, send, 0, 2 * n);
            int[] wantG = new int[2 * n];
            int[] wantA = new int[2 * n];
            int[] wantGv = marked(2 * n + 1);
            ring.neighborAllGather(send.clone(), n, T, wantG, n, T);
            ring.neighborAllToAll(send.clone(), n, T, wantA, n, T);
            ring.neighborAllGatherv(send.clone(), n, T, wantGv, gCounts, gDispls, T);
            Arrays.fill(gatheredV, -777);
            Prequest.startAll(new Prequest[] {ag, aa, agv, aav});
            Request.waitAll(new Request[] {ag, aa, agv, aav});
            assertArray(gathered, wantG, "neighborAllGatherInit activation " + k);
            assertArray(exchanged, wantA, "neighborAllToAllInit activation " + k);
            assertArray(gatheredV, wantGv, "neighborAllGathervInit activation " + k);
            assertArray(exchangedV, wantA, "neighborAllToAllvInit activation " + k);
        }
        for (Prequest p : new Prequest[] {ag, aa, agv, aav}) {
            p.free();
        }
        ring.free();
    }

    /**
     * Two persistent allreduces started in opposite orders on even and odd ranks (MPI allows any order of starts),
     * completed together.
     */
    static void startsInDifferentOrders() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int[] a = new int[1];
        int[] b = new int[1];
        int[] ra = new int[1];
        int[] rb = new int[1];
        Prequest pa = w.allReduceInit(a, ra, 1, T, MPI.SUM);
        Prequest pb = w.allReduceInit(b, rb, 1, T, MPI.MAX);
        for (int k = 0; k < 20; k++) {
            a[0] = rank + k;
            b[0] = rank * k;
            if (rank % 2 == 0) {
                pa.start();
                pb.start();
            } else {
                pb.start();
                pa.start();
            }
            Request.waitAll(new Request[] {pb, pa});
            assertThat(ra[0]).as("sum at activation " + k).isEqualTo(size * (size - 1) / 2 + size * k);
            assertThat(rb[0]).as("max at activation " + k).isEqualTo((size - 1) * k);
        }
        pa.free();
        pb.free();
    }

    /** startAll over persistent sends and receives around a ring and a persistent bcast, ten times. */
    static void startAllMixed() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int[] in = new int[4];
        int[] bc = new int[4];
        IntBuffer inBuf = MPI.newIntBuffer(4);
        IntBuffer outBuf = MPI.newIntBuffer(4);
        Prequest[] all = {
            w.recvInit(inBuf, 4, T, (rank + size - 1) % size, 5),
            w.sendInit(outBuf, 4, T, (rank + 1) % size, 5),
            w.bcastInit(bc, 4, T, 0)
        };
        for (int k = 0; k < 10; k++) {
            outBuf.put(0, input(rank, k, 4));
            if (rank == 0) {
                System.arraycopy(input(99, k, 4), 0, bc, 0, 4);
            }
            Prequest.startAll(all);
            Request.waitAll(all);
            inBuf.get(0, in);
            assertArray(in, input((rank + size - 1) % size, k, 4), "ring receive at activation " + k);
            assertArray(bc, input(99, k, 4), "bcast at activation " + k);
        }
        for (Prequest p : all) {
            p.free();
        }
    }

    private static void expect(int errorClass, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(MPIException.class, e -> {
            assertThat(e.getErrorClass()).as(e.getMessage()).isEqualTo(errorClass);
            assertThat(e.getMessage()).isNotBlank();
        });
    }

    static void errors() throws MPIException {
        Intracomm w = MPI.COMM_WORLD.dup();
        w.setErrhandler(MPI.ERRORS_RETURN);
        int size = w.getSize();
        int rank = w.getRank();
        int[] b = new int[4 * size];
        int[] c = new int[4 * size];

        expect(MPI.ERR_ROOT, () -> w.bcastInit(b, 1, T, size));
        expect(MPI.ERR_ROOT, () -> w.reduceInit(b, c, 1, T, MPI.SUM, -1));
        expect(MPI.ERR_COUNT, () -> w.allReduceInit(b, c, -1, T, MPI.SUM));
        expect(MPI.ERR_BUFFER, () -> w.allReduceInit(b, b, 1, T, MPI.SUM));
        expect(MPI.ERR_OP, () -> w.allReduceInit(new float[1], new float[1], 1, MPI.FLOAT, MPI.BAND));

        // a start of a request that is still active (its completion not yet observed)
        Prequest p = w.allReduceInit(b, c, 1, T, MPI.SUM);
        p.start();
        expect(MPI.ERR_REQUEST, p::start);
        p.waitFor();
        p.start(); // fine again once complete
        p.waitFor();
        p.free();
        expect(MPI.ERR_REQUEST, p::start);

        // freeing an active persistent collective: rank 0 tries while the others have not started the barrier
        if (size > 1) {
            Prequest bar = w.barrierInit();
            if (rank == 0) {
                bar.start();
                expect(MPI.ERR_REQUEST, bar::free);
                for (int r = 1; r < size; r++) {
                    w.send(new int[1], 1, T, r, 9);
                }
            } else {
                w.recv(new int[1], 1, T, 0, 9);
                bar.start();
            }
            bar.waitFor();
            bar.free();
        }
        // the communicator still works
        int[] sum = new int[1];
        w.allReduce(new int[] {1}, sum, 1, T, MPI.SUM);
        assertThat(sum[0]).isEqualTo(size);
        w.free();
    }
}
