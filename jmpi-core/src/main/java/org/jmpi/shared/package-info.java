/**
 * The few classes shared by all ranks of a threads-mode job: the job itself (bootstrap key-value space, fence,
 * abort state, endpoint table), the per-rank class loader, and the in-JVM message hand-off types. These classes are
 * always loaded by the parent class loader, never per rank, so they may depend on nothing but the JDK.
 */
package org.jmpi.shared;
