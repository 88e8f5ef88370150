package mpi;

import org.jmpi.coll.Collectives;
import org.jmpi.coll.Schedule;
import org.jmpi.datatype.BooleanPlanData;
import org.jmpi.datatype.BufferView;
import org.jmpi.datatype.MessageData;
import org.jmpi.datatype.PlanData;
import org.jmpi.datatype.TypeDescriptor;
import org.jmpi.op.Reduction;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;

/**
 * The collective operations of {@link Comm} and {@link Intracomm}: argument checks, buffers turned into packed
 * message data, the in-place forms resolved, then a schedule from {@link Collectives}; blocking calls wait for it,
 * non-blocking ones return it as the request. Errors go through the communicator's error handler under the MPI name
 * of the call.
 *
 * <p>Every call on a valid communicator takes a collective sequence number before it checks anything else, so that
 * ranks stay in step even when some of them reject their arguments.
 */
final class CollectiveCalls {
    private CollectiveCalls() {}

    /** Fills the schedule of one collective call, after checking the arguments. */
    @FunctionalInterface
    interface Build {
        void build(Schedule s, Communicator c);
    }

    /** Runs a blocking collective. */
    static void run(Comm comm, String call, Build build) throws MPIException {
        try {
            Communicator c = intra(comm);
            Schedule s = Collectives.schedule(c, call);
            build.build(s, c);
            s.run();
            if (s.error() != 0) {
                throw new MpiError(s.error(), s.errorMessage());
            }
        } catch (MpiError e) {
            throw comm.fail(call, e);
        }
    }

    /** Starts and waits for a schedule filled by the caller, raising its first error. */
    private static void runSchedule(Schedule s) {
        s.run();
        if (s.error() != 0) {
            throw new MpiError(s.error(), s.errorMessage());
        }
    }

    // ------------------------------------------------------------------ blocking calls without a schedule

    /*
     * Bcast, reduce, allreduce, gather, scatter and allgather check their arguments in one method each, which serves
     * both forms. The blocking call takes its sequence number first and passes no schedule: the method then runs the
     * call without one when org.jmpi.coll.Immediate applies (small data, tree and recursive-doubling algorithms),
     * else builds the schedule with that sequence number and waits for it. No lambda or schedule per call: these are
     * the calls programs make in tight loops. The non-blocking call passes its schedule, which the method fills.
     */

    static void bcastBlocking(Comm comm, Object buf, int count, Datatype type, int root) throws MPIException {
        org.jmpi.runtime.events.CollectiveEvent ev = Jfr.coll();
        try {
            Communicator c = intra(comm);
            bcastCall(c, c.nextCollective(), null, buf, count, type, root);
            Jfr.coll(ev, "MPI_Bcast", comm, root, count, type);
        } catch (MpiError e) {
            throw comm.fail("MPI_Bcast", e);
        }
    }

    private static void bcastCall(Communicator c, int seq, Schedule s, Object buf, int count, Datatype type,
            int root) {
        checkRoot(c, root);
        MessageData data = view(buf, count, type, c.rank() != root);
        if (s != null) {
            Collectives.bcast(s, data, root);
        } else if (!org.jmpi.coll.Immediate.bcast(c, seq, data, root, "MPI_Bcast")) {
            Schedule own = Collectives.schedule(c, "MPI_Bcast", seq);
            Collectives.bcast(own, data, root);
            runSchedule(own);
        }
    }

    static void reduceBlocking(Comm comm, Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root,
            boolean inPlace) throws MPIException {
        org.jmpi.runtime.events.CollectiveEvent ev = Jfr.coll();
        try {
            Communicator c = intra(comm);
            reduceCall(c, c.nextCollective(), null, sendbuf, recvbuf, count, type, op, root, inPlace);
            Jfr.coll(ev, "MPI_Reduce", comm, root, count, type);
        } catch (MpiError e) {
            throw comm.fail("MPI_Reduce", e);
        }
    }

    /** reduce; {@code sendbuf == null && inPlace}: reduce(buf, ...), buf in {@code recvbuf}. */
    private static void reduceCall(Communicator c, int seq, Schedule s, Object sendbuf, Object recvbuf, int count,
            Datatype type, Op op, int root, boolean inPlace) {
        checkRoot(c, root);
        Reduction red = reduction(op, type);
        checkCount(count);
        boolean isRoot = c.rank() == root;
        MessageData input;
        MessageData output = null;
        if (inPlace) {
            input = view(recvbuf, count, type, isRoot);
            output = isRoot ? input : null;
        } else {
            input = view(sendbuf, count, type, false);
            if (isRoot) {
                noAlias(sendbuf, recvbuf);
                output = view(recvbuf, count, type, true);
            }
        }
        if (s != null) {
            Collectives.reduce(s, input, output, count, red, root);
        } else if (!org.jmpi.coll.Immediate.reduce(c, seq, input, output, count, red, root, "MPI_Reduce")) {
            Schedule own = Collectives.schedule(c, "MPI_Reduce", seq);
            Collectives.reduce(own, input, output, count, red, root);
            runSchedule(own);
        }
    }

    static void allReduceBlocking(Comm comm, Object sendbuf, Object recvbuf, int count, Datatype type, Op op,
            boolean inPlace) throws MPIException {
        org.jmpi.runtime.events.CollectiveEvent ev = Jfr.coll();
        try {
            Communicator c = intra(comm);
            allReduceCall(c, c.nextCollective(), null, sendbuf, recvbuf, count, type, op, inPlace);
            Jfr.coll(ev, "MPI_Allreduce", comm, -1, count, type);
        } catch (MpiError e) {
            throw comm.fail("MPI_Allreduce", e);
        }
    }

    private static void allReduceCall(Communicator c, int seq, Schedule s, Object sendbuf, Object recvbuf, int count,
            Datatype type, Op op, boolean inPlace) {
        Reduction red = reduction(op, type);
        checkCount(count);
        MessageData output = view(recvbuf, count, type, true);
        MessageData input = output;
        if (!inPlace) {
            noAlias(sendbuf, recvbuf);
            input = view(sendbuf, count, type, false);
        }
        if (s != null) {
            Collectives.allreduce(s, input, output, count, red);
        } else if (!org.jmpi.coll.Immediate.allreduce(c, seq, input, output, count, red, "MPI_Allreduce")) {
            Schedule own = Collectives.schedule(c, "MPI_Allreduce", seq);
            Collectives.allreduce(own, input, output, count, red);
            runSchedule(own);
        }
    }

    static void gatherBlocking(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
            int recvcount, Datatype recvtype, int root, boolean inPlace) throws MPIException {
        org.jmpi.runtime.events.CollectiveEvent ev = Jfr.coll();
        try {
            Communicator c = intra(comm);
            gatherCall(c, c.nextCollective(), null, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                    inPlace);
            Jfr.coll(ev, "MPI_Gather", comm, root, sendcount, sendtype);
        } catch (MpiError e) {
            throw comm.fail("MPI_Gather", e);
        }
    }

    /** gather; {@code inPlace}: gather(buf, count, type, root), buf in {@code recvbuf}. */
    private static void gatherCall(Communicator c, int seq, Schedule s, Object sendbuf, int sendcount,
            Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype, int root, boolean inPlace) {
        checkRoot(c, root);
        boolean isRoot = c.rank() == root;
        int p = c.size();
        MessageData send;
        MessageData recv = null;
        long block;
        if (inPlace) {
            // gather(buf, count, type, root): the root gathers in place, the others send buf
            recv = isRoot ? view(recvbuf, (long) p * recvcount, recvtype, true) : null;
            send = isRoot ? null : view(recvbuf, recvcount, recvtype, false);
            block = blockBytes(recvcount, recvtype);
        } else {
            send = view(sendbuf, sendcount, sendtype, false);
            if (isRoot) {
                noAlias(sendbuf, recvbuf);
                recv = view(recvbuf, (long) p * recvcount, recvtype, true);
                block = blockBytes(recvcount, recvtype);
            } else {
                block = blockBytes(sendcount, sendtype);
            }
        }
        if (s != null) {
            Collectives.gather(s, send, recv, block, root);
        } else if (!org.jmpi.coll.Immediate.gather(c, seq, send, recv, block, root, "MPI_Gather")) {
            Schedule own = Collectives.schedule(c, "MPI_Gather", seq);
            Collectives.gather(own, send, recv, block, root);
            runSchedule(own);
        }
    }

    static void scatterBlocking(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
            int recvcount, Datatype recvtype, int root, boolean inPlace) throws MPIException {
        org.jmpi.runtime.events.CollectiveEvent ev = Jfr.coll();
        try {
            Communicator c = intra(comm);
            scatterCall(c, c.nextCollective(), null, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                    inPlace);
            Jfr.coll(ev, "MPI_Scatter", comm, root, recvcount, recvtype);
        } catch (MpiError e) {
            throw comm.fail("MPI_Scatter", e);
        }
    }

    /** scatter; {@code inPlace}: scatter(buf, count, type, root), buf in {@code sendbuf}. */
    private static void scatterCall(Communicator c, int seq, Schedule s, Object sendbuf, int sendcount,
            Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype, int root, boolean inPlace) {
        checkRoot(c, root);
        boolean isRoot = c.rank() == root;
        int p = c.size();
        MessageData send = null;
        MessageData recv;
        long block;
        if (inPlace) {
            send = isRoot ? view(sendbuf, (long) p * sendcount, sendtype, false) : null;
            recv = isRoot ? null : view(sendbuf, sendcount, sendtype, true);
            block = blockBytes(sendcount, sendtype);
        } else {
            recv = view(recvbuf, recvcount, recvtype, true);
            if (isRoot) {
                noAlias(sendbuf, recvbuf);
                send = view(sendbuf, (long) p * sendcount, sendtype, false);
                block = blockBytes(sendcount, sendtype);
            } else {
                block = blockBytes(recvcount, recvtype);
            }
        }
        if (s != null) {
            Collectives.scatter(s, send, recv, block, root);
        } else if (!org.jmpi.coll.Immediate.scatter(c, seq, send, recv, block, root, "MPI_Scatter")) {
            Schedule own = Collectives.schedule(c, "MPI_Scatter", seq);
            Collectives.scatter(own, send, recv, block, root);
            runSchedule(own);
        }
    }

    static void allGatherBlocking(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
            int recvcount, Datatype recvtype, boolean inPlace) throws MPIException {
        org.jmpi.runtime.events.CollectiveEvent ev = Jfr.coll();
        try {
            Communicator c = intra(comm);
            allGatherCall(c, c.nextCollective(), null, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                    inPlace);
            Jfr.coll(ev, "MPI_Allgather", comm, -1, sendcount, sendtype);
        } catch (MpiError e) {
            throw comm.fail("MPI_Allgather", e);
        }
    }

    private static void allGatherCall(Communicator c, int seq, Schedule s, Object sendbuf, int sendcount,
            Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype, boolean inPlace) {
        MessageData send = null;
        if (!inPlace) {
            noAlias(sendbuf, recvbuf);
            send = view(sendbuf, sendcount, sendtype, false);
        }
        MessageData recv = view(recvbuf, (long) c.size() * recvcount, recvtype, true);
        long block = blockBytes(recvcount, recvtype);
        if (s != null) {
            Collectives.allgather(s, send, recv, block);
        } else if (!org.jmpi.coll.Immediate.allgather(c, seq, send, recv, block, "MPI_Allgather")) {
            Schedule own = Collectives.schedule(c, "MPI_Allgather", seq);
            Collectives.allgather(own, send, recv, block);
            runSchedule(own);
        }
    }

    /** Starts a non-blocking collective; its request completes with the schedule. */
    static Request begin(Comm comm, String call, Build build) throws MPIException {
        try {
            Communicator c = intra(comm);
            Schedule s = Collectives.schedule(c, call);
            build.build(s, c);
            return Request.of(comm, s.start(), call);
        } catch (MpiError e) {
            throw comm.fail(call, e);
        }
    }

    /**
     * A persistent collective (MPI 4.0): the schedule is built now, with this call's collective sequence number as
     * its tag, and started by each {@link Prequest#start()}.
     */
    static Prequest persistent(Comm comm, String call, Build build) throws MPIException {
        try {
            // an intercommunicator's forms are built by Comm.interInit; its in-place ones fail here
            Communicator c = intra(comm);
            Schedule s = Collectives.schedule(c, call);
            build.build(s, c);
            return new Prequest(comm, call, s.persistent());
        } catch (MpiError e) {
            throw comm.fail(call, e);
        }
    }

    private static Communicator intra(Comm comm) {
        Communicator c = comm.live();
        if (comm instanceof Intercomm) {
            throw new MpiError(ErrorClass.ERR_UNSUPPORTED_OPERATION,
                    "the in-place forms of the collectives do not apply to intercommunicators");
        }
        return c;
    }

    // ------------------------------------------------------------------ checks and views

    static void checkRoot(Communicator c, int root) {
        if (root < 0 || root >= c.size()) {
            throw new MpiError(ErrorClass.ERR_ROOT, "invalid root " + root + " (communicator of size " + c.size()
                    + ")");
        }
    }

    /** {@code count} elements of {@code type} in {@code buf}, checked. */
    static MessageData view(Object buf, long count, Datatype type, boolean forReceive) {
        Comm.checkType(type);
        if (count < 0) {
            throw new MpiError(ErrorClass.ERR_COUNT, "negative count " + count);
        }
        if (count > Integer.MAX_VALUE) {
            throw new MpiError(ErrorClass.ERR_COUNT, "a count of " + count + " elements is more than 2^31 - 1");
        }
        return BufferView.of(buf, (int) count, type.desc, forReceive);
    }

    static void checkCount(int count) {
        if (count < 0) {
            throw new MpiError(ErrorClass.ERR_COUNT, "negative count " + count);
        }
    }

    /** The send and receive buffers of a call that is not in place must differ. */
    static void noAlias(Object send, Object recv) {
        if (send != null && send == recv) {
            throw new MpiError(ErrorClass.ERR_BUFFER,
                    "the send and receive buffers are the same object; use the in-place form of the call");
        }
    }

    static int[] checkCounts(int[] counts, int p, String what) {
        if (counts == null) {
            throw new MpiError(ErrorClass.ERR_ARG, "null " + what + " array");
        }
        if (counts.length < p) {
            throw new MpiError(ErrorClass.ERR_ARG, what + " has " + counts.length + " entries for a communicator of "
                    + "size " + p);
        }
        for (int i = 0; i < p; i++) {
            if (counts[i] < 0) {
                throw new MpiError(ErrorClass.ERR_COUNT, "negative count " + counts[i] + " in " + what + "[" + i
                        + "]");
            }
        }
        return counts;
    }

    /**
     * Blocks of {@code counts[i]} elements at element displacements {@code displs[i]} of {@code buf}: the whole
     * buffer as message data, with each block's packed offset and length filled in.
     */
    static MessageData blocks(Object buf, int[] counts, int[] displs, Datatype type, boolean forReceive, int p,
            long[] offsets, long[] lengths) {
        Comm.checkType(type);
        checkCounts(counts, p, forReceive ? "recvcount" : "sendcount");
        if (displs == null || displs.length < p) {
            throw new MpiError(ErrorClass.ERR_ARG, (displs == null ? "null displacement array"
                    : "the displacement array has " + displs.length + " entries for a communicator of size " + p));
        }
        long end = 0;
        for (int i = 0; i < p; i++) {
            if (counts[i] > 0) {
                if (displs[i] < 0) {
                    throw new MpiError(ErrorClass.ERR_BUFFER, "displacement " + displs[i] + " of block " + i
                            + " lies before the start of the buffer");
                }
                end = Math.max(end, (long) displs[i] + counts[i]);
            }
        }
        MessageData whole = view(buf, end, type, forReceive);
        long size = type.desc.size();
        for (int i = 0; i < p; i++) {
            offsets[i] = counts[i] > 0 ? displs[i] * size : 0;
            lengths[i] = counts[i] * size;
        }
        return whole;
    }

    static long blockBytes(int count, Datatype type) {
        return count * type.desc.size();
    }

    static Reduction reduction(Op op, Datatype type) {
        Comm.checkType(type);
        if (op == null) {
            throw new MpiError(ErrorClass.ERR_OP, "null operation");
        }
        return op.reduction(type, false);
    }

    static MessageData slice(MessageData d, long offset, long length) {
        return org.jmpi.coll.Blocks.slice(d, offset, length);
    }

    // ------------------------------------------------------------------ alltoallw views

    /**
     * Per-peer views of {@code buf} for alltoallw: block {@code i} is {@code counts[i]} elements of
     * {@code types[i]} at byte displacement {@code displs[i]} (bytes, as in C).
     */
    static MessageData[] byteBlocks(Object buf, int[] counts, int[] displs, Datatype[] types, boolean forReceive,
            int p) {
        String what = forReceive ? "recv" : "send";
        checkCounts(counts, p, what + "Count");
        if (displs == null || displs.length < p) {
            throw new MpiError(ErrorClass.ERR_ARG, "the " + what + " displacement array is null or shorter than the "
                    + "communicator (" + p + ")");
        }
        if (types == null || types.length < p) {
            throw new MpiError(ErrorClass.ERR_ARG, "the " + what + " datatype array is null or shorter than the "
                    + "communicator (" + p + ")");
        }
        long end = 0;
        boolean any = false;
        for (int i = 0; i < p; i++) {
            Comm.checkType(types[i]);
            if (counts[i] == 0 || types[i].desc.size() == 0) {
                continue;
            }
            long[] span = types[i].desc.span(counts[i]);
            if (displs[i] + span[0] < 0) {
                throw new MpiError(ErrorClass.ERR_BUFFER, "block " + i + " at byte displacement " + displs[i]
                        + " starts before the buffer");
            }
            end = Math.max(end, displs[i] + span[1]);
            any = true;
        }
        MessageData[] views = new MessageData[p];
        if (!any) {
            java.util.Arrays.fill(views, MessageData.EMPTY);
            if (buf != null) {
                view(buf, 0, types[0], forReceive);
            }
            return views;
        }
        // the buffer is raw memory: its bytes up to the end of the last block, whatever the datatypes
        MessageData whole = view(buf, end, MPI.BYTE, forReceive);
        for (int i = 0; i < p; i++) {
            TypeDescriptor d = types[i].desc;
            if (counts[i] == 0 || d.size() == 0) {
                views[i] = MessageData.EMPTY;
            } else if (buf instanceof boolean[] a) { // any layout; the whole view checked the bounds
                views[i] = new BooleanPlanData(a, displs[i], d, counts[i]);
            } else {
                java.lang.foreign.MemorySegment seg = whole.contiguous();
                if (seg == null) {
                    throw new MpiError(ErrorClass.ERR_UNSUPPORTED_OPERATION,
                            "alltoallw over this kind of buffer is not supported");
                }
                if (d.isContiguous()) {
                    views[i] = new MessageData.SegmentData(seg.asSlice(displs[i] + d.lb(), counts[i] * d.size()));
                } else {
                    views[i] = new PlanData(seg, displs[i], d, counts[i]);
                }
            }
        }
        return views;
    }

    // ------------------------------------------------------------------ the calls


    static void barrier(Comm comm) throws MPIException {
        org.jmpi.runtime.events.CollectiveEvent ev = Jfr.coll();
        try {
            Collectives.barrierNow(intra(comm), "MPI_Barrier");
            Jfr.coll(ev, "MPI_Barrier", comm, -1, -1, null);
        } catch (MpiError e) {
            throw comm.fail("MPI_Barrier", e);
        }
    }

    static Request iBarrier(Comm comm) throws MPIException {
        return begin(comm, "MPI_Ibarrier", (s, c) -> Collectives.barrier(s));
    }

    static Build bcast(Object buf, int count, Datatype type, int root) {
        return (s, c) -> bcastCall(c, 0, s, buf, count, type, root);
    }

    /** gather; {@code inPlace}: gather(buf, count, type, root), buf in {@code recvbuf}. */
    static Build gather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
            Datatype recvtype, int root, boolean inPlace) {
        return (s, c) -> gatherCall(c, 0, s, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                inPlace);
    }

    /**
     * gatherv. {@code form}: 0 the full form, 1 the root's in-place form (no send buffer), 2 the non-root form (no
     * receive arguments).
     */
    static Build gatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
            int[] displs, Datatype recvtype, int root, int form) {
        return (s, c) -> {
            checkRoot(c, root);
            boolean isRoot = c.rank() == root;
            if (form == 1 && !isRoot) {
                throw new MpiError(ErrorClass.ERR_ROOT, "gatherv(recvbuf, recvcount, displs, recvtype, root) is the "
                        + "root's in-place form, but this rank (" + c.rank() + ") is not the root " + root);
            }
            if (form == 2 && isRoot) {
                throw new MpiError(ErrorClass.ERR_ROOT, "gatherv(sendbuf, sendcount, sendtype, root) is the form "
                        + "for ranks other than the root; the root " + root + " calls one with receive arguments");
            }
            MessageData send = form == 1 ? null : view(sendbuf, sendcount, sendtype, false);
            if (!isRoot) {
                Collectives.gatherv(s, send, null, null, null, root);
                return;
            }
            if (form == 0) {
                noAlias(sendbuf, recvbuf);
            }
            int p = c.size();
            long[] offsets = new long[p];
            long[] lengths = new long[p];
            MessageData recv = blocks(recvbuf, recvcount, displs, recvtype, true, p, offsets, lengths);
            Collectives.gatherv(s, send, recv, offsets, lengths, root);
        };
    }

    /** scatter; {@code inPlace} is the form scatter(buf, count, type, root), with buf in {@code sendbuf}. */
    static Build scatter(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
            Datatype recvtype, int root, boolean inPlace) {
        return (s, c) -> scatterCall(c, 0, s, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                inPlace);
    }

    /**
     * scatterv. {@code form}: 0 the full form, 1 the root's in-place form (no receive buffer), 2 the non-root form
     * (no send arguments).
     */
    static Build scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Object recvbuf,
            int recvcount, Datatype recvtype, int root, int form) {
        return (s, c) -> {
            checkRoot(c, root);
            boolean isRoot = c.rank() == root;
            if (form == 1 && !isRoot) {
                throw new MpiError(ErrorClass.ERR_ROOT, "scatterv(sendbuf, sendcount, displs, sendtype, root) is the "
                        + "root's in-place form, but this rank (" + c.rank() + ") is not the root " + root);
            }
            if (form == 2 && isRoot) {
                throw new MpiError(ErrorClass.ERR_ROOT, "scatterv(recvbuf, recvcount, recvtype, root) is the form "
                        + "for ranks other than the root; the root " + root + " calls one with send arguments");
            }
            MessageData recv = form == 1 ? null : view(recvbuf, recvcount, recvtype, true);
            if (!isRoot) {
                Collectives.scatterv(s, null, null, null, recv, root);
                return;
            }
            if (form == 0) {
                noAlias(sendbuf, recvbuf);
            }
            int p = c.size();
            long[] offsets = new long[p];
            long[] lengths = new long[p];
            MessageData send = blocks(sendbuf, sendcount, displs, sendtype, false, p, offsets, lengths);
            Collectives.scatterv(s, send, offsets, lengths, recv, root);
        };
    }

    /** allGather; {@code inPlace} is the form allGather(buf, count, type). */
    static Build allGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
            Datatype recvtype, boolean inPlace) {
        return (s, c) -> allGatherCall(c, 0, s, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, inPlace);
    }

    static Build allGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
            int[] displs, Datatype recvtype, boolean inPlace) {
        return (s, c) -> {
            MessageData send = null;
            if (!inPlace) {
                noAlias(sendbuf, recvbuf);
                send = view(sendbuf, sendcount, sendtype, false);
            }
            int p = c.size();
            long[] offsets = new long[p];
            long[] lengths = new long[p];
            MessageData recv = blocks(recvbuf, recvcount, displs, recvtype, true, p, offsets, lengths);
            Collectives.allgatherv(s, send, recv, offsets, lengths);
        };
    }

    static Build allToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
            Datatype recvtype) {
        return (s, c) -> allToAllCall(c, 0, s, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
    }

    static void allToAllBlocking(Comm comm, Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf,
            int recvcount, Datatype recvtype) throws MPIException {
        org.jmpi.runtime.events.CollectiveEvent ev = Jfr.coll();
        try {
            Communicator c = intra(comm);
            allToAllCall(c, c.nextCollective(), null, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
            Jfr.coll(ev, "MPI_Alltoall", comm, -1, sendcount, sendtype);
        } catch (MpiError e) {
            throw comm.fail("MPI_Alltoall", e);
        }
    }

    private static void allToAllCall(Communicator c, int seq, Schedule s, Object sendbuf, int sendcount,
            Datatype sendtype, Object recvbuf, int recvcount, Datatype recvtype) {
        noAlias(sendbuf, recvbuf);
        int p = c.size();
        MessageData send = view(sendbuf, (long) p * sendcount, sendtype, false);
        MessageData recv = view(recvbuf, (long) p * recvcount, recvtype, true);
        long block = blockBytes(recvcount, recvtype);
        if (blockBytes(sendcount, sendtype) != block) {
            throw new MpiError(ErrorClass.ERR_TRUNCATE, "alltoall blocks of " + blockBytes(sendcount, sendtype)
                    + " bytes sent but " + block + " bytes received");
        }
        if (s != null) {
            Collectives.alltoall(s, send, recv, block);
        } else if (!org.jmpi.coll.Immediate.alltoall(c, seq, send, recv, block, "MPI_Alltoall")) {
            Schedule own = Collectives.schedule(c, "MPI_Alltoall", seq);
            Collectives.alltoall(own, send, recv, block);
            runSchedule(own);
        }
    }

    static Build allToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Object recvbuf,
            int[] recvcount, int[] rdispls, Datatype recvtype) {
        return (s, c) -> {
            noAlias(sendbuf, recvbuf);
            int p = c.size();
            long[] so = new long[p];
            long[] sl = new long[p];
            long[] ro = new long[p];
            long[] rl = new long[p];
            MessageData send = blocks(sendbuf, sendcount, sdispls, sendtype, false, p, so, sl);
            MessageData recv = blocks(recvbuf, recvcount, rdispls, recvtype, true, p, ro, rl);
            MessageData[] sb = new MessageData[p];
            MessageData[] rb = new MessageData[p];
            for (int i = 0; i < p; i++) {
                sb[i] = slice(send, so[i], sl[i]);
                rb[i] = slice(recv, ro[i], rl[i]);
            }
            Collectives.alltoallv(s, sb, rb, false);
        };
    }

    static Build allToAllw(Object sendbuf, int[] sendcount, int[] sdispls, Datatype[] sendtypes, Object recvbuf,
            int[] recvcount, int[] rdispls, Datatype[] recvtypes) {
        return (s, c) -> {
            noAlias(sendbuf, recvbuf);
            int p = c.size();
            MessageData[] sb = byteBlocks(sendbuf, sendcount, sdispls, sendtypes, false, p);
            MessageData[] rb = byteBlocks(recvbuf, recvcount, rdispls, recvtypes, true, p);
            Collectives.alltoallv(s, sb, rb, true);
        };
    }

    /** reduce; {@code sendbuf == null && inPlace}: reduce(buf, ...), buf in {@code recvbuf}. */
    static Build reduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root, boolean inPlace) {
        return (s, c) -> reduceCall(c, 0, s, sendbuf, recvbuf, count, type, op, root, inPlace);
    }

    static Build allReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, boolean inPlace) {
        return (s, c) -> allReduceCall(c, 0, s, sendbuf, recvbuf, count, type, op, inPlace);
    }

    static Build reduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op,
            boolean inPlace) {
        return (s, c) -> {
            Reduction red = reduction(op, type);
            int p = c.size();
            checkCounts(recvcounts, p, "recvcounts");
            long total = 0;
            for (int i = 0; i < p; i++) {
                total += recvcounts[i];
            }
            int[] counts = java.util.Arrays.copyOf(recvcounts, p);
            reduceScatter(s, c, sendbuf, recvbuf, total, counts, type, red, inPlace, false);
        };
    }

    static Build reduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op,
            boolean inPlace) {
        return (s, c) -> {
            Reduction red = reduction(op, type);
            checkCount(recvcount);
            int p = c.size();
            int[] counts = new int[p];
            java.util.Arrays.fill(counts, recvcount);
            reduceScatter(s, c, sendbuf, recvbuf, (long) p * recvcount, counts, type, red, inPlace, true);
        };
    }

    private static void reduceScatter(Schedule s, Communicator c, Object sendbuf, Object recvbuf, long total,
            int[] counts, Datatype type, Reduction red, boolean inPlace, boolean block) {
        int mine = counts[c.rank()];
        MessageData input;
        MessageData output;
        if (inPlace) {
            input = view(recvbuf, total, type, true);
            output = slice(input, 0, blockBytes(mine, type));
        } else {
            noAlias(sendbuf, recvbuf);
            input = view(sendbuf, total, type, false);
            output = view(recvbuf, mine, type, true);
        }
        Collectives.reduceScatter(s, input, output, counts, red, block);
    }

    /** scan and exscan. */
    static Build scan(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, boolean inPlace,
            boolean exclusive) {
        return (s, c) -> {
            Reduction red = reduction(op, type);
            checkCount(count);
            MessageData output = view(recvbuf, count, type, true);
            MessageData input = output;
            if (!inPlace) {
                noAlias(sendbuf, recvbuf);
                input = view(sendbuf, count, type, false);
            }
            if (exclusive) {
                Collectives.exscan(s, input, output, count, red);
            } else {
                Collectives.scan(s, input, output, count, red);
            }
        };
    }

    static void reduceLocal(Object inBuf, Object inOutBuf, int count, Datatype type, Op op) throws MPIException {
        try {
            org.jmpi.runtime.JmpiRuntime.get();
            Reduction red = reduction(op, type);
            checkCount(count);
            noAlias(inBuf, inOutBuf);
            MessageData in = view(inBuf, count, type, false);
            MessageData inout = view(inOutBuf, count, type, true);
            Collectives.reduceLocal(in, inout, count, red);
        } catch (MpiError e) {
            throw Errors.raise("MPI_Reduce_local", e);
        }
    }
}
