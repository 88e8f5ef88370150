/**
 * How a rank learns who it is and finds its peers: the {@link org.jmpi.bootstrap.Bootstrap} interface, its
 * implementations (singleton, threads mode, and {@link org.jmpi.bootstrap.JobBootstrap} around a PMI client: job
 * secret, node locality from {@link org.jmpi.bootstrap.ProcessMapping} or {@link org.jmpi.bootstrap.HostIdentity},
 * failure notices) and the detection order in {@link org.jmpi.bootstrap.BootstrapFactory}.
 *
 * <p>May import: the JDK, {@code org.jmpi.runtime} (error classes), {@code org.jmpi.shared}.
 */
package org.jmpi.bootstrap;
