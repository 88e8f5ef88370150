package mpi;

import java.lang.foreign.MemorySegment;
import org.jmpi.datatype.BufferView;
import org.jmpi.datatype.MessageData;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;

/**
 * {@code MPI_Pack}, {@code MPI_Unpack} and {@code MPI_Pack_size} behind {@link Comm#pack}, {@link Comm#unpack} and
 * {@link Comm#packSize}. The packed format is the packed stream every message uses (the datatype's data bytes in
 * type-map order, native byte order, no header), so a packed buffer can be sent as {@link MPI#PACKED} or
 * {@link MPI#BYTE} and received with the original datatype, and the other way round. The size of {@code count}
 * elements packed is exactly {@code count * size}.
 *
 * <p>Threading: stateless.
 */
final class Packing {
    private Packing() {}

    /** Packs {@code incount} elements of {@code type} from {@code inbuf} into {@code outbuf} at {@code position}. */
    static int pack(Object inbuf, int incount, Datatype type, byte[] outbuf, int position) {
        Comm.checkCount(incount);
        Comm.checkType(type);
        MessageData data = BufferView.of(inbuf, incount, type.desc, false);
        long n = data.bytes();
        checkPacked(outbuf, position, n, "output");
        if (n > 0) {
            data.packTo(0, MemorySegment.ofArray(outbuf), position, n);
        }
        return position + (int) n;
    }

    /** Unpacks {@code outcount} elements of {@code type} from {@code inbuf} at {@code position} into {@code outbuf}. */
    static int unpack(byte[] inbuf, int position, Object outbuf, int outcount, Datatype type) {
        Comm.checkCount(outcount);
        Comm.checkType(type);
        MessageData data = BufferView.of(outbuf, outcount, type.desc, true);
        long n = data.bytes();
        checkPacked(inbuf, position, n, "input");
        if (n > 0) {
            data.unpackFrom(0, MemorySegment.ofArray(inbuf), position, n);
        }
        return position + (int) n;
    }

    /** The bytes {@link #pack} needs for {@code incount} elements of {@code type}. */
    static int packSize(int incount, Datatype type) {
        Comm.checkCount(incount);
        Comm.checkType(type);
        long n = incount * type.desc.size();
        if (n > Integer.MAX_VALUE) {
            throw new MpiError(ErrorClass.ERR_COUNT, incount + " elements of " + type + " pack to " + n
                    + " bytes, more than an int can count");
        }
        return (int) n;
    }

    private static void checkPacked(byte[] packed, int position, long n, String which) {
        if (packed == null) {
            if (n == 0 && position == 0) {
                return;
            }
            throw new MpiError(ErrorClass.ERR_BUFFER, "the packed " + which + " buffer is null");
        }
        if (position < 0 || position > packed.length) {
            throw new MpiError(ErrorClass.ERR_ARG, "position " + position + " is outside the packed " + which
                    + " buffer of " + packed.length + " bytes");
        }
        if (n > packed.length - position) {
            throw new MpiError(ErrorClass.ERR_TRUNCATE, (which.equals("output") ? "packing " : "unpacking ") + n
                    + " bytes at position " + position + " runs past the end of the packed " + which + " buffer ("
                    + packed.length + " bytes)");
        }
    }
}
