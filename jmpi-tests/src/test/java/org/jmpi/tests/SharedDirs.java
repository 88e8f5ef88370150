package org.jmpi.tests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;

/** Temporary directories that every rank of a test uses (MPI-IO files, checkpoints). */
public final class SharedDirs {
    private SharedDirs() {}

    /** A fresh directory {@code prefix...} made by rank 0 and known to every rank (collective). */
    public static Path create(Comm comm, String prefix) throws MPIException {
        byte[] name = new byte[4096];
        int[] len = new int[1];
        if (comm.getRank() == 0) {
            try {
                byte[] p = Files.createTempDirectory(prefix).toString().getBytes(StandardCharsets.UTF_8);
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

    /** Removes the directory made by {@link #create} once every rank is done with it (collective). */
    public static void remove(Comm comm, Path dir) throws MPIException {
        comm.barrier();
        if (comm.getRank() == 0) {
            deleteTree(dir);
        }
        comm.barrier();
    }

    /** Removes a directory and everything in it (nothing when it does not exist). */
    public static void deleteTree(Path dir) {
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
}
