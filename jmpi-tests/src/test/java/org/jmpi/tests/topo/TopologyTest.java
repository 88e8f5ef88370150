package org.jmpi.tests.topo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.IntBuffer;
import mpi.CartComm;
import mpi.CartParms;
import mpi.Datatype;
import mpi.DistGraphNeighbors;
import mpi.GraphComm;
import mpi.GraphParms;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.ShiftParms;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * Process topologies: dims, a 2-D periodic Cartesian halo exchange checked against a sequential stencil, coordinates,
 * shifts, sub-grids, graphs and distributed graphs, and the neighbourhood collectives on each.
 */
class TopologyTest {
    private static final int NX = 24;
    private static final int NY = 12;
    private static final int STEPS = 3;

    private static void all() throws MPIException {
        dimsCreate();
        haloExchangeMatchesSequentialStencil();
        cartesianQueries();
        cartesianNeighbourCollectives();
        graphAndDistGraph();
    }

    @MpiTest(ranks = {1, 2, 3, 4, 8}, modes = Mode.THREADS)
    void inThreads() throws MPIException {
        all();
    }

    @MpiTest(ranks = {2, 4}, modes = Mode.PROCESSES)
    void inProcesses() throws MPIException {
        all();
    }

    private static void dimsCreate() throws MPIException {
        int[] d = new int[2];
        CartComm.createDims(12, d);
        assertThat(d).containsExactly(4, 3);
        d = new int[3];
        CartComm.createDims(8, d);
        assertThat(d).containsExactly(2, 2, 2);
        d = new int[] {0, 3, 0};
        CartComm.createDims(30, d);
        assertThat(d).containsExactly(5, 3, 2);
        d = new int[2];
        CartComm.createDims(7, d);
        assertThat(d).containsExactly(7, 1);
        d = new int[] {2, 5};
        CartComm.createDims(10, d);
        assertThat(d).containsExactly(2, 5);
    }

    private static double initial(int i, int j) {
        return (i * 31 + j * 17) % 23 + 0.25 * i;
    }

    /** Jacobi steps on a periodic NX x NY grid, split over a 2-D grid of ranks, against the same on one process. */
    private static void haloExchangeMatchesSequentialStencil() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int[] dims = new int[2];
        CartComm.createDims(w.getSize(), dims);
        CartComm cart = w.createCart(dims, new boolean[] {true, true}, false);
        int[] coords = cart.getCoords(cart.getRank());
        int nx = NX / dims[0];
        int ny = NY / dims[1];
        int row = ny + 2;
        double[] a = new double[(nx + 2) * row];
        for (int i = 0; i < nx; i++) {
            for (int j = 0; j < ny; j++) {
                a[(i + 1) * row + j + 1] = initial(coords[0] * nx + i, coords[1] * ny + j);
            }
        }
        Datatype column = Datatype.createVector(nx, 1, row, MPI.DOUBLE);
        column.commit();
        ShiftParms sx = cart.shift(0, 1);
        ShiftParms sy = cart.shift(1, 1);
        for (int step = 0; step < STEPS; step++) {
            // rows: my last row up, the lower neighbour's into my top halo; then the other way
            cart.sendRecv(MPI.slice(a, nx * row + 1), ny, MPI.DOUBLE, sx.getRankDest(), 1,
                    MPI.slice(a, 1), ny, MPI.DOUBLE, sx.getRankSource(), 1);
            cart.sendRecv(MPI.slice(a, row + 1), ny, MPI.DOUBLE, sx.getRankSource(), 2,
                    MPI.slice(a, (nx + 1) * row + 1), ny, MPI.DOUBLE, sx.getRankDest(), 2);
            // columns, as vectors
            cart.sendRecv(MPI.slice(a, row + ny), 1, column, sy.getRankDest(), 3,
                    MPI.slice(a, row), 1, column, sy.getRankSource(), 3);
            cart.sendRecv(MPI.slice(a, row + 1), 1, column, sy.getRankSource(), 4,
                    MPI.slice(a, row + ny + 1), 1, column, sy.getRankDest(), 4);
            double[] b = new double[a.length];
            for (int i = 1; i <= nx; i++) {
                for (int j = 1; j <= ny; j++) {
                    b[i * row + j] = 0.25 * (a[(i - 1) * row + j] + a[(i + 1) * row + j] + a[i * row + j - 1]
                            + a[i * row + j + 1]);
                }
            }
            a = b;
        }
        double[][] g = new double[NX][NY];
        for (int i = 0; i < NX; i++) {
            for (int j = 0; j < NY; j++) {
                g[i][j] = initial(i, j);
            }
        }
        for (int step = 0; step < STEPS; step++) {
            double[][] h = new double[NX][NY];
            for (int i = 0; i < NX; i++) {
                for (int j = 0; j < NY; j++) {
                    h[i][j] = 0.25 * (g[(i + NX - 1) % NX][j] + g[(i + 1) % NX][j] + g[i][(j + NY - 1) % NY]
                            + g[i][(j + 1) % NY]);
                }
            }
            g = h;
        }
        for (int i = 0; i < nx; i++) {
            for (int j = 0; j < ny; j++) {
                assertThat(a[(i + 1) * row + j + 1]).as("cell (%d, %d)", coords[0] * nx + i, coords[1] * ny + j)
                        .isEqualTo(g[coords[0] * nx + i][coords[1] * ny + j]);
            }
        }
        column.free();
        cart.free();
    }

    private static void cartesianQueries() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int size = w.getSize();
        int rank = w.getRank();
        // a 1-D grid over all but the last rank (when there are several): the last one gets a null communicator
        int n = size > 1 ? size - 1 : 1;
        CartComm line = w.createCart(new int[] {n}, new boolean[] {false}, false);
        if (rank >= n) {
            assertThat(line.isNull()).isTrue();
        } else {
            assertThat(line.getTopology()).isEqualTo(MPI.CART);
            ShiftParms s = line.shift(0, 1);
            assertThat(s.getRankSource()).isEqualTo(rank == 0 ? MPI.PROC_NULL : rank - 1);
            assertThat(s.getRankDest()).isEqualTo(rank == n - 1 ? MPI.PROC_NULL : rank + 1);
            CartComm copy = line.dup();
            assertThat(copy.getTopo().getDim(0)).isEqualTo(n);
            copy.free();
            line.free();
        }
        // a 3-D grid: coordinates, ranks, periodic wrap, sub-grids
        int[] dims = new int[3];
        CartComm.createDims(size, dims);
        CartComm cube = w.createCart(dims, new boolean[] {true, false, true}, false);
        CartParms p = cube.getTopo();
        assertThat(p.getDimCount()).isEqualTo(3);
        int[] c = cube.getCoords(rank);
        for (int i = 0; i < 3; i++) {
            assertThat(p.getDim(i)).isEqualTo(dims[i]);
            assertThat(p.getCoord(i)).isEqualTo(c[i]);
        }
        assertThat(p.getPeriod(1)).isFalse();
        assertThat(cube.getRank(c)).isEqualTo(rank);
        assertThat(cube.getRank(new int[] {c[0] + dims[0], c[1], c[2] - dims[2]})).isEqualTo(rank);
        assertThat(c[0] * dims[1] * dims[2] + c[1] * dims[2] + c[2]).isEqualTo(rank);
        assertThat(cube.map(dims, new boolean[] {true, false, true})).isEqualTo(rank);
        CartComm plane = cube.sub(new boolean[] {false, true, true});
        assertThat(plane.getSize()).isEqualTo(dims[1] * dims[2]);
        assertThat(plane.getRank()).isEqualTo(c[1] * dims[2] + c[2]);
        assertThat(plane.getTopo().getDimCount()).isEqualTo(2);
        int[] v = {rank};
        plane.allReduce(v, 1, MPI.INT, MPI.MIN);
        assertThat(v[0]).isEqualTo(c[0] * dims[1] * dims[2]);
        plane.free();
        cube.free();
    }

    /** Neighbour allgather/alltoall on a grid that is periodic in one dimension and not in the other. */
    private static void cartesianNeighbourCollectives() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int[] dims = new int[2];
        CartComm.createDims(w.getSize(), dims);
        CartComm cart = w.createCart(dims, new boolean[] {true, false}, false);
        int rank = cart.getRank();
        int[] nb = new int[4];
        for (int d = 0; d < 2; d++) {
            ShiftParms s = cart.shift(d, 1);
            nb[2 * d] = s.getRankSource();
            nb[2 * d + 1] = s.getRankDest();
        }
        int[] got = {-7, -7, -7, -7};
        cart.neighborAllGather(new int[] {rank}, 1, MPI.INT, got, 1, MPI.INT);
        for (int i = 0; i < 4; i++) {
            assertThat(got[i]).isEqualTo(nb[i] == MPI.PROC_NULL ? -7 : nb[i]);
        }
        // alltoall: block i goes to neighbour i; the lower neighbour's upward block lands in slot 2d
        int[] send = new int[4];
        for (int i = 0; i < 4; i++) {
            send[i] = rank * 100 + i;
        }
        int[] recv = {-7, -7, -7, -7};
        cart.neighborAllToAll(send, 1, MPI.INT, recv, 1, MPI.INT);
        for (int i = 0; i < 4; i++) {
            assertThat(recv[i]).as("slot %d", i).isEqualTo(nb[i] == MPI.PROC_NULL ? -7 : nb[i] * 100 + (i ^ 1));
        }
        // the non-blocking forms, with direct buffers
        IntBuffer sb = MPI.newIntBuffer(4);
        IntBuffer rb = MPI.newIntBuffer(4);
        for (int i = 0; i < 4; i++) {
            sb.put(i, rank * 100 + i);
            rb.put(i, -7);
        }
        Request r = cart.iNeighborAllToAll(sb, 1, MPI.INT, rb, 1, MPI.INT);
        r.waitFor();
        for (int i = 0; i < 4; i++) {
            assertThat(rb.get(i)).isEqualTo(nb[i] == MPI.PROC_NULL ? -7 : nb[i] * 100 + (i ^ 1));
        }
        IntBuffer one = MPI.newIntBuffer(1);
        one.put(0, rank);
        for (int i = 0; i < 4; i++) {
            rb.put(i, -7);
        }
        cart.iNeighborAllGather(one, 1, MPI.INT, rb, 1, MPI.INT).waitFor();
        for (int i = 0; i < 4; i++) {
            assertThat(rb.get(i)).isEqualTo(nb[i] == MPI.PROC_NULL ? -7 : nb[i]);
        }
        cart.free();
    }

    /** A ring as a graph, as an adjacent distributed graph, and as a distributed graph given by its sources. */
    private static void graphAndDistGraph() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int size = w.getSize();
        int rank = w.getRank();
        int left = (rank + size - 1) % size;
        int right = (rank + 1) % size;
        int[] index = new int[size];
        int[] edges = new int[2 * size];
        for (int i = 0; i < size; i++) {
            index[i] = 2 * (i + 1);
            edges[2 * i] = (i + size - 1) % size;
            edges[2 * i + 1] = (i + 1) % size;
        }
        GraphComm ring = w.createGraph(index, edges, false);
        assertThat(ring.getTopology()).isEqualTo(MPI.GRAPH);
        assertThat(ring.getNeighbors(rank)).containsExactly(left, right);
        GraphParms gp = ring.getDims();
        assertThat(gp.getIndexCount()).isEqualTo(size);
        assertThat(gp.getEdgeCount()).isEqualTo(2 * size);
        int[] got = new int[2];
        ring.neighborAllGather(new int[] {rank}, 1, MPI.INT, got, 1, MPI.INT);
        assertThat(got).containsExactly(left, right);
        ring.free();

        // adjacent: receive from the left, send to the right, with weights
        GraphComm adj = w.createDistGraphAdjacent(new int[] {left}, new int[] {5}, new int[] {right}, new int[] {6},
                MPI.INFO_NULL, false);
        assertThat(adj.getTopology()).isEqualTo(MPI.DIST_GRAPH);
        DistGraphNeighbors n = adj.getDistGraphNeighbors();
        assertThat(n.getInDegree()).isEqualTo(1);
        assertThat(n.getSource(0)).isEqualTo(left);
        assertThat(n.getDestination(0)).isEqualTo(right);
        assertThat(n.isWeighted()).isTrue();
        assertThat(n.getSourceWeight(0)).isEqualTo(5);
        int[] in = new int[3];
        // v-form: 2 elements from the left at displacement 1
        adj.neighborAllGatherv(new int[] {rank, rank * 2}, 2, MPI.INT, in, new int[] {2}, new int[] {1}, MPI.INT);
        assertThat(in).containsExactly(0, left, left * 2);
        // the same, non-blocking, on direct buffers
        IntBuffer pair = MPI.newIntBuffer(2).put(0, rank).put(1, rank * 2);
        IntBuffer inBuf = MPI.newIntBuffer(3).put(0, -1).put(1, -1).put(2, -1);
        adj.iNeighborAllGatherv(pair, 2, MPI.INT, inBuf, new int[] {2}, new int[] {1}, MPI.INT).waitFor();
        assertThat(new int[] {inBuf.get(0), inBuf.get(1), inBuf.get(2)}).containsExactly(-1, left, left * 2);
        adj.free();

        // given by sources with weights: the edge to the right weighs 3 + the source's rank
        GraphComm weighted = w.createDistGraph(new int[] {rank}, new int[] {1}, new int[] {right},
                new int[] {3 + rank}, MPI.INFO_NULL, false);
        DistGraphNeighbors wn = weighted.getDistGraphNeighbors();
        assertThat(wn.isWeighted()).isTrue();
        assertThat(wn.getInDegree()).isEqualTo(1);
        assertThat(wn.getSource(0)).isEqualTo(left);
        assertThat(wn.getSourceWeight(0)).isEqualTo(3 + left);
        assertThat(wn.getDestination(0)).isEqualTo(right);
        assertThat(wn.getDestinationWeight(0)).isEqualTo(3 + rank);
        weighted.free();

        // given by sources: every rank declares the edge to its right and, on rank 0, also 0 -> 0 twice
        int[] sources = rank == 0 ? new int[] {0, 0} : new int[] {rank};
        int[] degrees = rank == 0 ? new int[] {1, 2} : new int[] {1};
        int[] dests = rank == 0 ? new int[] {right, 0, 0} : new int[] {right};
        GraphComm dg = w.createDistGraph(sources, degrees, dests, MPI.INFO_NULL, false);
        DistGraphNeighbors dn = dg.getDistGraphNeighbors();
        assertThat(dn.isWeighted()).isFalse();
        int extra = rank == 0 ? 2 : 0;
        assertThat(dn.getInDegree()).isEqualTo(1 + extra);
        assertThat(dn.getOutDegree()).isEqualTo(1 + extra);
        // alltoallv: send rank*10+i to out-neighbour i (i elements + 1)
        int out = dn.getOutDegree();
        int inDeg = dn.getInDegree();
        int[] sc = new int[out];
        int[] sd = new int[out];
        int total = 0;
        for (int i = 0; i < out; i++) {
            sc[i] = 1;
            sd[i] = i;
            total++;
        }
        int[] sendv = new int[total];
        for (int i = 0; i < out; i++) {
            sendv[i] = dn.getDestination(i) * 1000 + rank;
        }
        int[] rc = new int[inDeg];
        int[] rd = new int[inDeg];
        for (int i = 0; i < inDeg; i++) {
            rc[i] = 1;
            rd[i] = i;
        }
        int[] recvv = new int[inDeg];
        dg.neighborAllToAllv(sendv, sc, sd, MPI.INT, recvv, rc, rd, MPI.INT);
        for (int i = 0; i < inDeg; i++) {
            assertThat(recvv[i]).isEqualTo(rank * 1000 + dn.getSource(i));
        }
        // the same, non-blocking, on direct buffers
        IntBuffer sendBuf = MPI.newIntBuffer(total).put(0, sendv);
        IntBuffer recvBuf = MPI.newIntBuffer(inDeg);
        dg.iNeighborAllToAllv(sendBuf, sc, sd, MPI.INT, recvBuf, rc, rd, MPI.INT).waitFor();
        for (int i = 0; i < inDeg; i++) {
            assertThat(recvBuf.get(i)).isEqualTo(rank * 1000 + dn.getSource(i));
        }
        dg.free();
    }
}
