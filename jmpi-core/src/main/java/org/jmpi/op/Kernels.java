package org.jmpi.op;

/**
 * Dispatch from (operation, element kind) to the loops of {@link IntegerKernels}, {@link FloatingKernels} and
 * {@link LocKernels}.
 */
final class Kernels {
    private Kernels() {}

    /**
     * {@code b = a op b} for the {@code n} elements of {@code kind} starting at element {@code first} of both arrays.
     * The caller has checked that {@code op} applies to {@code kind}.
     */
    static void apply(PredefinedOp op, ElementKind kind, Object a, Object b, int first, int n) {
        int from = first * kind.slots;
        int slots = n * kind.slots;
        switch (kind) {
            case BYTE, BOOLEAN -> IntegerKernels.apply(op, (byte[]) a, (byte[]) b, from, slots);
            case CHAR -> IntegerKernels.apply(op, (char[]) a, (char[]) b, from, slots);
            case SHORT -> IntegerKernels.apply(op, (short[]) a, (short[]) b, from, slots);
            case INT -> IntegerKernels.apply(op, (int[]) a, (int[]) b, from, slots);
            case LONG -> IntegerKernels.apply(op, (long[]) a, (long[]) b, from, slots);
            case FLOAT -> FloatingKernels.apply(op, (float[]) a, (float[]) b, from, slots);
            case DOUBLE -> FloatingKernels.apply(op, (double[]) a, (double[]) b, from, slots);
            case FLOAT_COMPLEX -> {
                if (op == PredefinedOp.PROD) {
                    FloatingKernels.complexProd((float[]) a, (float[]) b, from, n);
                } else {
                    FloatingKernels.apply(op, (float[]) a, (float[]) b, from, slots);
                }
            }
            case DOUBLE_COMPLEX -> {
                if (op == PredefinedOp.PROD) {
                    FloatingKernels.complexProd((double[]) a, (double[]) b, from, n);
                } else {
                    FloatingKernels.apply(op, (double[]) a, (double[]) b, from, slots);
                }
            }
            case INT2 -> {
                switch (op) {
                    case MINLOC, MAXLOC -> LocKernels.int2(op == PredefinedOp.MAXLOC, (int[]) a, (int[]) b, from, n);
                    default -> IntegerKernels.apply(op, (int[]) a, (int[]) b, from, slots);
                }
            }
            case SHORT_INT, LONG_INT, FLOAT_INT, DOUBLE_INT -> {
                switch (op) {
                    case MINLOC, MAXLOC ->
                            LocKernels.packed(op == PredefinedOp.MAXLOC, kind, (byte[]) a, (byte[]) b, from, n);
                    case REPLACE -> System.arraycopy(a, from, b, from, slots);
                    case NO_OP -> {
                        // leaves b as it is
                    }
                    default -> throw new IllegalArgumentException(op + " on " + kind);
                }
            }
        }
    }

    /** Bytes of native data combined per pass through the array loops: small enough to stay in the L1 cache. */
    static final int CHUNK_BYTES = 8 << 10;

    /** Per thread: two scratch arrays per element kind, of {@link #CHUNK_BYTES} bytes each, made on first use. */
    private static final ThreadLocal<Object[]> SCRATCH =
            ThreadLocal.withInitial(() -> new Object[2 * ElementKind.values().length]);

    /**
     * {@code b = a op b} for the {@code n} elements of {@code kind} starting at element {@code first} of two native
     * segments. The data is copied in chunks into Java arrays, combined there by the array loops above and copied
     * back: a loop over a Java array is fast from its first call (interpreted, C1 or C2 alike), while a loop touching
     * native memory element by element through {@code MemorySegment} is 10-150 times slower until C2 has compiled
     * it. The copies are bulk copies of cache-resident chunks.
     */
    static void apply(PredefinedOp op, ElementKind kind, java.lang.foreign.MemorySegment a,
            java.lang.foreign.MemorySegment b, long first, long n) {
        if (op == PredefinedOp.NO_OP) {
            return;
        }
        long bytes = kind.packedBytes;
        if (op == PredefinedOp.REPLACE) {
            java.lang.foreign.MemorySegment.copy(a, first * bytes, b, first * bytes, n * bytes);
            return;
        }
        Object[] scratch = SCRATCH.get();
        int slot = 2 * kind.ordinal();
        Object x = scratch[slot];
        if (x == null) {
            int entries = CHUNK_BYTES / kind.packedBytes * kind.slots;
            x = scratch[slot] = java.lang.reflect.Array.newInstance(kind.arrayType.componentType(), entries);
            scratch[slot + 1] = java.lang.reflect.Array.newInstance(kind.arrayType.componentType(), entries);
        }
        Object y = scratch[slot + 1];
        java.lang.foreign.ValueLayout layout = entryLayout(kind);
        long chunk = CHUNK_BYTES / kind.packedBytes;
        for (long done = 0; done < n; done += chunk) {
            int m = (int) Math.min(chunk, n - done);
            long at = (first + done) * bytes;
            int entries = m * kind.slots;
            java.lang.foreign.MemorySegment.copy(a, layout, at, x, 0, entries);
            java.lang.foreign.MemorySegment.copy(b, layout, at, y, 0, entries);
            apply(op, kind, x, y, 0, m);
            java.lang.foreign.MemorySegment.copy(y, 0, b, layout, at, entries);
        }
    }

    /** The layout of one array entry of {@code kind}'s working arrays, in native byte order. */
    private static java.lang.foreign.ValueLayout entryLayout(ElementKind kind) {
        return switch (kind) {
            case BYTE, BOOLEAN, SHORT_INT, LONG_INT, FLOAT_INT, DOUBLE_INT -> java.lang.foreign.ValueLayout.JAVA_BYTE;
            case CHAR -> java.lang.foreign.ValueLayout.JAVA_CHAR_UNALIGNED;
            case SHORT -> java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;
            case INT, INT2 -> java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
            case LONG -> java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
            case FLOAT, FLOAT_COMPLEX -> java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
            case DOUBLE, DOUBLE_COMPLEX -> java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED;
        };
    }
}
