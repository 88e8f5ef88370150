package org.jmpi.tests.dpm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;
import org.jmpi.junit.MpiTestContext;

/**
 * Ports and connect/accept inside one job (two halves of the world meet through a port, as two jobs would), the
 * errors of ports and names, and getParent in a job that was not spawned. Connecting separate jobs and spawning are in
 * jmpi-launcher's DynamicProcessesTest; threads mode in {@link SpawnInThreadsModeTest}.
 */
class PortsInOneJobTest {

    @MpiTest(ranks = {2, 3, 4, 8}, modes = Mode.PROCESSES)
    void twoHalvesConnectThroughAPort(MpiTestContext ctx) throws MPIException {
        halves(ctx);
    }

    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES, jvmArgs = "-Djmpi.transport=tcp")
    void twoHalvesConnectThroughAPortOverTcp(MpiTestContext ctx) throws MPIException {
        halves(ctx);
    }

    /** Ranks below size/2 accept (root: their rank 0), the others connect (root: their last rank). */
    static void halves(MpiTestContext ctx) throws MPIException {
        int size = ctx.size();
        int low = size / 2;
        boolean acceptor = ctx.rank() < low;
        Intracomm half = MPI.COMM_WORLD.split(acceptor ? 0 : 1, ctx.rank());
        String port = null;
        if (ctx.rank() == 0) {
            port = Intracomm.openPort();
            assertThat(port).startsWith("jmpi-port:").hasSizeLessThan(MPI.MAX_PORT_NAME);
            byte[] b = port.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            MPI.COMM_WORLD.send(b, b.length, MPI.BYTE, size - 1, 1);
        } else if (ctx.rank() == size - 1) {
            byte[] b = new byte[MPI.MAX_PORT_NAME];
            int n = MPI.COMM_WORLD.recv(b, b.length, MPI.BYTE, 0, 1).getCount(MPI.BYTE);
            port = new String(b, 0, n, java.nio.charset.StandardCharsets.US_ASCII);
        }
        Intercomm inter = acceptor ? half.accept(port, 0) : half.connect(port, half.getSize() - 1);
        assertThat(inter.getSize()).isEqualTo(acceptor ? low : size - low);
        assertThat(inter.getRemoteSize()).isEqualTo(acceptor ? size - low : low);
        // every rank sends its world rank to remote rank 0; remote rank 0 sums them
        inter.send(new int[] {ctx.rank()}, 1, MPI.INT, 0, 3);
        if (inter.getRank() == 0) {
            int sum = 0;
            for (int r = 0; r < inter.getRemoteSize(); r++) {
                int[] v = new int[1];
                inter.recv(v, 1, MPI.INT, r, 3);
                sum += v[0];
            }
            int expected = acceptor ? (low + size - 1) * (size - low) / 2 : (low - 1) * low / 2;
            assertThat(sum).isEqualTo(expected);
        }
        int[] total = new int[1];
        inter.allReduce(new int[] {1}, total, 1, MPI.INT, MPI.SUM);
        assertThat(total[0]).isEqualTo(inter.getRemoteSize());
        Intracomm all = inter.merge(!acceptor);
        assertThat(all.getSize()).isEqualTo(size);
        assertThat(all.getRank()).isEqualTo(ctx.rank());
        all.free();
        inter.disconnect();
        assertThat(inter.isNull()).isTrue();
        if (ctx.rank() == 0) {
            Intracomm.closePort(port);
        }
        half.free();
    }

    @MpiTest(ranks = {1, 2})
    void badPortsAndNames(MpiTestContext ctx) throws MPIException {
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        assertThat(Intercomm.getParent().isNull()).isTrue();
        String port = Intracomm.openPort();
        Intracomm.closePort(port);
        assertThatThrownBy(() -> Intracomm.closePort(port)).isInstanceOfSatisfying(MPIException.class,
                e -> assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_PORT));
        assertThatThrownBy(() -> MPI.COMM_WORLD.connect(port, 0)).isInstanceOfSatisfying(MPIException.class,
                e -> assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_PORT));
        assertThatThrownBy(() -> MPI.COMM_WORLD.accept(port, 0)).isInstanceOfSatisfying(MPIException.class,
                e -> assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_PORT));
        assertThatThrownBy(() -> MPI.COMM_WORLD.connect("localhost:1", 0)).isInstanceOfSatisfying(
                MPIException.class, e -> assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_PORT));
        assertThatThrownBy(() -> MPI.COMM_WORLD.accept(port, 7)).isInstanceOfSatisfying(MPIException.class,
                e -> assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_ROOT));
        // no name server is named in this job (the test launcher sets none)
        assertThatThrownBy(() -> Intracomm.lookupName("nothing")).isInstanceOfSatisfying(MPIException.class,
                e -> assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_NAME));
        assertThatThrownBy(() -> MPI.COMM_WORLD.spawn("org.example.Absent", new String[0], 0, MPI.INFO_NULL, 0,
                null)).isInstanceOfSatisfying(MPIException.class,
                        e -> assertThat(e.getErrorClass()).isEqualTo(MPI.ERR_ARG));
        // the communicator is still usable
        MPI.COMM_WORLD.barrier();
    }
}
