package org.jmpi.shared;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * Native memory for temporaries that the garbage collector frees, zeroed and 64-byte aligned, as
 * {@code Arena.ofAuto().allocate(bytes, 64)} gives it, but made from a direct byte buffer where one can hold it. JDK 25
 * zeroes an arena's allocation with a Java loop of 8-byte stores, which a cold rank runs in the interpreter: 0.5-1 ms
 * for 64 KiB, 1.7 ms for 256 KiB, on the first collective of every program (its scratch), on each new size of
 * native temporary, and for a window's memory and every larger one-sided operation's payload; a direct buffer is
 * zeroed by one call into the VM (0.08 ms for 64 KiB; measured 2026-12-01).
 * The segment keeps its buffer reachable; the buffer's cleaner frees the memory, as an automatic arena's does.
 *
 * <p>Threading: any thread, no state.
 */
public final class NativeMemory {
    private NativeMemory() {}

    /** At least one byte is allocated, as an arena does, so that every segment has an address of its own. */
    public static MemorySegment allocate(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("negative size " + bytes);
        }
        long n = Math.max(bytes, 1);
        if (n > Integer.MAX_VALUE - 63) {
            return Arena.ofAuto().allocate(n, 64);
        }
        MemorySegment whole = MemorySegment.ofBuffer(ByteBuffer.allocateDirect((int) n + 63));
        return whole.asSlice(-whole.address() & 63, bytes);
    }
}
