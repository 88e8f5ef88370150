/**
 * Reductions: the predefined operations ({@link org.jmpi.op.PredefinedOp}) on the element kinds they apply to
 * ({@link org.jmpi.op.ElementKind}), as vectorisable loops over Java arrays, behind the
 * {@link org.jmpi.op.Reduction} interface that collectives call (user-defined operations implement it in package
 * {@code mpi}, where the user's function and datatype live).
 *
 * <p>May import: the JDK, {@code org.jmpi.runtime} (error classes only) and {@code org.jmpi.shared} (copies).
 */
package org.jmpi.op;
