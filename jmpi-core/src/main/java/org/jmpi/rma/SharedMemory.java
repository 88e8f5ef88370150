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
 * <p>Layout (one per window):
 * <pre>
 *  0              64             128        64 P
 *  +--------------+--------------+-- ... --+----------------+----------------+-- ... --+
 *  | lock word of | lock word of |         | rank 0's part  | rank 1's part  |         |
 *  | rank 0 (int) | rank 1       |         | (size 0)       | (size 1)       |         |
 *  +--------------+--------------+-- ... --+----------------+----------------+-- ... --+
 * </pre>
 * Rank {@code r}'s part follows the part of rank {@code r - 1} directly (contiguous, MPI's default; rank 0's part
 * starts 64-byte aligned), or each part starts on a 4 KiB page of its own with {@code alloc_shared_noncontig}. The lock
 * words serialise accumulate-class operations on a part.
 *
 * <p>Threading: immutable after {@link #map}; {@link #close} runs once, after the window's final barrier.
 */
final class SharedMemory {
    private static final long PAGE = 4096;
    /** One lock word per rank, each on a cache line of its own, at the start of the segment. */
    private static final long LOCK_STRIDE = 64;
    private static final java.lang.invoke.VarHandle WORD = java.lang.foreign.ValueLayout.JAVA_INT.varHandle();

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

    /** Whether every rank of {@code comm} runs on this host (threads mode: always). */
    static boolean allLocal(Communicator comm) {
        JmpiRuntime rt = JmpiRuntime.get();
        if (rt.threadsMode()) {
            return true;
        }
        for (int r = 0; r < comm.size(); r++) {
            if (!rt.bootstrap().isLocal(comm.worldRank(r))) {
                return false;
            }
        }
        return true;
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
        long total = LOCK_STRIDE * sizes.length; // the lock words come first
        long round = noncontiguous ? PAGE : 1;
        for (int r = 0; r < sizes.length; r++) {
            total = (total + round - 1) / round * round;
            offsets[r] = total;
            total += sizes[r];
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

    /**
     * Takes rank {@code rank}'s lock word: a compare-and-set from 0 to 1 in the shared segment (spinning, then
     * yielding while another rank or thread holds it; holders keep it for one read-combine-write).
     */
    void lock(int rank) {
        long at = LOCK_STRIDE * rank;
        for (int spins = 0; !WORD.compareAndSet(whole, at, 0, 1); spins++) {
            if (spins < 100) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    void unlock(int rank) {
        WORD.setRelease(whole, LOCK_STRIDE * rank, 0);
    }

    MemorySegment part(int rank) {
        return whole.asSlice(offsets[rank], sizes[rank]);
    }

    void close() {
        arena.close();
    }
}
