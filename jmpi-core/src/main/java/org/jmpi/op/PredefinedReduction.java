package org.jmpi.op;

import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;

/**
 * A predefined operation on a datatype whose packed data is a sequence of elements of one {@link ElementKind}
 * ({@code elementsPerItem} of them per datatype element: 1 for the predefined types, more for derived types built
 * from one).
 *
 * <p>Threading: immutable.
 */
public final class PredefinedReduction implements Reduction {
    private final PredefinedOp op;
    private final ElementKind kind;
    private final int elementsPerItem;

    private PredefinedReduction(PredefinedOp op, ElementKind kind, int elementsPerItem) {
        this.op = op;
        this.kind = kind;
        this.elementsPerItem = elementsPerItem;
    }

    /**
     * The reduction of {@code op} over datatype elements made of {@code elementsPerItem} elements of {@code kind}.
     *
     * @param typeName the datatype's name, for the error message
     * @throws MpiError ERR_OP when the operation does not apply to the kind
     */
    public static PredefinedReduction of(PredefinedOp op, ElementKind kind, int elementsPerItem, String typeName) {
        if (!op.appliesTo(kind)) {
            throw new MpiError(ErrorClass.ERR_OP, op.mpiName + " does not apply to " + typeName
                    + (typeName.equals(kind.mpiName) ? "" : " (made of " + kind.mpiName + ")"));
        }
        return new PredefinedReduction(op, kind, elementsPerItem);
    }

    public PredefinedOp op() {
        return op;
    }

    public ElementKind kind() {
        return kind;
    }

    @Override
    public Class<?> arrayType() {
        return kind.arrayType;
    }

    @Override
    public int slotsPerElement() {
        return elementsPerItem * kind.slots;
    }

    @Override
    public int slotBytes() {
        return kind.packedBytes / kind.slots;
    }

    @Override
    public boolean commutative() {
        // REPLACE is not commutative, but it never reaches a collective (accumulate only)
        return op != PredefinedOp.REPLACE;
    }

    @Override
    public void apply(Object in, Object inout, int first, int count) {
        Kernels.apply(op, kind, in, inout, first * elementsPerItem, count * elementsPerItem);
    }

    @Override
    public void applyNative(java.lang.foreign.MemorySegment in, java.lang.foreign.MemorySegment inout, long first,
            long count) {
        Kernels.apply(op, kind, in, inout, first * elementsPerItem, count * elementsPerItem);
    }

    @Override
    public String describe() {
        return op.mpiName + " on " + kind.mpiName;
    }
}
