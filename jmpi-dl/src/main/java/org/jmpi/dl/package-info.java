/**
 * Data-parallel training on jmpi.
 *
 * <p>{@link org.jmpi.dl.GradientReducer} is a Horovod-style gradient all-reduce: workers submit named tensors as
 * back-propagation produces them; a background thread per rank negotiates which tensors are ready on every rank,
 * fuses them into large buffers and all-reduces them. {@code org.jmpi.dl.ps} holds a parameter server for comparison,
 * {@code org.jmpi.dl.nn} a small pure-Java multi-layer perceptron and {@code org.jmpi.dl.data} the Fashion-MNIST
 * reader the example uses.
 *
 * <p>May import: the JDK and package {@code mpi} (the public API of jmpi-core), nothing else.
 */
package org.jmpi.dl;
