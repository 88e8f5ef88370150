package org.jmpi.op;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_CHAR_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import java.lang.foreign.MemorySegment;

/**
 * The reduction loops of {@link IntegerKernels} and {@link FloatingKernels} over native memory (direct buffers,
 * off-heap temporaries): {@code b[i] = a[i] op b[i]} for element indices {@code i} in {@code [from, from + n)}.
 *
 * <p>Only native segments may reach these loops: the JIT compiles each access for the segment class it has seen, and
 * a loop that has seen both heap and native segments runs tens of times slower. Heap data goes through the array
 * loops instead ({@link Kernels}). Both operands use the same index, as in the array loops.
 */
final class SegmentKernels {
    private SegmentKernels() {}

    /** Copies elements {@code [from, from + n)} of {@code elementBytes} bytes each from {@code a} to {@code b}. */
    private static void replace(MemorySegment a, MemorySegment b, long from, long n, long elementBytes) {
        MemorySegment.copy(a, from * elementBytes, b, from * elementBytes, n * elementBytes);
    }

    // ---------------------------------------------------------------- byte

    static void bytes(PredefinedOp op, MemorySegment a, MemorySegment b, long from, long n) {
        switch (op) {
            case SUM -> sumByte(a, b, from, n);
            case PROD -> prodByte(a, b, from, n);
            case MIN -> minByte(a, b, from, n);
            case MAX -> maxByte(a, b, from, n);
            case LAND -> landByte(a, b, from, n);
            case LOR -> lorByte(a, b, from, n);
            case LXOR -> lxorByte(a, b, from, n);
            case BAND -> bandByte(a, b, from, n);
            case BOR -> borByte(a, b, from, n);
            case BXOR -> bxorByte(a, b, from, n);
            case REPLACE -> replace(a, b, from, n, JAVA_BYTE.byteSize());
            case NO_OP -> {
                // leaves b as it is
            }
            default -> throw new IllegalArgumentException(op + " on byte");
        }
    }

    private static void sumByte(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            byte x = a.getAtIndex(JAVA_BYTE, i);
            byte y = b.getAtIndex(JAVA_BYTE, i);
            b.setAtIndex(JAVA_BYTE, i, (byte) (x + y));
        }
    }

    private static void prodByte(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            byte x = a.getAtIndex(JAVA_BYTE, i);
            byte y = b.getAtIndex(JAVA_BYTE, i);
            b.setAtIndex(JAVA_BYTE, i, (byte) (x * y));
        }
    }

    private static void minByte(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            byte x = a.getAtIndex(JAVA_BYTE, i);
            byte y = b.getAtIndex(JAVA_BYTE, i);
            b.setAtIndex(JAVA_BYTE, i, (byte) Math.min(x, y));
        }
    }

    private static void maxByte(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            byte x = a.getAtIndex(JAVA_BYTE, i);
            byte y = b.getAtIndex(JAVA_BYTE, i);
            b.setAtIndex(JAVA_BYTE, i, (byte) Math.max(x, y));
        }
    }

    private static void landByte(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            byte x = a.getAtIndex(JAVA_BYTE, i);
            byte y = b.getAtIndex(JAVA_BYTE, i);
            b.setAtIndex(JAVA_BYTE, i, (byte) ((x != 0 & y != 0) ? 1 : 0));
        }
    }

    private static void lorByte(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            byte x = a.getAtIndex(JAVA_BYTE, i);
            byte y = b.getAtIndex(JAVA_BYTE, i);
            b.setAtIndex(JAVA_BYTE, i, (byte) ((x | y) != 0 ? 1 : 0));
        }
    }

    private static void lxorByte(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            byte x = a.getAtIndex(JAVA_BYTE, i);
            byte y = b.getAtIndex(JAVA_BYTE, i);
            b.setAtIndex(JAVA_BYTE, i, (byte) ((x != 0 ^ y != 0) ? 1 : 0));
        }
    }

    private static void bandByte(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            byte x = a.getAtIndex(JAVA_BYTE, i);
            byte y = b.getAtIndex(JAVA_BYTE, i);
            b.setAtIndex(JAVA_BYTE, i, (byte) (x & y));
        }
    }

    private static void borByte(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            byte x = a.getAtIndex(JAVA_BYTE, i);
            byte y = b.getAtIndex(JAVA_BYTE, i);
            b.setAtIndex(JAVA_BYTE, i, (byte) (x | y));
        }
    }

    private static void bxorByte(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            byte x = a.getAtIndex(JAVA_BYTE, i);
            byte y = b.getAtIndex(JAVA_BYTE, i);
            b.setAtIndex(JAVA_BYTE, i, (byte) (x ^ y));
        }
    }

    // ---------------------------------------------------------------- short

    static void shorts(PredefinedOp op, MemorySegment a, MemorySegment b, long from, long n) {
        switch (op) {
            case SUM -> sumShort(a, b, from, n);
            case PROD -> prodShort(a, b, from, n);
            case MIN -> minShort(a, b, from, n);
            case MAX -> maxShort(a, b, from, n);
            case LAND -> landShort(a, b, from, n);
            case LOR -> lorShort(a, b, from, n);
            case LXOR -> lxorShort(a, b, from, n);
            case BAND -> bandShort(a, b, from, n);
            case BOR -> borShort(a, b, from, n);
            case BXOR -> bxorShort(a, b, from, n);
            case REPLACE -> replace(a, b, from, n, JAVA_SHORT_UNALIGNED.byteSize());
            case NO_OP -> {
                // leaves b as it is
            }
            default -> throw new IllegalArgumentException(op + " on short");
        }
    }

    private static void sumShort(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            short x = a.getAtIndex(JAVA_SHORT_UNALIGNED, i);
            short y = b.getAtIndex(JAVA_SHORT_UNALIGNED, i);
            b.setAtIndex(JAVA_SHORT_UNALIGNED, i, (short) (x + y));
        }
    }

    private static void prodShort(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            short x = a.getAtIndex(JAVA_SHORT_UNALIGNED, i);
            short y = b.getAtIndex(JAVA_SHORT_UNALIGNED, i);
            b.setAtIndex(JAVA_SHORT_UNALIGNED, i, (short) (x * y));
        }
    }

    private static void minShort(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            short x = a.getAtIndex(JAVA_SHORT_UNALIGNED, i);
            short y = b.getAtIndex(JAVA_SHORT_UNALIGNED, i);
            b.setAtIndex(JAVA_SHORT_UNALIGNED, i, (short) Math.min(x, y));
        }
    }

    private static void maxShort(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            short x = a.getAtIndex(JAVA_SHORT_UNALIGNED, i);
            short y = b.getAtIndex(JAVA_SHORT_UNALIGNED, i);
            b.setAtIndex(JAVA_SHORT_UNALIGNED, i, (short) Math.max(x, y));
        }
    }

    private static void landShort(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            short x = a.getAtIndex(JAVA_SHORT_UNALIGNED, i);
            short y = b.getAtIndex(JAVA_SHORT_UNALIGNED, i);
            b.setAtIndex(JAVA_SHORT_UNALIGNED, i, (short) ((x != 0 & y != 0) ? 1 : 0));
        }
    }

    private static void lorShort(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            short x = a.getAtIndex(JAVA_SHORT_UNALIGNED, i);
            short y = b.getAtIndex(JAVA_SHORT_UNALIGNED, i);
            b.setAtIndex(JAVA_SHORT_UNALIGNED, i, (short) ((x | y) != 0 ? 1 : 0));
        }
    }

    private static void lxorShort(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            short x = a.getAtIndex(JAVA_SHORT_UNALIGNED, i);
            short y = b.getAtIndex(JAVA_SHORT_UNALIGNED, i);
            b.setAtIndex(JAVA_SHORT_UNALIGNED, i, (short) ((x != 0 ^ y != 0) ? 1 : 0));
        }
    }

    private static void bandShort(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            short x = a.getAtIndex(JAVA_SHORT_UNALIGNED, i);
            short y = b.getAtIndex(JAVA_SHORT_UNALIGNED, i);
            b.setAtIndex(JAVA_SHORT_UNALIGNED, i, (short) (x & y));
        }
    }

    private static void borShort(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            short x = a.getAtIndex(JAVA_SHORT_UNALIGNED, i);
            short y = b.getAtIndex(JAVA_SHORT_UNALIGNED, i);
            b.setAtIndex(JAVA_SHORT_UNALIGNED, i, (short) (x | y));
        }
    }

    private static void bxorShort(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            short x = a.getAtIndex(JAVA_SHORT_UNALIGNED, i);
            short y = b.getAtIndex(JAVA_SHORT_UNALIGNED, i);
            b.setAtIndex(JAVA_SHORT_UNALIGNED, i, (short) (x ^ y));
        }
    }

    // ---------------------------------------------------------------- char

    static void chars(PredefinedOp op, MemorySegment a, MemorySegment b, long from, long n) {
        switch (op) {
            case SUM -> sumChar(a, b, from, n);
            case PROD -> prodChar(a, b, from, n);
            case MIN -> minChar(a, b, from, n);
            case MAX -> maxChar(a, b, from, n);
            case LAND -> landChar(a, b, from, n);
            case LOR -> lorChar(a, b, from, n);
            case LXOR -> lxorChar(a, b, from, n);
            case BAND -> bandChar(a, b, from, n);
            case BOR -> borChar(a, b, from, n);
            case BXOR -> bxorChar(a, b, from, n);
            case REPLACE -> replace(a, b, from, n, JAVA_CHAR_UNALIGNED.byteSize());
            case NO_OP -> {
                // leaves b as it is
            }
            default -> throw new IllegalArgumentException(op + " on char");
        }
    }

    private static void sumChar(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            char x = a.getAtIndex(JAVA_CHAR_UNALIGNED, i);
            char y = b.getAtIndex(JAVA_CHAR_UNALIGNED, i);
            b.setAtIndex(JAVA_CHAR_UNALIGNED, i, (char) (x + y));
        }
    }

    private static void prodChar(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            char x = a.getAtIndex(JAVA_CHAR_UNALIGNED, i);
            char y = b.getAtIndex(JAVA_CHAR_UNALIGNED, i);
            b.setAtIndex(JAVA_CHAR_UNALIGNED, i, (char) (x * y));
        }
    }

    private static void minChar(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            char x = a.getAtIndex(JAVA_CHAR_UNALIGNED, i);
            char y = b.getAtIndex(JAVA_CHAR_UNALIGNED, i);
            b.setAtIndex(JAVA_CHAR_UNALIGNED, i, (char) Math.min(x, y));
        }
    }

    private static void maxChar(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            char x = a.getAtIndex(JAVA_CHAR_UNALIGNED, i);
            char y = b.getAtIndex(JAVA_CHAR_UNALIGNED, i);
            b.setAtIndex(JAVA_CHAR_UNALIGNED, i, (char) Math.max(x, y));
        }
    }

    private static void landChar(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            char x = a.getAtIndex(JAVA_CHAR_UNALIGNED, i);
            char y = b.getAtIndex(JAVA_CHAR_UNALIGNED, i);
            b.setAtIndex(JAVA_CHAR_UNALIGNED, i, (char) ((x != 0 & y != 0) ? 1 : 0));
        }
    }

    private static void lorChar(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            char x = a.getAtIndex(JAVA_CHAR_UNALIGNED, i);
            char y = b.getAtIndex(JAVA_CHAR_UNALIGNED, i);
            b.setAtIndex(JAVA_CHAR_UNALIGNED, i, (char) ((x | y) != 0 ? 1 : 0));
        }
    }

    private static void lxorChar(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            char x = a.getAtIndex(JAVA_CHAR_UNALIGNED, i);
            char y = b.getAtIndex(JAVA_CHAR_UNALIGNED, i);
            b.setAtIndex(JAVA_CHAR_UNALIGNED, i, (char) ((x != 0 ^ y != 0) ? 1 : 0));
        }
    }

    private static void bandChar(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            char x = a.getAtIndex(JAVA_CHAR_UNALIGNED, i);
            char y = b.getAtIndex(JAVA_CHAR_UNALIGNED, i);
            b.setAtIndex(JAVA_CHAR_UNALIGNED, i, (char) (x & y));
        }
    }

    private static void borChar(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            char x = a.getAtIndex(JAVA_CHAR_UNALIGNED, i);
            char y = b.getAtIndex(JAVA_CHAR_UNALIGNED, i);
            b.setAtIndex(JAVA_CHAR_UNALIGNED, i, (char) (x | y));
        }
    }

    private static void bxorChar(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            char x = a.getAtIndex(JAVA_CHAR_UNALIGNED, i);
            char y = b.getAtIndex(JAVA_CHAR_UNALIGNED, i);
            b.setAtIndex(JAVA_CHAR_UNALIGNED, i, (char) (x ^ y));
        }
    }

    // ---------------------------------------------------------------- int

    static void ints(PredefinedOp op, MemorySegment a, MemorySegment b, long from, long n) {
        switch (op) {
            case SUM -> sumInt(a, b, from, n);
            case PROD -> prodInt(a, b, from, n);
            case MIN -> minInt(a, b, from, n);
            case MAX -> maxInt(a, b, from, n);
            case LAND -> landInt(a, b, from, n);
            case LOR -> lorInt(a, b, from, n);
            case LXOR -> lxorInt(a, b, from, n);
            case BAND -> bandInt(a, b, from, n);
            case BOR -> borInt(a, b, from, n);
            case BXOR -> bxorInt(a, b, from, n);
            case REPLACE -> replace(a, b, from, n, JAVA_INT_UNALIGNED.byteSize());
            case NO_OP -> {
                // leaves b as it is
            }
            default -> throw new IllegalArgumentException(op + " on int");
        }
    }

    private static void sumInt(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            int x = a.getAtIndex(JAVA_INT_UNALIGNED, i);
            int y = b.getAtIndex(JAVA_INT_UNALIGNED, i);
            b.setAtIndex(JAVA_INT_UNALIGNED, i, x + y);
        }
    }

    private static void prodInt(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            int x = a.getAtIndex(JAVA_INT_UNALIGNED, i);
            int y = b.getAtIndex(JAVA_INT_UNALIGNED, i);
            b.setAtIndex(JAVA_INT_UNALIGNED, i, x * y);
        }
    }

    private static void minInt(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            int x = a.getAtIndex(JAVA_INT_UNALIGNED, i);
            int y = b.getAtIndex(JAVA_INT_UNALIGNED, i);
            b.setAtIndex(JAVA_INT_UNALIGNED, i, Math.min(x, y));
        }
    }

    private static void maxInt(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            int x = a.getAtIndex(JAVA_INT_UNALIGNED, i);
            int y = b.getAtIndex(JAVA_INT_UNALIGNED, i);
            b.setAtIndex(JAVA_INT_UNALIGNED, i, Math.max(x, y));
        }
    }

    private static void landInt(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            int x = a.getAtIndex(JAVA_INT_UNALIGNED, i);
            int y = b.getAtIndex(JAVA_INT_UNALIGNED, i);
            b.setAtIndex(JAVA_INT_UNALIGNED, i, ((x != 0 & y != 0) ? 1 : 0));
        }
    }

    private static void lorInt(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            int x = a.getAtIndex(JAVA_INT_UNALIGNED, i);
            int y = b.getAtIndex(JAVA_INT_UNALIGNED, i);
            b.setAtIndex(JAVA_INT_UNALIGNED, i, ((x | y) != 0 ? 1 : 0));
        }
    }

    private static void lxorInt(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            int x = a.getAtIndex(JAVA_INT_UNALIGNED, i);
            int y = b.getAtIndex(JAVA_INT_UNALIGNED, i);
            b.setAtIndex(JAVA_INT_UNALIGNED, i, ((x != 0 ^ y != 0) ? 1 : 0));
        }
    }

    private static void bandInt(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            int x = a.getAtIndex(JAVA_INT_UNALIGNED, i);
            int y = b.getAtIndex(JAVA_INT_UNALIGNED, i);
            b.setAtIndex(JAVA_INT_UNALIGNED, i, x & y);
        }
    }

    private static void borInt(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            int x = a.getAtIndex(JAVA_INT_UNALIGNED, i);
            int y = b.getAtIndex(JAVA_INT_UNALIGNED, i);
            b.setAtIndex(JAVA_INT_UNALIGNED, i, x | y);
        }
    }

    private static void bxorInt(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            int x = a.getAtIndex(JAVA_INT_UNALIGNED, i);
            int y = b.getAtIndex(JAVA_INT_UNALIGNED, i);
            b.setAtIndex(JAVA_INT_UNALIGNED, i, x ^ y);
        }
    }

    // ---------------------------------------------------------------- long

    static void longs(PredefinedOp op, MemorySegment a, MemorySegment b, long from, long n) {
        switch (op) {
            case SUM -> sumLong(a, b, from, n);
            case PROD -> prodLong(a, b, from, n);
            case MIN -> minLong(a, b, from, n);
            case MAX -> maxLong(a, b, from, n);
            case LAND -> landLong(a, b, from, n);
            case LOR -> lorLong(a, b, from, n);
            case LXOR -> lxorLong(a, b, from, n);
            case BAND -> bandLong(a, b, from, n);
            case BOR -> borLong(a, b, from, n);
            case BXOR -> bxorLong(a, b, from, n);
            case REPLACE -> replace(a, b, from, n, JAVA_LONG_UNALIGNED.byteSize());
            case NO_OP -> {
                // leaves b as it is
            }
            default -> throw new IllegalArgumentException(op + " on long");
        }
    }

    private static void sumLong(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            long x = a.getAtIndex(JAVA_LONG_UNALIGNED, i);
            long y = b.getAtIndex(JAVA_LONG_UNALIGNED, i);
            b.setAtIndex(JAVA_LONG_UNALIGNED, i, x + y);
        }
    }

    private static void prodLong(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            long x = a.getAtIndex(JAVA_LONG_UNALIGNED, i);
            long y = b.getAtIndex(JAVA_LONG_UNALIGNED, i);
            b.setAtIndex(JAVA_LONG_UNALIGNED, i, x * y);
        }
    }

    private static void minLong(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            long x = a.getAtIndex(JAVA_LONG_UNALIGNED, i);
            long y = b.getAtIndex(JAVA_LONG_UNALIGNED, i);
            b.setAtIndex(JAVA_LONG_UNALIGNED, i, Math.min(x, y));
        }
    }

    private static void maxLong(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            long x = a.getAtIndex(JAVA_LONG_UNALIGNED, i);
            long y = b.getAtIndex(JAVA_LONG_UNALIGNED, i);
            b.setAtIndex(JAVA_LONG_UNALIGNED, i, Math.max(x, y));
        }
    }

    private static void landLong(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            long x = a.getAtIndex(JAVA_LONG_UNALIGNED, i);
            long y = b.getAtIndex(JAVA_LONG_UNALIGNED, i);
            b.setAtIndex(JAVA_LONG_UNALIGNED, i, ((x != 0 & y != 0) ? 1L : 0L));
        }
    }

    private static void lorLong(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            long x = a.getAtIndex(JAVA_LONG_UNALIGNED, i);
            long y = b.getAtIndex(JAVA_LONG_UNALIGNED, i);
            b.setAtIndex(JAVA_LONG_UNALIGNED, i, ((x | y) != 0 ? 1L : 0L));
        }
    }

    private static void lxorLong(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            long x = a.getAtIndex(JAVA_LONG_UNALIGNED, i);
            long y = b.getAtIndex(JAVA_LONG_UNALIGNED, i);
            b.setAtIndex(JAVA_LONG_UNALIGNED, i, ((x != 0 ^ y != 0) ? 1L : 0L));
        }
    }

    private static void bandLong(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            long x = a.getAtIndex(JAVA_LONG_UNALIGNED, i);
            long y = b.getAtIndex(JAVA_LONG_UNALIGNED, i);
            b.setAtIndex(JAVA_LONG_UNALIGNED, i, x & y);
        }
    }

    private static void borLong(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            long x = a.getAtIndex(JAVA_LONG_UNALIGNED, i);
            long y = b.getAtIndex(JAVA_LONG_UNALIGNED, i);
            b.setAtIndex(JAVA_LONG_UNALIGNED, i, x | y);
        }
    }

    private static void bxorLong(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            long x = a.getAtIndex(JAVA_LONG_UNALIGNED, i);
            long y = b.getAtIndex(JAVA_LONG_UNALIGNED, i);
            b.setAtIndex(JAVA_LONG_UNALIGNED, i, x ^ y);
        }
    }

    // ---------------------------------------------------------------- float

    /**
     * Elements per chunk of the staged loops, and the fewest elements worth staging. Above it, the arithmetic
     * operations on float and double segments run over chunks copied into two per-thread arrays: the array loop is
     * vectorised, the segment loop is not (a 16 MiB float sum ran at 2.5-2.7x the time of a 16 MiB copy over
     * segments, 1.2x over arrays). The chunks stay in the L1 cache, so the copies cost little next to the memory
     * traffic, which is the same as the segment loop's. Measured (ReduceKernel, float sum, three gated runs each):
     * 64 KiB 4.4 -> 1.9 us, 1 MiB 70 -> 35 us, 4 MiB 281 -> 133-153 us; but 16 MiB 1.13-1.15 -> 1.48-1.80 ms, so
     * calls of more than {@link #STAGE_MAX_BYTES} keep the plain loop.
     */
    private static final int STAGE = 2048;
    private static final int STAGE_MIN = 256;
    private static final long STAGE_MAX_BYTES = 8L << 20;
    private static final ThreadLocal<float[][]> FLOAT_STAGE = ThreadLocal.withInitial(() -> new float[2][STAGE]);
    private static final ThreadLocal<double[][]> DOUBLE_STAGE = ThreadLocal.withInitial(() -> new double[2][STAGE]);

    private static boolean staged(PredefinedOp op, long n, int elementBytes) {
        return n >= STAGE_MIN && n * elementBytes <= STAGE_MAX_BYTES
                && (op == PredefinedOp.SUM || op == PredefinedOp.PROD || op == PredefinedOp.MIN
                        || op == PredefinedOp.MAX);
    }

    private static void stagedFloats(PredefinedOp op, MemorySegment a, MemorySegment b, long from, long n) {
        float[][] stage = FLOAT_STAGE.get();
        float[] x = stage[0];
        float[] y = stage[1];
        for (long i = from, end = from + n; i < end; ) {
            int k = (int) Math.min(STAGE, end - i);
            long at = i * Float.BYTES;
            MemorySegment.copy(a, JAVA_FLOAT_UNALIGNED, at, x, 0, k);
            MemorySegment.copy(b, JAVA_FLOAT_UNALIGNED, at, y, 0, k);
            FloatingKernels.apply(op, x, y, 0, k);
            MemorySegment.copy(y, 0, b, JAVA_FLOAT_UNALIGNED, at, k);
            i += k;
        }
    }

    private static void stagedDoubles(PredefinedOp op, MemorySegment a, MemorySegment b, long from, long n) {
        double[][] stage = DOUBLE_STAGE.get();
        double[] x = stage[0];
        double[] y = stage[1];
        for (long i = from, end = from + n; i < end; ) {
            int k = (int) Math.min(STAGE, end - i);
            long at = i * Double.BYTES;
            MemorySegment.copy(a, JAVA_DOUBLE_UNALIGNED, at, x, 0, k);
            MemorySegment.copy(b, JAVA_DOUBLE_UNALIGNED, at, y, 0, k);
            FloatingKernels.apply(op, x, y, 0, k);
            MemorySegment.copy(y, 0, b, JAVA_DOUBLE_UNALIGNED, at, k);
            i += k;
        }
    }

    static void floats(PredefinedOp op, MemorySegment a, MemorySegment b, long from, long n) {
        if (staged(op, n, Float.BYTES)) {
            stagedFloats(op, a, b, from, n);
            return;
        }
        switch (op) {
            case SUM -> sumFloat(a, b, from, n);
            case PROD -> prodFloat(a, b, from, n);
            case MIN -> minFloat(a, b, from, n);
            case MAX -> maxFloat(a, b, from, n);
            case REPLACE -> replace(a, b, from, n, JAVA_FLOAT_UNALIGNED.byteSize());
            case NO_OP -> {
                // leaves b as it is
            }
            default -> throw new IllegalArgumentException(op + " on float");
        }
    }

    private static void sumFloat(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            float x = a.getAtIndex(JAVA_FLOAT_UNALIGNED, i);
            float y = b.getAtIndex(JAVA_FLOAT_UNALIGNED, i);
            b.setAtIndex(JAVA_FLOAT_UNALIGNED, i, x + y);
        }
    }

    private static void prodFloat(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            float x = a.getAtIndex(JAVA_FLOAT_UNALIGNED, i);
            float y = b.getAtIndex(JAVA_FLOAT_UNALIGNED, i);
            b.setAtIndex(JAVA_FLOAT_UNALIGNED, i, x * y);
        }
    }

    private static void minFloat(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            float x = a.getAtIndex(JAVA_FLOAT_UNALIGNED, i);
            float y = b.getAtIndex(JAVA_FLOAT_UNALIGNED, i);
            b.setAtIndex(JAVA_FLOAT_UNALIGNED, i, Math.min(x, y));
        }
    }

    private static void maxFloat(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            float x = a.getAtIndex(JAVA_FLOAT_UNALIGNED, i);
            float y = b.getAtIndex(JAVA_FLOAT_UNALIGNED, i);
            b.setAtIndex(JAVA_FLOAT_UNALIGNED, i, Math.max(x, y));
        }
    }

    // ---------------------------------------------------------------- double

    static void doubles(PredefinedOp op, MemorySegment a, MemorySegment b, long from, long n) {
        if (staged(op, n, Double.BYTES)) {
            stagedDoubles(op, a, b, from, n);
            return;
        }
        switch (op) {
            case SUM -> sumDouble(a, b, from, n);
            case PROD -> prodDouble(a, b, from, n);
            case MIN -> minDouble(a, b, from, n);
            case MAX -> maxDouble(a, b, from, n);
            case REPLACE -> replace(a, b, from, n, JAVA_DOUBLE_UNALIGNED.byteSize());
            case NO_OP -> {
                // leaves b as it is
            }
            default -> throw new IllegalArgumentException(op + " on double");
        }
    }

    private static void sumDouble(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            double x = a.getAtIndex(JAVA_DOUBLE_UNALIGNED, i);
            double y = b.getAtIndex(JAVA_DOUBLE_UNALIGNED, i);
            b.setAtIndex(JAVA_DOUBLE_UNALIGNED, i, x + y);
        }
    }

    private static void prodDouble(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            double x = a.getAtIndex(JAVA_DOUBLE_UNALIGNED, i);
            double y = b.getAtIndex(JAVA_DOUBLE_UNALIGNED, i);
            b.setAtIndex(JAVA_DOUBLE_UNALIGNED, i, x * y);
        }
    }

    private static void minDouble(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            double x = a.getAtIndex(JAVA_DOUBLE_UNALIGNED, i);
            double y = b.getAtIndex(JAVA_DOUBLE_UNALIGNED, i);
            b.setAtIndex(JAVA_DOUBLE_UNALIGNED, i, Math.min(x, y));
        }
    }

    private static void maxDouble(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = from, end = from + n; i < end; i++) {
            double x = a.getAtIndex(JAVA_DOUBLE_UNALIGNED, i);
            double y = b.getAtIndex(JAVA_DOUBLE_UNALIGNED, i);
            b.setAtIndex(JAVA_DOUBLE_UNALIGNED, i, Math.max(x, y));
        }
    }

    // ---------------------------------------------------------------- complex products

    /** Complex product of {@code n} (real, imaginary) float pairs starting at pair {@code from}. */
    static void complexProdFloat(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = 2 * from, end = 2 * (from + n); i < end; i += 2) {
            float ar = a.getAtIndex(JAVA_FLOAT_UNALIGNED, i);
            float ai = a.getAtIndex(JAVA_FLOAT_UNALIGNED, i + 1);
            float br = b.getAtIndex(JAVA_FLOAT_UNALIGNED, i);
            float bi = b.getAtIndex(JAVA_FLOAT_UNALIGNED, i + 1);
            b.setAtIndex(JAVA_FLOAT_UNALIGNED, i, ar * br - ai * bi);
            b.setAtIndex(JAVA_FLOAT_UNALIGNED, i + 1, ar * bi + ai * br);
        }
    }

    /** Complex product of {@code n} (real, imaginary) double pairs starting at pair {@code from}. */
    static void complexProdDouble(MemorySegment a, MemorySegment b, long from, long n) {
        for (long i = 2 * from, end = 2 * (from + n); i < end; i += 2) {
            double ar = a.getAtIndex(JAVA_DOUBLE_UNALIGNED, i);
            double ai = a.getAtIndex(JAVA_DOUBLE_UNALIGNED, i + 1);
            double br = b.getAtIndex(JAVA_DOUBLE_UNALIGNED, i);
            double bi = b.getAtIndex(JAVA_DOUBLE_UNALIGNED, i + 1);
            b.setAtIndex(JAVA_DOUBLE_UNALIGNED, i, ar * br - ai * bi);
            b.setAtIndex(JAVA_DOUBLE_UNALIGNED, i + 1, ar * bi + ai * br);
        }
    }

    // ---------------------------------------------------------------- MINLOC, MAXLOC

    /**
     * MINLOC or MAXLOC on {@code n} packed pairs of {@code kind} starting at pair {@code from} (value, then the int
     * index, as in {@link LocKernels}).
     */
    static void loc(boolean max, ElementKind kind, MemorySegment a, MemorySegment b, long from, long n) {
        int size = kind.packedBytes;
        int valueBytes = size - 4;
        for (long p = from * size, end = (from + n) * size; p < end; p += size) {
            double va;
            double vb;
            long la = 0;
            long lb = 0;
            boolean wide = kind == ElementKind.LONG_INT;
            switch (kind) {
                case INT2 -> {
                    va = a.get(JAVA_INT_UNALIGNED, p);
                    vb = b.get(JAVA_INT_UNALIGNED, p);
                }
                case SHORT_INT -> {
                    va = a.get(JAVA_SHORT_UNALIGNED, p);
                    vb = b.get(JAVA_SHORT_UNALIGNED, p);
                }
                case LONG_INT -> {
                    la = a.get(JAVA_LONG_UNALIGNED, p);
                    lb = b.get(JAVA_LONG_UNALIGNED, p);
                    va = 0;
                    vb = 0;
                }
                case FLOAT_INT -> {
                    va = a.get(JAVA_FLOAT_UNALIGNED, p);
                    vb = b.get(JAVA_FLOAT_UNALIGNED, p);
                }
                case DOUBLE_INT -> {
                    va = a.get(JAVA_DOUBLE_UNALIGNED, p);
                    vb = b.get(JAVA_DOUBLE_UNALIGNED, p);
                }
                default -> throw new IllegalArgumentException(kind.toString());
            }
            boolean less = wide ? la < lb : va < vb;
            boolean greater = wide ? la > lb : va > vb;
            boolean equal = wide ? la == lb : va == vb;
            int ia = a.get(JAVA_INT_UNALIGNED, p + valueBytes);
            int ib = b.get(JAVA_INT_UNALIGNED, p + valueBytes);
            if (max ? greater : less) {
                MemorySegment.copy(a, p, b, p, size);
            } else if (equal && ia < ib) {
                b.set(JAVA_INT_UNALIGNED, p + valueBytes, ia);
            }
        }
    }
}
