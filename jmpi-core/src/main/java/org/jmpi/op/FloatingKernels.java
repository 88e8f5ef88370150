package org.jmpi.op;

/**
 * Reduction loops for {@code float} and {@code double}, and the complex product: {@code b[i] = a[i] op b[i]} for
 * {@code i} in {@code [from, from + n)}. Same-index loops, so C2 vectorises them (see {@link IntegerKernels}).
 * Complex numbers are (real, imaginary) pairs of entries; their sum is the entry-wise sum.
 */
final class FloatingKernels {
    private FloatingKernels() {}

    static void apply(PredefinedOp op, float[] a, float[] b, int from, int n) {
        switch (op) {
            case SUM -> sum(a, b, from, n);
            case PROD -> prod(a, b, from, n);
            case MIN -> min(a, b, from, n);
            case MAX -> max(a, b, from, n);
            case REPLACE -> System.arraycopy(a, from, b, from, n);
            case NO_OP -> {
                // leaves b as it is
            }
            default -> throw new IllegalArgumentException(op + " on float");
        }
    }

    static void apply(PredefinedOp op, double[] a, double[] b, int from, int n) {
        switch (op) {
            case SUM -> sum(a, b, from, n);
            case PROD -> prod(a, b, from, n);
            case MIN -> min(a, b, from, n);
            case MAX -> max(a, b, from, n);
            case REPLACE -> System.arraycopy(a, from, b, from, n);
            case NO_OP -> {
                // leaves b as it is
            }
            default -> throw new IllegalArgumentException(op + " on double");
        }
    }

    private static void sum(float[] a, float[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = a[i] + b[i];
        }
    }

    private static void prod(float[] a, float[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = a[i] * b[i];
        }
    }

    private static void min(float[] a, float[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = Math.min(a[i], b[i]);
        }
    }

    private static void max(float[] a, float[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = Math.max(a[i], b[i]);
        }
    }

    private static void sum(double[] a, double[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = a[i] + b[i];
        }
    }

    private static void prod(double[] a, double[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = a[i] * b[i];
        }
    }

    private static void min(double[] a, double[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = Math.min(a[i], b[i]);
        }
    }

    private static void max(double[] a, double[] b, int from, int n) {
        for (int i = from, end = from + n; i < end; i++) {
            b[i] = Math.max(a[i], b[i]);
        }
    }

    /** Complex product of the pairs starting at entries {@code from, from + 2, ...}; {@code n} pairs. */
    static void complexProd(float[] a, float[] b, int from, int n) {
        for (int i = from, end = from + 2 * n; i < end; i += 2) {
            float re = a[i] * b[i] - a[i + 1] * b[i + 1];
            float im = a[i] * b[i + 1] + a[i + 1] * b[i];
            b[i] = re;
            b[i + 1] = im;
        }
    }

    /** Complex product of the pairs starting at entries {@code from, from + 2, ...}; {@code n} pairs. */
    static void complexProd(double[] a, double[] b, int from, int n) {
        for (int i = from, end = from + 2 * n; i < end; i += 2) {
            double re = a[i] * b[i] - a[i + 1] * b[i + 1];
            double im = a[i] * b[i + 1] + a[i + 1] * b[i];
            b[i] = re;
            b[i + 1] = im;
        }
    }
}
