/**
 * jmpirun's per-host proxy: {@link org.jmpi.launcher.proxy.HostProxy} starts a host's ranks, serves their PMI and
 * reports to the front end through {@link org.jmpi.launcher.proxy.ControlMessage}s; {@link
 * org.jmpi.launcher.proxy.ProxyMain} is its process on other hosts (started through ssh, srun or rsh). No picocli here:
 * a remote proxy needs only jmpi-launcher and jmpi-core.
 *
 * <p>May import: {@code java.*}, {@code org.jmpi.launcher.pmi}.
 */
package org.jmpi.launcher.proxy;
