package org.jmpi.datatype;

import java.lang.foreign.MemorySegment;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.nio.Buffer;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The direct buffers jmpi knows the whole of: those made by {@code MPI.newXxxBuffer} and those {@code MPI.slice} was
 * given. A slice of such a buffer (made by {@code MPI.slice} or by the buffer's own {@code slice()}) starts inside
 * one of them, and {@link BufferView} then lets a datatype with negative displacements reach back to the start of
 * that buffer, as it may for a slice of an array. The JDK does not say which buffer a direct slice came from, so the
 * regions are kept here by address.
 *
 * <p>A region holds its buffer weakly: a live slice keeps its parent reachable (the JDK's slices refer to it), so a
 * region whose buffer was collected cannot contain a live slice; it is dropped at the next registration (or when a
 * look-up meets it). Only a datatype that reaches before a direct buffer's start looks here, so ordinary calls pay
 * nothing for it.
 *
 * <p>Threading: a concurrent map; regions are added and looked up by any thread of the rank.
 */
public final class DirectBuffers {
    /**
     * A registered buffer's region: its size, and the buffer weakly. A class and not a record: the map's
     * {@code remove(key, value)} compares values with {@code equals}, and a record's first {@code equals} bootstraps
     * its generated method (method handles spun through {@code java.lang.runtime.ObjectMethods}, 10-12 ms in a cold
     * sample sort of 2 ranks, in its timed loop, when the first of its buffers had been collected; 2026-11-29).
     * The removal means this very region anyway.
     */
    private static final class Region {
        final long size;
        final Ref buffer;

        Region(long size, Ref buffer) {
            this.size = size;
            this.buffer = buffer;
        }
    }

    /** A weak reference to a region's buffer that remembers where the region starts, to drop it once collected. */
    private static final class Ref extends WeakReference<Buffer> {
        final long address;

        Ref(Buffer buffer, long address) {
            super(buffer, COLLECTED);
            this.address = address;
        }
    }

    private static final ConcurrentSkipListMap<Long, Region> REGIONS = new ConcurrentSkipListMap<>();
    private static final ReferenceQueue<Buffer> COLLECTED = new ReferenceQueue<>();

    private DirectBuffers() {}

    /**
     * The buffers registered last, weakly, newest at {@code next - 1}: a program that slices a few buffers per message
     * ({@code MPI.slice(buf, i * n)} in a loop of non-blocking calls, a halo sent from one buffer and received into
     * another) registers each once, not once per message (a look-up in the map and a segment made per call: a tenth
     * of a 64-message window's time on 8-byte messages). With one buffer remembered instead of four, and before
     * BufferView viewed a dense buffer without a plan, a cold ping-pong of 8 doubles between slices of two direct
     * buffers took 5.8-5.9 us a round trip, against 3.7-4.4 with both (Open MPI Java 2.3-2.7; ungated, 2026-12-06).
     * Written without synchronisation: a lost entry only means one more registration.
     */
    private static final Recent[] RECENT = new Recent[4];
    private static int next;

    /** A recently registered buffer, weakly, and where its memory starts. */
    private static final class Recent extends WeakReference<Buffer> {
        final long address;

        Recent(Buffer buffer, long address) {
            super(buffer);
            this.address = address;
        }
    }

    /** Remembers {@code buffer} (a direct buffer; others are ignored) as a whole region; returns it. */
    public static <B extends Buffer> B register(B buffer) {
        address(buffer);
        return buffer;
    }

    /**
     * {@code slice}, which {@code MPI.slice} made of {@code parent} from its element {@code offset} on: registers the
     * parent ({@link #register}) and, when it is direct, tells {@link BufferView} where the slice's memory starts
     * ({@link BufferView#noteSlice}); returns the slice.
     */
    public static <B extends Buffer> B sliced(B parent, B slice, int offset) {
        long at = address(parent);
        return at == -1 ? slice : BufferView.noteSlice(slice, at + (long) offset * BufferView.elementBytes(parent));
    }

    /** Where the memory of {@code buffer} starts, registered as a whole region; -1 when it is not direct. */
    private static long address(Buffer buffer) {
        if (buffer == null || !buffer.isDirect()) {
            return -1;
        }
        for (Recent r : RECENT) {
            if (r != null && r.get() == buffer) {
                return r.address;
            }
        }
        MemorySegment whole = MemorySegment.ofBuffer(buffer.duplicate().clear());
        int i = next;
        RECENT[i] = new Recent(buffer, whole.address());
        next = (i + 1) & (RECENT.length - 1);
        if (whole.byteSize() > 0) {
            Map.Entry<Long, Region> inside = enclosing(whole.address(), whole.byteSize());
            if (inside == null) {
                REGIONS.put(whole.address(), new Region(whole.byteSize(), new Ref(buffer, whole.address())));
            }
            dropCollected();
        }
        return whole.address();
    }

    /**
     * The whole registered buffer that contains {@code [address, address + size)}, as a segment, or null when no
     * live region does.
     */
    static MemorySegment enclosingSegment(long address, long size) {
        Map.Entry<Long, Region> e = enclosing(address, size);
        if (e == null) {
            return null;
        }
        Buffer b = e.getValue().buffer.get();
        return b == null ? null : MemorySegment.ofBuffer(b.duplicate().clear());
    }

    /** Forgets the regions whose buffers were collected, so that a program making many buffers keeps few. */
    private static void dropCollected() {
        for (Reference<? extends Buffer> r = COLLECTED.poll(); r != null; r = COLLECTED.poll()) {
            Ref ref = (Ref) r;
            Region region = REGIONS.get(ref.address);
            if (region != null && region.buffer == ref) {
                REGIONS.remove(ref.address, region);
            }
        }
    }

    private static Map.Entry<Long, Region> enclosing(long address, long size) {
        Map.Entry<Long, Region> e = REGIONS.floorEntry(address);
        while (e != null && e.getValue().buffer.get() == null) {
            REGIONS.remove(e.getKey(), e.getValue());
            e = REGIONS.floorEntry(address);
        }
        if (e == null || address + size > e.getKey() + e.getValue().size) {
            return null;
        }
        return e;
    }
}
