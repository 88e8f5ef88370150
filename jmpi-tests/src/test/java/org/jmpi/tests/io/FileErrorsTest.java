package org.jmpi.tests.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jmpi.tests.io.IoTesting.assertImage;
import static org.jmpi.tests.io.IoTesting.expect;
import static org.jmpi.tests.io.IoTesting.value;
import static org.jmpi.tests.io.IoTesting.values;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import mpi.Comm;
import mpi.Datatype;
import mpi.File;
import mpi.Info;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;
import org.jmpi.junit.MpiTest;
import org.junit.jupiter.api.Assumptions;

/**
 * Bad input to mpi.File: each mistake gives the right error class on every rank that takes part, nothing is
 * written, and the handle keeps working. Also error handlers, a file deleted while open, and a full disk (a small
 * tmpfs mounted for the test).
 */
class FileErrorsTest {

    @MpiTest(ranks = {1, 2, 3, 4, 8}, timeoutSeconds = 120)
    void badInput() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        Path dir = IoTesting.sharedTempDir(w);
        String name = dir.resolve("data").toString();
        // opening
        expect(MPI.ERR_NO_SUCH_FILE, () -> new File(w, dir.resolve("missing").toString(), MPI.MODE_RDWR));
        expect(MPI.ERR_AMODE, () -> new File(w, name, MPI.MODE_RDONLY | MPI.MODE_CREATE));
        expect(MPI.ERR_AMODE, () -> new File(w, name, MPI.MODE_RDONLY | MPI.MODE_RDWR | MPI.MODE_CREATE));
        expect(MPI.ERR_AMODE, () -> new File(w, name, MPI.MODE_CREATE));
        expect(MPI.ERR_AMODE, () -> new File(w, name, MPI.MODE_RDWR | MPI.MODE_SEQUENTIAL | MPI.MODE_CREATE));
        assertThat(Files.exists(Path.of(name))).isFalse();
        File f = new File(w, name, MPI.MODE_RDWR | MPI.MODE_CREATE | MPI.MODE_EXCL);
        expect(MPI.ERR_FILE_EXISTS, () -> new File(w, name, MPI.MODE_RDWR | MPI.MODE_CREATE | MPI.MODE_EXCL));
        if (size > 1) {
            // different access modes, different names across the ranks
            expect(MPI.ERR_AMODE, () -> new File(w, name, rank == 1 ? MPI.MODE_RDONLY : MPI.MODE_RDWR));
            expect(MPI.ERR_NOT_SAME, () -> new File(w, rank == 1 ? name + "x" : name, MPI.MODE_RDWR));
        }
        assertThat(f.getErrhandler()).isSameAs(MPI.ERRORS_RETURN);
        f.callErrhandler(MPI.ERR_OTHER); // returns normally under ERRORS_RETURN
        f.setView(0, MPI.INT, MPI.INT, "native");
        f.writeAt(rank * 10L, values(rank, 10), 10, MPI.INT);
        // data access
        expect(MPI.ERR_ARG, () -> f.writeAt(-1, new int[1], 1, MPI.INT));
        expect(MPI.ERR_ARG, () -> f.readAt(-4, new int[1], 1, MPI.INT));
        expect(MPI.ERR_ARG, () -> f.seek(-1, MPI.SEEK_SET));
        expect(MPI.ERR_ARG, () -> f.seek(0, 12345));
        expect(MPI.ERR_ARG, () -> f.getByteOffset(-1));
        expect(MPI.ERR_BUFFER, () -> f.writeAt(0, new int[1], 2, MPI.INT));
        expect(MPI.ERR_COUNT, () -> f.writeAt(0, new int[1], -1, MPI.INT));
        expect(MPI.ERR_TYPE, () -> f.writeAt(0, new byte[3], 3, MPI.BYTE));
        expect(MPI.ERR_TYPE, () -> f.writeAt(0, new int[1], 1, null));
        // a collective call with a bad argument on one rank fails on every rank (no hang, nothing written)
        expect(rank == 0 ? MPI.ERR_ARG : MPI.ERR_ARG, () -> f.writeAtAll(rank == 0 ? -5 : 0, values(99, 10), 10,
                MPI.INT));
        // views
        Datatype doubles = Datatype.createContiguous(2, MPI.DOUBLE);
        doubles.commit();
        expect(MPI.ERR_TYPE, () -> f.setView(0, MPI.INT, doubles, "native"));
        expect(MPI.ERR_TYPE, () -> f.setView(0, MPI.DOUBLE, MPI.INT, "native"));
        expect(MPI.ERR_ARG, () -> f.setView(-8, MPI.INT, MPI.INT, "native"));
        expect(MPI.ERR_UNSUPPORTED_DATAREP, () -> f.setView(0, MPI.INT, MPI.INT, "external32"));
        if (size > 1) {
            expect(MPI.ERR_TYPE, () -> f.setView(0, MPI.INT, rank == 1 ? doubles : MPI.INT, "native"));
        }
        doubles.free();
        if (size > 1) {
            expect(MPI.ERR_NOT_SAME, () -> f.setSize(rank));
        }
        expect(MPI.ERR_ARG, () -> f.setSize(-1));
        // the handle still works, and the file holds exactly what the good calls wrote
        assertThat(f.getView().getDisp()).isZero();
        f.setView(0, MPI.INT, MPI.INT, "native");
        int[] back = new int[10];
        f.sync();
        w.barrier();
        f.sync();
        Status s = f.readAt(rank * 10L, back, 10, MPI.INT);
        assertThat(s.getCount(MPI.INT)).isEqualTo(10);
        assertThat(back).isEqualTo(values(rank, 10));
        byte[] image = IoTesting.blocks(1, size, 10);
        w.barrier();
        if (rank == 0) {
            assertImage(Path.of(name), image);
        }
        f.close();
        expect(MPI.ERR_FILE, () -> f.getSize());
        expect(MPI.ERR_FILE, () -> f.readAt(0, back, 1, MPI.INT));
        // read-only and write-only files
        File ro = new File(w, name, MPI.MODE_RDONLY);
        expect(MPI.ERR_READ_ONLY, () -> ro.writeAt(0, new int[1], 1, MPI.INT));
        expect(MPI.ERR_READ_ONLY, () -> ro.writeAtAll(0, new int[1], 1, MPI.INT));
        expect(MPI.ERR_READ_ONLY, () -> ro.setSize(0));
        ro.readAt(0, back, 1, MPI.BYTE.equals(MPI.INT) ? MPI.BYTE : MPI.INT);
        assertThat(back[0]).isEqualTo(value(0, 0));
        ro.close();
        File wo = new File(w, name, MPI.MODE_WRONLY);
        expect(MPI.ERR_ACCESS, () -> wo.readAt(0, back, 1, MPI.INT));
        wo.close();
        w.barrier();
        if (rank == 0) {
            assertImage(Path.of(name), image);
        }
        // no permission: an immutable file (root ignores mode bits) or a mode-000 file
        Path locked = dir.resolve("locked");
        boolean[] lockedOk = {true};
        if (rank == 0) {
            lockedOk[0] = makeUnwritable(locked);
        }
        w.bcast(lockedOk, 1, MPI.BOOLEAN, 0);
        if (lockedOk[0]) {
            expect(MPI.ERR_ACCESS, () -> new File(w, locked.toString(), MPI.MODE_RDWR));
        } else {
            System.err.println("FileErrorsTest: ERR_ACCESS not checked: cannot make a file unwritable here");
        }
        w.barrier();
        if (rank == 0) {
            run("chattr", "-i", locked.toString());
        }
        // deleting
        w.barrier();
        if (rank == 0) {
            File.delete(name);
            expect(MPI.ERR_NO_SUCH_FILE, () -> File.delete(name));
        }
        IoTesting.removeTempDir(w, dir);
    }

    private static boolean makeUnwritable(Path p) {
        try {
            Files.write(p, new byte[4]);
            if (run("chattr", "+i", p.toString())) {
                return true;
            }
            p.toFile().setWritable(false, false);
            p.toFile().setReadable(false, false);
            return !Files.isWritable(p);
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A file one rank deletes while all have it open: POSIX keeps it alive for the open handles. */
    @MpiTest(ranks = {1, 2, 4}, timeoutSeconds = 120)
    void deletedWhileOpen() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        Path dir = IoTesting.sharedTempDir(w);
        String name = dir.resolve("doomed").toString();
        File f = new File(w, name, MPI.MODE_RDWR | MPI.MODE_CREATE);
        w.barrier();
        if (rank == 0) {
            File.delete(name);
        }
        w.barrier();
        expect(MPI.ERR_NO_SUCH_FILE, () -> new File(w, name, MPI.MODE_RDWR));
        f.writeAt(rank * 40L, values(rank, 10), 10, MPI.INT);
        f.sync();
        w.barrier();
        int[] back = new int[10];
        int other = (rank + 1) % size;
        f.readAt(other * 40L, back, 10, MPI.INT);
        assertThat(back).isEqualTo(values(other, 10));
        assertThat(f.getSize()).isEqualTo(size * 40L);
        f.close();
        assertThat(Files.exists(Path.of(name))).isFalse();
        IoTesting.removeTempDir(w, dir);
    }

    /** MODE_DELETE_ON_CLOSE, and error handlers on files. */
    @MpiTest(ranks = {1, 3}, timeoutSeconds = 120)
    void deleteOnCloseAndHandlers() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        Path dir = IoTesting.sharedTempDir(w);
        String name = dir.resolve("scratch").toString();
        Info info = new Info();
        info.set("cb_nodes", "1");
        info.set("no_such_hint", "whatever");
        File f = new File(w, name, MPI.MODE_RDWR | MPI.MODE_CREATE | MPI.MODE_DELETE_ON_CLOSE, info);
        Info in = f.getInfo();
        assertThat(in.get("cb_nodes")).isEqualTo("1");
        assertThat(in.get("cb_buffer_size")).isEqualTo(Long.toString(16L << 20));
        assertThat(in.get("romio_cb_write")).isEqualTo("automatic");
        Info more = new Info();
        more.set("romio_ds_write", "disable");
        f.setInfo(more);
        assertThat(f.getInfo().get("romio_ds_write")).isEqualTo("disable");
        f.setErrhandler(MPI.ERRORS_ARE_FATAL);
        assertThat(f.getErrhandler()).isSameAs(MPI.ERRORS_ARE_FATAL);
        f.setErrhandler(MPI.ERRORS_RETURN);
        expect(MPI.ERR_ARG, () -> f.setErrhandler(null));
        f.preallocate(1000);
        assertThat(f.getSize()).isEqualTo(1000);
        f.setSize(10);
        assertThat(f.getSize()).isEqualTo(10);
        assertThat(f.getTypeExtent(MPI.DOUBLE)).isEqualTo(8);
        f.close();
        w.barrier();
        assertThat(Files.exists(Path.of(name))).isFalse();
        IoTesting.removeTempDir(w, dir);
    }

    /** A full disk: a 1 MiB tmpfs mounted for the test; writes past its end give ERR_NO_SPACE on every rank. */
    @MpiTest(ranks = {1, 2, 3}, timeoutSeconds = 120)
    void diskFull() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        Path dir = IoTesting.sharedTempDir(w);
        boolean[] mounted = {false};
        if (rank == 0) {
            mounted[0] = run("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", dir.toString());
        }
        w.bcast(mounted, 1, MPI.BOOLEAN, 0);
        try {
            Assumptions.assumeTrue(mounted[0], "cannot mount a tmpfs here (needs root): ERR_NO_SPACE not checked");
            String name = dir.resolve("big").toString();
            File f = new File(w, name, MPI.MODE_RDWR | MPI.MODE_CREATE);
            byte[] chunk = new byte[1 << 20];
            expect(MPI.ERR_NO_SPACE, () -> f.writeAt((long) rank << 20, chunk, chunk.length, MPI.BYTE));
            expect(MPI.ERR_NO_SPACE, () -> f.writeAtAll((long) rank << 20, chunk, chunk.length, MPI.BYTE));
            expect(MPI.ERR_NO_SPACE, () -> f.preallocate(4L << 20));
            f.setSize(0);
            // through two-phase I/O: the aggregators' errors reach every rank
            Info cb = new Info();
            cb.set("romio_cb_write", "enable");
            cb.set("cb_buffer_size", "262144");
            f.setInfo(cb);
            expect(MPI.ERR_NO_SPACE, () -> f.writeAtAll((long) rank << 20, chunk, chunk.length, MPI.BYTE));
            f.setSize(0);
            // the handle still works once there is room
            f.writeAt(0, new byte[] {7}, 1, MPI.BYTE);
            f.close();
        } finally {
            w.barrier();
            if (rank == 0 && mounted[0]) {
                run("umount", dir.toString());
            }
            IoTesting.removeTempDir(w, dir);
        }
    }
}
