package org.jmpi.shared;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Copies of message payloads: the JDK's {@link MemorySegment#copy} in its form with element layouts
 * ({@code JAVA_BYTE} on both sides), which is bounds checks and one {@code Unsafe.copyMemory}, without the plain
 * form's loops per size class (each of which C2 compiles in only when a program first copies that size, throwing
 * the compiled copy away every time: a cold OSU allreduce compiled this method 8-9 times per rank, 3-4 with the element
 * layouts).
 *
 * <p>Measured and taken out again:
 * <ul>
 * <li>the C library's {@code memmove} through a critical downcall for pieces of 4 KiB or more, linked in a daemon
 * thread once a rank had copied 1 GiB (until 2026-11-28). On the AMD EPYC test VM it copied cache lines that the
 * other core had just written at 15-25 GB/s against 6-8 (a window of non-blocking sends of Java arrays from 8 KiB to
 * 4 MiB moved 1.3-2.7 times as much, warm); on the Intel Xeon VM it gave nothing, and wherever the link came it cost
 * a cold program 50-80 ms of a core (the JDK generating the downcall's glue): 30-40 ms of stalls in the 256 KiB
 * allgathers of an OMB-J-shaped run, a 64 KiB alltoall at 78-92 us instead of 15.6, and no case of the cold suite
 * faster with it;</li>
 * <li>a chain of casts to the JDK's exact segment classes (one call per pair of kinds, so that C2 knew both classes):
 * part of a small copy between a Java array and native memory was saved once compiled (a 32 B gather on byte[]:
 * 0.28-0.40 us against 0.19 us), but C1 could not compile those methods (eight inlined copies each: "out of virtual
 * registers", some 30-130 ms of a compiler thread per rank for nothing), and every new pair of kinds threw C2's code
 * away (about 24 deoptimizations per cold run of the OSU latency benchmark).</li>
 * </ul>
 *
 * <p>Threading: any thread, no state.
 */
public final class FastCopy {
    private FastCopy() {}

    /**
     * Copies {@code length} bytes from {@code src} at {@code srcOffset} to {@code dst} at {@code dstOffset}, as
     * {@link MemorySegment#copy(MemorySegment, long, MemorySegment, long, long)} does (overlap allowed, same
     * exceptions).
     */
    public static void copy(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long length) {
        MemorySegment.copy(src, ValueLayout.JAVA_BYTE, srcOffset, dst, ValueLayout.JAVA_BYTE, dstOffset, length);
    }

    /**
     * The memory of a Java primitive array, as a heap segment of the JDK's class for that array kind. Type tests, not
     * a pattern {@code switch}, which would generate a class at run time the first time it runs.
     */
    public static MemorySegment arraySegment(Object array) {
        if (array instanceof byte[] a) {
            return MemorySegment.ofArray(a);
        }
        if (array instanceof double[] a) {
            return MemorySegment.ofArray(a);
        }
        if (array instanceof int[] a) {
            return MemorySegment.ofArray(a);
        }
        if (array instanceof long[] a) {
            return MemorySegment.ofArray(a);
        }
        if (array instanceof float[] a) {
            return MemorySegment.ofArray(a);
        }
        if (array instanceof char[] a) {
            return MemorySegment.ofArray(a);
        }
        if (array instanceof short[] a) {
            return MemorySegment.ofArray(a);
        }
        throw new IllegalArgumentException("not a primitive array: " + array.getClass());
    }
}
