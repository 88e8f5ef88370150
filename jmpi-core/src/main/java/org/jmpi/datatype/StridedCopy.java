package org.jmpi.datatype;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Chooses the {@link CopyKernel} that moves bytes between a given pair of memory segments.
 *
 * <h2>Idea</h2>
 * A loop over {@code MemorySegment.get/set} is as fast as a plain array loop only while every access in it has seen
 * one segment class (a heap segment over {@code double[]}, one over {@code byte[]}, a native segment, ...): the JIT
 * then inlines the access down to a load or store. Once the same loop has run over several classes (a program that
 * sends from {@code double[]} and from direct buffers, and both packs and unpacks), it degrades to a virtual call per
 * element, about 30 times slower on a matrix column. So the loops live in {@link StridedKernel}, and this class
 * defines one hidden-class copy of it per (source class, destination class) pair, on first use: each copy gathers
 * its own profile, which stays monomorphic. There are few pairs (a heap kind per Java array type, native, mapped), so
 * few copies.
 *
 * <h2>Cost</h2>
 * A map lookup per pack or unpack call; defining a copy once per pair (a fraction of a millisecond). If the class
 * bytes cannot be read (an unusual class loader), one shared kernel is used: correct, only slower when polluted.
 *
 * <p>Threading: the kernel table is a concurrent map; kernels are stateless and shared by all threads.
 */
final class StridedCopy {
    private StridedCopy() {}

    private static final CopyKernel SHARED = new StridedKernel();
    private static final byte[] TEMPLATE = templateBytes();
    private static final Map<Class<?>, Map<Class<?>, CopyKernel>> KERNELS = new ConcurrentHashMap<>();

    /** The kernel for copies from segments of {@code src}'s class to segments of {@code dst}'s class. */
    static CopyKernel kernel(MemorySegment src, MemorySegment dst) {
        if (TEMPLATE == null) {
            return SHARED;
        }
        return KERNELS.computeIfAbsent(src.getClass(), k -> new ConcurrentHashMap<>())
                .computeIfAbsent(dst.getClass(), k -> define());
    }

    private static CopyKernel define() {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup().defineHiddenClass(TEMPLATE, true);
            return (CopyKernel) l.findConstructor(l.lookupClass(), MethodType.methodType(void.class)).invoke();
        } catch (Throwable e) {
            return SHARED;
        }
    }

    private static byte[] templateBytes() {
        try (InputStream in = StridedKernel.class.getResourceAsStream("StridedKernel.class")) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            return null;
        }
    }
}
