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

    /**
     * {@code b = a op b} for the {@code n} elements of {@code kind} starting at element {@code first} of two native
     * segments (see {@link SegmentKernels}).
     */
    static void apply(PredefinedOp op, ElementKind kind, java.lang.foreign.MemorySegment a,
            java.lang.foreign.MemorySegment b, long first, long n) {
        if (!a.isNative() || !b.isNative()) {
            throw new IllegalArgumentException("the segment kernels take native memory only");
        }
        long from = first * kind.slots;
        long slots = n * kind.slots;
        switch (kind) {
            case BYTE, BOOLEAN -> SegmentKernels.bytes(op, a, b, from, slots);
            case CHAR -> SegmentKernels.chars(op, a, b, from, slots);
            case SHORT -> SegmentKernels.shorts(op, a, b, from, slots);
            case INT -> SegmentKernels.ints(op, a, b, from, slots);
            case LONG -> SegmentKernels.longs(op, a, b, from, slots);
            case FLOAT -> SegmentKernels.floats(op, a, b, from, slots);
            case DOUBLE -> SegmentKernels.doubles(op, a, b, from, slots);
            case FLOAT_COMPLEX -> {
                if (op == PredefinedOp.PROD) {
                    SegmentKernels.complexProdFloat(a, b, first, n);
                } else {
                    SegmentKernels.floats(op, a, b, from, slots);
                }
            }
            case DOUBLE_COMPLEX -> {
                if (op == PredefinedOp.PROD) {
                    SegmentKernels.complexProdDouble(a, b, first, n);
                } else {
                    SegmentKernels.doubles(op, a, b, from, slots);
                }
            }
            case INT2, SHORT_INT, LONG_INT, FLOAT_INT, DOUBLE_INT -> {
                switch (op) {
                    case MINLOC, MAXLOC -> SegmentKernels.loc(op == PredefinedOp.MAXLOC, kind, a, b, first, n);
                    case NO_OP -> {
                        // leaves b as it is
                    }
                    case REPLACE -> java.lang.foreign.MemorySegment.copy(a, first * kind.packedBytes, b,
                            first * kind.packedBytes, n * kind.packedBytes);
                    default -> {
                        if (kind != ElementKind.INT2) {
                            throw new IllegalArgumentException(op + " on " + kind);
                        }
                        SegmentKernels.ints(op, a, b, 2 * first, 2 * n);
                    }
                }
            }
        }
    }
}
