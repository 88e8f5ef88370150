package org.jmpi.datatype;

import java.lang.foreign.MemorySegment;
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
 * region whose buffer was collected cannot contain a live slice, and it is dropped when met or when a new region
 * starts at its address.
 *
 * <p>Threading: a concurrent map; regions are added and looked up by any thread of the rank.
 */
public final class DirectBuffers {
    private record Region(long size, WeakReference<Buffer> buffer) {}

    private static final ConcurrentSkipListMap<Long, Region> REGIONS = new ConcurrentSkipListMap<>();

    private DirectBuffers() {}

    /** Remembers {@code buffer} (a direct buffer; others are ignored) as a whole region; returns it. */
    public static <B extends Buffer> B register(B buffer) {
        if (buffer != null && buffer.isDirect()) {
            MemorySegment whole = MemorySegment.ofBuffer(buffer.duplicate().clear());
            if (whole.byteSize() > 0) {
                Map.Entry<Long, Region> inside = enclosing(whole.address(), whole.byteSize());
                if (inside == null) {
                    REGIONS.put(whole.address(), new Region(whole.byteSize(), new WeakReference<>(buffer)));
                }
            }
        }
        return buffer;
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
        Buffer b = e.getValue().buffer().get();
        return b == null ? null : MemorySegment.ofBuffer(b.duplicate().clear());
    }

    private static Map.Entry<Long, Region> enclosing(long address, long size) {
        Map.Entry<Long, Region> e = REGIONS.floorEntry(address);
        while (e != null && e.getValue().buffer().get() == null) {
            REGIONS.remove(e.getKey(), e.getValue());
            e = REGIONS.floorEntry(address);
        }
        if (e == null || address + size > e.getKey() + e.getValue().size()) {
            return null;
        }
        return e;
    }
}
