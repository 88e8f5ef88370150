/**
 * Example programs: data-parallel training of a multi-layer perceptron on Fashion-MNIST with the
 * {@link org.jmpi.dl.GradientReducer} or, for comparison, a {@link org.jmpi.dl.ps.ParameterServer}.
 *
 * <p>May import: the JDK, package {@code mpi} and the other {@code org.jmpi.dl} packages.
 */
package org.jmpi.dl.examples;
