package org.jmpi.datatype;

import java.lang.foreign.MemorySegment;
import java.lang.ref.SoftReference;
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
import org.jmpi.shared.SmallPayload;

/**
 * Turns a user buffer argument (a Java primitive array, or a heap or direct {@link Buffer}) plus a count and a
 * datatype into a {@link MessageData}, checking everything a user can get wrong: a null buffer with a positive
 * count, a negative count, an object that is not a buffer, a count that runs past the end of the buffer, a
 * read-only buffer to receive into.
 *
 * <p>Any buffer is raw memory, whatever the datatype, as in the Open MPI bindings: an {@code int[]} may be sent as
 * {@code MPI.BYTE}, a {@code byte[]} may hold {@code MPI.DOUBLE_INT} pairs. The datatype's data is read and written
 * as bytes in native byte order, and counts and bounds are checked in bytes against the buffer's byte length (a
 * {@code boolean[]} holds one byte per element; a byte received into it is {@code true} unless it is 0).
 *
 * <p>Where data starts: at element 0 of an array, or at index 0 of a buffer (its array offset for a heap buffer,
 * its address for a direct one); the buffer's position and limit are ignored, as in the Open MPI bindings. Use
 * {@code MPI.slice} to start further in. A datatype's displacements count from there and may be negative: they may
 * reach back to the start of the array behind an array-backed buffer (such as {@code MPI.slice(array, offset)}),
 * or to the start of the direct buffer a direct slice was cut from when jmpi knows that buffer (see
 * {@link DirectBuffers}), as a C pointer into the middle of an array would. Forward, data may reach the buffer's
 * capacity.
 */
public final class BufferView {
    private BufferView() {}

    /**
     * The views this thread made, so that a program calling again with the same buffer, count and type (the common
     * case in loops) gets the same immutable {@link MessageData} without allocating.
     *
     * <p>Two levels: the {@link #RECENT} views used last, looked at newest first (a loop over one to four buffers
     * finds its view at the first probes, with no hashing), and a table of {@link #SETS} sets of {@link #WAYS}
     * entries, chosen by the buffer's identity hash, for programs that turn through more buffers: a window of 64
     * non-blocking calls on 64 buffers (OMB-J's bandwidth tests), one buffer per neighbour and direction. With only a
     * newest-first list of 16, such a window made a new view on every call, on both ranks (1 B messages: 2.2 us a
     * message against 1.5 with one buffer; 64 buffers now share no set of four with four others in 97 % of
     * programs). The table holds 512 views at most, of at most {@link #TABLE_MAX_BYTES} each (a program that sends
     * from a fresh array every call must not have hundreds of dead megabyte arrays kept for it; above that size a new
     * view costs little beside the message); the oldest entry of a set makes room for a newer view. A look-up starts
     * with the level where the last one found its view ({@link #tableFirst}), then tries the other. Before both comes
     * the view of a small array made last and not cached ({@link #madeBuffer}), which a new array passed twice in a row
     * finds without hashing.
     *
     * <p>Entries are held through soft references: the collector clears them only when memory runs short (and before
     * it throws OutOfMemoryError), so the cache never makes a program run out of memory, and a young collection does
     * not empty it. It did with weak references: every collection sent the next call of every cached loop down the
     * path that makes a view again (the first time through code that the hot callers, {@code Comm.send},
     * {@code Comm.recv}, ..., had compiled without it, so they were deoptimised and compiled again while the program
     * ran). Views of more than {@link #MAX_BYTES} are not cached, so that a large array or direct buffer the program
     * has dropped is not kept until memory runs short; making such a view costs nothing beside moving its data.
     * Threading: confined to its thread.
     */
    private static final class ViewCache {
        /** Views looked at before the table (a power of two). */
        static final int RECENT = 4;
        /** Sets of the table (a power of two). */
        static final int SETS = 128;
        /** Entries per set. */
        static final int WAYS = 4;
        /** Largest view the table keeps (the recent views may be larger, up to {@link #MAX_BYTES}). */
        static final long TABLE_MAX_BYTES = 64 << 10;
        /** Largest view cached (see above). */
        static final long MAX_BYTES = 1 << 20;

        /** One cached view: the arguments it was made from, and the view. */
        record Entry(Object buf, int count, TypeDescriptor type, boolean forReceive, MessageData view) {
            boolean matches(Object b, int c, TypeDescriptor t, boolean r) {
                return buf == b && count == c && type == t && forReceive == r;
            }
        }

        /** Sets of {@link #seen} (a power of two), of {@link #WAYS} hashes each. */
        static final int SEEN_SETS = 256;

        @SuppressWarnings({"unchecked", "rawtypes"})
        final SoftReference<Entry>[] recent = new SoftReference[RECENT];
        /**
         * Whether the last view found came from the table: then the next look-up starts there, not with the recent
         * views. A loop that turns through more buffers than {@link #RECENT} (a window of 64) missed all of them on
         * every call before it hashed. Cold, against the same build without it (6 interleaved gated rounds,
         * 2026-12-05): OMB-J window bandwidth 4 % more on the geometric mean over the sizes (8 and 16 bytes 7 and 9
         * %), bidirectional 8 %; latency, bcast, allreduce and allgather within 2-4 % either way.
         */
        boolean tableFirst;
        /**
         * Identity hashes of buffers a view was made for and not cached (no references held), in sets chosen by the
         * hash as the table's: a view is cached only when its buffer comes a second time. A program that passes a new
         * array to every call (a dot product into {@code new double[1]}, {@code sendRecv} of fresh rows) then pays for
         * its view alone, not for an entry, a soft reference and the eviction of a view that a loop reuses; a buffer
         * that comes again, also after 64 others (a window of non-blocking calls), is cached at its second call. Sets
         * of four, not one slot per hash: two buffers of one slot that a loop passes in turn would each push the other
         * out before its second call, and never be cached (some pair of 64 buffers would, in most programs).
         */
        final int[] seen = new int[WAYS * SEEN_SETS];
        int next;
        /** Set {@code i} is entries {@code WAYS * i} (the newest) to {@code WAYS * i + WAYS - 1} (the oldest). */
        @SuppressWarnings({"unchecked", "rawtypes"})
        final SoftReference<Entry>[] table = new SoftReference[WAYS * SETS];

        MessageData find(Object buf, int count, TypeDescriptor type, boolean forReceive) {
            boolean first = tableFirst;
            if (first) {
                MessageData v = findInTable(buf, count, type, forReceive);
                if (v != null) {
                    return v;
                }
            }
            for (int i = 1; i <= RECENT; i++) {
                Entry e = get(recent[(next - i) & (RECENT - 1)]);
                if (e != null && e.matches(buf, count, type, forReceive)) {
                    if (first) {
                        tableFirst = false;
                    }
                    return e.view;
                }
            }
            if (!first) {
                MessageData v = findInTable(buf, count, type, forReceive);
                if (v != null) {
                    tableFirst = true;
                    return v;
                }
            }
            return null;
        }

        /**
         * The identity hash of the buffer that {@link #findInTable} looked for last: after a look-up that found no
         * view, {@link #seenBefore} and {@link #add} take it from here instead of hashing again (for a new array each
         * hash is a call into the VM).
         */
        private int hash;

        private MessageData findInTable(Object buf, int count, TypeDescriptor type, boolean forReceive) {
            hash = System.identityHashCode(buf);
            int s = firstOfSet(hash);
            for (int i = s; i < s + WAYS; i++) {
                SoftReference<Entry> ref = table[i];
                Entry e = get(ref);
                if (e != null && e.matches(buf, count, type, forReceive)) {
                    remember(ref);
                    return e.view;
                }
            }
            return null;
        }

        /**
         * Whether the buffer of the look-up that just found no view ({@link #hash}) was seen before (see
         * {@link #seen}); notes it if not.
         */
        boolean seenBefore() {
            int h = hash; // never 0, which marks a free place
            int s = ((h ^ (h >>> 16)) & (SEEN_SETS - 1)) * WAYS;
            for (int i = s; i < s + WAYS; i++) {
                if (seen[i] == h) {
                    return true;
                }
            }
            System.arraycopy(seen, s, seen, s + 1, WAYS - 1);
            seen[s] = h;
            return false;
        }

        /**
         * The view of a small array ({@link MessageData.SmallArrayData}) made last and not cached, with the buffer, count
         * and type it was made for: a new array that a program passes twice (sent, then received into, as in a
         * ping-pong) finds its view here at its second call, without an identity hash, a second view or an entry; at
         * a third call it is cached as well (a buffer the program keeps). Holds one small array strongly.
         */
        Object madeBuffer;
        private int madeCount;
        private TypeDescriptor madeType;
        private MessageData made;
        private int madeUses;

        /**
         * {@link #made} if it was made for {@code buf} ({@link #madeBuffer}) with this count and type (in either
         * direction: an array's view serves both), else null.
         */
        MessageData made(Object buf, int count, TypeDescriptor type, boolean forReceive) {
            if (count != madeCount || type != madeType) {
                return null;
            }
            if (++madeUses == 2) {
                hash = System.identityHashCode(buf);
                add(buf, count, type, forReceive, made);
            }
            return made;
        }

        void noteMade(Object buf, int count, TypeDescriptor type, MessageData view) {
            madeBuffer = buf;
            madeCount = count;
            madeType = type;
            made = view;
            madeUses = 0;
        }

        /** Caches {@code view} of the buffer of the look-up that just found none ({@link #hash}). */
        void add(Object buf, int count, TypeDescriptor type, boolean forReceive, MessageData view) {
            SoftReference<Entry> ref = new SoftReference<>(new Entry(buf, count, type, forReceive, view));
            if (view.bytes() <= TABLE_MAX_BYTES) {
                int s = firstOfSet(hash);
                System.arraycopy(table, s, table, s + 1, WAYS - 1);
                table[s] = ref;
            }
            remember(ref);
        }

        private void remember(SoftReference<Entry> ref) {
            recent[next] = ref;
            next = (next + 1) & (RECENT - 1);
        }

        /**
         * Views of direct memory by where that memory is, newest at {@code nativeNext - 1}: a program that passes a new
         * {@code MPI.slice} of a direct buffer to every call (the Open MPI API's way to start at an offset) never
         * finds its view by identity, but its slices start at the same few addresses. A view found here is of the
         * same bytes (two live views of one address range and size are of the same memory), so it serves any buffer
         * at that place while its memory's scope is alive (an arena closed and its address reused by another is
         * not); one of read-only memory serves only read-only buffers, and the reverse.
         */
        @SuppressWarnings({"unchecked", "rawtypes"})
        final SoftReference<MessageData.SegmentData>[] natives = new SoftReference[RECENT];
        int nativeNext;

        MessageData.SegmentData findNative(long address, long bytes, boolean readOnly) {
            for (SoftReference<MessageData.SegmentData> ref : natives) {
                MessageData.SegmentData v = ref == null ? null : ref.get();
                if (v != null && v.bytes() == bytes) {
                    MemorySegment m = v.segment();
                    if (m.address() == address && m.isReadOnly() == readOnly && m.scope().isAlive()) {
                        return v;
                    }
                }
            }
            return null;
        }

        /**
         * The slice {@code MPI.slice} made last on this thread, until a call views it or another is made, and where its
         * memory starts ({@link #noteSlice}): the usual way to start at an offset of a direct buffer in the Open MPI API
         * makes a slice per call, which the identity table never finds again and whose address only the JDK's
         * {@code MemorySegment.ofBuffer} would tell (a new memory session and segment per call, and an identity hash
         * made for the table). Held strongly for that short while only.
         */
        Buffer slice;
        long sliceAddress;

        /**
         * The view of {@link #slice}, which {@code b} is, from {@link #natives} when a view of that place was made
         * before; null when the general way must make or check it.
         */
        MessageData.SegmentData ofSlice(Buffer b, int count, TypeDescriptor type, boolean forReceive) {
            slice = null;
            long size = type.size();
            if (!type.isDense() || size > Integer.MAX_VALUE || forReceive && b.isReadOnly()) {
                return null;
            }
            long bytes = count * size;
            return bytes > (long) b.capacity() * elementBytes(b) || bytes > MAX_BYTES ? null
                    : findNative(sliceAddress, bytes, b.isReadOnly());
        }

        void addNative(MessageData.SegmentData view) {
            natives[nativeNext] = new SoftReference<>(view);
            nativeNext = (nativeNext + 1) & (RECENT - 1);
        }

        private static Entry get(SoftReference<Entry> ref) {
            return ref == null ? null : ref.get();
        }

        private static int firstOfSet(int h) {
            return ((h ^ (h >>> 16)) & (SETS - 1)) * WAYS;
        }
    }

    private static final org.jmpi.shared.FirstThreadLocal<ViewCache> CACHE =
            new org.jmpi.shared.FirstThreadLocal<>(ViewCache::new);

    /**
     * Notes {@code slice}, a direct buffer that {@code MPI.slice} just made and whose memory starts at {@code address},
     * for the next view of it on this thread ({@link ViewCache#slice}); returns it.
     */
    static <B extends Buffer> B noteSlice(B slice, long address) {
        ViewCache cache = CACHE.get();
        cache.slice = slice;
        cache.sliceAddress = address;
        return slice;
    }

    /**
     * @param forReceive true when the library will write into the buffer
     * @throws MpiError ERR_BUFFER, ERR_COUNT or ERR_TYPE
     */
    public static MessageData of(Object buf, long count, TypeDescriptor type, boolean forReceive) {
        if (buf != null && count > 0 && count <= Integer.MAX_VALUE) {
            ViewCache cache = CACHE.get();
            MessageData view = buf == cache.slice ? cache.ofSlice((Buffer) buf, (int) count, type, forReceive)
                    : buf == cache.madeBuffer ? cache.made(buf, (int) count, type, forReceive) : null;
            if (view == null) {
                view = cache.find(buf, (int) count, type, forReceive);
            }
            if (view == null) {
                view = make(buf, count, type, forReceive);
                if (view != MessageData.EMPTY && !(buf instanceof boolean[]) && view.bytes() <= ViewCache.MAX_BYTES) {
                    if (cache.seenBefore()) {
                        cache.add(buf, (int) count, type, forReceive, view);
                    } else if (view instanceof MessageData.SmallArrayData) {
                        cache.noteMade(buf, (int) count, type, view);
                    }
                }
            }
            return view;
        }
        return make(buf, count, type, forReceive); // a count above 2^31 - 1: a memory segment's (MPI 4.0's _c calls)
    }

    /**
     * The checks of {@link #of}, without a view when the buffer is a primitive array and the type
     * {@linkplain TypeDescriptor#isDense dense} (for a buffer that a later call of the same operation views).
     *
     * @throws MpiError as {@link #of}
     */
    public static void check(Object buf, long count, TypeDescriptor type, boolean forReceive) {
        if (count <= 0 || !type.isDense() || count > arrayBytes(buf) / type.size()) {
            of(buf, count, type, forReceive);
        }
    }

    /**
     * Bytes in {@code buf} when it is a primitive array other than a {@code boolean[]}, else -1. Type tests, as
     * {@link #elementBytes(Buffer)}.
     */
    private static long arrayBytes(Object buf) {
        if (buf instanceof byte[] a) {
            return a.length;
        }
        if (buf instanceof double[] a) {
            return (long) a.length * Double.BYTES;
        }
        if (buf instanceof int[] a) {
            return (long) a.length * Integer.BYTES;
        }
        if (buf instanceof long[] a) {
            return (long) a.length * Long.BYTES;
        }
        if (buf instanceof float[] a) {
            return (long) a.length * Float.BYTES;
        }
        if (buf instanceof char[] a) {
            return (long) a.length * Character.BYTES;
        }
        return buf instanceof short[] a ? (long) a.length * Short.BYTES : -1;
    }

    /**
     * A primitive array with a dense type ({@link #check}'s case): the first {@code count * type.size()} bytes of the
     * array, with no plan, bounds arrays or intermediate slice; null when that is not the case or does not fit (the
     * general way then checks and reports).
     */
    private static MessageData dense(Object buf, long count, TypeDescriptor type) {
        long capacity = arrayBytes(buf);
        if (capacity < 0 || !type.isDense() || count > capacity / type.size()) {
            return null; // not such an array, or the general way reports
        }
        long bytes = count * type.size();
        if (bytes <= SmallPayload.MAX_BYTES) {
            MessageData small = MessageData.SmallArrayData.of(buf, (int) bytes);
            if (small != null) {
                return small; // no segment until one is asked for
            }
        }
        MemorySegment whole = org.jmpi.shared.FastCopy.arraySegment(buf);
        MemorySegment memory = bytes == capacity ? whole : whole.asSlice(0, bytes);
        return new MessageData.SegmentData(memory,
                bytes <= SmallPayload.MAX_BYTES ? SmallPayload.ofArray(buf, 0, bytes) : null);
    }

    /**
     * A {@code java.nio} buffer with a dense type: the first {@code count * type.size()} bytes from its index 0, with
     * no plan or bounds arrays; a view of direct memory is found again by its address ({@link ViewCache#findNative}:
     * a program that passes a new {@code MPI.slice} to every call then makes one view per place, not per call); null
     * when that is not the case, does not fit, or would receive into a read-only buffer (the general way then
     * checks and reports).
     */
    private static MessageData denseBuffer(Buffer b, long count, TypeDescriptor type, boolean forReceive) {
        long size = type.size();
        if (!type.isDense() || count > Integer.MAX_VALUE || size > Integer.MAX_VALUE || forReceive && b.isReadOnly()) {
            return null;
        }
        long bytes = count * size; // below 2^62
        int capacity = b.capacity();
        if (bytes > (long) capacity * elementBytes(b)) {
            return null;
        }
        MemorySegment memory = MemorySegment.ofBuffer(
                b.position() == 0 && b.limit() == capacity ? b : b.duplicate().clear());
        ViewCache cache = null;
        if (memory.isNative() && bytes <= ViewCache.MAX_BYTES) {
            cache = CACHE.get();
            MessageData.SegmentData v = cache.findNative(memory.address(), bytes, memory.isReadOnly());
            if (v != null) {
                return v;
            }
        }
        if (bytes < memory.byteSize()) {
            memory = memory.asSlice(0, bytes);
        }
        MessageData.SegmentData view = new MessageData.SegmentData(memory,
                bytes <= SmallPayload.MAX_BYTES ? SmallPayload.of(memory) : null);
        if (cache != null) {
            cache.addNative(view);
        }
        return view;
    }

    /** The checks and the view, without the cache. */
    private static MessageData make(Object buf, long count, TypeDescriptor type, boolean forReceive) {
        if (count > 0) {
            MessageData view = buf instanceof Buffer b ? denseBuffer(b, count, type, forReceive)
                    : dense(buf, count, type);
            if (view != null) {
                return view;
            }
        }
        if (count < 0) {
            throw new MpiError(ErrorClass.ERR_COUNT, "negative count " + count);
        }
        if (count == 0 || type.size() == 0) {
            if (buf != null) {
                checkSupported(buf);
            }
            return MessageData.EMPTY;
        }
        if (buf == null) {
            throw new MpiError(ErrorClass.ERR_BUFFER, "null buffer with count " + count);
        }
        if (buf instanceof boolean[] a) {
            checkSpan(type.span(count), 0, a.length, type, count, buf);
            return new BooleanPlanData(a, type, count);
        }
        MemorySegment memory = segmentOf(buf);
        if (forReceive && memory.isReadOnly()) {
            throw new MpiError(ErrorClass.ERR_BUFFER, "cannot receive into a read-only buffer");
        }
        long origin = 0;
        if (buf instanceof Buffer b && b.hasArray() && b.arrayOffset() > 0) {
            // the whole backing array, so that negative displacements may reach before the slice
            origin = (long) b.arrayOffset() * elementBytes(b);
            memory = org.jmpi.shared.FastCopy.arraySegment(b.array()); // a heap buffer's array: primitive
        }
        long capacity = buf instanceof Buffer b ? (long) b.capacity() * elementBytes(b) : memory.byteSize();
        long[] span = type.span(count);
        if (span[0] < 0 && buf instanceof Buffer b && b.isDirect()) {
            // reaching back before a direct slice: allowed into the buffer it was cut from, when that is known
            MemorySegment whole = DirectBuffers.enclosingSegment(memory.address(), memory.byteSize());
            if (whole != null && whole.address() < memory.address()) {
                origin = memory.address() - whole.address();
                memory = whole;
            }
        }
        checkSpan(new long[] {span[0] + origin, span[1]}, origin, capacity, type, count, buf);
        MessageData view = PlanData.over(memory, origin, type, count);
        if (view instanceof MessageData.SegmentData s && s.bytes() <= SmallPayload.MAX_BYTES) {
            // for the lane's and the collectives' copies; a primitive array's without asking the segment for it
            SmallPayload small = buf instanceof Buffer || buf instanceof MemorySegment
                    ? SmallPayload.of(s.segment()) : SmallPayload.ofArray(buf, s.segment().address(), s.bytes());
            if (small != null) {
                return new MessageData.SegmentData(s.segment(), small);
            }
        }
        return view;
    }

    /**
     * Bytes of one element of a buffer of this kind (1 for a ByteBuffer). Type tests, not a pattern {@code switch}
     * (here and in {@code FastCopy.arraySegment}): a rank would generate a class at run time for each such switch the
     * first time it runs, which the ranks' class cache cannot hold.
     */
    public static int elementBytes(Buffer b) {
        if (b instanceof ByteBuffer) {
            return 1;
        }
        if (b instanceof CharBuffer || b instanceof ShortBuffer) {
            return 2;
        }
        if (b instanceof IntBuffer || b instanceof FloatBuffer) {
            return 4;
        }
        if (b instanceof LongBuffer || b instanceof DoubleBuffer) {
            return 8;
        }
        throw unsupported(b);
    }

    /**
     * @param span lowest byte (from the start of the accessible memory) and one past the highest byte (from the
     *     origin) the data touches
     * @param origin where element 0 starts in the accessible memory
     * @param capacityBytes bytes from the origin to the end of the buffer
     */
    private static void checkSpan(long[] span, long origin, long capacityBytes, TypeDescriptor type, long count,
            Object buf) {
        if (span[0] < 0) {
            throw new MpiError(ErrorClass.ERR_BUFFER, "count " + count + " of the datatype reaches " + -span[0]
                    + " bytes before the start of the " + (origin > 0 ? "memory behind the " : "") + "buffer ("
                    + describe(buf) + ")");
        }
        if (span[1] > capacityBytes) {
            throw new MpiError(ErrorClass.ERR_BUFFER, "count " + count + " of a datatype of " + type.size()
                    + " bytes (extent " + type.extent() + ") needs " + span[1] + " bytes but the buffer ("
                    + describe(buf) + ") holds " + capacityBytes + " bytes");
        }
    }

    /** The whole buffer as a segment (from index 0 to its capacity). */
    private static MemorySegment segmentOf(Object buf) {
        if (buf instanceof Buffer b) {
            elementBytes(b); // the seven kinds of typed buffer only
            return MemorySegment.ofBuffer(b.duplicate().clear());
        }
        if (buf == null || buf instanceof boolean[] || !buf.getClass().isArray()
                || !buf.getClass().getComponentType().isPrimitive()) {
            if (buf instanceof MemorySegment m) {
                return m; // MPI 4.0's large buffers: raw memory from offset 0 (heap or native, an arena all threads use)
            }
            throw unsupported(buf);
        }
        return org.jmpi.shared.FastCopy.arraySegment(buf);
    }

    /**
     * The check of a buffer that an empty message never touches: its kind only. A type test, not {@link #segmentOf}:
     * a view of a direct buffer costs a duplicate, a segment and a scope, and a program that sends zero-byte messages
     * paid them twice per message (a 0-byte ping-pong took 1.0 us one-way against 0.6 at 1 byte).
     */
    private static void checkSupported(Object buf) {
        if (!(buf instanceof Buffer || buf instanceof byte[] || buf instanceof char[] || buf instanceof short[]
                || buf instanceof int[] || buf instanceof long[] || buf instanceof float[] || buf instanceof double[]
                || buf instanceof boolean[] || buf instanceof MemorySegment)) {
            throw unsupported(buf);
        }
    }

    private static MpiError unsupported(Object buf) {
        return new MpiError(ErrorClass.ERR_BUFFER, "unsupported buffer " + describe(buf)
                + ": use a primitive array, a java.nio buffer or a MemorySegment");
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
        if (buf instanceof MemorySegment m) {
            return (m.isNative() ? "native" : "heap") + " MemorySegment of " + m.byteSize() + " bytes";
        }
        return buf.getClass().getName();
    }
}
