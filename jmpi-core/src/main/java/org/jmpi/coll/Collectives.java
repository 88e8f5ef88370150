package org.jmpi.coll;

import org.jmpi.datatype.MessageData;
import org.jmpi.op.Reduction;
import org.jmpi.pt2pt.Engine;
import org.jmpi.pt2pt.RecvRequest;
import org.jmpi.pt2pt.SendMode;
import org.jmpi.pt2pt.SendRequest;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;
import org.jmpi.runtime.Progress;

/**
 * Entry points of the collective operations for package {@code mpi}. A call first takes a schedule
 * ({@link #schedule}, which also takes the communicator's next collective sequence number), then fills it with the
 * algorithm {@link Tuning} selects through one of the methods here, then starts it. A blocking call waits for it
 * ({@link #await(Schedule)}); a non-blocking one hands it to the user as the request.
 *
 * <p>Arguments arrive checked. Buffers are packed message data: block {@code i} of a buffer of {@code n}-byte blocks
 * is packed bytes {@code [i * n, (i + 1) * n)}, and the v-forms give every block's packed offset and length. A null
 * send block means "in place" (the data already sits at its place in the receive buffer). Reductions take the
 * rank's input and the place for its result (null where the rank gets none); in place, both are the same message.
 * Algorithms take the communicator as an {@link Communicator}, so they work on any communicator.
 */
public final class Collectives {
    private Collectives() {}

    /** A new, empty schedule for one collective call on {@code c}; {@code call} names it in error messages. */
    public static Schedule schedule(Communicator c, String call) {
        JmpiRuntime rt = JmpiRuntime.get();
        return new Schedule(c, rt.engine(), rt.progress(), call);
    }

    /**
     * A new, empty schedule for a call that has already taken its sequence number ({@code
     * c.nextCollective()}), e.g. one that first tried {@link Immediate}.
     */
    public static Schedule schedule(Communicator c, String call, int sequence) {
        JmpiRuntime rt = JmpiRuntime.get();
        return new Schedule(c, rt.engine(), rt.progress(), call, sequence);
    }

    /** Waits for a schedule; errors are left in the request for the caller to raise. */
    public static void await(Schedule s) {
        JmpiRuntime.get().progress().await(s);
    }

    public static void barrier(Schedule s) {
        switch (Tuning.select(Collective.BARRIER, s.comm(), 0, true, -1)) {
            case BARRIER_TREE -> BarrierTree.build(s);
            case BARRIER_HIERARCHICAL -> Hierarchical.barrier(s);
            default -> BarrierDissemination.build(s);
        }
    }

    /**
     * A blocking barrier on {@code c} ({@code MPI_Barrier}, and the barrier inside {@code MPI_Win_fence}); throws the
     * first error. With the dissemination algorithm (the default) it runs without a schedule: each round posts its
     * receive, sends, and waits for both, with requests from the engine's pools, so that a barrier allocates nothing
     * in steady state (a schedule and its rounds were ~650 bytes a call, and the young collections they caused every
     * ~100 ms stalled the partner rank for milliseconds). The messages, the context and the tag are those of the
     * schedule this replaces ({@link BarrierDissemination}, the communicator's next collective sequence number).
     */
    public static void barrierNow(Communicator c, String call) {
        Algorithm a = Tuning.select(Collective.BARRIER, c, 0, true, -1);
        if (a != Algorithm.BARRIER_DISSEMINATION && a != Algorithm.BARRIER_HIERARCHICAL) {
            Schedule s = schedule(c, call);
            barrier(s);
            s.run();
            if (s.error() != 0) {
                throw new MpiError(s.error(), s.errorMessage());
            }
            return;
        }
        int tag = c.nextCollective() & Integer.MAX_VALUE;
        MpiError error;
        if (a == Algorithm.BARRIER_HIERARCHICAL) {
            // the messages of Hierarchical.barrier, every part even after an error (as a schedule goes on), so that
            // peers are not left waiting
            Hosts h = Hosts.of(c);
            int[] local = h.groupOf(c.rank());
            error = disseminate(c, local, tag);
            MpiError later = c.rank() == local[0] ? disseminate(c, h.leaders(0), tag) : null;
            error = error != null ? error : later;
            later = disseminate(c, local, tag);
            error = error != null ? error : later;
        } else {
            error = disseminate(c, null, tag);
        }
        if (error != null) {
            throw new MpiError(error.errorClass(), call + ": " + error.getMessage());
        }
    }

    /**
     * {@link BarrierDissemination}'s messages among {@code members} (comm ranks; null: all), in the calling thread, with
     * requests from the engine's pools; null, or the first error.
     */
    private static MpiError disseminate(Communicator c, int[] members, int tag) {
        JmpiRuntime rt = JmpiRuntime.get();
        Engine engine = rt.engine();
        Progress progress = rt.progress();
        int p = members == null ? c.size() : members.length;
        int r = members == null ? c.rank() : Hosts.indexOf(members, c.rank());
        int me = c.rank();
        int context = c.collectiveContext();
        MpiError error = null;
        for (int k = 1; k < p; k <<= 1) {
            int from = members == null ? (r - k + p) % p : members[(r - k + p) % p];
            int to = members == null ? (r + k) % p : members[(r + k) % p];
            if (engine.sendNow(MessageData.EMPTY, c.worldRank(to), context, me, tag)) {
                // the lane took the send (see Schedule.run): the receive through it too, or the usual way
                if (engine.receiveNow(MessageData.EMPTY, context, c.worldRank(from), from, tag) < 0) {
                    RecvRequest in = engine.irecv(MessageData.EMPTY, context, from, tag);
                    progress.await(in);
                    if (error == null && in.error() != 0) {
                        error = new MpiError(in.error(), in.errorMessage());
                    }
                    engine.release(in);
                }
                continue;
            }
            RecvRequest in = engine.irecv(MessageData.EMPTY, context, from, tag);
            SendRequest out;
            try {
                out = engine.isend(MessageData.EMPTY, c.worldRank(to), context, me, tag, SendMode.STANDARD);
            } catch (MpiError e) {
                // the engine refused the message (a failed peer): the barrier cannot go on, as a schedule's could not
                return e;
            }
            progress.await(in);
            progress.await(out);
            if (error == null && in.error() != 0) {
                error = new MpiError(in.error(), in.errorMessage());
            }
            if (error == null && out.error() != 0) {
                error = new MpiError(out.error(), out.errorMessage());
            }
            engine.release(in);
            engine.release(out);
        }
        return error;
    }

    public static void bcast(Schedule s, MessageData buf, int root) {
        Communicator c = s.comm();
        Algorithm a = Tuning.select(Collective.BCAST, c, buf.bytes(), true, root);
        if (c.size() > 1) {
            bcast(s, a, buf, root);
        }
    }

    /** Builds a bcast by algorithm {@code a} among the ranks the schedule is building for ({@link Schedule#within}). */
    static void bcast(Schedule s, Algorithm a, MessageData buf, int root) {
        switch (a) {
            case BCAST_HIERARCHICAL -> Hierarchical.bcast(s, buf, root);
            case BCAST_SCATTER_ALLGATHER -> BcastScatterAllgather.build(s, buf, root);
            case BCAST_PIPELINE -> BcastPipeline.build(s, buf, root, Tuning.config().bcastSegment());
            default -> BcastBinomial.build(s, buf, root);
        }
    }

    /**
     * @param send this rank's block, or null at the root in place
     * @param recv the root's buffer of {@code size * block} bytes (ignored elsewhere)
     */
    public static void gather(Schedule s, MessageData send, MessageData recv, long block, int root) {
        int p = s.comm().size();
        gather(s, Tuning.select(Collective.GATHER, p, p * block, true), send, recv, block, root);
    }

    /** Builds a gather by algorithm {@code a} among the ranks the schedule is building for. */
    static void gather(Schedule s, Algorithm a, MessageData send, MessageData recv, long block, int root) {
        switch (a) {
            case GATHER_BINOMIAL -> GatherBinomial.build(s, send, recv, block, root);
            default -> GatherLinear.build(s, send, recv, block, root);
        }
    }

    public static void gatherv(Schedule s, MessageData send, MessageData recv, long[] offsets,
            long[] lengths, int root) {
        Communicator c = s.comm();
        Tuning.select(Collective.GATHERV, c.size(), 0, true);
        GathervLinear.build(s, send, recv, offsets, lengths, root);
    }

    /**
     * @param send the root's buffer of {@code size * block} bytes (ignored elsewhere)
     * @param recv this rank's block, or null at the root in place
     */
    public static void scatter(Schedule s, MessageData send, MessageData recv, long block, int root) {
        Communicator c = s.comm();
        int p = c.size();
        switch (Tuning.select(Collective.SCATTER, p, p * block, true)) {
            case SCATTER_BINOMIAL -> ScatterBinomial.build(s, send, recv, block, root);
            default -> ScatterLinear.build(s, send, recv, block, root);
        }
    }

    public static void scatterv(Schedule s, MessageData send, long[] offsets, long[] lengths,
            MessageData recv, int root) {
        Communicator c = s.comm();
        Tuning.select(Collective.SCATTERV, c.size(), 0, true);
        ScattervLinear.build(s, send, offsets, lengths, recv, root);
    }

    /** @param send this rank's block, or null when it already sits in place in {@code recv} */
    public static void allgather(Schedule s, MessageData send, MessageData recv, long block) {
        Communicator c = s.comm();
        Algorithm a = Tuning.select(Collective.ALLGATHER, c, c.size() * block, true, -1);
        if (a == Algorithm.ALLGATHER_HIERARCHICAL && !Hosts.of(c).contiguous) { // forced where it cannot run
            a = Tuning.flat(Collective.ALLGATHER, c.size(), c.size() * block, true);
        }
        switch (a) {
            case ALLGATHER_HIERARCHICAL -> Hierarchical.allgather(s, send, recv, block);
            case ALLGATHER_BRUCK -> AllgatherBruck.build(s, send, recv, block);
            case ALLGATHER_RECURSIVE_DOUBLING -> AllgatherRecursiveDoubling.build(s, send, recv, block);
            default -> AllgatherRing.build(s, send, recv, block);
        }
    }

    public static void allgatherv(Schedule s, MessageData send, MessageData recv, long[] offsets,
            long[] lengths) {
        long total = 0;
        for (long l : lengths) {
            total += l;
        }
        allgatherv(s, Tuning.select(Collective.ALLGATHERV, s.comm().size(), total, true), send, recv, offsets,
                lengths);
    }

    /** Builds an allgatherv by algorithm {@code a} among the ranks the schedule is building for. */
    static void allgatherv(Schedule s, Algorithm a, MessageData send, MessageData recv, long[] offsets,
            long[] lengths) {
        switch (a) {
            case ALLGATHERV_BRUCK -> AllgathervBruck.build(s, send, recv, offsets, lengths);
            default -> AllgathervRing.build(s, send, recv, offsets, lengths);
        }
    }

    public static void alltoall(Schedule s, MessageData send, MessageData recv, long block) {
        Communicator c = s.comm();
        int p = c.size();
        Algorithm a = Tuning.select(Collective.ALLTOALL, p, block, true);
        if (a == Algorithm.ALLTOALL_BRUCK) {
            AlltoallBruck.build(s, send, recv, block);
        } else {
            MessageData[] sb = new MessageData[p];
            MessageData[] rb = new MessageData[p];
            for (int i = 0; i < p; i++) {
                sb[i] = Blocks.slice(send, i * block, block);
                rb[i] = Blocks.slice(recv, i * block, block);
            }
            if (a == Algorithm.ALLTOALL_LINEAR) {
                AlltoallvLinear.build(s, sb, rb);
            } else {
                AlltoallvPairwise.build(s, sb, rb);
            }
        }
    }

    /**
     * All-to-all with a message view per peer (alltoallv and alltoallw).
     *
     * @param w true for alltoallw (selects among its algorithms)
     */
    public static void alltoallv(Schedule s, MessageData[] send, MessageData[] recv, boolean w) {
        Communicator c = s.comm();
        long total = 0;
        for (MessageData d : send) {
            total += d.bytes();
        }
        Algorithm a = Tuning.select(w ? Collective.ALLTOALLW : Collective.ALLTOALLV, c.size(), total, true);
        if (a == Algorithm.ALLTOALLV_PAIRWISE || a == Algorithm.ALLTOALLW_PAIRWISE) {
            AlltoallvPairwise.build(s, send, recv);
        } else {
            AlltoallvLinear.build(s, send, recv);
        }
    }

    /**
     * @param input this rank's data ({@code count} elements)
     * @param output the root's result buffer (null elsewhere); the same message as {@code input} in place
     */
    public static void reduce(Schedule s, MessageData input, MessageData output, int count, Reduction red,
            int root) {
        Communicator c = s.comm();
        Algorithm a = Tuning.select(Collective.REDUCE, c, count * red.bytesPerElement(), red.commutative(), root);
        if (count > 0) {
            ReduceBuffers b = new ReduceBuffers(s, red, count, input, c.rank() == root ? output : null);
            Object result = reduce(s, a, b, root);
            if (c.rank() == root) {
                b.finish(result);
            }
        }
    }

    /**
     * Builds a reduce by algorithm {@code a} among the ranks the schedule is building for; returns the array that
     * holds the result at the root.
     */
    static Object reduce(Schedule s, Algorithm a, ReduceBuffers b, int root) {
        return switch (a) {
            case REDUCE_HIERARCHICAL -> Hierarchical.reduce(s, b, root);
            case REDUCE_RABENSEIFNER -> ReduceRabenseifner.build(s, b, root);
            default -> ReduceBinomial.build(s, b, root);
        };
    }

    public static void allreduce(Schedule s, MessageData input, MessageData output, int count,
            Reduction red) {
        Communicator c = s.comm();
        Algorithm a = Tuning.select(Collective.ALLREDUCE, c, count * red.bytesPerElement(), red.commutative(),
                -1);
        if (count > 0) {
            ReduceBuffers b = new ReduceBuffers(s, red, count, input, output);
            b.finish(allreduce(s, a, b));
        }
    }

    /**
     * Builds an allreduce by algorithm {@code a} among the ranks the schedule is building for; returns the array
     * that holds the result.
     */
    static Object allreduce(Schedule s, Algorithm a, ReduceBuffers b) {
        return switch (a) {
            case ALLREDUCE_HIERARCHICAL -> Hierarchical.allreduce(s, b);
            case ALLREDUCE_RABENSEIFNER -> AllreduceRabenseifner.build(s, b);
            case ALLREDUCE_RING -> AllreduceRing.build(s, b, Tuning.config().allreduceSegment());
            case ALLREDUCE_REDUCE_BCAST -> {
                Object res = ReduceBinomial.build(s, b, 0);
                Object target = s.rank() == 0 ? res : b.resultArray();
                BcastBinomial.build(s, b.all(target), 0);
                yield target;
            }
            default -> AllreduceRecursiveDoubling.build(s, b);
        };
    }

    /**
     * @param input the whole vector ({@code sum(counts)} elements)
     * @param output this rank's block ({@code counts[rank]} elements)
     * @param block true for reduce-scatter-block (selects among its algorithms)
     */
    public static void reduceScatter(Schedule s, MessageData input, MessageData output, int[] counts,
            Reduction red, boolean block) {
        Communicator c = s.comm();
        long total = 0;
        for (int n : counts) {
            total += n;
        }
        if (total > Integer.MAX_VALUE) {
            throw new org.jmpi.runtime.MpiError(org.jmpi.runtime.ErrorClass.ERR_COUNT,
                    "the counts add up to more than 2^31 - 1 elements");
        }
        Algorithm a = Tuning.select(block ? Collective.REDUCE_SCATTER_BLOCK : Collective.REDUCE_SCATTER, c.size(),
                total * red.bytesPerElement(), red.commutative());
        if (total > 0) {
            ReduceBuffers b = new ReduceBuffers(s, red, (int) total, input, output);
            switch (a) {
                case REDUCE_SCATTER_RING, REDUCE_SCATTER_BLOCK_RING -> ReduceScatterRing.build(s, b, counts);
                case REDUCE_SCATTER_RECURSIVE_HALVING, REDUCE_SCATTER_BLOCK_RECURSIVE_HALVING ->
                        ReduceScatterRecursiveHalving.build(s, b, counts);
                default -> reduceThenScatter(s, c, b, counts);
            }
        }
    }

    /** Reduce-scatter as a reduction to rank 0 followed by a linear scatterv: rank order for any operation. */
    private static void reduceThenScatter(Schedule s, Communicator c, ReduceBuffers b, int[] counts) {
        ReduceBuffers whole = new ReduceBuffers(s, b.red, b.count, b.input, null);
        Object result = ReduceBinomial.build(s, whole, 0);
        int p = c.size();
        long[] offsets = new long[p];
        long[] lengths = new long[p];
        long at = 0;
        for (int i = 0; i < p; i++) {
            offsets[i] = at;
            lengths[i] = b.bytes(counts[i]);
            at += lengths[i];
        }
        MessageData all = c.rank() == 0 ? b.all(result) : null;
        ScattervLinear.build(s, all, offsets, lengths, b.output, 0);
    }

    public static void scan(Schedule s, MessageData input, MessageData output, int count, Reduction red) {
        Communicator c = s.comm();
        Algorithm a = Tuning.select(Collective.SCAN, c.size(), count * red.bytesPerElement(), red.commutative());
        if (count > 0) {
            ReduceBuffers b = new ReduceBuffers(s, red, count, input, output);
            Object result = switch (a) {
                case SCAN_LINEAR -> ScanLinear.build(s, b);
                default -> ScanRecursiveDoubling.build(s, b);
            };
            b.finish(result);
        }
    }

    public static void exscan(Schedule s, MessageData input, MessageData output, int count, Reduction red) {
        Communicator c = s.comm();
        Algorithm a = Tuning.select(Collective.EXSCAN, c.size(), count * red.bytesPerElement(), red.commutative());
        if (count > 0) {
            ReduceBuffers b = new ReduceBuffers(s, red, count, input, output);
            Object result = switch (a) {
                case EXSCAN_LINEAR -> ExscanLinear.build(s, b);
                default -> ExscanRecursiveDoubling.build(s, b);
            };
            if (result != null) {
                b.finish(result);
            }
        }
    }

    /**
     * {@code inout = in op inout} on {@code count} elements, in the calling thread: on native memory when
     * {@code inout} is native, else on Java arrays; either operand is copied only when it is not already in that
     * form.
     */
    public static void reduceLocal(MessageData in, MessageData inout, int count, Reduction red) {
        if (count == 0) {
            return;
        }
        long bytes = count * red.bytesPerElement();
        boolean nativeMode = ReduceBuffers.isNative(inout);
        Object a = ReduceBuffers.direct(in, red, count, nativeMode);
        Object b = ReduceBuffers.direct(inout, red, count, nativeMode);
        Object ta = a == null ? temp(red, count, bytes, nativeMode) : null;
        Object tb = b == null ? temp(red, count, bytes, nativeMode) : null;
        try {
            if (ta != null) {
                Blocks.copy(in, 0, view(ta, bytes), 0, bytes);
                a = ta;
            }
            if (tb != null) {
                Blocks.copy(inout, 0, view(tb, bytes), 0, bytes);
                b = tb;
            }
            if (nativeMode) {
                red.applyNative((java.lang.foreign.MemorySegment) a, (java.lang.foreign.MemorySegment) b, 0, count);
            } else {
                red.apply(a, b, 0, count);
            }
            if (tb != null) {
                Blocks.copy(view(tb, bytes), 0, inout, 0, bytes);
            }
        } finally {
            if (ta != null) {
                ArrayPool.give(ta);
            }
            if (tb != null) {
                ArrayPool.give(tb);
            }
        }
    }

    private static Object temp(Reduction red, int count, long bytes, boolean nativeMode) {
        return nativeMode ? ArrayPool.takeNative(bytes)
                : ArrayPool.take(red.arrayType(), count * red.slotsPerElement());
    }

    private static MessageData view(Object buffer, long bytes) {
        return buffer instanceof java.lang.foreign.MemorySegment m ? new MessageData.SegmentData(m.asSlice(0, bytes))
                : Blocks.of(buffer, 0, bytes);
    }
}
