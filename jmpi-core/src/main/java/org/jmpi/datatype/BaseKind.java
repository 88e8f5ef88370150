package org.jmpi.datatype;

/**
 * The Java element type under a datatype. Every datatype has exactly one base kind (as in the Open MPI Java
 * bindings): counts, extents and buffer offsets are measured in elements of it, except the byte displacements of
 * the H-constructors and of struct types.
 */
public enum BaseKind {
    BYTE(1, byte[].class, "MPI.BYTE"),
    CHAR(2, char[].class, "MPI.CHAR"),
    SHORT(2, short[].class, "MPI.SHORT"),
    BOOLEAN(1, boolean[].class, "MPI.BOOLEAN"),
    INT(4, int[].class, "MPI.INT"),
    LONG(8, long[].class, "MPI.LONG"),
    FLOAT(4, float[].class, "MPI.FLOAT"),
    DOUBLE(8, double[].class, "MPI.DOUBLE");

    /** Size of one element in bytes (booleans travel as one byte). */
    public final int bytes;
    /** The Java array type that holds elements of this kind. */
    public final Class<?> arrayType;
    /** Name used in error messages. */
    public final String mpiName;

    BaseKind(int bytes, Class<?> arrayType, String mpiName) {
        this.bytes = bytes;
        this.arrayType = arrayType;
        this.mpiName = mpiName;
    }
}
