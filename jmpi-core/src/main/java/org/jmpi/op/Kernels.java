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
            case INT -> IntegerKernels.apply(op, (int[]) a, (int[]) b, from, slots);
            case LONG -> IntegerKernels.apply(op, (long[]) a, (long[]) b, from, slots);
            case FLOAT -> FloatingKernels.apply(op, (float[]) a, (float[]) b, from, slots);
            case DOUBLE -> FloatingKernels.apply(op, (double[]) a, (double[]) b, from, slots);
            default -> applyOther(op, kind, a, b, from, n, slots);
        }
    }

    /**
     * {@link #apply} for the other kinds, out of line: C1, which compiles jmpi's runtime, compiles every branch of a
     * method, and a program that reduces ints, longs, floats or doubles then compiles the four branches above only.
     */
    private static void applyOther(PredefinedOp op, ElementKind kind, Object a, Object b, int from, int n, int slots) {
        switch (kind) {
            case BYTE, BOOLEAN -> IntegerKernels.apply(op, (byte[]) a, (byte[]) b, from, slots);
            case CHAR -> IntegerKernels.apply(op, (char[]) a, (char[]) b, from, slots);
            case SHORT -> IntegerKernels.apply(op, (short[]) a, (short[]) b, from, slots);
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
            default -> throw new AssertionError(kind); // apply takes the others
        }
    }

    /** Bytes of native data combined per pass through the array loops: small enough to stay in the L1 cache. */
    static final int CHUNK_BYTES = 8 << 10;

    /**
     * Per thread: for each element kind, two scratch arrays of {@link #CHUNK_BYTES} bytes and a segment over each
     * ({@code [x, y, segment of x, segment of y]} at {@code 4 * kind.ordinal()}), made on first use.
     */
    private static final org.jmpi.shared.FirstThreadLocal<Object[]> SCRATCH =
            new org.jmpi.shared.FirstThreadLocal<>(() -> new Object[4 * ElementKind.values().length]);

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
        int slot = 4 * kind.ordinal();
        if (scratch[slot] == null) {
            int entries = CHUNK_BYTES / kind.packedBytes * kind.slots;
            for (int k = 0; k < 2; k++) {
                Object array = java.lang.reflect.Array.newInstance(kind.arrayType.componentType(), entries);
                scratch[slot + k] = array;
                scratch[slot + 2 + k] = org.jmpi.shared.FastCopy.arraySegment(array);
            }
        }
        Object x = scratch[slot];
        Object y = scratch[slot + 1];
        java.lang.foreign.MemorySegment xs = (java.lang.foreign.MemorySegment) scratch[slot + 2];
        java.lang.foreign.MemorySegment ys = (java.lang.foreign.MemorySegment) scratch[slot + 3];
        long chunk = CHUNK_BYTES / kind.packedBytes;
        for (long done = 0; done < n; done += chunk) {
            int m = (int) Math.min(chunk, n - done);
            long at = (first + done) * bytes;
            long length = m * bytes;
            // the JDK's segment copy in the message path's form (FastCopy.copyLocal), not its array-taking copy,
            // whose shared type switch the message path's compiled copies were thrown away for
            org.jmpi.shared.FastCopy.copyLocal(a, at, xs, 0, length);
            org.jmpi.shared.FastCopy.copyLocal(b, at, ys, 0, length);
            apply(op, kind, x, y, 0, m);
            org.jmpi.shared.FastCopy.copyLocal(ys, 0, b, at, length);
        }
    }
}
