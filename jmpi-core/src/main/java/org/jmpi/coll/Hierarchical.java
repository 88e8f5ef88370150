package org.jmpi.coll;

import org.jmpi.datatype.MessageData;

/**
 * Collectives for communicators whose ranks are on several hosts: each is the usual algorithms run first (or last)
 * among the ranks of each host, over shared memory, and among one leader per host, over the network, instead of over
 * all ranks at once. A flat algorithm's partners are chosen by rank, not by host, so most of its steps cross the
 * network, and Rabenseifner's allreduce swaps its largest halves with the farthest partner first: with 2 ranks on
 * each of 2 hosts every rank sends half the vector and receives half of it twice over the network, where here each
 * host's leader sends and receives the vector once. Which ranks share a host comes from {@link Hosts}; the parts are
 * built on the same schedule with {@link Schedule#within}, so they keep the call's context and tag, and the
 * algorithm of each part is chosen for its own group ({@link Tuning#flat}). Chosen by {@link Tuning#select(
 * Collective, org.jmpi.runtime.Communicator, long, boolean, int)}.
 *
 * <p>On a communicator that is all on one host (a forced choice) each collective is still correct: one group, one
 * leader.
 */
final class Hierarchical {
    private Hierarchical() {}

    /** Among the leaders (the root leads its host), then on each host from its leader. */
    static void bcast(Schedule s, MessageData buf, int root) {
        Hosts h = Hosts.of(s.comm());
        int me = s.rank();
        int g = h.groupOf[me];
        int[] local = h.groups[g];
        int[] leaders = h.leaders(root);
        long bytes = buf.bytes();
        if (me == leaders[g] && leaders.length > 1) {
            s.within(leaders);
            Collectives.bcast(s, Tuning.flat(Collective.BCAST, leaders.length, bytes, true), buf, h.groupOf[root]);
        }
        if (local.length > 1) {
            s.within(local);
            Collectives.bcast(s, Tuning.flat(Collective.BCAST, local.length, bytes, true), buf,
                    Hosts.indexOf(local, leaders[g]));
        }
        s.within(null);
    }

    /**
     * On each host to its leader (the root leads its host), then among the leaders to the root. Commutative operations
     * only (a host's ranks need not be consecutive). Returns the array holding the result at the root.
     */
    static Object reduce(Schedule s, ReduceBuffers b, int root) {
        Hosts h = Hosts.of(s.comm());
        int me = s.rank();
        int g = h.groupOf[me];
        int[] local = h.groups[g];
        int[] leaders = h.leaders(root);
        long bytes = b.bytes();
        s.within(local);
        Object res = Collectives.reduce(s, Tuning.flat(Collective.REDUCE, local.length, bytes, true), b,
                Hosts.indexOf(local, leaders[g]));
        if (me == leaders[g]) {
            ReduceBuffers lb = inPlace(b, res);
            s.within(leaders);
            Object all = Collectives.reduce(s, Tuning.flat(Collective.REDUCE, leaders.length, bytes, true), lb,
                    h.groupOf[root]);
            if (me == root) {
                lb.finish(all);
            }
        }
        s.within(null);
        return res;
    }

    /** Reduce on each host to its first rank, allreduce among those, bcast on each host. Commutative operations. */
    static Object allreduce(Schedule s, ReduceBuffers b) {
        Hosts h = Hosts.of(s.comm());
        int me = s.rank();
        int[] local = h.groupOf(me);
        long bytes = b.bytes();
        s.within(local);
        Object res = Collectives.reduce(s, Tuning.flat(Collective.REDUCE, local.length, bytes, true), b, 0);
        Object result;
        if (me == local[0]) {
            int[] leaders = h.leaders(0);
            ReduceBuffers lb = inPlace(b, res);
            s.within(leaders);
            lb.finish(Collectives.allreduce(s, Tuning.flat(Collective.ALLREDUCE, leaders.length, bytes, true), lb));
            result = res;
        } else {
            result = b.resultArray();
        }
        if (local.length > 1) {
            s.within(local);
            Collectives.bcast(s, Tuning.flat(Collective.BCAST, local.length, bytes, true), b.all(result), 0);
        }
        s.within(null);
        return result;
    }

    /**
     * Gather on each host into its part of {@code recv} at its first rank, allgather of the hosts' parts among those,
     * bcast of the whole on each host. For hosts whose ranks are consecutive ({@link Hosts#contiguous}), so that a
     * host's blocks are one run of {@code recv}.
     *
     * @param send this rank's block, or null when it sits in place in {@code recv}
     */
    static void allgather(Schedule s, MessageData send, MessageData recv, long block) {
        Hosts h = Hosts.of(s.comm());
        int me = s.rank();
        int[] local = h.groupOf(me);
        int first = local[0];
        int n = local.length;
        MessageData whole = Blocks.slice(recv, 0, s.size() * block);
        if (n > 1) {
            MessageData mine = send != null || me == first ? send : Blocks.slice(recv, me * block, block);
            s.within(local);
            Collectives.gather(s, Tuning.flat(Collective.GATHER, n, n * block, true), mine,
                    Blocks.slice(recv, first * block, n * block), block, 0);
        } else if (send != null) {
            MessageData own = Blocks.slice(recv, me * block, block);
            s.round().local(() -> Blocks.copy(send, 0, own, 0, block));
        }
        int hosts = h.groups.length;
        if (me == first && hosts > 1) {
            long[] offsets = new long[hosts];
            long[] lengths = new long[hosts];
            long total = 0;
            for (int i = 0; i < hosts; i++) {
                offsets[i] = h.groups[i][0] * block;
                lengths[i] = h.groups[i].length * block;
                total += lengths[i];
            }
            s.within(h.leaders(0));
            Collectives.allgatherv(s, Tuning.flat(Collective.ALLGATHERV, hosts, total, true), null, recv, offsets,
                    lengths);
        }
        if (n > 1) {
            s.within(local);
            Collectives.bcast(s, Tuning.flat(Collective.BCAST, n, whole.bytes(), true), whole, 0);
        }
        s.within(null);
    }

    /**
     * A dissemination barrier on each host, among the hosts' first ranks, and on each host again: two messages
     * between hosts per host and round of the leaders' barrier, where the flat one sends most of its messages between
     * hosts. {@link Collectives#barrierNow} sends the same messages without a schedule.
     */
    static void barrier(Schedule s) {
        Hosts h = Hosts.of(s.comm());
        int me = s.rank();
        int[] local = h.groupOf(me);
        s.within(local);
        BarrierDissemination.build(s);
        if (me == local[0]) {
            s.within(h.leaders(0));
            BarrierDissemination.build(s);
        }
        s.within(local);
        BarrierDissemination.build(s);
        s.within(null);
    }

    /** Buffers for the leaders' part: the host's partial result {@code res}, reduced in place. */
    private static ReduceBuffers inPlace(ReduceBuffers b, Object res) {
        MessageData r = b.all(res);
        return new ReduceBuffers(b.s, b.red, b.count, r, r);
    }
}
