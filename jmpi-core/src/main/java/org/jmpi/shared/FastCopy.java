package org.jmpi.shared;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Copies of message payloads between memory that another core touches (a shared-memory ring, a peer's buffer in
 * threads mode) and the caller's buffer, through the C library's {@code memmove} for large pieces once a rank has
 * copied enough to pay for linking it (see "When" and "Why not at once").
 *
 * <p><b>Why memmove at all.</b> Measured on the 2-core test VM: a producer/consumer pipeline through a 256 KiB ring moves 6-8 GB/s
 * with {@link MemorySegment#copy} and 15-25 GB/s with glibc's {@code memmove} on the same memory (a C twin of the
 * pipeline reaches 22-37 GB/s); inside one core's cache the two are equal. The JDK's copy loop is fine for cache-hot
 * data but not for cache lines that live in the other core's cache, which is what a two-copy transport copies.
 * Java arrays are passed to {@code memmove} directly: the downcall is linked with
 * {@link Linker.Option#critical(boolean) critical(true)}, which lets it see heap memory (the collector pins the array
 * for the duration of the call, a few microseconds at most per piece).
 *
 * <p><b>When.</b> Pieces of at least {@code jmpi.copy.native.min} bytes (default 4 KiB; 0 turns the native copy off)
 * once the JVM has copied {@code jmpi.copy.native.after} bytes in such pieces with the JDK's copy (default 1 GiB; 0:
 * from the first one); both read and checked at MPI_Init by the runtime, which fails with ERR_ARG on a bad value.
 * Only between segments whose source and destination are alive, the destination writable, neither of them a mapped
 * file (a page of a mapped file may fault, e.g. when the file was truncated or the file system is full: the JDK's copy
 * turns that fault into an exception, a fault inside {@code memmove} would end the JVM; the shared-memory transport
 * hands out its rings, whose pages are all written at creation, as plain native segments). Smaller pieces and every
 * copy before the downcall is linked take {@link MemorySegment#copy}, as does anything the checks refuse (the JDK
 * then throws its usual exception). The downcall is linked in a daemon thread when the count is reached.
 *
 * <p><b>Why not at once.</b> Linking the first downcall of a JVM costs 150-230 ms of CPU in a plain JVM and 50-80 ms in
 * a rank with the class cache (the JDK generating and compiling the call's glue), and its first calls run slowly until
 * the JIT has compiled that glue. A program whose ranks fill the cores pays that inside its own first iterations:
 * linked at the first piece of 4 KiB (until 2026-11-27), it made the 2-D Jacobi (1024&sup2;, halo rows of 8 KiB) 1.27
 * times slower on two ranks, the conjugate gradient 1.09 times and OMB-J's broadcast of 4-16 KiB 3-6 times (cold
 * suite of 2026-11-27). What it buys, cache lines the other core has just written copied at 15-25 GB/s instead of 6-8,
 * pays the link back after roughly a gigabyte (about 0.09 ns saved per byte): a window of non-blocking sends of Java
 * arrays from 8 KiB to 4 MiB moved 1.3-2.7 times as much with it once warm.
 *
 * <p><b>Small copies</b> (everything below the native threshold) take the JDK's copy in its form with element
 * layouts ({@code JAVA_BYTE} on both sides): bounds checks and one {@code Unsafe.copyMemory}, without the plain
 * form's loops per size class (each of which C2 compiles in only when a program first copies that size, throwing
 * the compiled copy away every time: a cold OSU allreduce compiled this method 8-9 times per rank, now 3-4). A chain
 * of casts to the JDK's exact segment classes (one call per pair of kinds, so that C2 knew both classes) once saved
 * part of a small copy between a Java array and native memory once compiled (a 32 B gather on byte[]: 0.28-0.40 us
 * against 0.19 us), but C1 could not compile those methods (eight inlined copies each: "out of virtual registers",
 * some 30-130 ms of a compiler thread per rank for nothing), and every new pair of kinds threw C2's code away
 * (about 24 deoptimizations per cold run of the OSU latency benchmark).
 *
 * <p><b>Short distances.</b> On this project's test VM (AMD EPYC, glibc 2.36) {@code memmove} of 4 KiB to a few
 * hundred KiB copies with {@code rep movsb}, which is about 15 times slower when the destination starts 1 to 31
 * bytes after the source modulo 4 KiB (64 KiB: 22 us instead of 1.3 us; 1 MiB takes another route and is not
 * affected). Two Java arrays of one size allocated one after the other are exactly 16 bytes apart modulo 4 KiB when
 * the size is a multiple of 4 KiB (the second array's header), so a program's send and receive arrays hit it on
 * every local copy: a 2-rank allreduce of 64 KiB on float[] took 35 us instead of 12-14. Such copies (distances 1
 * to 63, to be safe) take {@link MemorySegment#copy} instead, whose vector loop does not mind the distance.
 *
 * <p>Threading: any thread; the linked handle is published through a volatile field. The class lives in
 * {@code org.jmpi.shared}, loaded once per JVM, so ranks running as threads share one linked handle.
 */
@SuppressWarnings("restricted")
public final class FastCopy {
    private FastCopy() {}

    /** The default of {@code jmpi.copy.native.min}. */
    public static final long DEFAULT_NATIVE_MIN = 4096;
    /** The default of {@code jmpi.copy.native.after}: 1 GiB (see the class comment, "Why not at once"). */
    public static final long DEFAULT_NATIVE_AFTER = 1L << 30;

    private static final AtomicBoolean LINKING = new AtomicBoolean();
    private static volatile MethodHandle memmove;
    /**
     * Smallest piece copied by {@code memmove}; {@code Long.MAX_VALUE} when the native copy is off. Set by the runtime
     * at MPI_Init (every rank of a JVM reads the same setting), read without ordering: a rank's copies come after its
     * own initialisation.
     */
    private static long nativeMin = DEFAULT_NATIVE_MIN;
    /** Bytes of large pieces to copy with the JDK's copy before the downcall is linked (set at MPI_Init as above). */
    private static long nativeAfter = DEFAULT_NATIVE_AFTER;
    /**
     * Bytes copied in large pieces while the downcall was not linked: approximate (threads of a JVM add to it without
     * ordering; a lost update delays the link by one piece).
     */
    private static long copiedBeforeLink;

    /**
     * Sets {@code jmpi.copy.native.min}, which the runtime has parsed and checked: pieces of at least {@code min}
     * bytes go through {@code memmove}; 0 turns the native copy off.
     */
    public static void setNativeMin(long min) {
        nativeMin = min <= 0 ? Long.MAX_VALUE : Math.max(min, 64);
    }

    /**
     * Sets {@code jmpi.copy.native.after}, which the runtime has parsed and checked: the downcall is linked once this
     * many bytes have been copied in large pieces; 0 links it at the first one.
     */
    public static void setNativeAfter(long bytes) {
        nativeAfter = Math.max(0, bytes);
    }

    /** The smallest piece copied by {@code memmove} now; {@code Long.MAX_VALUE} when the native copy is off. */
    public static long nativeMin() {
        return nativeMin;
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
     * A large piece through {@code memmove}, when it may take it (see the class comment); false when it did not copy.
     * Kept out of {@link #copy}, whose small copies then compile to the JDK's copy and a comparison: the checks and
     * the downcall here see every kind of segment a program uses, and each new kind makes the JIT compile what
     * inlined them again.
     */
    private static boolean copyNatively(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset,
            long length) {
        MethodHandle h = memmove;
        if (h == null) {
            if (linkDue(length)) {
                link();
            }
            return false;
        }
        if (src.isMapped() || dst.isMapped() || dst.isReadOnly()) {
            return false;
        }
        // asSlice checks bounds and that the segments are alive; the linker keeps their scopes alive for the
        // duration of the call. A whole segment is passed as it is: no slice to allocate (a message between two
        // whole arrays in threads mode then allocates nothing here)
        MemorySegment d = dstOffset == 0 && dst.byteSize() == length ? dst : dst.asSlice(dstOffset, length);
        MemorySegment s = srcOffset == 0 && src.byteSize() == length ? src : src.asSlice(srcOffset, length);
        try {
            if (shortDistance(h, s, d)) {
                return false;
            }
            long ignored = (long) h.invokeExact(d, s, length);
            return true;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Counts a large piece copied before the link; whether enough has been copied to link now. */
    static boolean linkDue(long length) {
        long copied = copiedBeforeLink + length;
        copiedBeforeLink = copied;
        return copied >= nativeAfter;
    }

    /** Forgets the bytes counted towards the link (tests). */
    static void resetLinkCount() {
        copiedBeforeLink = 0;
    }

    /** Distances (destination minus source, modulo 4 KiB) at which memmove is slow: 1 to this minus 1. */
    static final long SHORT_DISTANCE = 64;

    /**
     * Whether the destination starts a little after the source modulo 4 KiB (see the class comment, "Short
     * distances"). The address of a Java array's piece is what {@code memmove(p, p, 0)} returns for it, a critical
     * downcall that moves nothing; the array may move before the copy, which costs speed at worst, never
     * correctness.
     */
    private static boolean shortDistance(MethodHandle h, MemorySegment s, MemorySegment d) throws Throwable {
        long sa = s.isNative() ? s.address() : (long) h.invokeExact(s, s, 0L);
        long da = d.isNative() ? d.address() : (long) h.invokeExact(d, d, 0L);
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

    /** Whether large copies go through {@code memmove} now (tests, diagnostics). */
    public static boolean nativeReady() {
        return memmove != null;
    }

    /** Links the downcall now, in the calling thread (tests and benchmarks); returns whether it is ready. */
    public static boolean linkNow() {
        if (memmove == null) {
            LINKING.set(true);
            memmove = lookup();
        }
        return memmove != null;
    }

    private static void link() {
        if (LINKING.compareAndSet(false, true)) {
            Thread.ofPlatform().daemon().name("jmpi-link-memmove").start(() -> memmove = lookup());
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
