package mpi;

/** A reduction operation: predefined ({@code MPI.SUM}, ...) or user-defined with a {@link UserFunction}. */
public final class Op implements Freeable {
    // Operation codes of the predefined operations; user functions have CODE_USER.
    static final int CODE_USER = 0;
    static final int CODE_MAX = 1;
    static final int CODE_MIN = 2;
    static final int CODE_SUM = 3;
    static final int CODE_PROD = 4;
    static final int CODE_LAND = 5;
    static final int CODE_BAND = 6;
    static final int CODE_LOR = 7;
    static final int CODE_BOR = 8;
    static final int CODE_LXOR = 9;
    static final int CODE_BXOR = 10;
    static final int CODE_MINLOC = 11;
    static final int CODE_MAXLOC = 12;
    static final int CODE_REPLACE = 13;
    static final int CODE_NO_OP = 14;

    /** The MPI name, e.g. {@code MPI_SUM}. */
    final String name;

    /** One of the {@code CODE_*} constants. */
    final int code;

    final boolean commute;

    /** The user function, or {@code null} for a predefined operation. */
    final UserFunction function;

    /** True once the operation has been freed. */
    boolean freed;

    /** A predefined operation. */
    Op(String name, int code, boolean commute) {
        this.name = name;
        this.code = code;
        this.commute = commute;
        this.function = null;
    }

    public Op(UserFunction function, boolean commute) {
        if (function == null) {
            throw new IllegalArgumentException("Op: the user function is null");
        }
        this.name = "user-defined op";
        this.code = CODE_USER;
        this.commute = commute;
        this.function = function;
    }

    public boolean isCommutative() {
        return commute;
    }

    @NotImplemented
    public void free() throws MPIException {
        throw Unsupported.of("Op.free()");
    }

    public boolean isNull() {
        return freed;
    }

    @Override
    public String toString() {
        return name;
    }
}
