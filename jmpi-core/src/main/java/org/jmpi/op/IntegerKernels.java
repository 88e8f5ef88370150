package org.jmpi.op;

/**
 * Reduction loops for the integer kinds ({@code byte}, {@code short}, {@code char}, {@code int}, {@code long}):
 * {@code b[i] = a[i] op b[i]} for {@code i} in {@code [from, from + n)}.
 *
 * <p>Every loop indexes both arrays with the same index, which lets C2 vectorise it even when {@code a} and
 * {@code b} might be the same array (no iteration reads what another writes). Keep them that way: a loop over
 * {@code a[i + d]} and {@code b[i]} with an unknown {@code d} stays scalar (measured on JDK 25: 2-3x slower).
 *
 * <p>Arithmetic wraps as Java's does; {@code char} is unsigned. The logical operations treat non-zero as true and
 * store 0 or 1. The five types follow one pattern per operation: keep them in step.
 */
final class IntegerKernels {
    private IntegerKernels() {}

    // ---------------------------------------------------------------- byte

    static void apply(PredefinedOp op, byte[] a, byte[] b, int from, int n) {
        switch (op) {
            case SUM -> sum(a, b, from, n);
            case PROD -> prod(a, b, from, n);
            case MIN -> min(a, b, from, n);
            case MAX -> max(a, b, from, n);
            case LAND -> land(a, b, from, n);
            case LOR -> lor(a, b, from, n);
            case LXOR -> lxor(a, b, from, n);
            case BAND -> band(a, b, from, n);
            case BOR -> bor(a, b, from, n);
            case BXOR -> bxor(a, b, from, n);
            case REPLACE -> System.arraycopy(a, from, b, from, n);
            case NO_OP -> {
                // leaves b as it is
            }
            default -> throw new IllegalArgumentException(op + " on byte");
        }
    }

    private static void sum(byte[] a, byte[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (byte) (a[i] + b[i]);
        }
    }

    private static void prod(byte[] a, byte[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (byte) (a[i] * b[i]);
        }
    }

    private static void min(byte[] a, byte[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (byte) Math.min(a[i], b[i]);
        }
    }

    private static void max(byte[] a, byte[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (byte) Math.max(a[i], b[i]);
        }
    }

    private static void land(byte[] a, byte[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (byte) ((a[i] != 0 & b[i] != 0) ? 1 : 0);
        }
    }

    private static void lor(byte[] a, byte[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (byte) ((a[i] | b[i]) != 0 ? 1 : 0);
        }
    }

    private static void lxor(byte[] a, byte[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (byte) ((a[i] != 0 ^ b[i] != 0) ? 1 : 0);
        }
    }

    private static void band(byte[] a, byte[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (byte) (a[i] & b[i]);
        }
    }

    private static void bor(byte[] a, byte[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (byte) (a[i] | b[i]);
        }
    }

    private static void bxor(byte[] a, byte[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (byte) (a[i] ^ b[i]);
        }
    }

    // ---------------------------------------------------------------- short

    static void apply(PredefinedOp op, short[] a, short[] b, int from, int n) {
        switch (op) {
            case SUM -> sum(a, b, from, n);
            case PROD -> prod(a, b, from, n);
            case MIN -> min(a, b, from, n);
            case MAX -> max(a, b, from, n);
            case LAND -> land(a, b, from, n);
            case LOR -> lor(a, b, from, n);
            case LXOR -> lxor(a, b, from, n);
            case BAND -> band(a, b, from, n);
            case BOR -> bor(a, b, from, n);
            case BXOR -> bxor(a, b, from, n);
            case REPLACE -> System.arraycopy(a, from, b, from, n);
            case NO_OP -> {
                // leaves b as it is
            }
            default -> throw new IllegalArgumentException(op + " on short");
        }
    }

    private static void sum(short[] a, short[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (short) (a[i] + b[i]);
        }
    }

    private static void prod(short[] a, short[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (short) (a[i] * b[i]);
        }
    }

    private static void min(short[] a, short[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (short) Math.min(a[i], b[i]);
        }
    }

    private static void max(short[] a, short[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (short) Math.max(a[i], b[i]);
        }
    }

    private static void land(short[] a, short[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (short) ((a[i] != 0 & b[i] != 0) ? 1 : 0);
        }
    }

    private static void lor(short[] a, short[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (short) ((a[i] | b[i]) != 0 ? 1 : 0);
        }
    }

    private static void lxor(short[] a, short[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (short) ((a[i] != 0 ^ b[i] != 0) ? 1 : 0);
        }
    }

    private static void band(short[] a, short[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (short) (a[i] & b[i]);
        }
    }

    private static void bor(short[] a, short[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (short) (a[i] | b[i]);
        }
    }

    private static void bxor(short[] a, short[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (short) (a[i] ^ b[i]);
        }
    }

    // ---------------------------------------------------------------- char

    static void apply(PredefinedOp op, char[] a, char[] b, int from, int n) {
        switch (op) {
            case SUM -> sum(a, b, from, n);
            case PROD -> prod(a, b, from, n);
            case MIN -> min(a, b, from, n);
            case MAX -> max(a, b, from, n);
            case LAND -> land(a, b, from, n);
            case LOR -> lor(a, b, from, n);
            case LXOR -> lxor(a, b, from, n);
            case BAND -> band(a, b, from, n);
            case BOR -> bor(a, b, from, n);
            case BXOR -> bxor(a, b, from, n);
            case REPLACE -> System.arraycopy(a, from, b, from, n);
            case NO_OP -> {
                // leaves b as it is
            }
            default -> throw new IllegalArgumentException(op + " on char");
        }
    }

    private static void sum(char[] a, char[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (char) (a[i] + b[i]);
        }
    }

    private static void prod(char[] a, char[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (char) (a[i] * b[i]);
        }
    }

    private static void min(char[] a, char[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (char) Math.min(a[i], b[i]);
        }
    }

    private static void max(char[] a, char[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (char) Math.max(a[i], b[i]);
        }
    }

    private static void land(char[] a, char[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (char) ((a[i] != 0 & b[i] != 0) ? 1 : 0);
        }
    }

    private static void lor(char[] a, char[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (char) ((a[i] | b[i]) != 0 ? 1 : 0);
        }
    }

    private static void lxor(char[] a, char[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (char) ((a[i] != 0 ^ b[i] != 0) ? 1 : 0);
        }
    }

    private static void band(char[] a, char[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (char) (a[i] & b[i]);
        }
    }

    private static void bor(char[] a, char[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (char) (a[i] | b[i]);
        }
    }

    private static void bxor(char[] a, char[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = (char) (a[i] ^ b[i]);
        }
    }

    // ---------------------------------------------------------------- int

    static void apply(PredefinedOp op, int[] a, int[] b, int from, int n) {
        switch (op) {
            case SUM -> sum(a, b, from, n);
            case PROD -> prod(a, b, from, n);
            case MIN -> min(a, b, from, n);
            case MAX -> max(a, b, from, n);
            case LAND -> land(a, b, from, n);
            case LOR -> lor(a, b, from, n);
            case LXOR -> lxor(a, b, from, n);
            case BAND -> band(a, b, from, n);
            case BOR -> bor(a, b, from, n);
            case BXOR -> bxor(a, b, from, n);
            case REPLACE -> System.arraycopy(a, from, b, from, n);
            case NO_OP -> {
                // leaves b as it is
            }
            default -> throw new IllegalArgumentException(op + " on int");
        }
    }

    private static void sum(int[] a, int[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = a[i] + b[i];
        }
    }

    private static void prod(int[] a, int[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = a[i] * b[i];
        }
    }

    private static void min(int[] a, int[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = Math.min(a[i], b[i]);
        }
    }

    private static void max(int[] a, int[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = Math.max(a[i], b[i]);
        }
    }

    private static void land(int[] a, int[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = ((a[i] != 0 & b[i] != 0) ? 1 : 0);
        }
    }

    private static void lor(int[] a, int[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = ((a[i] | b[i]) != 0 ? 1 : 0);
        }
    }

    private static void lxor(int[] a, int[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = ((a[i] != 0 ^ b[i] != 0) ? 1 : 0);
        }
    }

    private static void band(int[] a, int[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = a[i] & b[i];
        }
    }

    private static void bor(int[] a, int[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = a[i] | b[i];
        }
    }

    private static void bxor(int[] a, int[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = a[i] ^ b[i];
        }
    }

    // ---------------------------------------------------------------- long

    static void apply(PredefinedOp op, long[] a, long[] b, int from, int n) {
        switch (op) {
            case SUM -> sum(a, b, from, n);
            case PROD -> prod(a, b, from, n);
            case MIN -> min(a, b, from, n);
            case MAX -> max(a, b, from, n);
            case LAND -> land(a, b, from, n);
            case LOR -> lor(a, b, from, n);
            case LXOR -> lxor(a, b, from, n);
            case BAND -> band(a, b, from, n);
            case BOR -> bor(a, b, from, n);
            case BXOR -> bxor(a, b, from, n);
            case REPLACE -> System.arraycopy(a, from, b, from, n);
            case NO_OP -> {
                // leaves b as it is
            }
            default -> throw new IllegalArgumentException(op + " on long");
        }
    }

    private static void sum(long[] a, long[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = a[i] + b[i];
        }
    }

    private static void prod(long[] a, long[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = a[i] * b[i];
        }
    }

    private static void min(long[] a, long[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = Math.min(a[i], b[i]);
        }
    }

    private static void max(long[] a, long[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = Math.max(a[i], b[i]);
        }
    }

    private static void land(long[] a, long[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = ((a[i] != 0 & b[i] != 0) ? 1L : 0L);
        }
    }

    private static void lor(long[] a, long[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = ((a[i] | b[i]) != 0 ? 1L : 0L);
        }
    }

    private static void lxor(long[] a, long[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = ((a[i] != 0 ^ b[i] != 0) ? 1L : 0L);
        }
    }

    private static void band(long[] a, long[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = a[i] & b[i];
        }
    }

    private static void bor(long[] a, long[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = a[i] | b[i];
        }
    }

    private static void bxor(long[] a, long[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = a[i] ^ b[i];
        }
    }

}
