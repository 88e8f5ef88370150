/**
 * Starting jmpi jobs: {@link org.jmpi.launcher.JmpiRun} (the {@code jmpirun} command) and the programmatic API it
 * is built on, {@link org.jmpi.launcher.Launcher} (used by tests and the JUnit extension).
 *
 * <p>May import: {@code java.*}, picocli (command line only), {@code org.jmpi.launcher.pmi}, and from jmpi-core
 * {@code org.jmpi.bootstrap} (to find jmpi-core's class path) and {@code org.jmpi.shared.ThreadsJob} (threads mode).
 */
package org.jmpi.launcher;
