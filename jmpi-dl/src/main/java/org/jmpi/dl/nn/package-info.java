/**
 * A small, single-threaded, allocation-free (in steady state) multi-layer perceptron for classification:
 * {@link org.jmpi.dl.nn.Mlp} (ReLU hidden layers, softmax and cross-entropy output, mini-batch forward and backward
 * passes), its named tensors {@link org.jmpi.dl.nn.Parameter} (values and the gradients that a distributed trainer
 * all-reduces in place) and the optimiser {@link org.jmpi.dl.nn.Sgd} (momentum, weight decay).
 *
 * <p>May import: the JDK and {@code org.jmpi.dl.data} (for the {@link org.jmpi.dl.data.Dataset} convenience overloads),
 * nothing else; never {@code mpi}: distribution is the trainer's business.
 */
package org.jmpi.dl.nn;
