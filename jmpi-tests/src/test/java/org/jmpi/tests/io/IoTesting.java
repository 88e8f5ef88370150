package org.jmpi.tests.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.jmpi.tests.SharedDirs;

/** Helpers of the MPI-IO tests: a temporary directory shared by the ranks, file images, error checks. */
final class IoTesting {
    private IoTesting() {}

    /** A fresh directory made by rank 0 and known to every rank (collective). */
    static Path sharedTempDir(Comm comm) throws MPIException {
        return SharedDirs.create(comm, "jmpi-io-test");
    }

    /** Removes the directory made by {@link #sharedTempDir} once every rank is done with it (collective). */
    static void removeTempDir(Comm comm, Path dir) throws MPIException {
        SharedDirs.remove(comm, dir);
    }

    static void deleteTree(Path dir) {
        SharedDirs.deleteTree(dir);
    }

    static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The file holds exactly {@code expected}. */
    static void assertImage(Path file, byte[] expected) {
        byte[] actual = read(file);
        assertThat(actual.length).as("size of " + file).isEqualTo(expected.length);
        for (int i = 0; i < expected.length; i++) {
            if (actual[i] != expected[i]) {
                assertThat(actual[i]).as("byte " + i + " of " + file).isEqualTo(expected[i]);
            }
        }
    }

    /** Puts {@code v} in native byte order at byte {@code at} of {@code image}. */
    static void putInt(byte[] image, int at, int v) {
        ByteBuffer.wrap(image).order(ByteOrder.nativeOrder()).putInt(at, v);
    }

    static int getInt(byte[] image, int at) {
        return ByteBuffer.wrap(image).order(ByteOrder.nativeOrder()).getInt(at);
    }

    /**
     * The image of {@code regions} regions of {@code size} blocks of {@code n} ints, block r of region q holding
     * {@code values(r + q * size, n)}.
     */
    static byte[] blocks(int regions, int size, int n) {
        byte[] image = new byte[regions * size * n * 4];
        for (int q = 0; q < regions; q++) {
            for (int r = 0; r < size; r++) {
                for (int i = 0; i < n; i++) {
                    putInt(image, ((q * size + r) * n + i) * 4, value(r + q * size, i));
                }
            }
        }
        return image;
    }

    /** The value rank {@code r} writes as its {@code i}th int. */
    static int value(int r, int i) {
        return (r + 1) * 1_000_000 + i;
    }

    static int[] values(int r, int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = value(r, i);
        }
        return a;
    }

    static void expect(int errorClass, ThrowingCallable call) {
        assertThatThrownBy(call).isInstanceOfSatisfying(MPIException.class, e -> {
            assertThat(e.getErrorClass()).as(e.getMessage()).isEqualTo(errorClass);
            assertThat(e.getMessage()).isNotBlank();
        });
    }
}
