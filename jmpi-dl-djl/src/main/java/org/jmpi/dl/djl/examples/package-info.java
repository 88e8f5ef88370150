/**
 * Example program: a DJL multi-layer perceptron trained data-parallel on Fashion-MNIST with a
 * {@link org.jmpi.dl.djl.DjlReducer}.
 *
 * <p>May import: the JDK, package {@code mpi}, the {@code org.jmpi.dl} packages and DJL's API ({@code ai.djl}).
 */
package org.jmpi.dl.djl.examples;
