package mpi;

import org.jmpi.op.ElementKind;
import org.jmpi.op.PredefinedOp;
import org.jmpi.op.PredefinedReduction;
import org.jmpi.op.Reduction;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;

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

    /** Frees a user-defined operation; the predefined ones cannot be freed (MPI_ERR_OP). */
    public void free() throws MPIException {
        try {
            if (freed) {
                throw new MpiError(ErrorClass.ERR_OP, "the operation is already freed");
            }
            if (function == null) {
                throw new MpiError(ErrorClass.ERR_OP, "cannot free the predefined operation " + name);
            }
            freed = true;
        } catch (MpiError e) {
            throw Errors.raise("MPI_Op_free", e);
        }
    }

    public boolean isNull() {
        return freed;
    }

    @Override
    public String toString() {
        return name;
    }

    /**
     * This operation applied to {@code type}, as the collectives use it.
     *
     * @param accumulate true in one-sided accumulate operations, the only place MPI allows REPLACE and NO_OP
     * @throws MpiError ERR_OP for a freed operation or one that does not apply to the type, ERR_TYPE for a datatype
     *     reductions cannot work on
     */
    Reduction reduction(Datatype type, boolean accumulate) {
        Cached last = cached;
        if (last != null && last.type == type && !accumulate && !freed) {
            return last.reduction; // a loop of calls on one type: the rest runs once
        }
        return reductionOutOfLine(type, accumulate);
    }

    private Reduction reductionOutOfLine(Datatype type, boolean accumulate) {
        if (freed) {
            throw new MpiError(ErrorClass.ERR_OP, "invalid operation (freed)");
        }
        if (function != null) {
            return new UserReduction(this, type);
        }
        PredefinedOp p = predefined();
        if (p.accumulateOnly() && !accumulate) {
            throw new MpiError(ErrorClass.ERR_OP, name + " may only be used in one-sided accumulate operations");
        }
        ElementKind kind = kindOf(type);
        if (kind == null) {
            throw new MpiError(ErrorClass.ERR_OP, name + " does not apply to " + type.name
                    + (type.baseKind == Datatype.KIND_PACKED ? "" : " (its elements mix kinds)"));
        }
        long size = type.desc.size();
        if (size % kind.packedBytes != 0 || size / kind.packedBytes > Integer.MAX_VALUE) {
            throw new MpiError(ErrorClass.ERR_TYPE, "the datatype " + type.name + " is not made of whole "
                    + kind.mpiName + " elements, so " + name + " cannot reduce it");
        }
        PredefinedReduction r = PredefinedReduction.of(p, kind, (int) (size / kind.packedBytes), type.name);
        if (!accumulate) {
            cached = new Cached(type, r);
        }
        return r;
    }

    /** The reduction made last for a collective on {@code type}: calls in a loop reuse it instead of a new one. */
    private record Cached(Datatype type, Reduction reduction) {}

    private volatile Cached cached;

    private PredefinedOp predefined() {
        return switch (code) {
            case CODE_MAX -> PredefinedOp.MAX;
            case CODE_MIN -> PredefinedOp.MIN;
            case CODE_SUM -> PredefinedOp.SUM;
            case CODE_PROD -> PredefinedOp.PROD;
            case CODE_LAND -> PredefinedOp.LAND;
            case CODE_BAND -> PredefinedOp.BAND;
            case CODE_LOR -> PredefinedOp.LOR;
            case CODE_BOR -> PredefinedOp.BOR;
            case CODE_LXOR -> PredefinedOp.LXOR;
            case CODE_BXOR -> PredefinedOp.BXOR;
            case CODE_MINLOC -> PredefinedOp.MINLOC;
            case CODE_MAXLOC -> PredefinedOp.MAXLOC;
            case CODE_REPLACE -> PredefinedOp.REPLACE;
            case CODE_NO_OP -> PredefinedOp.NO_OP;
            default -> throw new IllegalStateException("operation code " + code);
        };
    }

    /**
     * The element kind reductions see in {@code type}: the single primitive its type signature consists of (see
     * {@link org.jmpi.datatype.Signature#uniform()}), or null when it mixes kinds (a struct) or is MPI.PACKED.
     */
    static ElementKind kindOf(Datatype type) {
        if (type.baseKind == Datatype.KIND_PACKED) {
            return null;
        }
        org.jmpi.datatype.Primitive p = type.desc.signature().uniform();
        return p == null ? null : ElementKind.valueOf(p.name());
    }
}
