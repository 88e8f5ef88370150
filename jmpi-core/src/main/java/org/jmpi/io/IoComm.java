package org.jmpi.io;

import java.lang.foreign.MemorySegment;
import org.jmpi.coll.Collectives;
import org.jmpi.coll.Schedule;
import org.jmpi.datatype.MessageData;
import org.jmpi.pt2pt.SendMode;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;
import org.jmpi.runtime.RequestImpl;

/**
 * The messages of MPI-IO, on the private duplicate of the communicator a file was opened on: small blocking
 * collectives (agreement on arguments, file sizes, shared pointer bases) through {@link Collectives}, and the
 * point-to-point traffic of two-phase I/O through the engine on the duplicate's point-to-point context, which no
 * user call can reach.
 *
 * <p>Threading: collective calls on one file are made in the same order by every rank (the facade runs them in
 * the caller or, for non-blocking ones, in the file's worker in start order); tags come from the communicator's
 * collective sequence, so two operations never match each other's messages.
 */
final class IoComm {
    final Communicator comm;

    IoComm(Communicator comm) {
        this.comm = comm;
        comm.markCollectiveOnly(); // ULFM: a failed member fails the two-phase traffic too, not only the collectives
    }

    int rank() {
        return comm.rank();
    }

    int size() {
        return comm.size();
    }

    /** A tag for the point-to-point messages of one collective operation (same at every rank). */
    int nextTag() {
        return comm.nextCollective() & 0x3fff_ffff;
    }

    /** Every rank's {@code mine} (all of the same length), rank after rank. */
    long[] allgather(long... mine) {
        long[] all = new long[mine.length * size()];
        Schedule s = Collectives.schedule(comm, "MPI-IO agreement");
        Collectives.allgather(s, data(mine), data(all), 8L * mine.length);
        run(s);
        return all;
    }

    /** Root's {@code buf} everywhere. */
    void bcast(long[] buf, int root) {
        Schedule s = Collectives.schedule(comm, "MPI-IO broadcast");
        Collectives.bcast(s, data(buf), root);
        run(s);
    }

    void bcast(byte[] buf, int root) {
        Schedule s = Collectives.schedule(comm, "MPI-IO broadcast");
        Collectives.bcast(s, buf.length == 0 ? MessageData.EMPTY
                : new MessageData.SegmentData(MemorySegment.ofArray(buf)), root);
        run(s);
    }

    /** Block {@code i} of {@code send} to rank {@code i}; {@code recv[j]} from rank {@code j}. */
    long[] alltoall(long[] send) {
        long[] recv = new long[send.length];
        Schedule s = Collectives.schedule(comm, "MPI-IO exchange");
        Collectives.alltoall(s, data(send), data(recv), 8L * (send.length / size()));
        run(s);
        return recv;
    }

    void barrier() {
        Schedule s = Collectives.schedule(comm, "MPI-IO barrier");
        Collectives.barrier(s);
        run(s);
    }

    RequestImpl isend(MessageData data, int dest, int tag) {
        return JmpiRuntime.get().engine().isend(data, comm.worldRank(dest), comm.context(), comm.rank(), tag,
                SendMode.STANDARD);
    }

    RequestImpl irecv(MessageData data, int source, int tag) {
        return JmpiRuntime.get().engine().irecv(data, comm.context(), source, tag);
    }

    /** Waits for {@code r} and raises its error. */
    static void await(RequestImpl r) {
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

    static MessageData data(long[] a) {
        return a.length == 0 ? MessageData.EMPTY : new MessageData.SegmentData(MemorySegment.ofArray(a));
    }
}
