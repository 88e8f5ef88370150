package org.jmpi.tests.ft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Helpers of the checkpoint tests: a directory shared by the ranks, error checks, captured standard error. */
final class CheckpointTesting {
    private CheckpointTesting() {}

    /** A fresh directory made by rank 0 and known to every rank (collective). */
    static Path sharedTempDir(Comm comm) throws MPIException {
        byte[] name = new byte[4096];
        int[] len = new int[1];
        if (comm.getRank() == 0) {
            try {
                byte[] p = Files.createTempDirectory("jmpi-ckpt-test").toString().getBytes(StandardCharsets.UTF_8);
                System.arraycopy(p, 0, name, 0, p.length);
                len[0] = p.length;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        comm.bcast(len, 1, MPI.INT, 0);
        comm.bcast(name, len[0], MPI.BYTE, 0);
        return Path.of(new String(name, 0, len[0], StandardCharsets.UTF_8));
    }

    /** Removes the directory once every rank is done with it (collective). */
    static void removeTempDir(Comm comm, Path dir) throws MPIException {
        comm.barrier();
        if (comm.getRank() == 0) {
            deleteTree(dir);
        }
        comm.barrier();
    }

    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The names of the generation directories in {@code dir}, sorted. */
    static List<String> generations(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("generation-")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void expect(int errorClass, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(MPIException.class, e -> {
            assertThat(e.getErrorClass()).as(e.getMessage()).isEqualTo(errorClass);
            assertThat(e.getMessage()).isNotBlank();
        });
    }

    /** Something that may throw an MPIException. */
    @FunctionalInterface
    interface MpiAction<T> {
        T run() throws MPIException;
    }

    /** Runs {@code action} with standard error captured; returns what it printed there. */
    static <T> String capturingStderr(MpiAction<T> action, Object[] result) throws MPIException {
        PrintStream old = System.err;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            result[0] = action.run();
        } finally {
            System.setErr(old);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
