/**
 * Reductions: the predefined operations ({@link org.jmpi.op.PredefinedOp}) on the element kinds they apply to
 * ({@link org.jmpi.op.ElementKind}), as vectorisable loops over Java arrays, behind the
 * {@link org.jmpi.op.Reduction} interface that collectives call (user-defined operations implement it in package
 * {@code mpi}, where the user's function and datatype live).
 *
 * <p>May import: the JDK and {@code org.jmpi.runtime} (error classes only).
 */
package org.jmpi.op;
