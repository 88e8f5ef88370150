package org.jmpi.tests.coll;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jmpi.tests.coll.CollTesting.assertArray;
import static org.jmpi.tests.coll.CollTesting.values;

import java.nio.IntBuffer;
import mpi.Comm;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * Every non-blocking collective (with its in-place and root/non-root forms) on heap and direct buffers, several in
 * flight at once, and progress: a schedule moves on while its rank computes and calls test(), and while its rank
 * waits for something else.
 */
class NonBlockingCollTest {

    @MpiTest(ranks = {1, 2, 3, 4, 5, 8, 9}, modes = Mode.THREADS, timeoutSeconds = 120)
    void threads() throws MPIException {
        all();
    }

    @MpiTest(ranks = {2, 3, 4}, modes = Mode.PROCESSES, timeoutSeconds = 120)
    void processes() throws MPIException {
        all();
    }

    static void all() throws MPIException {
        everyForm(false);
        everyForm(true);
        manyInFlight();
        progressWhileComputing();
        progressWhileWaitingForSomethingElse();
    }

    static IntBuffer buffer(int[] data, boolean direct) {
        if (!direct) {
            return IntBuffer.wrap(data.clone());
        }
        IntBuffer b = MPI.newIntBuffer(Math.max(1, data.length));
        b.put(0, data);
        return b;
    }

    static IntBuffer filled(int n, boolean direct) {
        return buffer(CollTesting.marked(n), direct);
    }

    static int[] contents(IntBuffer b, int n) {
        int[] a = new int[n];
        b.get(0, a);
        return a;
    }

    /** Completes a request by polling test(), as a program that computes meanwhile would. */
    static void poll(Request r) throws MPIException {
        long spins = 0;
        while (!r.test()) {
            spins++;
        }
        assertThat(spins).isNotNegative();
        assertThat(r.isNull()).isTrue();
    }

    static void everyForm(boolean direct) throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int n = 5;
        int root = size - 1;
        String how = direct ? " (direct)" : " (heap)";
        Datatype t = MPI.INT;

        w.iBarrier().waitFor();

        IntBuffer b = rank == root ? buffer(values(root, 0, n), direct) : filled(n, direct);
        poll(w.iBcast(b, n, t, root));
        assertArray(contents(b, n), values(root, 0, n), "iBcast" + how);

        // gather and its in-place form
        IntBuffer g = filled(size * n, direct);
        poll(w.iGather(buffer(values(rank, 0, n), direct), n, t, g, n, t, root));
        if (rank == root) {
            assertArray(contents(g, size * n), AllgatherAlltoallTest.concatenation(size, n), "iGather" + how);
        }
        IntBuffer gi;
        if (rank == root) {
            gi = filled(size * n, direct);
            gi.put(root * n, values(rank, 0, n));
        } else {
            gi = buffer(values(rank, 0, n), direct);
        }
        poll(w.iGather(gi, n, t, root));
        if (rank == root) {
            assertArray(contents(gi, size * n), AllgatherAlltoallTest.concatenation(size, n), "iGather in place" + how);
        }

        // gatherv: full form, then the root's in-place form with the others' send-only form
        int[] vc = GatherScatterTest.vcounts(size, n);
        int[] vd = GatherScatterTest.vdispls(size, n);
        int vt = GatherScatterTest.vtotal(size, n);
        int mine = vc[rank];
        IntBuffer gv = filled(vt, direct);
        poll(w.iGatherv(buffer(values(rank, 0, mine), direct), mine, t, gv, vc, vd, t, root));
        if (rank == root) {
            assertArray(contents(gv, vt), GatherScatterTest.vexpected(size, n), "iGatherv" + how);
            IntBuffer in = filled(vt, direct);
            in.put(vd[rank], values(rank, 0, mine));
            poll(w.iGatherv(in, vc, vd, t, root));
            assertArray(contents(in, vt), GatherScatterTest.vexpected(size, n), "iGatherv in place" + how);
        } else {
            poll(w.iGatherv(buffer(values(rank, 0, mine), direct), mine, t, root));
        }

        // scatter and its in-place form
        int[] all = AllgatherAlltoallTest.concatenation(size, n);
        IntBuffer sr = filled(n, direct);
        poll(w.iScatter(buffer(all, direct), n, t, sr, n, t, root));
        assertArray(contents(sr, n), values(rank, 0, n), "iScatter" + how);
        IntBuffer si = rank == root ? buffer(all, direct) : filled(n, direct);
        poll(w.iScatter(si, n, t, root));
        assertArray(contents(si, n), rank == root ? java.util.Arrays.copyOf(all, n) : values(rank, 0, n),
                "iScatter in place" + how);

        // scatterv: full form, then the root's in-place form with the others' receive-only form
        IntBuffer svr = filled(Math.max(mine, 1), direct);
        poll(w.iScatterv(buffer(GatherScatterTest.vexpected(size, n), direct), vc, vd, t, svr, mine, t, root));
        assertArray(contents(svr, mine), values(rank, 0, mine), "iScatterv" + how);
        if (rank == root) {
            poll(w.iScatterv(buffer(GatherScatterTest.vexpected(size, n), direct), vc, vd, t, root));
        } else {
            IntBuffer r = filled(Math.max(mine, 1), direct);
            poll(w.iScatterv(r, mine, t, root));
            assertArray(contents(r, mine), values(rank, 0, mine), "iScatterv receive-only" + how);
        }

        // allgather(v) and their in-place forms
        IntBuffer ag = filled(size * n, direct);
        poll(w.iAllGather(buffer(values(rank, 0, n), direct), n, t, ag, n, t));
        assertArray(contents(ag, size * n), all, "iAllGather" + how);
        IntBuffer agi = filled(size * n, direct);
        agi.put(rank * n, values(rank, 0, n));
        poll(w.iAllGather(agi, n, t));
        assertArray(contents(agi, size * n), all, "iAllGather in place" + how);
        IntBuffer agv = filled(vt, direct);
        poll(w.iAllGatherv(buffer(values(rank, 0, mine), direct), mine, t, agv, vc, vd, t));
        assertArray(contents(agv, vt), GatherScatterTest.vexpected(size, n), "iAllGatherv" + how);
        IntBuffer agvi = filled(vt, direct);
        agvi.put(vd[rank], values(rank, 0, mine));
        poll(w.iAllGatherv(agvi, vc, vd, t));
        assertArray(contents(agvi, vt), GatherScatterTest.vexpected(size, n), "iAllGatherv in place" + how);

        // all-to-all family
        int[] send = new int[size * n];
        int[] want = new int[size * n];
        for (int j = 0; j < size; j++) {
            System.arraycopy(AllgatherAlltoallTest.block(rank, j, n), 0, send, j * n, n);
            System.arraycopy(AllgatherAlltoallTest.block(j, rank, n), 0, want, j * n, n);
        }
        IntBuffer aa = filled(size * n, direct);
        poll(w.iAllToAll(buffer(send, direct), n, t, aa, n, t));
        assertArray(contents(aa, size * n), want, "iAllToAll" + how);
        int[] counts = new int[size];
        int[] displs = new int[size];
        Datatype[] types = new Datatype[size];
        int[] bytes = new int[size];
        for (int j = 0; j < size; j++) {
            counts[j] = n;
            displs[j] = j * n;
            types[j] = t;
            bytes[j] = 4 * j * n;
        }
        IntBuffer av = filled(size * n, direct);
        poll(w.iAllToAllv(buffer(send, direct), counts, displs, t, av, counts, displs, t));
        assertArray(contents(av, size * n), want, "iAllToAllv" + how);
        IntBuffer aw = filled(size * n, direct);
        poll(w.iAllToAllw(buffer(send, direct), counts, bytes, types, aw, counts, bytes, types));
        assertArray(contents(aw, size * n), want, "iAllToAllw" + how);

        // reductions
        int[] sum = new int[n];
        int[] prefix = new int[n];
        int[] exclusive = new int[n];
        for (int r = 0; r < size; r++) {
            int[] v = values(r, 0, n);
            for (int i = 0; i < n; i++) {
                sum[i] += v[i];
                if (r <= rank) {
                    prefix[i] += v[i];
                }
                if (r < rank) {
                    exclusive[i] += v[i];
                }
            }
        }
        IntBuffer rd = filled(n, direct);
        poll(w.iReduce(buffer(values(rank, 0, n), direct), rd, n, t, MPI.SUM, root));
        if (rank == root) {
            assertArray(contents(rd, n), sum, "iReduce" + how);
        }
        IntBuffer rdi = buffer(values(rank, 0, n), direct);
        poll(w.iReduce(rdi, n, t, MPI.SUM, root));
        if (rank == root) {
            assertArray(contents(rdi, n), sum, "iReduce in place" + how);
        }
        IntBuffer ar = filled(n, direct);
        poll(w.iAllReduce(buffer(values(rank, 0, n), direct), ar, n, t, MPI.SUM));
        assertArray(contents(ar, n), sum, "iAllReduce" + how);
        IntBuffer ari = buffer(values(rank, 0, n), direct);
        poll(w.iAllReduce(ari, n, t, MPI.SUM));
        assertArray(contents(ari, n), sum, "iAllReduce in place" + how);
        int[] rc = new int[size];
        java.util.Arrays.fill(rc, n);
        int[] whole = new int[size * n];
        for (int r = 0; r < size; r++) {
            int[] v = values(r, 0, size * n);
            for (int i = 0; i < size * n; i++) {
                whole[i] += v[i];
            }
        }
        int[] myBlock = java.util.Arrays.copyOfRange(whole, rank * n, rank * n + n);
        IntBuffer rs = filled(n, direct);
        poll(w.iReduceScatter(buffer(values(rank, 0, size * n), direct), rs, rc, t, MPI.SUM));
        assertArray(contents(rs, n), myBlock, "iReduceScatter" + how);
        IntBuffer rsi = buffer(values(rank, 0, size * n), direct);
        poll(w.iReduceScatter(rsi, rc, t, MPI.SUM));
        assertArray(contents(rsi, n), myBlock, "iReduceScatter in place" + how);
        IntBuffer rsb = filled(n, direct);
        poll(w.iReduceScatterBlock(buffer(values(rank, 0, size * n), direct), rsb, n, t, MPI.SUM));
        assertArray(contents(rsb, n), myBlock, "iReduceScatterBlock" + how);
        IntBuffer rsbi = buffer(values(rank, 0, size * n), direct);
        poll(w.iReduceScatterBlock(rsbi, n, t, MPI.SUM));
        assertArray(contents(rsbi, n), myBlock, "iReduceScatterBlock in place" + how);
        IntBuffer sc = filled(n, direct);
        poll(w.iScan(buffer(values(rank, 0, n), direct), sc, n, t, MPI.SUM));
        assertArray(contents(sc, n), prefix, "iScan" + how);
        IntBuffer sci = buffer(values(rank, 0, n), direct);
        poll(w.iScan(sci, n, t, MPI.SUM));
        assertArray(contents(sci, n), prefix, "iScan in place" + how);
        IntBuffer ex = filled(n, direct);
        poll(w.iExScan(buffer(values(rank, 0, n), direct), ex, n, t, MPI.SUM));
        if (rank > 0) {
            assertArray(contents(ex, n), exclusive, "iExScan" + how);
        }
        IntBuffer exi = buffer(values(rank, 0, n), direct);
        poll(w.iExScan(exi, n, t, MPI.SUM));
        if (rank > 0) {
            assertArray(contents(exi, n), exclusive, "iExScan in place" + how);
        }
    }

    /** Several collectives in flight on one communicator, completed in reverse order. */
    static void manyInFlight() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int n = 50_000;
        IntBuffer a = MPI.newIntBuffer(n);
        a.put(0, values(rank, 0, n));
        IntBuffer bc = rank == 0 ? buffer(values(0, 0, n), true) : MPI.newIntBuffer(n);
        IntBuffer ag = MPI.newIntBuffer(size);
        Request[] rs = {
            w.iAllReduce(a, n, MPI.INT, MPI.SUM),
            w.iBarrier(),
            w.iBcast(bc, n, MPI.INT, 0),
            w.iAllGather(buffer(new int[] {rank}, false), 1, MPI.INT, ag, 1, MPI.INT),
        };
        for (int i = rs.length - 1; i >= 0; i--) {
            rs[i].waitFor();
        }
        int[] sum = new int[n];
        for (int r = 0; r < size; r++) {
            int[] v = values(r, 0, n);
            for (int i = 0; i < n; i++) {
                sum[i] += v[i];
            }
        }
        assertArray(contents(a, n), sum, "iAllReduce among others");
        assertArray(contents(bc, n), values(0, 0, n), "iBcast among others");
        int[] ranks = new int[size];
        for (int i = 0; i < size; i++) {
            ranks[i] = i;
        }
        assertArray(contents(ag, size), ranks, "iAllGather among others");
        assertThat(Request.testAll(rs)).isTrue();
    }

    /**
     * Rank 0 starts a broadcast of 4 MiB and then "computes", calling test() between steps; the other ranks wait.
     * The broadcast completes with rank 0 never blocking in MPI.
     */
    static void progressWhileComputing() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int n = 1 << 20;
        IntBuffer b = rank == 0 ? buffer(values(0, 0, n), true) : MPI.newIntBuffer(n);
        Request r = w.iBcast(b, n, MPI.INT, 0);
        if (rank == 0) {
            double x = 0;
            int steps = 0;
            while (!r.test()) {
                for (int i = 0; i < 1000; i++) {
                    x += Math.sqrt(i + steps);
                }
                steps++;
            }
            assertThat(x).isNotNaN();
        } else {
            r.waitFor();
        }
        assertArray(contents(b, n), values(0, 0, n), "iBcast while the root computes");
    }

    /**
     * Rank 0 starts an allreduce and then blocks in a receive from rank 1, which rank 1 sends only after its own
     * allreduce has completed: that needs rank 0's schedule to move on while rank 0 waits for the receive.
     */
    static void progressWhileWaitingForSomethingElse() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int n = 300_000;
        IntBuffer a = MPI.newIntBuffer(n);
        a.put(0, values(rank, 0, n));
        Request r = w.iAllReduce(a, n, MPI.INT, MPI.SUM);
        if (size > 1) {
            if (rank == 0) {
                int[] done = new int[1];
                w.recv(done, 1, MPI.INT, 1, 55);
                assertThat(done[0]).isEqualTo(1);
            } else if (rank == 1) {
                r.waitFor();
                w.send(new int[] {1}, 1, MPI.INT, 0, 55);
            }
        }
        r.waitFor();
        int[] sum = new int[n];
        for (int q = 0; q < size; q++) {
            int[] v = values(q, 0, n);
            for (int i = 0; i < n; i++) {
                sum[i] += v[i];
            }
        }
        assertArray(contents(a, n), sum, "iAllReduce while waiting for a receive");
    }
}
