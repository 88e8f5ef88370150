package org.jmpi.ft;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.jmpi.ft.CheckpointLayout.BadCheckpointException;
import org.jmpi.ft.CheckpointLayout.Manifest;

/**
 * The generations under a checkpoint directory: finding the complete ones, writing a file atomically, removing the
 * generations that are no longer kept. Shared by {@link Checkpoint} (rank 0 of a job) and {@link StoredCheckpoint}.
 */
final class Generations {
    private Generations() {}

    /**
     * Reads and parses a generation's manifest and checks that it names this generation and that every part is there
     * with the size it gives. Checksums are not verified here ({@link PartFile#verify} does that).
     */
    static Manifest present(Path prefix, long generation) throws IOException, BadCheckpointException {
        Path dir = CheckpointLayout.generationDirectory(prefix, generation);
        if (!Files.isDirectory(dir)) {
            throw new NoSuchFileException(dir.toString(), null, "no such generation");
        }
        Path manifestFile = CheckpointLayout.manifest(dir);
        byte[] bytes;
        try (InputStream in = Files.newInputStream(manifestFile)) {
            bytes = in.readNBytes((int) Math.min(CheckpointLayout.MAX_MANIFEST_BYTES + 1, Integer.MAX_VALUE - 8));
        } catch (NoSuchFileException e) {
            throw new BadCheckpointException("it has no manifest (the job ended while this generation was being "
                    + "written)");
        }
        if (bytes.length > CheckpointLayout.MAX_MANIFEST_BYTES) {
            throw new BadCheckpointException("its manifest is larger than any jmpi manifest");
        }
        Manifest m = Manifest.parse(bytes);
        if (m.generation() != generation) {
            throw new BadCheckpointException("its manifest is that of generation " + m.generation());
        }
        for (int r = 0; r < m.ranks(); r++) {
            Path part = CheckpointLayout.part(dir, r);
            long size;
            try {
                size = Files.size(part);
            } catch (NoSuchFileException e) {
                throw new BadCheckpointException("the part of rank " + r + " is missing");
            }
            if (size != m.sizes()[r]) {
                throw new BadCheckpointException("the part of rank " + r + " has " + size + " bytes, the manifest "
                        + "says " + m.sizes()[r]);
            }
        }
        return m;
    }

    /** Verifies the checksum of part {@code rank}; the message names the rank. */
    static void verifyPart(Path prefix, Manifest m, int rank) throws IOException, BadCheckpointException {
        Path dir = CheckpointLayout.generationDirectory(prefix, m.generation());
        try {
            PartFile.verify(CheckpointLayout.part(dir, rank), m.sizes()[rank], m.checksums()[rank]);
        } catch (NoSuchFileException e) {
            throw new BadCheckpointException("the part of rank " + rank + " is missing");
        } catch (BadCheckpointException e) {
            throw new BadCheckpointException("the part of rank " + rank + ": " + e.getMessage(), e);
        }
    }

    /**
     * Generations whose manifest is intact and whose parts are all present with their sizes, newest first (checksums
     * not verified).
     */
    static List<Long> present(Path prefix) throws IOException {
        List<Long> out = new ArrayList<>();
        for (long g : CheckpointLayout.generationDirectories(prefix)) {
            try {
                present(prefix, g);
                out.add(g);
            } catch (BadCheckpointException | NoSuchFileException e) {
                // partial or gone
            }
        }
        return out;
    }

    /** The message printed when a partial or corrupt generation is passed over. */
    static void reportSkipped(PrintStream err, Path prefix, long generation, String why) {
        err.println("jmpi: checkpoint: skipping generation " + generation + " in " + prefix + ": " + why
                + "; it is never loaded");
        err.flush();
    }

    /**
     * Writes {@code bytes} as {@code file} atomically: to a temporary file, fsync, rename, fsync of the directory.
     * {@code delayMillis} (a fault-injection setting, normally 0) passes between the write and the rename.
     */
    static void writeAtomically(Path file, byte[] bytes, long delayMillis) throws IOException {
        Path tmp = CheckpointLayout.temporary(file);
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                ch.write(b);
            }
            pause(delayMillis);
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        forceDirectory(file.getParent());
    }

    /** Makes the directory's entries (a rename, a new file) durable: fsync of the directory. */
    static void forceDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }

    /** The fault-injection pause ({@code jmpi.ckpt.write.delay.millis}); an interrupt ends it early. */
    static void pause(long millis) {
        if (millis > 0) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * After generation {@code newest} became complete: keeps the {@code keep} newest generations that are present
     * (intact manifest, every part there with its size) and removes every other generation directory, complete or not
     * (older ones, leftovers of checkpoints that died while being written, and those in {@code knownBad}: found corrupt
     * by a restore). A generation that cannot be removed is reported once on {@code err} and left.
     */
    static void retain(Path prefix, int keep, long newest, java.util.Set<Long> knownBad, PrintStream err)
            throws IOException {
        int kept = 0;
        for (long g : CheckpointLayout.generationDirectories(prefix)) {
            if (g > newest) {
                continue; // not ours to judge
            }
            boolean complete;
            try {
                present(prefix, g);
                complete = !knownBad.contains(g);
            } catch (BadCheckpointException | NoSuchFileException e) {
                complete = false;
            }
            if (complete && kept < keep) {
                kept++;
                continue;
            }
            try {
                delete(CheckpointLayout.generationDirectory(prefix, g));
            } catch (IOException e) {
                err.println("jmpi: checkpoint: cannot remove old generation " + g + " in " + prefix + ": " + e);
            }
        }
    }

    /** Removes a generation directory: its manifest first (so that it is never taken as complete), then the rest. */
    static void delete(Path dir) throws IOException {
        Files.deleteIfExists(CheckpointLayout.manifest(dir));
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            s.forEach(files::add);
        } catch (NoSuchFileException e) {
            return;
        }
        for (Path f : files) {
            Files.deleteIfExists(f);
        }
        Files.deleteIfExists(dir);
    }
}
