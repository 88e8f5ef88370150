package org.jmpi.tests.comm;

import static org.assertj.core.api.Assertions.assertThat;

import mpi.Comm;
import mpi.Group;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * Intercommunicators between the even and the odd world ranks: sizes and groups, point-to-point in both directions
 * (ranks name the remote group), dup keeping traffic apart, merge in both orders.
 */
class IntercommTest {

    private static void scenario() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int colour = rank % 2;
        Intracomm local = w.split(colour, rank);
        int localSize = local.getSize();
        int remoteSize = colour == 0 ? size / 2 : (size + 1) / 2;
        // leaders: world rank 0 for the evens, world rank 1 for the odds
        Intercomm inter = w.createIntercomm(local, 0, 1 - colour, 17);
        assertThat(inter.isInter()).isTrue();
        assertThat(inter.getSize()).isEqualTo(localSize);
        assertThat(inter.getRank()).isEqualTo(rank / 2);
        assertThat(inter.getRemoteSize()).isEqualTo(remoteSize);
        Group remote = inter.getRemoteGroup();
        int[] remoteWorld = Group.translateRanks(remote, new int[] {0, remoteSize - 1}, w.getGroup());
        assertThat(remoteWorld).containsExactly(1 - colour, 1 - colour + 2 * (remoteSize - 1));
        assertThat(Comm.compare(inter, inter)).isEqualTo(MPI.IDENT);
        assertThat(Comm.compare(inter, w)).isEqualTo(MPI.UNEQUAL);

        // point-to-point: local rank r of the evens talks to remote rank r of the odds
        int me = inter.getRank();
        if (me < remoteSize) {
            int[] in = new int[1];
            if (colour == 0) {
                inter.send(new int[] {rank}, 1, MPI.INT, me, 3);
                Status s = inter.recv(in, 1, MPI.INT, MPI.ANY_SOURCE, 4);
                assertThat(s.getSource()).isEqualTo(me);
            } else {
                Status s = inter.recv(in, 1, MPI.INT, me, 3);
                assertThat(s.getSource()).isEqualTo(me);
                inter.send(new int[] {rank}, 1, MPI.INT, me, 4);
            }
            assertThat(in[0]).isEqualTo(2 * me + 1 - colour);
        }

        // a dup: the same envelope on both, the wildcard receive on the original takes the original's message
        Intercomm d = inter.dup();
        assertThat(d.getRemoteSize()).isEqualTo(remoteSize);
        assertThat(Comm.compare(inter, d)).isEqualTo(MPI.CONGRUENT);
        if (me < remoteSize && colour == 0) {
            d.send(new int[] {-1}, 1, MPI.INT, me, 8);
            inter.send(new int[] {1}, 1, MPI.INT, me, 8);
        } else if (me < remoteSize) {
            int[] in = new int[1];
            inter.recv(in, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            assertThat(in[0]).isEqualTo(1);
            d.recv(in, 1, MPI.INT, me, 8);
            assertThat(in[0]).isEqualTo(-1);
        }

        // merge: the odds first when the evens say high
        Intracomm odd = inter.merge(colour == 0);
        assertThat(odd.getSize()).isEqualTo(size);
        int expectedRank = colour == 1 ? rank / 2 : size / 2 + rank / 2;
        assertThat(odd.getRank()).isEqualTo(expectedRank);
        int[] v = {rank};
        odd.allReduce(v, 1, MPI.INT, MPI.SUM);
        assertThat(v[0]).isEqualTo(size * (size - 1) / 2);
        // and with both passing the same value: the group of world rank 0 first
        Intracomm same = inter.merge(false);
        assertThat(same.getRank()).isEqualTo(colour == 0 ? rank / 2 : (size + 1) / 2 + rank / 2);
        same.barrier();
        same.free();
        collectives(inter, colour, rank, size, localSize, remoteSize);
        odd.free();
        d.free();
        inter.free();
        assertThat(inter.isNull()).isTrue();
        local.free();
    }

    /** The blocking collectives across the two groups, against what MPI defines for each. */
    private static void collectives(Intercomm inter, int colour, int rank, int size, int localSize, int remoteSize)
            throws MPIException {
        int me = inter.getRank();
        inter.barrier();
        // world rank of remote rank r: the other colour's r-th member
        java.util.function.IntUnaryOperator remoteWorld = r -> 2 * r + 1 - colour;
        // bcast from the evens' rank 0 (world 0) to the odds, then from the odds' last rank to the evens
        for (int rootGroup = 0; rootGroup < 2; rootGroup++) {
            int rootLocal = rootGroup == 0 ? 0 : localSize - 1; // used in the root group only
            int rootRank;
            if (colour == rootGroup) {
                rootRank = me == rootLocal ? MPI.ROOT : MPI.PROC_NULL;
            } else {
                rootRank = rootGroup == 0 ? 0 : remoteSize - 1;
            }
            int[] b = {colour == rootGroup && me == rootLocal ? 4242 + rootGroup : -1, 0};
            inter.bcast(b, 2, MPI.INT, rootRank);
            if (colour != rootGroup) {
                assertThat(b[0]).isEqualTo(4242 + rootGroup);
            } else if (me != rootLocal) {
                assertThat(b[0]).isEqualTo(-1);
            }
        }
        // allreduce: each group gets the sum of the other's world ranks
        int remoteSum = 0;
        for (int r = 0; r < remoteSize; r++) {
            remoteSum += remoteWorld.applyAsInt(r);
        }
        int[] sum = new int[1];
        inter.allReduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM);
        assertThat(sum[0]).isEqualTo(remoteSum);
        // allgather: each gets the other group's world ranks in remote-rank order
        int[] all = new int[remoteSize];
        inter.allGather(new int[] {rank}, 1, MPI.INT, all, 1, MPI.INT);
        for (int r = 0; r < remoteSize; r++) {
            assertThat(all[r]).isEqualTo(remoteWorld.applyAsInt(r));
        }
        // alltoall: block j to remote rank j
        int[] out = new int[remoteSize];
        for (int j = 0; j < remoteSize; j++) {
            out[j] = rank * 100 + j;
        }
        int[] in = new int[remoteSize];
        inter.allToAll(out, 1, MPI.INT, in, 1, MPI.INT);
        for (int j = 0; j < remoteSize; j++) {
            assertThat(in[j]).isEqualTo(remoteWorld.applyAsInt(j) * 100 + me);
        }
        // gather and reduce to the evens' rank 0, scatter from it
        int[] got = new int[remoteSize];
        int[] red = new int[1];
        int root = colour == 0 ? (me == 0 ? MPI.ROOT : MPI.PROC_NULL) : 0;
        inter.gather(new int[] {rank}, 1, MPI.INT, got, 1, MPI.INT, root);
        inter.reduce(new int[] {rank}, red, 1, MPI.INT, MPI.MAX, root);
        if (root == MPI.ROOT) {
            for (int r = 0; r < remoteSize; r++) {
                assertThat(got[r]).isEqualTo(remoteWorld.applyAsInt(r));
            }
            assertThat(red[0]).isEqualTo(remoteWorld.applyAsInt(remoteSize - 1));
        }
        int[] parts = new int[colour == 0 ? remoteSize : 1];
        for (int r = 0; r < parts.length && root == MPI.ROOT; r++) {
            parts[r] = 7000 + r;
        }
        int[] part = {-1};
        inter.scatter(parts, 1, MPI.INT, part, 1, MPI.INT, root);
        if (colour == 1) {
            assertThat(part[0]).isEqualTo(7000 + me);
        }
        // v-forms: remote rank r contributes r + 1 copies of its world rank, stored back to front
        int[] counts = new int[remoteSize];
        int[] displs = new int[remoteSize];
        int total = 0;
        for (int r = remoteSize - 1; r >= 0; r--) {
            counts[r] = r + 1;
            displs[r] = total;
            total += r + 1;
        }
        int[] mineV = new int[me + 1];
        java.util.Arrays.fill(mineV, rank);
        int[] allV = new int[total];
        inter.allGatherv(mineV, me + 1, MPI.INT, allV, counts, displs, MPI.INT);
        for (int r = 0; r < remoteSize; r++) {
            for (int k = 0; k < counts[r]; k++) {
                assertThat(allV[displs[r] + k]).isEqualTo(remoteWorld.applyAsInt(r));
            }
        }
        int[] gv = new int[total];
        inter.gatherv(mineV, me + 1, MPI.INT, gv, counts, displs, MPI.INT, root);
        if (root == MPI.ROOT) {
            assertThat(gv).isEqualTo(allV);
        }
        // alltoallv: one element to each remote rank j, at displacement j
        int[] ones = new int[remoteSize];
        int[] at = new int[remoteSize];
        for (int j = 0; j < remoteSize; j++) {
            ones[j] = 1;
            at[j] = j;
        }
        int[] av = new int[remoteSize];
        inter.allToAllv(out, ones, at, MPI.INT, av, ones, at, MPI.INT);
        assertThat(av).isEqualTo(in);
        // scatterv from the evens' rank 0: odd rank r gets r + 1 elements
        int[] sv = new int[colour == 0 ? total : 0];
        for (int r = 0; r < remoteSize && root == MPI.ROOT; r++) {
            for (int k = 0; k < counts[r]; k++) {
                sv[displs[r] + k] = 500 + r;
            }
        }
        int[] rv = new int[me + 1];
        inter.scatterv(sv, counts, displs, MPI.INT, rv, me + 1, MPI.INT, root);
        if (colour == 1) {
            for (int v : rv) {
                assertThat(v).isEqualTo(500 + me);
            }
        }
        // reduce-scatter-block: my group's vectors (one element per remote process) are summed and scattered over
        // the remote group; I receive element [me] of the sum of the remote group's vectors
        int[] vec = new int[remoteSize];
        for (int j = 0; j < remoteSize; j++) {
            vec[j] = rank * 10 + j;
        }
        int[] rsb = new int[1];
        inter.reduceScatterBlock(vec, rsb, 1, MPI.INT, MPI.SUM);
        int expect = 0;
        for (int r = 0; r < remoteSize; r++) {
            expect += remoteWorld.applyAsInt(r) * 10 + me;
        }
        assertThat(rsb[0]).isEqualTo(expect);
        // non-blocking forms, several in flight at once
        java.nio.IntBuffer nbIn = MPI.newIntBuffer(1);
        nbIn.put(0, rank);
        java.nio.IntBuffer nbSum = MPI.newIntBuffer(1);
        java.nio.IntBuffer nbAll = MPI.newIntBuffer(remoteSize);
        java.nio.IntBuffer nbB = MPI.newIntBuffer(1);
        int bRoot = colour == 1 ? (me == 0 ? MPI.ROOT : MPI.PROC_NULL) : 0;
        nbB.put(0, bRoot == MPI.ROOT ? 99 : -1);
        mpi.Request[] reqs = {
            inter.iAllReduce(nbIn, nbSum, 1, MPI.INT, MPI.SUM),
            inter.iAllGather(nbIn, 1, MPI.INT, nbAll, 1, MPI.INT),
            inter.iBcast(nbB, 1, MPI.INT, bRoot),
            inter.iBarrier()
        };
        mpi.Request.waitAll(reqs);
        assertThat(nbSum.get(0)).isEqualTo(remoteSum);
        for (int r = 0; r < remoteSize; r++) {
            assertThat(nbAll.get(r)).isEqualTo(remoteWorld.applyAsInt(r));
        }
        if (colour == 0) {
            assertThat(nbB.get(0)).isEqualTo(99);
        }
        // reduce-scatter with counts: both groups reduce vectors of 6 elements; the evens split theirs as
        // [6, 0, 0...] (all to local rank 0), the odds one by one from their local rank 0 up, the rest to the last
        int[] rc = new int[localSize];
        if (colour == 0) {
            rc[0] = 6;
        } else {
            for (int i = 0; i < 6; i++) {
                rc[Math.min(i, localSize - 1)]++;
            }
        }
        int[] vec6 = new int[6];
        for (int i = 0; i < 6; i++) {
            vec6[i] = rank + i;
        }
        int[] rsc = new int[rc[me]];
        inter.reduceScatter(vec6, rsc, rc, MPI.INT, MPI.SUM);
        int start = 0;
        for (int i = 0; i < me; i++) {
            start += rc[i];
        }
        for (int k = 0; k < rc[me]; k++) {
            assertThat(rsc[k]).isEqualTo(remoteSum + remoteSize * (start + k));
        }
        // in-place forms do not apply to intercommunicators
        inter.setErrhandler(MPI.ERRORS_RETURN);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> inter.allReduce(new int[1], 1, MPI.INT, MPI.SUM))
                .isInstanceOfSatisfying(MPIException.class,
                        e -> assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_UNSUPPORTED_OPERATION));
        inter.barrier();
    }

    @MpiTest(ranks = {2, 3, 4, 8}, modes = Mode.THREADS)
    void inThreads() throws MPIException {
        scenario();
    }

    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES)
    void inProcesses() throws MPIException {
        scenario();
    }
}
