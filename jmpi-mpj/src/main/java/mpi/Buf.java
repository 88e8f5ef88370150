package mpi;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/**
 * The buffer arguments of this API (an array or a {@code java.nio} buffer, and an element offset into it) as the
 * runtime takes them: the array itself at offset 0, else a heap buffer over the array from the offset (no copy).
 * {@code boolean[]} has no such view: callers copy ({@link #isBooleanAt}).
 */
final class Buf {
    private Buf() {}

    static Object at(Object buf, int offset, Datatype type) {
        if (offset == 0) {
            return buf instanceof mpjbuf.Buffer b ? b.bytes() : buf;
        }
        if (offset < 0) {
            throw new MPIException("negative buffer offset " + offset, 1);
        }
        try {
            return switch (buf) {
                case byte[] a -> ByteBuffer.wrap(a).slice(offset, a.length - offset);
                case int[] a -> IntBuffer.wrap(a).slice(offset, a.length - offset);
                case double[] a -> DoubleBuffer.wrap(a).slice(offset, a.length - offset);
                case long[] a -> LongBuffer.wrap(a).slice(offset, a.length - offset);
                case float[] a -> FloatBuffer.wrap(a).slice(offset, a.length - offset);
                case short[] a -> ShortBuffer.wrap(a).slice(offset, a.length - offset);
                case char[] a -> CharBuffer.wrap(a).slice(offset, a.length - offset);
                case mpjbuf.Buffer b -> ByteBuffer.wrap(b.bytes()).slice(offset, b.bytes().length - offset);
                case ByteBuffer b -> {
                    int o = offset * Math.max(1, type.getByteSize()); // a byte buffer of any type: offset in elements
                    yield b.slice(o, b.limit() - o).order(b.order());
                }
                case IntBuffer b -> b.slice(offset, b.limit() - offset);
                case DoubleBuffer b -> b.slice(offset, b.limit() - offset);
                case LongBuffer b -> b.slice(offset, b.limit() - offset);
                case FloatBuffer b -> b.slice(offset, b.limit() - offset);
                case ShortBuffer b -> b.slice(offset, b.limit() - offset);
                case CharBuffer b -> b.slice(offset, b.limit() - offset);
                case null -> null;
                default -> throw new MPIException("unsupported buffer " + buf.getClass().getName()
                        + " (a primitive array or a java.nio buffer)", 1);
            };
        } catch (IndexOutOfBoundsException e) {
            throw new MPIException("offset " + offset + " is past the end of the buffer", 1);
        }
    }

    /** Whether {@code buf} is a {@code boolean[]} addressed at a non-zero offset (copied by the caller). */
    static boolean isBooleanAt(Object buf, int offset) {
        return offset != 0 && buf instanceof boolean[];
    }

    /** The elements of a {@code boolean[]} from {@code offset} on, as a new array. */
    static boolean[] booleansFrom(Object buf, int offset) {
        boolean[] a = (boolean[]) buf;
        if (offset < 0 || offset > a.length) {
            throw new MPIException("offset " + offset + " is outside the buffer of length " + a.length, 1);
        }
        return java.util.Arrays.copyOfRange(a, offset, a.length);
    }

    /** Copies {@code from} back into {@code buf} at {@code offset}. */
    static void booleansBack(boolean[] from, Object buf, int offset) {
        System.arraycopy(from, 0, (boolean[]) buf, offset, from.length);
    }

    /**
     * {@link #at} for collective calls. A {@code boolean[]} at a non-zero offset, which has no view, is passed as a
     * copy of its elements from the offset on; for a buffer the call writes, the caller copies that back with
     * {@link #back} once the call has returned.
     */
    static Object collective(Object buf, int offset, Datatype type) {
        if (isBooleanAt(buf, offset)) {
            return booleansFrom(buf, offset);
        }
        if (type.isObject()) {
            throw new IllegalStateException("object data is not a runtime buffer");
        }
        return at(buf, offset, type);
    }

    /**
     * After a collective call: the copy {@link #collective} made of {@code buf} from {@code offset} on (a
     * {@code boolean[]}), with what the call wrote into it, back into {@code buf}; nothing for any other buffer.
     */
    static void back(Object passed, Object buf, int offset) {
        if (passed != buf && passed instanceof boolean[] copy) {
            booleansBack(copy, buf, offset);
        }
    }

    /**
     * The send buffer of a collective whose receive buffer is the same object: a copy, so the call sees the data as
     * it was (MPI forbids the aliasing, MPJ Express allowed it and programs rely on it, e.g. the Java Grande
     * RayTracer's {@code Reduce(a, 0, a, 0, ...)}). Any other send buffer as it is.
     */
    static Object unaliased(Object sendbuf, Object recvbuf) {
        if (sendbuf != recvbuf || sendbuf == null) {
            return sendbuf;
        }
        return switch (sendbuf) {
            case byte[] a -> a.clone();
            case int[] a -> a.clone();
            case double[] a -> a.clone();
            case long[] a -> a.clone();
            case float[] a -> a.clone();
            case short[] a -> a.clone();
            case char[] a -> a.clone();
            case boolean[] a -> a.clone();
            case Object[] a -> a.clone();
            case java.nio.ByteBuffer b -> {
                java.nio.ByteBuffer c = java.nio.ByteBuffer.allocateDirect(b.capacity()).order(b.order());
                c.put(0, b, 0, b.capacity());
                yield c;
            }
            default -> sendbuf;
        };
    }
}
