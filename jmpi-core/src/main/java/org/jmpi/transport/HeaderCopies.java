package org.jmpi.transport;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import org.jmpi.shared.FastCopy;

/**
 * Copies of frame headers for frames that wait (for credit in the engine, for room in a shared-memory ring), in
 * native memory like every header the engine writes, and reused. A heap copy made the header accessors
 * ({@link FrameLayout}) and the transports' {@code send} see a second segment class the first time a frame waited,
 * and C2 threw their compiled code away ({@code class_check}) in the middle of the traffic.
 *
 * <p>Copies are allocated {@value #SLAB} at a time (one native allocation, sliced); at most {@value #KEPT} are kept for
 * reuse. Threading: none; the owner guards it with the lock under which its frames wait.
 */
public final class HeaderCopies {
    private static final int SLAB = 32;
    private static final int KEPT = 256;
    private final ArrayDeque<MemorySegment> free = new ArrayDeque<>();

    /** A copy of the first {@link FrameLayout#HEADER_BYTES} bytes of {@code header}. */
    public MemorySegment copyOf(MemorySegment header) {
        MemorySegment c = free.poll();
        if (c == null) {
            MemorySegment slab = Arena.ofAuto().allocate((long) FrameLayout.HEADER_BYTES * SLAB, 8);
            for (int i = 1; i < SLAB; i++) {
                free.add(slab.asSlice((long) i * FrameLayout.HEADER_BYTES, FrameLayout.HEADER_BYTES));
            }
            c = slab.asSlice(0, FrameLayout.HEADER_BYTES);
        }
        FastCopy.copy(header, 0, c, 0, FrameLayout.HEADER_BYTES);
        return c;
    }

    /** Takes back a copy that is no longer used (its frame was handed over; transports copy a header on send). */
    public void giveBack(MemorySegment copy) {
        if (free.size() < KEPT) {
            free.add(copy);
        }
    }
}
