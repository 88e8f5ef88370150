package org.jmpi.shared;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Copies of message payloads between memory that another core touches (a shared-memory ring, a peer's buffer in
 * threads mode) and the caller's buffer, through the C library's {@code memmove} for large pieces.
 *
 * <p><b>Why.</b> Measured on the 2-core test VM: a producer/consumer pipeline through a 256 KiB ring moves 6-8 GB/s
 * with {@link MemorySegment#copy} and 15-25 GB/s with glibc's {@code memmove} on the same memory (a C twin of the
 * pipeline reaches 22-37 GB/s); inside one core's cache the two are equal. The JDK's copy loop is fine for cache-hot
 * data but not for cache lines that live in the other core's cache, which is what a two-copy transport copies.
 * Java arrays are passed to {@code memmove} directly: the downcall is linked with
 * {@link Linker.Option#critical(boolean) critical(true)}, which lets it see heap memory (the collector pins the array
 * for the duration of the call, a few microseconds at most per piece).
 *
 * <p><b>When.</b> Pieces of at least {@code jmpi.copy.native.min} bytes (default 4 KiB; 0 turns the native copy off)
 * between segments whose source and destination are alive, the destination writable, neither of them a mapped file
 * (a page of a mapped file may fault, e.g. when the file was truncated or the file system is full: the JDK's copy
 * turns that fault into an exception, a fault inside {@code memmove} would end the JVM; the shared-memory transport
 * hands out its rings, whose pages are all written at creation, as plain native segments). Smaller pieces and every
 * copy before the downcall is linked take {@link MemorySegment#copy}, as does anything the checks refuse (the JDK
 * then throws its usual exception). Linking the downcall costs the JDK some tens of milliseconds of CPU, so it is done
 * in a daemon thread at the first large copy, not at start-up.
 *
 * <p>Threading: any thread; the linked handle is published through a volatile field. The class lives in
 * {@code org.jmpi.shared}, loaded once per JVM, so ranks running as threads share one linked handle.
 */
@SuppressWarnings("restricted")
public final class FastCopy {
    private FastCopy() {}

    /** Smallest piece copied by {@code memmove}; {@code Long.MAX_VALUE} when the native copy is off. */
    public static final long NATIVE_MIN = nativeMin();

    private static final AtomicBoolean LINKING = new AtomicBoolean();
    private static volatile MethodHandle memmove;

    private static long nativeMin() {
        String v = System.getProperty("jmpi.copy.native.min");
        if (v == null) {
            v = System.getenv("JMPI_COPY_NATIVE_MIN");
        }
        long min = 4096;
        if (v != null && !v.isBlank()) {
            try {
                String s = v.trim().toLowerCase(java.util.Locale.ROOT);
                long unit = s.endsWith("k") ? 1024 : s.endsWith("m") ? 1 << 20 : 1;
                min = Long.parseLong(unit == 1 ? s : s.substring(0, s.length() - 1)) * unit;
            } catch (NumberFormatException e) {
                min = 4096;
            }
        }
        return min <= 0 ? Long.MAX_VALUE : Math.max(min, 64);
    }

    /**
     * Copies {@code length} bytes from {@code src} at {@code srcOffset} to {@code dst} at {@code dstOffset}, as
     * {@link MemorySegment#copy(MemorySegment, long, MemorySegment, long, long)} does (overlap allowed, same
     * exceptions).
     */
    public static void copy(MemorySegment src, long srcOffset, MemorySegment dst, long dstOffset, long length) {
        if (length >= NATIVE_MIN && !src.isMapped() && !dst.isMapped()) {
            MethodHandle h = memmove;
            if (h != null) {
                if (!dst.isReadOnly()) {
                    // asSlice checks bounds and that the segments are alive; the linker keeps their scopes alive
                    // for the duration of the call. A whole segment is passed as it is: no slice to allocate (a
                    // message between two whole arrays in threads mode then allocates nothing here)
                    MemorySegment d = dstOffset == 0 && dst.byteSize() == length ? dst : dst.asSlice(dstOffset, length);
                    MemorySegment s = srcOffset == 0 && src.byteSize() == length ? src : src.asSlice(srcOffset, length);
                    try {
                        h.invokeExact(d, s, length);
                    } catch (RuntimeException | Error e) {
                        throw e;
                    } catch (Throwable t) {
                        throw new IllegalStateException(t);
                    }
                    return;
                }
            } else {
                link();
            }
        }
        MemorySegment.copy(src, srcOffset, dst, dstOffset, length);
    }

    /** Whether large copies go through {@code memmove} now (tests, diagnostics). */
    public static boolean nativeReady() {
        return memmove != null;
    }

    /** Links the downcall now, in the calling thread (tests and benchmarks); returns whether it is ready. */
    public static boolean linkNow() {
        if (memmove == null && NATIVE_MIN != Long.MAX_VALUE) {
            LINKING.set(true);
            memmove = lookup();
        }
        return memmove != null;
    }

    private static void link() {
        if (NATIVE_MIN != Long.MAX_VALUE && LINKING.compareAndSet(false, true)) {
            Thread.ofPlatform().daemon().name("jmpi-link-memmove").start(() -> memmove = lookup());
        }
    }

    private static MethodHandle lookup() {
        try {
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find("memmove").map(s -> linker.downcallHandle(s,
                    FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG),
                    Linker.Option.critical(true))).orElse(null);
        } catch (RuntimeException | LinkageError e) {
            // no native access (--enable-native-access refused), no linker on this platform: the JDK's copy it is
            return null;
        }
    }
}
