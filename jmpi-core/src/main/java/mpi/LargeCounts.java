package mpi;

import java.lang.foreign.MemorySegment;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;

/**
 * MPI 4.0's large-count collectives ({@code MPI_Bcast_c}, {@code MPI_Reduce_c}, {@code MPI_Allreduce_c}) on memory
 * segments. A count up to 2^31 - 1 is the usual call. A larger one is a sequence of usual calls over consecutive slices
 * of the segments, at most {@link #PIECE_BYTES} of extent each, the same sequence on every rank: each element is
 * broadcast or reduced on its own, so the pieces give the result the whole would. Every rank must then pass the same
 * datatype (the standard also allows type maps that match only as a whole), and the datatype's lower bound must not be
 * negative (a piece starts at its first element).
 *
 * <p>Threading: stateless.
 */
final class LargeCounts {
    private LargeCounts() {}

    /** Most extent one piece of a large-count collective covers. */
    static final long PIECE_BYTES = 1L << 28;

    /** One usual call over the buffers, or slices of the segments (either may be null). */
    interface Piece {
        void run(Object a, Object b, int count) throws MPIException;
    }

    /**
     * Runs {@code piece} over the whole count: once when it fits an {@code int} (any buffers), else piece by piece
     * over memory segments.
     */
    static void run(Comm comm, String call, Datatype type, long count, Object a, Object b, Piece piece)
            throws MPIException {
        if (count <= Integer.MAX_VALUE) {
            piece.run(a, b, (int) count); // the usual call raises a negative count's error
            return;
        }
        if (!(a == null || a instanceof MemorySegment) || !(b == null || b instanceof MemorySegment)) {
            throw comm.fail(call, new MpiError(ErrorClass.ERR_BUFFER, "a count of " + count
                    + " (above 2^31 - 1) needs memory segments"));
        }
        if (type == null || type.isNull()) {
            throw comm.fail(call, new MpiError(ErrorClass.ERR_TYPE, "invalid datatype"));
        }
        long extent = Math.max(1, type.desc.extent());
        long per = Math.max(1, Math.min(Integer.MAX_VALUE, PIECE_BYTES / extent));
        for (long done = 0; done < count; ) {
            int n = (int) Math.min(per, count - done);
            long offset = done * extent;
            piece.run(slice((MemorySegment) a, offset), slice((MemorySegment) b, offset), n);
            done += n;
        }
    }

    /** {@code s} from {@code offset} on (empty past its end, so that the usual call reports the short buffer). */
    private static MemorySegment slice(MemorySegment s, long offset) {
        return s == null ? null : s.asSlice(Math.min(offset, s.byteSize()));
    }
}
