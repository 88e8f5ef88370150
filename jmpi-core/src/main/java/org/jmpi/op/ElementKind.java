package org.jmpi.op;

/**
 * The kinds of element a predefined reduction works on: the eight Java element types, the complex numbers, and the
 * value-index pairs of {@code MINLOC}/{@code MAXLOC}. Reductions work on packed data (the datatype's data bytes with
 * no gaps), held in a Java array of {@link #arrayType}; one element of the kind fills {@link #slots} array entries.
 *
 * <p>Pairs whose two parts have the same Java type ({@link #INT2}) live in an {@code int[]}; the mixed pairs live in
 * a {@code byte[]}, value first, then the 4-byte index (in native byte order): {@code SHORT_INT} 2 + 4 bytes,
 * {@code LONG_INT} 8 + 4, {@code FLOAT_INT} 4 + 4, {@code DOUBLE_INT} 8 + 4. Booleans travel as bytes 0 and 1.
 */
public enum ElementKind {
    BYTE(1, byte[].class, 1, "MPI.BYTE"),
    CHAR(2, char[].class, 1, "MPI.CHAR"),
    SHORT(2, short[].class, 1, "MPI.SHORT"),
    BOOLEAN(1, byte[].class, 1, "MPI.BOOLEAN"),
    INT(4, int[].class, 1, "MPI.INT"),
    LONG(8, long[].class, 1, "MPI.LONG"),
    FLOAT(4, float[].class, 1, "MPI.FLOAT"),
    DOUBLE(8, double[].class, 1, "MPI.DOUBLE"),
    FLOAT_COMPLEX(8, float[].class, 2, "MPI.FLOAT_COMPLEX"),
    DOUBLE_COMPLEX(16, double[].class, 2, "MPI.DOUBLE_COMPLEX"),
    INT2(8, int[].class, 2, "MPI.INT2"),
    SHORT_INT(6, byte[].class, 6, "MPI.SHORT_INT"),
    LONG_INT(12, byte[].class, 12, "MPI.LONG_INT"),
    FLOAT_INT(8, byte[].class, 8, "MPI.FLOAT_INT"),
    DOUBLE_INT(12, byte[].class, 12, "MPI.DOUBLE_INT");

    /** Bytes of one element in packed form. */
    public final int packedBytes;
    /** The Java array type that holds packed elements of this kind. */
    public final Class<?> arrayType;
    /** Array entries per element. */
    public final int slots;
    /** Name used in error messages. */
    public final String mpiName;

    ElementKind(int packedBytes, Class<?> arrayType, int slots, String mpiName) {
        this.packedBytes = packedBytes;
        this.arrayType = arrayType;
        this.slots = slots;
        this.mpiName = mpiName;
    }

    /** True for the integer kinds (BYTE, CHAR, SHORT, INT, LONG). */
    public boolean isInteger() {
        return this == BYTE || this == CHAR || this == SHORT || this == INT || this == LONG;
    }

    /** True for FLOAT and DOUBLE. */
    public boolean isFloating() {
        return this == FLOAT || this == DOUBLE;
    }

    /** True for FLOAT_COMPLEX and DOUBLE_COMPLEX. */
    public boolean isComplex() {
        return this == FLOAT_COMPLEX || this == DOUBLE_COMPLEX;
    }

    /** True for the value-index pairs of MINLOC and MAXLOC. */
    public boolean isPair() {
        return this == INT2 || this == SHORT_INT || this == LONG_INT || this == FLOAT_INT || this == DOUBLE_INT;
    }
}
