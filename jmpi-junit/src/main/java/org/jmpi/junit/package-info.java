/**
 * JUnit 5 support for multi-rank tests: {@link org.jmpi.junit.MpiTest} runs a test method on N ranks, as threads
 * of the test JVM or as JVMs of their own, collects every rank's failure into one error and enforces a hard
 * timeout with a stack dump of every rank.
 *
 * <p>May import: JUnit Jupiter API and opentest4j, {@code org.jmpi.shared} (threads-mode job and rank class
 * loader), {@code org.jmpi.launcher} (processes mode). It never links against package {@code mpi}: MPI is reached
 * reflectively through each rank's class loader.
 */
package org.jmpi.junit;
