package org.jmpi.tests.comm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import mpi.Comm;
import mpi.Group;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * Communicator creation: dup, split (with key reversal and UNDEFINED), create, createGroup, splitType, compare,
 * names, info, free, attributes; traffic on a new communicator never matches receives on another.
 */
class CommCreationTest {

    /** Every scenario in one job, so a processes-mode run pays the JVM start-ups once. */
    private static void all() throws MPIException {
        dupKeepsTheGroupAndSeparatesTraffic();
        splitOrdersByKeyThenRank();
        createAndCreateGroup();
        splitTypeSharedGroupsTheHost();
        namesInfoAndAttributes();
    }

    @MpiTest(ranks = {1, 2, 3, 4, 8}, modes = Mode.THREADS)
    void inThreads() throws MPIException {
        all();
    }

    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES)
    void inProcesses() throws MPIException {
        all();
    }

    /** An allreduce that proves {@code c} works and has the expected members. */
    private static void sumOfWorldRanksIs(Intracomm c, int expected) throws MPIException {
        int[] v = {MPI.COMM_WORLD.getRank()};
        c.allReduce(v, 1, MPI.INT, MPI.SUM);
        assertThat(v[0]).isEqualTo(expected);
    }

    private static void dupKeepsTheGroupAndSeparatesTraffic() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        Intracomm d = w.dup();
        assertThat(d.getSize()).isEqualTo(size);
        assertThat(d.getRank()).isEqualTo(rank);
        assertThat(Comm.compare(w, w)).isEqualTo(MPI.IDENT);
        assertThat(Comm.compare(w, d)).isEqualTo(MPI.CONGRUENT);
        assertThat(d.isInter()).isFalse();
        // the same envelope on both: a wildcard receive on the original must take the original's message
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;
        d.send(new int[] {1000 + rank}, 1, MPI.INT, right, 5);
        w.send(new int[] {rank}, 1, MPI.INT, right, 5);
        int[] in = new int[1];
        Status s = w.recv(in, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
        assertThat(in[0]).isEqualTo(left);
        assertThat(s.getSource()).isEqualTo(left);
        d.recv(in, 1, MPI.INT, left, 5);
        assertThat(in[0]).isEqualTo(1000 + left);
        // a dup of a dup, and collectives on both
        Intracomm dd = d.dup();
        assertThat(Comm.compare(d, dd)).isEqualTo(MPI.CONGRUENT);
        sumOfWorldRanksIs(dd, size * (size - 1) / 2);
        Intracomm c = d.clone();
        assertThat(c.getSize()).isEqualTo(size);
        // iDup does not block: rank 0 starts two of them, then a synchronous send to everyone, who receive it
        // before they start theirs (a blocking duplication would deadlock here)
        Intracomm i;
        Intracomm i2;
        int[] token = new int[1];
        if (rank == 0) {
            i = w.iDup();
            i2 = w.iDup();
            for (int r = 1; r < size; r++) {
                w.sSend(new int[] {r}, 1, MPI.INT, r, 11);
            }
        } else {
            w.recv(token, 1, MPI.INT, 0, 11);
            assertThat(token[0]).isEqualTo(rank);
            i = w.iDup();
            i2 = w.iDup();
        }
        i2.getRequest().waitFor();
        i.getRequest().waitFor();
        sumOfWorldRanksIs(i, size * (size - 1) / 2);
        assertThat(Comm.compare(i, i2)).isEqualTo(MPI.CONGRUENT);
        i2.free();
        for (Comm x : new Comm[] {d, dd, c, i}) {
            x.free();
            assertThat(x.isNull()).isTrue();
        }
    }

    private static void splitOrdersByKeyThenRank() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        // two colours, key reversal: the highest world rank of each colour becomes rank 0
        Intracomm s = w.split(rank % 2, size - rank);
        List<Integer> same = new ArrayList<>();
        for (int r = size - 1; r >= 0; r--) {
            if (r % 2 == rank % 2) {
                same.add(r);
            }
        }
        assertThat(s.getSize()).isEqualTo(same.size());
        assertThat(s.getRank()).isEqualTo(same.indexOf(rank));
        sumOfWorldRanksIs(s, same.stream().mapToInt(Integer::intValue).sum());
        // the group maps new ranks to world ranks in that order
        Group g = s.getGroup();
        int[] sRanks = new int[same.size()];
        for (int i = 0; i < sRanks.length; i++) {
            sRanks[i] = i;
        }
        int[] worldRanks = Group.translateRanks(g, sRanks, w.getGroup());
        assertThat(worldRanks).containsExactly(same.stream().mapToInt(Integer::intValue).toArray());
        assertThat(Comm.compare(s, w)).isEqualTo(size == 1 ? MPI.CONGRUENT : MPI.UNEQUAL);
        // equal keys: world order; one colour with everybody reversed is SIMILAR
        Intracomm rev = w.split(0, -rank);
        assertThat(rev.getRank()).isEqualTo(size - 1 - rank);
        assertThat(Comm.compare(rev, w)).isEqualTo(size == 1 ? MPI.CONGRUENT : MPI.SIMILAR);
        Intracomm same0 = w.split(7, 0);
        assertThat(same0.getRank()).isEqualTo(rank);
        // UNDEFINED gives a null communicator to rank 0 only
        Intracomm u = w.split(rank == 0 ? MPI.UNDEFINED : 1, rank);
        assertThat(u.isNull()).isEqualTo(rank == 0);
        if (rank != 0) {
            assertThat(u.getSize()).isEqualTo(size - 1);
            assertThat(u.getRank()).isEqualTo(rank - 1);
            sumOfWorldRanksIs(u, size * (size - 1) / 2);
            u.free();
        }
        // split of a split
        Intracomm ss = s.split(s.getRank() / 2, 0);
        assertThat(ss.getSize()).isBetween(1, 2);
        ss.free();
        s.free();
        rev.free();
        same0.free();
    }

    private static void createAndCreateGroup() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        Group world = w.getGroup();
        int evens = (size + 1) / 2;
        int[] even = new int[evens];
        int expected = 0;
        for (int i = 0; i < evens; i++) {
            even[i] = 2 * i;
            expected += 2 * i;
        }
        Group eg = world.incl(even);
        Intracomm e = w.create(eg);
        assertThat(e.isNull()).isEqualTo(rank % 2 == 1);
        if (rank % 2 == 0) {
            assertThat(e.getSize()).isEqualTo(evens);
            assertThat(e.getRank()).isEqualTo(rank / 2);
            sumOfWorldRanksIs(e, expected);
            e.free();
        }
        // groups of communicators: my rank, comparisons, the empty group
        assertThat(world.getRank()).isEqualTo(rank);
        assertThat(Group.compare(world, w.dup().getGroup())).isEqualTo(MPI.IDENT);
        assertThat(eg.getRank()).isEqualTo(rank % 2 == 0 ? rank / 2 : MPI.UNDEFINED);
        assertThat(Group.compare(Group.union(eg, world), world)).isEqualTo(size <= 2 ? MPI.IDENT : MPI.SIMILAR);
        assertThat(Group.intersection(eg, MPI.GROUP_EMPTY).getSize()).isZero();
        assertThat(Group.difference(world, eg).getSize()).isEqualTo(size - evens);
        assertThat(w.create(MPI.GROUP_EMPTY).isNull()).isTrue();
        // create with the group reversed: ranks reversed, SIMILAR to the world
        int[] rev = new int[size];
        for (int i = 0; i < size; i++) {
            rev[i] = size - 1 - i;
        }
        Intracomm r = w.create(world.incl(rev));
        assertThat(r.getRank()).isEqualTo(size - 1 - rank);
        assertThat(Comm.compare(r, w)).isEqualTo(size == 1 ? MPI.CONGRUENT : MPI.SIMILAR);
        r.free();
        // createGroup: only the first half calls, the others go on with other work
        int half = (size + 1) / 2;
        if (rank < half) {
            Group first = world.rangeIncl(new int[][] {{0, half - 1, 1}});
            Intracomm f = w.createGroup(first, 42);
            assertThat(f.getSize()).isEqualTo(half);
            assertThat(f.getRank()).isEqualTo(rank);
            sumOfWorldRanksIs(f, half * (half - 1) / 2);
            // and again, on the new communicator, with the odd members of it
            Intracomm g = f.createGroup(first.incl(new int[] {0}), 43);
            if (rank == 0) {
                assertThat(g.getSize()).isEqualTo(1);
                g.free();
            }
            f.free();
        } else {
            Group second = world.rangeIncl(new int[][] {{half, size - 1, 1}});
            Intracomm f = w.createGroup(second, 42);
            assertThat(f.getSize()).isEqualTo(size - half);
            sumOfWorldRanksIs(f, (size * (size - 1) - half * (half - 1)) / 2);
            f.free();
        }
        w.barrier();
    }

    private static void splitTypeSharedGroupsTheHost() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        // every rank of these tests runs on this host: one communicator with all of them, ordered by key
        Intracomm h = w.splitType(Comm.TYPE_SHARED, -w.getRank(), MPI.INFO_NULL);
        assertThat(h.getSize()).isEqualTo(w.getSize());
        assertThat(h.getRank()).isEqualTo(w.getSize() - 1 - w.getRank());
        h.free();
        Intracomm n = w.splitType(MPI.UNDEFINED, 0, MPI.INFO_NULL);
        assertThat(n.isNull()).isTrue();

        // MPI 4.0: guided by mpi_shared_memory, the host; an unknown resource type, and unguided on one host (no
        // strict subset below the host that jmpi knows): a null communicator
        mpi.Info guided = new mpi.Info();
        guided.set("mpi_hw_resource_type", "mpi_shared_memory");
        Intracomm g = w.splitType(Comm.TYPE_HW_GUIDED, 0, guided);
        assertThat(g.getSize()).isEqualTo(w.getSize());
        assertThat(g.getInfo().get("mpi_hw_resource_type")).isEqualTo("mpi_shared_memory");
        g.free();
        mpi.Info numa = new mpi.Info();
        numa.set("mpi_hw_resource_type", "NUMANode");
        assertThat(w.splitType(Comm.TYPE_HW_GUIDED, 0, numa).isNull()).isTrue();
        assertThat(w.splitType(Comm.TYPE_HW_UNGUIDED, 0, MPI.INFO_NULL).isNull()).isTrue();
    }

    private static void namesInfoAndAttributes() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        assertThat(w.getName()).isEqualTo("MPI_COMM_WORLD");
        assertThat(MPI.COMM_SELF.getName()).isEqualTo("MPI_COMM_SELF");
        Intracomm d = w.dup();
        assertThat(d.getName()).isEmpty();
        d.setName("mine");
        assertThat(d.getName()).isEqualTo("mine");
        // info: hints are kept and handed back as a new object; dupWithInfo replaces them
        Info info = new Info();
        info.set("mpi_assert_no_any_tag", "true");
        d.setInfo(info);
        info.set("mpi_assert_no_any_tag", "false");
        Info back = d.getInfo();
        assertThat(back.get("mpi_assert_no_any_tag")).isEqualTo("true");
        Info other = new Info();
        other.set("k", "v");
        Intracomm e = d.dupWithInfo(other);
        assertThat(e.getInfo().get("k")).isEqualTo("v");
        assertThat(e.getInfo().get("mpi_assert_no_any_tag")).isNull();
        assertThat(d.dup().getInfo().get("mpi_assert_no_any_tag")).isEqualTo("true");
        // attributes: set, read back a copy, copied by dup, deleted, keyval freed
        int key = Comm.createKeyval();
        int key2 = Comm.createKeyval();
        assertThat(key2).isNotEqualTo(key);
        assertThat(d.getAttr(key)).isNull();
        d.setAttr(key, new int[] {1, 2, 3});
        assertThat((int[]) d.getAttr(key)).containsExactly(1, 2, 3);
        d.setAttr(key2, "two");
        Intracomm copy = d.dup();
        assertThat((int[]) copy.getAttr(key)).containsExactly(1, 2, 3);
        assertThat(copy.getAttr(key2)).isEqualTo("two");
        copy.deleteAttr(key);
        assertThat(copy.getAttr(key)).isNull();
        assertThat((int[]) d.getAttr(key)).containsExactly(1, 2, 3);
        assertThat(w.getAttr(key)).isNull();
        Comm.freeKeyval(key2);
        // predefined attributes
        assertThat((Integer) w.getAttr(MPI.TAG_UB)).isGreaterThanOrEqualTo(32767);
        assertThat(w.getAttr(MPI.UNIVERSE_SIZE)).isEqualTo(w.getSize());
        assertThat(w.getAttr(MPI.WTIME_IS_GLOBAL)).isEqualTo(Boolean.FALSE);
        assertThat(w.getTopology()).isEqualTo(MPI.UNDEFINED);
        d.disconnect();
        assertThat(d.isNull()).isTrue();
        e.free();
        copy.free();
    }
}
