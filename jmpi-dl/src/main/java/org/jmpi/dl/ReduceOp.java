package org.jmpi.dl;

/** How the tensors of the ranks are combined. */
public enum ReduceOp {
    /** Element-wise sum over the ranks. */
    SUM,
    /**
     * Element-wise sum divided by the number of ranks that contributed the tensor. Ranks that have called
     * {@link GradientReducer#join()} contribute zeros and are not counted.
     */
    AVERAGE
}
