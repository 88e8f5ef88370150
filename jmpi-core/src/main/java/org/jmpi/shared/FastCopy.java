package org.jmpi.shared;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Copies of message payloads between memory that another core touches (a shared-memory ring) and the caller's
 * buffer, through the C library's {@code memmove} for pieces of 4 KiB and more once the runtime has linked it at the
 * end of {@code MPI_Init} ({@link #link()}; ranks as processes only: in threads mode the slices its arguments need
 * would be garbage on every large copy between two ranks' buffers).
 *
 * <p><b>Why memmove at all.</b> Measured on the 2-core AMD EPYC test VM: a producer/consumer pipeline through a
 * 256 KiB ring moves 6-8 GB/s with {@link MemorySegment#copy} and 15-25 GB/s with glibc's {@code memmove} on the same
 * memory (a C twin of the pipeline reaches 22-37 GB/s); inside one core's cache the two are equal. The JDK's copy loop
 * is fine for cache-hot data but not for cache lines that live in the other core's cache, which is what a two-copy
 * transport copies. Without it (2026-11-28 to 12-04) a warmed ping-pong of 1 MiB on Java arrays took 150-185 us
 * instead of 44-60 and a window of 64 KiB sends moved 5.5-6.3 GB/s instead of 8-14. Java arrays are passed to
 * {@code memmove} directly: the downcall is linked with {@link Linker.Option#critical(boolean) critical(true)}, which
 * lets it see heap memory (the collector waits for the call, a few microseconds at most per piece).
 *
 * <p><b>When it is linked.</b> Linking a downcall costs a rank some tens of milliseconds of CPU (the JDK generates the
 * call's code), and the JDK's part of each call (the segments' checks and scopes, its adapters) runs slowly until the
 * JIT has compiled it. Linked in a daemon thread in the middle of a program (once a rank had copied 1 GiB, until
 * 2026-11-28), it stalled the program: 30-40 ms in the 256 KiB allgathers of an OMB-J-shaped run, a 64 KiB alltoall at
 * 78-92 us instead of 15.6. Since 2026-12-04 the runtime begins the link in a daemon thread as {@code MPI_Init} begins,
 * on ranks (processes) with another rank on their host, and waits for it as {@code MPI_Init} ends ({@link
 * #linkInBackground()}, {@link #link()}): the link uses the start-up's waits, and none of it falls in the program. Not
 * where the host has more ranks than processors (the runtime's "crowded"): there the start-up has no waits to hide the
 * link in, and a 4-rank job on 2 cores started 2-3 % later with it (15 ms of CPU per rank; without it 0.98 of the wall
 * time and 0.97 of the CPU time of the build that linked, 20 paired runs, 2026-12-04). Across 2 emulated hosts x 2
 * ranks on 2 cores, where it did link until then, the mini-applications took 1.02-1.15 times as long with it as without
 * in one sitting (10 gated rounds) and 0.86-1.03 in the next (5 rounds): within their spread. The first copies through
 * it still run the JDK's part uncompiled: in a cold run the first size that takes it (4 KiB) costs 1-2 us more per
 * collective call than with the JDK's copy (OMB-J's alltoall and allgather at 4 KiB 3.2-3.5 us against 1.6-2.2;
 * 2026-12-04, 4 gated rounds), and every size after it gains (latency on arrays from 8 KiB 0.3-0.7 of the time,
 * allreduce from 16 KiB 0.5, a 1 MiB ping-pong on {@code byte[]} after a barrier 0.49). {@code jmpi.copy.native.min}
 * (read at MPI_Init; default 4 KiB; 0 never links) is the smallest piece it copies.
 * Only between segments whose source and destination are alive, the destination writable, neither of them a mapped
 * file (a page of a mapped file may fault, e.g. when the file was truncated or the file system is full: the JDK's copy
 * turns that fault into an exception, a fault inside {@code memmove} would end the JVM; the shared-memory transport
 * hands out its rings, whose pages are all written at creation, as plain native segments). Smaller pieces, every copy
 * before the link and anything the checks refuse take {@link MemorySegment#copy} (the JDK then throws its usual
 * exception).
 *
 * <p><b>Small copies</b> take the JDK's copy in its form with element layouts ({@code JAVA_BYTE} on both sides):
 * bounds checks and one {@code Unsafe.copyMemory}, without the plain form's loops per size class (each of which C2
 * compiles in only when a program first copies that size, throwing the compiled copy away every time: a cold OSU
 * allreduce compiled this method 8-9 times per rank, 3-4 with the element layouts). A chain of casts to the JDK's
 * exact segment classes (one call per pair of kinds, so that C2 knew both classes) once saved part of a small copy
 * between a Java array and native memory once compiled (a 32 B gather on byte[]: 0.28-0.40 us against 0.19 us), but
 * C1 could not compile those methods (eight inlined copies each: "out of virtual registers", some 30-130 ms of a
 * compiler thread per rank for nothing), and every new pair of kinds threw C2's code away (about 24 deoptimizations
 * per cold run of the OSU latency benchmark).
 *
 * <p><b>Short distances.</b> On the test VM (AMD EPYC, glibc 2.36) {@code memmove} of 4 KiB to a few hundred KiB
 * copies with {@code rep movsb}, which is about 15 times slower when the destination starts 1 to 31 bytes after the
 * source modulo 4 KiB (64 KiB: 22 us instead of 1.3 us; 1 MiB takes another route and is not affected). Two Java
 * arrays of one size allocated one after the other are exactly 16 bytes apart modulo 4 KiB when the size is a multiple
 * of 4 KiB (the second array's header), so a program's send and receive arrays hit it on every local copy: a 2-rank
 * allreduce of 64 KiB on float[] took 35 us instead of 12-14. Such copies (distances 1 to 63, to be safe) take
 * {@link MemorySegment#copy} instead, whose vector loop does not mind the distance.
 *
 * <p>Threading: any thread. {@link #nativeMin} is written at MPI_Init and by the link, both before the rank's
 * program copies; the handle is a constant of a holder class. The class lives in {@code org.jmpi.shared}, loaded
 * once per JVM, so ranks running as threads share one link.
 */
@SuppressWarnings("restricted")
public final class FastCopy {
    private FastCopy() {}

    /** The default of {@code jmpi.copy.native.min}. */
    public static final long DEFAULT_NATIVE_MIN = 4096;

    /** {@code jmpi.copy.native.min} as set at MPI_Init; {@code Long.MAX_VALUE}: never. */
    private static long configuredMin = DEFAULT_NATIVE_MIN;
    /**
     * Smallest piece copied by {@code memmove}: {@code Long.MAX_VALUE} until {@link #link()} has linked it (and for
     * good when the native copy is off or cannot be linked).
     */
    private static long nativeMin = Long.MAX_VALUE;
    /** Whether {@link Memmove} has linked the downcall (set by its initialisation). */
    private static boolean linked;

    /**
     * Sets {@code jmpi.copy.native.min}, which the runtime has parsed and checked: pieces of at least {@code min}
     * bytes go through {@code memmove} once it is linked; 0 turns the native copy off.
     */
    public static void setNativeMin(long min) {
        configuredMin = min <= 0 ? Long.MAX_VALUE : Math.max(min, 64);
        nativeMin = configuredMin == Long.MAX_VALUE || !linked ? Long.MAX_VALUE : configuredMin;
    }

    /** The smallest piece copied by {@code memmove} now; {@code Long.MAX_VALUE} when none is. */
    public static long nativeMin() {
        return nativeMin;
    }

    /**
     * Starts linking {@code memmove} in a daemon thread unless the native copy is off (the runtime, as MPI_Init begins
     * on a rank with another rank on its host: the link then takes CPU time that the start-up's waits leave idle);
     * {@link #link()} waits for it.
     */
    public static void linkInBackground() {
        if (configuredMin != Long.MAX_VALUE && !linked) {
            Thread.ofPlatform().daemon().name("jmpi-link-memmove").start(() -> {
                MethodHandle ignored = Memmove.HANDLE;
            });
        }
    }

    /**
     * Links {@code memmove} in the calling thread unless the native copy is off or some caller has begun to (then
     * waits for it); returns whether large copies take it from now on. The runtime calls it as MPI_Init ends.
     */
    public static boolean link() {
        if (configuredMin == Long.MAX_VALUE || Memmove.HANDLE == null) {
            return false;
        }
        nativeMin = configuredMin;
        return true;
    }

    /**
     * Copies {@code length} bytes from {@code src} at {@code srcOffset} to {@code dst} at {@code dstOffset}, as
     * {@link MemorySegment#copy(MemorySegment, long, MemorySegment, long, long)} does (overlap allowed, same
     * exceptions).
     */
    public static void copy(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long length) {
        if (length < nativeMin || !copyNatively(src, srcOffset, dst, dstOffset, length)) {
            // the form with element layouts: checks and one Unsafe.copyMemory, without the size-dependent loops of
            // the plain form, each of which the JIT would compile in only when a program first copies that size
            MemorySegment.copy(src, ValueLayout.JAVA_BYTE, srcOffset, dst, ValueLayout.JAVA_BYTE, dstOffset, length);
        }
    }

    /**
     * {@link #copy} without {@code memmove}: for chunks that one core copies and reads again at once (a reduction's
     * operands, 8 KiB at a time), where the JDK's copy is as fast and needs no compilation of its own. Through
     * {@code memmove} such copies made a cold OSU allreduce of 512 KiB-1 MiB on two ranks 1.3 times slower.
     */
    public static void copyLocal(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long length) {
        MemorySegment.copy(src, ValueLayout.JAVA_BYTE, srcOffset, dst, ValueLayout.JAVA_BYTE, dstOffset, length);
    }

    /**
     * A large piece through {@code memmove}, when it may take it (see the class comment); false when it did not copy.
     * Kept out of {@link #copy}, whose small copies then compile to the JDK's copy and a comparison: the checks and
     * the downcall here see every kind of segment a program uses, and each new kind makes the JIT compile what
     * inlined them again. Reached only once {@link #link()} has initialized {@link Memmove}.
     */
    private static boolean copyNatively(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset,
            long length) {
        if (src.isMapped() || dst.isMapped() || dst.isReadOnly()) {
            return false;
        }
        // asSlice checks bounds and that the segments are alive; the linker keeps their scopes alive for the
        // duration of the call. A whole segment is passed as it is; a slice is an object per copy (C1, which compiles
        // the message path, does not remove it), some 40 bytes per 4 KiB or more copied
        MemorySegment d = dstOffset == 0 && dst.byteSize() == length ? dst : dst.asSlice(dstOffset, length);
        MemorySegment s = srcOffset == 0 && src.byteSize() == length ? src : src.asSlice(srcOffset, length);
        try {
            if (shortDistance(s, d)) {
                return false;
            }
            long ignored = (long) Memmove.HANDLE.invokeExact(d, s, length);
            return true;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Distances (destination minus source, modulo 4 KiB) at which memmove is slow: 1 to this minus 1. */
    static final long SHORT_DISTANCE = 64;

    /**
     * Whether the destination starts a little after the source modulo 4 KiB (see the class comment, "Short
     * distances"). The address of a Java array's piece is what {@code memmove(p, p, 0)} returns for it, a critical
     * downcall that moves nothing; the array may move before the copy, which costs speed at worst, never
     * correctness.
     */
    private static boolean shortDistance(MemorySegment s, MemorySegment d) throws Throwable {
        long sa = s.isNative() ? s.address() : (long) Memmove.HANDLE.invokeExact(s, s, 0L);
        long da = d.isNative() ? d.address() : (long) Memmove.HANDLE.invokeExact(d, d, 0L);
        long distance = (da - sa) & 4095;
        return distance != 0 && distance < SHORT_DISTANCE;
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

    /**
     * The downcall {@code memmove(void *dst, const void *src, size_t n) -> void *}, critical with heap access, or null
     * when it cannot be linked (no native access, no such symbol); linked by the class's initialisation, in the thread
     * of {@link #linkInBackground()} (or of the first {@link #link()}). A constant, so that C1 compiles {@code
     * invokeExact} through it into its caller (see {@code LinuxCalls.Calls}).
     */
    private static final class Memmove {
        static final MethodHandle HANDLE = lookup();

        static {
            if (HANDLE != null) {
                // The JDK customizes a handle's lambda form after its 127th call from code that does not see it as
                // a constant (the interpreter's), spinning classes: here, with copies of nothing, not in the
                // program's first large messages. Both kinds of memory, as the program's copies will pass them.
                MemorySegment nat = java.lang.foreign.Arena.ofAuto().allocate(8, 8);
                MemorySegment heap = MemorySegment.ofArray(new byte[8]);
                try {
                    for (int i = 0; i < 128; i++) {
                        MemorySegment src = (i & 1) == 0 ? heap : nat;
                        long ignored = (long) HANDLE.invokeExact(nat, src, 0L);
                    }
                } catch (Throwable t) {
                    throw new ExceptionInInitializerError(t);
                }
                linked = true;
            }
        }

        private static MethodHandle lookup() {
            try {
                Linker linker = Linker.nativeLinker();
                return linker.defaultLookup().find("memmove").map(s -> linker.downcallHandle(s,
                        // memmove returns its destination: a pointer, read as a 64-bit integer (shortDistance uses it)
                        FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.ADDRESS,
                                ValueLayout.JAVA_LONG),
                        Linker.Option.critical(true))).orElse(null);
            } catch (RuntimeException | LinkageError e) {
                // no native access (--enable-native-access refused), no linker on this platform: the JDK's copy it is
                return null;
            }
        }
    }
}
