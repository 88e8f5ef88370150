package org.jmpi.transport.shm;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.SplittableRandom;

/**
 * One mapped segment file (layout: {@link ShmLayout}): either this rank's own, created by {@link #create}, or a peer's,
 * opened by {@link #attach}. The mapping lives in an automatic arena: the garbage collector unmaps it once nothing
 * reaches it. A process keeps its transport's segments to its end; a JVM that runs jobs in threads mode one after
 * another gets back each job's mappings (and so the memory of its files, removed once every rank has mapped them)
 * when the job's ranks are gone. Never closed explicitly: closing a shared arena waits for a handshake with every
 * thread that might touch it, which was seen to hang in MPI_Finalize under load.
 *
 * <p>Threading: the fields are final; the memory is shared with other processes under the rules of
 * {@link ShmLayout}.
 */
final class ShmSegment {
    final Path path;
    final MemorySegment memory;
    final int rings;
    final long ringDataBytes;

    private ShmSegment(Path path, MemorySegment memory, int rings, long ringDataBytes) {
        this.path = path;
        this.memory = memory;
        this.rings = rings;
        this.ringDataBytes = ringDataBytes;
    }

    /** The file name of rank {@code rank}'s segment in job {@code jobId}. */
    static String fileName(String jobId, int rank) {
        StringBuilder sb = new StringBuilder("jmpi-");
        for (int i = 0; i < jobId.length(); i++) {
            char c = jobId.charAt(i);
            sb.append(Character.isLetterOrDigit(c) && c < 128 || c == '_' || c == '.' || c == '-' ? c : '_');
        }
        return sb.append('-').append(rank).toString();
    }

    /**
     * Creates this rank's segment: a new file of mode 0600 whose storage is written (zeros) before it is mapped, so
     * that a full file system fails here, with an exception, and not later with a SIGBUS; then maps and initialises
     * it. A stale file of the same name (an earlier job with the same id that died) is replaced.
     *
     * @throws IOException when the file cannot be created, filled or mapped
     */
    static ShmSegment create(Path dir, String jobId, int rank, int rings, long ringDataBytes) throws IOException {
        Path path = dir.resolve(fileName(jobId, rank));
        long size = ShmLayout.segmentBytes(rings, ringDataBytes);
        try {
            Files.createFile(path, OWNER_ONLY);
        } catch (FileAlreadyExistsException e) {
            Files.deleteIfExists(path);
            Files.createFile(path, OWNER_ONLY);
        }
        Arena arena = Arena.ofAuto();
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer zeros = ByteBuffer.allocateDirect((int) Math.min(size, 64 << 10));
            for (long pos = 0; pos < size; ) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), size - pos));
                pos += ch.write(zeros, pos);
            }
            MemorySegment m = backed(ch.map(FileChannel.MapMode.READ_WRITE, 0, size, arena), arena);
            // the probe token only has to be unlikely to sit at the same address of another process
            SplittableRandom random = new SplittableRandom(System.nanoTime() ^ ProcessHandle.current().pid() << 32);
            m.set(ShmLayout.INT, ShmLayout.VERSION_OFFSET, ShmLayout.VERSION);
            m.set(ShmLayout.INT, ShmLayout.OWNER_RANK, rank);
            m.set(ShmLayout.LONG, ShmLayout.OWNER_PID, ProcessHandle.current().pid());
            m.set(ShmLayout.LONG, ShmLayout.OWNER_START, OWN_START);
            m.set(ShmLayout.LONG, ShmLayout.OWNER_PID_NAMESPACE, OWN_PID_NAMESPACE);
            m.set(ShmLayout.INT, ShmLayout.RING_COUNT, rings);
            m.set(ShmLayout.LONG, ShmLayout.RING_DATA_BYTES, ringDataBytes);
            m.set(ShmLayout.LONG, ShmLayout.OWNER_MAP_ADDRESS, m.address());
            for (long off = 0; off < ShmLayout.PROBE_TOKEN_BYTES; off += 8) {
                m.set(ShmLayout.LONG, ShmLayout.PROBE_TOKEN + off, random.nextLong());
            }
            ShmLayout.setVolatile(m, ShmLayout.MAGIC_OFFSET, ShmLayout.MAGIC); // last: the header is complete
            return new ShmSegment(path, m, rings, ringDataBytes);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(path);
            throw e;
        }
    }

    private static final FileAttribute<?> OWNER_ONLY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

    /**
     * A mapping of a segment file as a plain native segment of the same lifetime. Every page of a segment file is
     * written when it is created, so no access can fault; {@link org.jmpi.shared.FastCopy} copies plain native memory
     * with {@code memmove}, but leaves mapped segments, whose pages may fault (a full or truncated file), to the JDK.
     */
    @SuppressWarnings("restricted")
    private static MemorySegment backed(MemorySegment mapped, Arena arena) {
        return MemorySegment.ofAddress(mapped.address()).reinterpret(mapped.byteSize(), arena, null);
    }

    /**
     * Maps a peer's segment and checks its header.
     *
     * @throws IOException when the file is missing, too small or not a segment of the expected rank
     */
    static ShmSegment attach(Path path, int expectedRank) throws IOException {
        Arena arena = Arena.ofAuto();
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = ch.size();
            if (size < ShmLayout.SEGMENT_HEADER_BYTES) {
                throw new IOException(path + " is too small for a segment (" + size + " bytes)");
            }
            MemorySegment m = backed(ch.map(FileChannel.MapMode.READ_WRITE, 0, size, arena), arena);
            if (ShmLayout.getVolatile(m, ShmLayout.MAGIC_OFFSET) != ShmLayout.MAGIC
                    || m.get(ShmLayout.INT, ShmLayout.VERSION_OFFSET) != ShmLayout.VERSION) {
                throw new IOException(path + " is not a jmpi segment of version " + ShmLayout.VERSION);
            }
            int owner = m.get(ShmLayout.INT, ShmLayout.OWNER_RANK);
            int rings = m.get(ShmLayout.INT, ShmLayout.RING_COUNT);
            long data = m.get(ShmLayout.LONG, ShmLayout.RING_DATA_BYTES);
            if (owner != expectedRank || rings < 1 || data < ShmConfig.MIN_RING || Long.bitCount(data) != 1
                    || ShmLayout.segmentBytes(rings, data) > size) {
                throw new IOException(path + " has a bad header (owner " + owner + ", " + rings + " rings of " + data
                        + " bytes, file " + size + " bytes)");
            }
            return new ShmSegment(path, m, rings, data);
        }
    }

    /**
     * Counts this process as one more that mapped the segment; the process that completes the count (every other rank
     * of the host, one per ring) removes the file, which no one needs to open any more.
     *
     * @return whether this call removed the file
     */
    boolean countMapped() {
        int before = (int) ShmLayout.INT_HANDLE.getAndAdd(memory, ShmLayout.PEERS_MAPPED, 1);
        if (before + 1 == rings) {
            unlink();
            return true;
        }
        return false;
    }

    /** This process's start time as written into {@link ShmLayout#OWNER_START} (0 when unknown). */
    static final long OWN_START = startMillis(ProcessHandle.current());
    /** The inode of this process's pid namespace (0 when unknown). */
    static final long OWN_PID_NAMESPACE = pidNamespaceInode();

    private static long startMillis(ProcessHandle p) {
        return p.info().startInstant().map(java.time.Instant::toEpochMilli).orElse(0L);
    }

    private static long pidNamespaceInode() {
        try {
            String link = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString(); // pid:[4026531836]
            return Long.parseLong(link.replaceAll("[^0-9]", ""));
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** Files whose header was never completed are removed only when they are older than this. */
    static final long HEADERLESS_AGE_MILLIS = 10 * 60_000;

    /**
     * Whether {@code file} (a segment file of some job, ours to remove) belongs to a process that no longer runs: its
     * header names a pid in our pid namespace that is gone or now belongs to a process started at another time
     * (files of the first layout version, which had neither, count as stale only when their pid is gone). A
     * file whose header was never completed (its owner died while creating it) counts as stale once it is older than
     * {@link #HEADERLESS_AGE_MILLIS}. Anything unreadable, or of another pid namespace, is not stale.
     */
    static boolean isStale(Path file, long nowMillis) {
        ByteBuffer header = ByteBuffer.allocate(96).order(java.nio.ByteOrder.nativeOrder());
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            while (header.hasRemaining() && ch.read(header, header.position()) > 0) {
                // read the whole header
            }
            if (header.position() < 96 || header.getLong((int) ShmLayout.MAGIC_OFFSET) != ShmLayout.MAGIC) {
                return nowMillis - Files.getLastModifiedTime(file).toMillis() > HEADERLESS_AGE_MILLIS;
            }
            long pid = header.getLong((int) ShmLayout.OWNER_PID); // at the same place in every version
            long start = 0;
            if (header.getInt((int) ShmLayout.VERSION_OFFSET) >= 2) {
                start = header.getLong((int) ShmLayout.OWNER_START);
                long ns = header.getLong((int) ShmLayout.OWNER_PID_NAMESPACE);
                if (ns == 0 || ns != OWN_PID_NAMESPACE) {
                    return false;
                }
            }
            if (pid <= 0) {
                return false;
            }
            var owner = ProcessHandle.of(pid);
            if (owner.isEmpty() || !owner.get().isAlive()) {
                return true;
            }
            long ownerStart = startMillis(owner.get());
            return start != 0 && ownerStart != 0 && ownerStart != start;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    long ownerPid() {
        return memory.get(ShmLayout.LONG, ShmLayout.OWNER_PID);
    }

    /** The ring at local index {@code index}. */
    MemorySegment ring(int index) {
        return memory.asSlice(ShmLayout.ringOffset(index, ringDataBytes), ShmLayout.ringBytes(ringDataBytes));
    }

    /**
     * The doorbell: a futex word, and the 4 bytes after it, always zero, so that a sender reads it as a long through
     * the same kind of view as the rings' words ({@link ShmLayout#words}).
     */
    MemorySegment doorbell() {
        return memory.asSlice(ShmLayout.DOORBELL, 8);
    }

    /** Removes the file (the mapping stays valid). */
    void unlink() {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            // the launcher removes what is left
        }
    }
}
