package org.jmpi.rma;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.jmpi.coll.Collectives;
import org.jmpi.coll.Schedule;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;

/**
 * The memory of a window made with {@code FLAVOR_SHARED}: one file in {@code /dev/shm} that every rank of the window
 * maps, so that all of them load and store each other's parts directly (in threads mode and between processes of one
 * host alike). Rank 0 creates the file, everyone maps it, and rank 0 removes the name once all have mapped it, so
 * nothing is left behind whatever happens later. The segment is unmapped when the window is freed.
 *
 * <p>Layout: rank {@code r}'s part starts at the sum of the sizes of ranks below it (contiguous, MPI's default), or
 * with {@code alloc_shared_noncontig} at the sum of those sizes each rounded up to 4 KiB (a page of its own). Every
 * part starts 8-byte aligned, so 8-byte atomics work on any part.
 *
 * <p>Threading: immutable after {@link #map}; {@link #close} runs once, after the window's final barrier.
 */
final class SharedMemory {
    private static final long PAGE = 4096;

    private final Arena arena;
    private final MemorySegment whole;
    private final long[] offsets;
    private final long[] sizes;

    private SharedMemory(Arena arena, MemorySegment whole, long[] offsets, long[] sizes) {
        this.arena = arena;
        this.whole = whole;
        this.offsets = offsets;
        this.sizes = sizes;
    }

    /** Collective over {@code comm}: maps the shared segment for window parts of {@code sizes} bytes. */
    static SharedMemory map(Communicator comm, long[] sizes, boolean noncontiguous) {
        JmpiRuntime rt = JmpiRuntime.get();
        for (int r = 0; r < comm.size(); r++) {
            if (!rt.threadsMode() && !rt.bootstrap().isLocal(comm.worldRank(r))) {
                throw new MpiError(ErrorClass.ERR_RMA_SHARED, "FLAVOR_SHARED needs every rank of the communicator on"
                        + " one host (split it with Comm.splitType(Comm.TYPE_SHARED, ...)); rank " + r
                        + " is elsewhere");
            }
        }
        long[] offsets = new long[sizes.length];
        long total = 0;
        for (int r = 0; r < sizes.length; r++) {
            offsets[r] = total;
            long round = noncontiguous ? PAGE : 8;
            total += (sizes[r] + round - 1) / round * round;
        }
        Path dir = Path.of("/dev/shm");
        if (!Files.isDirectory(dir)) {
            dir = Path.of(System.getProperty("java.io.tmpdir"));
        }
        Path file = dir.resolve("jmpi-win-" + rt.bootstrap().jobId().replaceAll("[^A-Za-z0-9_.-]", "_") + "-"
                + comm.worldRank(0) + "-" + comm.context());
        long length = Math.max(total, 8);
        Arena arena = Arena.ofShared();
        MemorySegment whole = null;
        MpiError failure = null;
        try {
            if (comm.rank() == 0) {
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                        StandardOpenOption.WRITE)) {
                    ch.truncate(length);
                    whole = ch.map(FileChannel.MapMode.READ_WRITE, 0, length, arena);
                }
            }
        } catch (IOException e) {
            failure = new MpiError(ErrorClass.ERR_NO_MEM, "cannot create the shared window file " + file + ": " + e);
        }
        barrier(comm);
        try {
            if (comm.rank() != 0) {
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                    whole = ch.map(FileChannel.MapMode.READ_WRITE, 0, length, arena);
                }
            }
        } catch (IOException e) {
            failure = new MpiError(ErrorClass.ERR_NO_MEM, "cannot map the shared window file " + file + ": " + e);
        }
        barrier(comm);
        if (comm.rank() == 0) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // best effort: the name only; the mapping lives on
            }
        }
        if (failure != null) {
            arena.close();
            throw failure;
        }
        return new SharedMemory(arena, whole, offsets, sizes.clone());
    }

    private static void barrier(Communicator comm) {
        Schedule s = Collectives.schedule(comm, "MPI_Win_allocate_shared");
        Collectives.barrier(s);
        s.start();
        Collectives.await(s);
    }

    MemorySegment part(int rank) {
        return whole.asSlice(offsets[rank], sizes[rank]);
    }

    void close() {
        arena.close();
    }
}
