/**
 * Starting jmpi jobs: {@link org.jmpi.launcher.JmpiRun} (the {@code jmpirun} command) and the programmatic API it
 * is built on, {@link org.jmpi.launcher.Launcher} (used by tests and the JUnit extension), whose front end
 * ({@code FrontEnd}) runs a proxy per host and applies the failure policy.
 *
 * <p>May import: {@code java.*}, picocli (command line only), the launcher's subpackages, and from jmpi-core
 * {@code org.jmpi.bootstrap} (class path, process mapping), {@code org.jmpi.runtime.ErrorClass} and
 * {@code org.jmpi.shared.ThreadsJob} (threads mode).
 */
package org.jmpi.launcher;
