package org.jmpi.comm;

import org.jmpi.coll.Collectives;
import org.jmpi.coll.Schedule;
import org.jmpi.datatype.BaseKind;
import org.jmpi.datatype.BufferView;
import org.jmpi.datatype.MessageData;
import org.jmpi.datatype.TypeDescriptor;
import org.jmpi.op.ElementKind;
import org.jmpi.op.PredefinedOp;
import org.jmpi.op.PredefinedReduction;
import org.jmpi.pt2pt.Engine;
import org.jmpi.pt2pt.RecvRequest;
import org.jmpi.pt2pt.SendMode;
import org.jmpi.pt2pt.SendRequest;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;

/**
 * The few blocking collectives that creating a communicator needs, over Java arrays: an allreduce with bitwise
 * AND of {@code long}s (context-id agreement), an allgather and a broadcast of {@code int}s (split, group exchange).
 * They run the algorithms of {@code org.jmpi.coll} on the communicator's collective context, so they take one
 * collective sequence number each, like a user collective, and never match user traffic. Also a blocking exchange
 * of {@code int}s between two ranks (the leaders of an intercommunicator).
 *
 * <p>Threading: stateless; each call is a collective on its communicator, so MPI's rule (one collective at a time
 * per communicator) applies.
 */
public final class GroupCollectives {
    private static final TypeDescriptor LONG = TypeDescriptor.primitive(BaseKind.LONG);
    private static final TypeDescriptor INT = TypeDescriptor.primitive(BaseKind.INT);

    private GroupCollectives() {}

    /** The bitwise AND of every rank's {@code mine}, element by element (every rank passes the same length). */
    public static long[] allreduceBand(Communicator c, long[] mine) {
        long[] out = new long[mine.length];
        if (c.size() == 1) {
            System.arraycopy(mine, 0, out, 0, mine.length);
            return out;
        }
        Schedule s = Collectives.schedule(c, "context-id agreement");
        MessageData in = BufferView.of(mine, mine.length, LONG, false);
        MessageData res = BufferView.of(out, out.length, LONG, true);
        Collectives.allreduce(s, in, res, mine.length,
                PredefinedReduction.of(PredefinedOp.BAND, ElementKind.LONG, 1, "MPI.LONG"));
        run(s);
        return out;
    }

    /** Every rank's {@code mine} (all of the same length), concatenated in rank order. */
    public static int[] allgather(Communicator c, int[] mine) {
        int[] out = new int[mine.length * c.size()];
        if (c.size() == 1) {
            System.arraycopy(mine, 0, out, 0, mine.length);
            return out;
        }
        Schedule s = Collectives.schedule(c, "communicator creation");
        Collectives.allgather(s, BufferView.of(mine, mine.length, INT, false), BufferView.of(out, out.length, INT,
                true), 4L * mine.length);
        run(s);
        return out;
    }

    /** Broadcasts {@code buf} (the same length everywhere) from {@code root}; returns it. */
    public static int[] bcast(Communicator c, int[] buf, int root) {
        if (c.size() > 1) {
            Schedule s = Collectives.schedule(c, "communicator creation");
            Collectives.bcast(s, BufferView.of(buf, buf.length, INT, true), root);
            run(s);
        }
        return buf;
    }

    /** Broadcasts {@code buf} of longs from {@code root}; returns it. */
    public static long[] bcast(Communicator c, long[] buf, int root) {
        if (c.size() > 1) {
            Schedule s = Collectives.schedule(c, "communicator creation");
            Collectives.bcast(s, BufferView.of(buf, buf.length, LONG, true), root);
            run(s);
        }
        return buf;
    }

    /** A barrier over {@code c}. */
    public static void barrier(Communicator c) {
        if (c.size() > 1) {
            Schedule s = Collectives.schedule(c, "communicator barrier");
            Collectives.barrier(s);
            run(s);
        }
    }

    /**
     * Sends {@code out} to rank {@code peer} of {@code c} and receives an int array of unknown length (at most
     * {@code maxLength}) from it, on {@code context} with {@code tag}. {@code c} may be an intercommunicator, whose
     * ranks name the remote group.
     */
    public static int[] exchange(Communicator c, int context, int peer, int tag, int[] out, int maxLength) {
        Engine engine = JmpiRuntime.get().engine();
        int[] in = new int[maxLength];
        RecvRequest r = engine.irecv(BufferView.of(in, maxLength, INT, true), context, peer, tag);
        SendRequest sr = engine.isend(BufferView.of(out, out.length, INT, false), c.worldRank(peer), context,
                c.rank(), tag, SendMode.STANDARD);
        await(sr);
        await(r);
        int n = (int) (r.bytes() / 4);
        int[] got = new int[n];
        System.arraycopy(in, 0, got, 0, n);
        return got;
    }

    /**
     * Bitwise AND of {@code mine} over the processes {@code members} (world ranks; this process is
     * {@code members[me]}), by a binomial reduction to member 0 and a binomial broadcast back: {@code 2 ceil(log2 n)}
     * rounds. Messages go on {@code context} with {@code tag} and carry world ranks as their source, so that
     * concurrent calls over overlapping sets with different tags never mix (createGroup).
     */
    public static long[] treeAllreduceBand(int[] members, int me, int context, int tag, long[] mine) {
        int n = members.length;
        long[] acc = mine.clone();
        if (n == 1) {
            return acc;
        }
        Engine engine = JmpiRuntime.get().engine();
        int self = members[me];
        long[] in = new long[acc.length];
        int mask = 1;
        while (mask < n) { // reduce: at each step, the member with bit 'mask' set sends to its partner and leaves
            if ((me & mask) != 0) {
                await(engine.isend(BufferView.of(acc, acc.length, LONG, false), members[me - mask], context, self,
                        tag, SendMode.STANDARD));
                break;
            }
            if (me + mask < n) {
                await(engine.irecv(BufferView.of(in, in.length, LONG, true), context, members[me + mask], tag));
                for (int i = 0; i < acc.length; i++) {
                    acc[i] &= in[i];
                }
            }
            mask <<= 1;
        }
        // broadcast from member 0 down the same tree
        if (me != 0) {
            await(engine.irecv(BufferView.of(acc, acc.length, LONG, true), context, members[me - (me & -me)], tag));
        }
        int top = me == 0 ? Integer.highestOneBit(n - 1) << 1 : (me & -me);
        for (int m = top >> 1; m > 0; m >>= 1) {
            if (me + m < n) {
                await(engine.isend(BufferView.of(acc, acc.length, LONG, false), members[me + m], context, self, tag,
                        SendMode.STANDARD));
            }
        }
        return acc;
    }

    /** Sends {@code out} to rank {@code peer} of {@code c} and receives as many longs from it. */
    public static long[] exchange(Communicator c, int context, int peer, int tag, long[] out) {
        Engine engine = JmpiRuntime.get().engine();
        long[] in = new long[out.length];
        RecvRequest r = engine.irecv(BufferView.of(in, in.length, LONG, true), context, peer, tag);
        SendRequest sr = engine.isend(BufferView.of(out, out.length, LONG, false), c.worldRank(peer), context,
                c.rank(), tag, SendMode.STANDARD);
        await(sr);
        await(r);
        return in;
    }

    private static void await(org.jmpi.runtime.RequestImpl r) {
        JmpiRuntime.get().progress().await(r);
        if (r.error() != 0) {
            throw new MpiError(r.error(), r.errorMessage());
        }
    }

    private static void run(Schedule s) {
        s.start();
        Collectives.await(s);
        if (s.error() != 0) {
            throw new MpiError(s.error(), s.errorMessage());
        }
    }
}
