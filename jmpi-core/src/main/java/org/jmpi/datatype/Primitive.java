package org.jmpi.datatype;

/**
 * The kinds of basic data a datatype's packed stream is made of: the Java primitives, the two complex types and the
 * five value-index pair types of MINLOC/MAXLOC. A reduction reads the packed stream as a sequence of these (see
 * {@link Signature}); {@link BaseKind} by contrast names the Java buffer a datatype is used with.
 *
 * <p>Packed sizes: a pair packs its value immediately followed by its {@code int} index, without the padding it has
 * in memory (so {@link #SHORT_INT} packs to 6 bytes but spans 8 in a buffer, as in C).
 */
public enum Primitive {
    BYTE(1, 1, null),
    CHAR(2, 1, null),
    SHORT(2, 1, null),
    BOOLEAN(1, 1, null),
    INT(4, 1, null),
    LONG(8, 1, null),
    FLOAT(4, 1, null),
    DOUBLE(8, 1, null),
    /** Real part, then imaginary part; one basic element. */
    FLOAT_COMPLEX(8, 1, null),
    /** Real part, then imaginary part; one basic element. */
    DOUBLE_COMPLEX(16, 1, null),
    /** {@code int} value, {@code int} index. */
    INT2(8, 2, INT),
    /** {@code short} value, {@code int} index. */
    SHORT_INT(6, 2, SHORT),
    /** {@code long} value, {@code int} index. */
    LONG_INT(12, 2, LONG),
    /** {@code float} value, {@code int} index. */
    FLOAT_INT(8, 2, FLOAT),
    /** {@code double} value, {@code int} index. */
    DOUBLE_INT(12, 2, DOUBLE);

    /** Packed size in bytes. */
    public final int bytes;
    /** How many basic elements {@code MPI_Get_elements} counts for one of these (2 for a pair). */
    public final int basicElements;
    /** For a pair type, the kind of its value (its index is always an {@code int}); null otherwise. */
    public final Primitive pairValue;

    Primitive(int bytes, int basicElements, Primitive pairValue) {
        this.bytes = bytes;
        this.basicElements = basicElements;
        this.pairValue = pairValue;
    }

    /** True for the value-index pair types. */
    public boolean isPair() {
        return pairValue != null;
    }

    /** The primitive a predefined single-element datatype of base kind {@code base} carries. */
    public static Primitive of(BaseKind base) {
        return switch (base) {
            case BYTE -> BYTE;
            case CHAR -> CHAR;
            case SHORT -> SHORT;
            case BOOLEAN -> BOOLEAN;
            case INT -> INT;
            case LONG -> LONG;
            case FLOAT -> FLOAT;
            case DOUBLE -> DOUBLE;
        };
    }
}
