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
        odd.free();
        d.free();
        inter.free();
        assertThat(inter.isNull()).isTrue();
        local.free();
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
