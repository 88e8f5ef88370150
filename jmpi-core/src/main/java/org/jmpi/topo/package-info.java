/**
 * Process topologies: the rank arithmetic of Cartesian grids ({@link org.jmpi.topo.CartTopology}), balanced grid
 * shapes ({@link org.jmpi.topo.Dims}), graphs ({@link org.jmpi.topo.GraphTopology}) and distributed graphs
 * ({@link org.jmpi.topo.DistGraphTopology}), and the neighbourhood collectives over them
 * ({@link org.jmpi.topo.NeighborExchange}). Topologies are local, immutable descriptions attached to a communicator.
 *
 * <p>May import: the JDK, {@code org.jmpi.runtime}, {@code org.jmpi.pt2pt}, {@code org.jmpi.datatype}, {@code org.jmpi.coll} (block slices).
 */
package org.jmpi.topo;
