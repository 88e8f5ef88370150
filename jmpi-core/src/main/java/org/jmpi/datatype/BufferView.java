package org.jmpi.datatype;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;

/**
 * Turns a user buffer argument (a Java primitive array, or a heap or direct {@link Buffer}) plus a count and a
 * datatype into a {@link MessageData}, checking everything a user can get wrong: a null buffer with a positive
 * count, a negative count, an array whose element type does not match the datatype, a count that runs past the
 * end of the buffer, a read-only buffer to receive into.
 *
 * <p>Where data starts: at element 0 of an array, or at index 0 of a buffer (its array offset for a heap buffer,
 * its address for a direct one); the buffer's position and limit are ignored, as in the Open MPI bindings. Use
 * {@code MPI.slice} to start further in.
 */
public final class BufferView {
    private BufferView() {}

    /**
     * @param forReceive true when the library will write into the buffer
     * @throws MpiError ERR_BUFFER, ERR_COUNT or ERR_TYPE
     */
    public static MessageData of(Object buf, int count, TypeDescriptor type, boolean forReceive) {
        if (count < 0) {
            throw new MpiError(ErrorClass.ERR_COUNT, "negative count " + count);
        }
        if (count == 0 || type.size() == 0) {
            if (buf != null) {
                checkKind(buf, type);
            }
            return MessageData.EMPTY;
        }
        if (buf == null) {
            throw new MpiError(ErrorClass.ERR_BUFFER, "null buffer with count " + count);
        }
        BaseKind base = type.base();
        if (buf instanceof boolean[] a) {
            checkKind(buf, type);
            long[] span = type.span(count);
            checkSpan(span, a.length, type, count, buf);
            if (!type.isContiguous()) {
                throw new MpiError(ErrorClass.ERR_UNSUPPORTED_OPERATION,
                        "derived datatypes over boolean[] are not supported yet");
            }
            return new MessageData.BooleanData(a, (int) type.lb(), (int) (count * type.size()));
        }
        MemorySegment memory = segmentOf(buf, base);
        if (forReceive && memory.isReadOnly()) {
            throw new MpiError(ErrorClass.ERR_BUFFER, "cannot receive into a read-only buffer");
        }
        long[] span = type.span(count);
        checkSpan(span, memory.byteSize(), type, count, buf);
        if (type.isContiguous()) {
            return new MessageData.SegmentData(memory.asSlice(type.lb(), count * type.size()));
        }
        return new PlanData(memory, 0, type, count);
    }

    private static void checkSpan(long[] span, long capacityBytes, TypeDescriptor type, int count, Object buf) {
        if (span[0] < 0 || span[1] > capacityBytes) {
            int unit = type.base().bytes;
            throw new MpiError(ErrorClass.ERR_BUFFER, "count " + count + " of a " + type.base().mpiName
                    + "-based type needs " + ceil(span[1], unit) + " elements but the buffer ("
                    + describe(buf) + ") holds " + capacityBytes / unit);
        }
    }

    private static long ceil(long bytes, int unit) {
        return (bytes + unit - 1) / unit;
    }

    /** The whole buffer as a segment (from index 0 to its capacity), after checking its kind. */
    private static MemorySegment segmentOf(Object buf, BaseKind base) {
        checkKindRaw(buf, base);
        return switch (buf) {
            case byte[] a -> MemorySegment.ofArray(a);
            case char[] a -> MemorySegment.ofArray(a);
            case short[] a -> MemorySegment.ofArray(a);
            case int[] a -> MemorySegment.ofArray(a);
            case long[] a -> MemorySegment.ofArray(a);
            case float[] a -> MemorySegment.ofArray(a);
            case double[] a -> MemorySegment.ofArray(a);
            case Buffer b -> MemorySegment.ofBuffer(b.duplicate().clear());
            default -> throw new MpiError(ErrorClass.ERR_BUFFER, "unsupported buffer " + describe(buf));
        };
    }

    private static void checkKind(Object buf, TypeDescriptor type) {
        checkKindRaw(buf, type.base());
    }

    private static void checkKindRaw(Object buf, BaseKind base) {
        BaseKind have = kindOf(buf);
        if (have == null) {
            if (buf instanceof ByteBuffer) {
                return; // a byte buffer may carry any type
            }
            throw new MpiError(ErrorClass.ERR_BUFFER, "unsupported buffer " + describe(buf)
                    + ": use a primitive array or a java.nio buffer");
        }
        if (have != base) {
            throw new MpiError(ErrorClass.ERR_BUFFER, "buffer " + describe(buf) + " does not match datatype "
                    + base.mpiName + " (expected " + base.arrayType.getSimpleName() + " or a matching buffer)");
        }
    }

    /** The base kind an array or typed buffer holds; null for ByteBuffer (any) and unsupported objects. */
    private static BaseKind kindOf(Object buf) {
        return switch (buf) {
            case byte[] a -> BaseKind.BYTE;
            case char[] a -> BaseKind.CHAR;
            case short[] a -> BaseKind.SHORT;
            case boolean[] a -> BaseKind.BOOLEAN;
            case int[] a -> BaseKind.INT;
            case long[] a -> BaseKind.LONG;
            case float[] a -> BaseKind.FLOAT;
            case double[] a -> BaseKind.DOUBLE;
            case CharBuffer b -> BaseKind.CHAR;
            case ShortBuffer b -> BaseKind.SHORT;
            case IntBuffer b -> BaseKind.INT;
            case LongBuffer b -> BaseKind.LONG;
            case FloatBuffer b -> BaseKind.FLOAT;
            case DoubleBuffer b -> BaseKind.DOUBLE;
            default -> null;
        };
    }

    static String describe(Object buf) {
        if (buf == null) {
            return "null";
        }
        if (buf.getClass().isArray()) {
            return buf.getClass().getComponentType().getSimpleName() + "[" + java.lang.reflect.Array.getLength(buf)
                    + "]";
        }
        if (buf instanceof Buffer b) {
            return (b.isDirect() ? "direct " : "heap ") + buf.getClass().getSimpleName() + " of capacity "
                    + b.capacity();
        }
        return buf.getClass().getName();
    }
}
