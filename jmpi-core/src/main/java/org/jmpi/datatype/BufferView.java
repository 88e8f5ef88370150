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
 * {@code MPI.slice} to start further in. A datatype's displacements count from there and may be negative: for an
 * array-backed buffer (such as {@code MPI.slice(array, offset)}) they may reach back into the array before the
 * slice, as a C pointer into the middle of an array would; a direct buffer cannot be read before its start.
 * Forward, data may reach the buffer's capacity.
 */
public final class BufferView {
    private BufferView() {}

    /**
     * The views this thread made last, so that a program calling again with the same buffer, count and type (the
     * common case in loops) gets the same immutable {@link MessageData} without allocating. An entry is held
     * through a weak reference, so the cache never keeps a user's buffer alive; after a garbage collection the view
     * is made again. Threading: confined to its thread.
     */
    private static final class ViewCache {
        static final int SIZE = 4;

        /** One cached view: the arguments it was made from, and the view. */
        record Entry(Object buf, int count, TypeDescriptor type, boolean forReceive, MessageData view) {}

        @SuppressWarnings({"unchecked", "rawtypes"})
        final java.lang.ref.WeakReference<Entry>[] entries = new java.lang.ref.WeakReference[SIZE];
        int next;

        MessageData find(Object buf, int count, TypeDescriptor type, boolean forReceive) {
            for (java.lang.ref.WeakReference<Entry> ref : entries) {
                Entry e = ref == null ? null : ref.get();
                if (e != null && e.buf == buf && e.count == count && e.type == type && e.forReceive == forReceive) {
                    return e.view;
                }
            }
            return null;
        }

        void add(Object buf, int count, TypeDescriptor type, boolean forReceive, MessageData view) {
            entries[next] = new java.lang.ref.WeakReference<>(new Entry(buf, count, type, forReceive, view));
            next = (next + 1) % SIZE;
        }
    }

    private static final ThreadLocal<ViewCache> CACHE = ThreadLocal.withInitial(ViewCache::new);

    /**
     * @param forReceive true when the library will write into the buffer
     * @throws MpiError ERR_BUFFER, ERR_COUNT or ERR_TYPE
     */
    public static MessageData of(Object buf, int count, TypeDescriptor type, boolean forReceive) {
        if (buf != null && count > 0) {
            ViewCache cache = CACHE.get();
            MessageData view = cache.find(buf, count, type, forReceive);
            if (view == null) {
                view = make(buf, count, type, forReceive);
                if (view != MessageData.EMPTY && !(buf instanceof boolean[])) {
                    cache.add(buf, count, type, forReceive, view);
                }
            }
            return view;
        }
        return make(buf, count, type, forReceive);
    }

    /** The checks and the view, without the cache. */
    private static MessageData make(Object buf, int count, TypeDescriptor type, boolean forReceive) {
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
            checkSpan(span, 0, a.length, type, count, buf);
            return new BooleanPlanData(a, type, count);
        }
        MemorySegment memory = segmentOf(buf, base);
        if (forReceive && memory.isReadOnly()) {
            throw new MpiError(ErrorClass.ERR_BUFFER, "cannot receive into a read-only buffer");
        }
        long origin = 0;
        if (buf instanceof Buffer b && b.hasArray() && b.arrayOffset() > 0) {
            // the whole backing array, so that negative displacements may reach before the slice
            origin = (long) b.arrayOffset() * elementBytes(b);
            memory = arraySegment(b.array());
        }
        long capacity = buf instanceof Buffer b ? (long) b.capacity() * elementBytes(b) : memory.byteSize();
        long[] span = type.span(count);
        checkSpan(new long[] {span[0] + origin, span[1]}, origin, capacity, type, count, buf);
        return PlanData.over(memory, origin, type, count);
    }

    private static int elementBytes(Buffer b) {
        return switch (b) {
            case ByteBuffer x -> 1;
            case CharBuffer x -> 2;
            case ShortBuffer x -> 2;
            case IntBuffer x -> 4;
            case FloatBuffer x -> 4;
            case LongBuffer x -> 8;
            case DoubleBuffer x -> 8;
            default -> throw new MpiError(ErrorClass.ERR_BUFFER, "unsupported buffer " + describe(b));
        };
    }

    private static MemorySegment arraySegment(Object array) {
        return switch (array) {
            case byte[] a -> MemorySegment.ofArray(a);
            case char[] a -> MemorySegment.ofArray(a);
            case short[] a -> MemorySegment.ofArray(a);
            case int[] a -> MemorySegment.ofArray(a);
            case long[] a -> MemorySegment.ofArray(a);
            case float[] a -> MemorySegment.ofArray(a);
            case double[] a -> MemorySegment.ofArray(a);
            default -> throw new MpiError(ErrorClass.ERR_BUFFER, "unsupported array " + describe(array));
        };
    }

    /**
     * @param span lowest byte (from the start of the accessible memory) and one past the highest byte (from the
     *     origin) the data touches
     * @param origin where element 0 starts in the accessible memory
     * @param capacityBytes bytes from the origin to the end of the buffer
     */
    private static void checkSpan(long[] span, long origin, long capacityBytes, TypeDescriptor type, int count,
            Object buf) {
        if (span[0] < 0) {
            throw new MpiError(ErrorClass.ERR_BUFFER, "count " + count + " of the datatype reaches " + -span[0]
                    + " bytes before the start of the " + (origin > 0 ? "array behind the " : "") + "buffer ("
                    + describe(buf) + ")");
        }
        if (span[1] > capacityBytes) {
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
