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
import java.util.List;
import java.util.stream.Stream;
import mpi.Comm;
import mpi.MPIException;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.jmpi.tests.SharedDirs;

/** Helpers of the checkpoint tests: a directory shared by the ranks, error checks, captured standard error. */
final class CheckpointTesting {
    private CheckpointTesting() {}

    /** A fresh directory made by rank 0 and known to every rank (collective). */
    static Path sharedTempDir(Comm comm) throws MPIException {
        return SharedDirs.create(comm, "jmpi-ckpt-test");
    }

    /** Removes the directory once every rank is done with it (collective). */
    static void removeTempDir(Comm comm, Path dir) throws MPIException {
        SharedDirs.remove(comm, dir);
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
