package org.jmpi.op;

/**
 * The predefined reduction operations and the element kinds each applies to (MPI-4.1, section 6.9.2, mapped onto the
 * Java element types):
 *
 * <table>
 *   <caption>Which operation applies to which kind</caption>
 *   <tr><th>operations</th><th>kinds</th></tr>
 *   <tr><td>MAX, MIN</td><td>integers (BYTE, CHAR, SHORT, INT, LONG), FLOAT, DOUBLE</td></tr>
 *   <tr><td>SUM, PROD</td><td>integers, FLOAT, DOUBLE, FLOAT_COMPLEX, DOUBLE_COMPLEX</td></tr>
 *   <tr><td>LAND, LOR, LXOR</td><td>BOOLEAN, integers (non-zero is true; the result is 0 or 1)</td></tr>
 *   <tr><td>BAND, BOR, BXOR</td><td>integers</td></tr>
 *   <tr><td>MINLOC, MAXLOC</td><td>the pairs INT2, SHORT_INT, LONG_INT, FLOAT_INT, DOUBLE_INT</td></tr>
 *   <tr><td>REPLACE, NO_OP</td><td>every kind, but only in one-sided accumulate operations</td></tr>
 * </table>
 *
 * <p>CHAR is Java's unsigned 16-bit char: MIN and MAX compare without sign, SUM and PROD wrap modulo 2^16. Integer
 * arithmetic wraps in every kind, as Java's does. MIN and MAX on FLOAT and DOUBLE follow {@link Math#min}: a NaN
 * operand gives NaN. MINLOC and MAXLOC keep the smaller index when the values are equal.
 */
public enum PredefinedOp {
    MAX("MPI_MAX"),
    MIN("MPI_MIN"),
    SUM("MPI_SUM"),
    PROD("MPI_PROD"),
    LAND("MPI_LAND"),
    BAND("MPI_BAND"),
    LOR("MPI_LOR"),
    BOR("MPI_BOR"),
    LXOR("MPI_LXOR"),
    BXOR("MPI_BXOR"),
    MINLOC("MPI_MINLOC"),
    MAXLOC("MPI_MAXLOC"),
    REPLACE("MPI_REPLACE"),
    NO_OP("MPI_NO_OP");

    /** The MPI name, e.g. {@code MPI_SUM}. */
    public final String mpiName;

    PredefinedOp(String mpiName) {
        this.mpiName = mpiName;
    }

    /** Whether this operation is defined on elements of {@code kind}. */
    public boolean appliesTo(ElementKind kind) {
        return switch (this) {
            case MAX, MIN -> kind.isInteger() || kind.isFloating();
            case SUM, PROD -> kind.isInteger() || kind.isFloating() || kind.isComplex();
            case LAND, LOR, LXOR -> kind.isInteger() || kind == ElementKind.BOOLEAN;
            case BAND, BOR, BXOR -> kind.isInteger();
            case MINLOC, MAXLOC -> kind.isPair();
            case REPLACE, NO_OP -> true;
        };
    }

    /** True for REPLACE and NO_OP, which MPI allows in one-sided accumulate operations only. */
    public boolean accumulateOnly() {
        return this == REPLACE || this == NO_OP;
    }
}
