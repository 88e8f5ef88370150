/**
 * Data-parallel training of <a href="https://djl.ai">Deep Java Library</a> models on jmpi.
 *
 * <p>{@link org.jmpi.dl.djl.DjlReducer} averages a DJL model's gradients over the ranks with jmpi-dl's
 * {@link org.jmpi.dl.GradientReducer} between back-propagation and the optimizer's step, and copies a model's initial
 * parameters from one rank to all. DJL itself ({@code ai.djl:api}) and an engine (say PyTorch) are the user's
 * dependencies: this module compiles against {@code ai.djl:api} 0.35.1 and is tested with the PyTorch engine on CPU.
 *
 * <p>May import: the JDK, package {@code mpi}, {@code org.jmpi.dl} and DJL's API ({@code ai.djl}).
 */
package org.jmpi.dl.djl;
