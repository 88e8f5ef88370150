package org.jmpi.ft;

import java.io.IOException;
import java.io.Serializable;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import mpi.MPI;
import mpi.MPIException;
import org.jmpi.ft.CheckpointLayout.BadCheckpointException;
import org.jmpi.ft.CheckpointLayout.ItemInfo;
import org.jmpi.ft.CheckpointLayout.Manifest;

/**
 * One complete generation of a checkpoint, as stored: which ranks wrote it and what each registered, and every item
 * of every rank to read. This is how a program that restarts with another number of ranks (or a tool) reads a
 * checkpoint: each rank reads the items its new partition needs from whichever old ranks hold them.
 *
 * <pre>{@code
 * StoredCheckpoint s = StoredCheckpoint.latest(Path.of("/shared/run1"));
 * if (s != null) {
 *     for (int old = 0; old < s.ranks(); old++) {
 *         long[] meta = s.readLongs(old, "meta");
 *         double[] rows = s.readDoubles(old, "rows");
 *         ...
 *     }
 * }
 * }</pre>
 *
 * <p>It needs no MPI (no {@code MPI.Init}): a plain Java program may read checkpoints. Every part is verified against
 * the manifest's size and CRC32C before anything is read from it; the generations {@link #latest} passes over get one
 * message each on standard error.
 *
 * <p>Threading: safe to share between threads (reads are serialised per instance).
 */
public final class StoredCheckpoint {
    private final Path prefix;
    private final Manifest manifest;
    private final boolean[] verified;
    private final Map<Integer, Map<String, PartFile.Entry>> index = new HashMap<>();

    StoredCheckpoint(Path prefix, Manifest manifest, boolean allVerified) {
        this.prefix = prefix;
        this.manifest = manifest;
        this.verified = new boolean[manifest.ranks()];
        if (allVerified) {
            java.util.Arrays.fill(verified, true);
        }
    }

    /**
     * The newest complete generation in {@code prefix}, every part verified (size and checksum), or null when there is
     * none. Partial or corrupt generations on the way are passed over with one message each on standard error.
     *
     * @throws MPIException {@code MPI.ERR_NO_SUCH_FILE} when the directory does not exist, {@code MPI.ERR_IO} when it
     *     cannot be read
     */
    public static StoredCheckpoint latest(Path prefix) throws MPIException {
        Path dir = checkPrefix(prefix);
        List<Long> gens;
        try {
            gens = CheckpointLayout.generationDirectories(dir);
        } catch (IOException e) {
            throw Errors.of(MPI.ERR_IO, "StoredCheckpoint: cannot list " + dir + ": " + e, e);
        }
        for (long g : gens) {
            try {
                return verified(dir, g);
            } catch (BadCheckpointException e) {
                Generations.reportSkipped(System.err, dir, g, e.getMessage());
            } catch (NoSuchFileException e) {
                // removed meanwhile
            } catch (IOException e) {
                throw Errors.of(MPI.ERR_IO, "StoredCheckpoint: cannot read generation " + g + " in " + dir + ": " + e,
                        e);
            }
        }
        return null;
    }

    /**
     * Generation {@code generation} of {@code prefix}, every part verified.
     *
     * @throws MPIException {@code MPI.ERR_NO_SUCH_FILE} when it (or the directory) does not exist; {@code MPI.ERR_IO}
     *     when it is partial or corrupt, or cannot be read
     */
    public static StoredCheckpoint of(Path prefix, long generation) throws MPIException {
        Path dir = checkPrefix(prefix);
        try {
            return verified(dir, generation);
        } catch (NoSuchFileException e) {
            throw Errors.of(MPI.ERR_NO_SUCH_FILE, "StoredCheckpoint: generation " + generation + " does not exist in "
                    + dir);
        } catch (BadCheckpointException e) {
            throw Errors.of(MPI.ERR_IO, "StoredCheckpoint: generation " + generation + " in " + dir
                    + " is not complete: " + e.getMessage());
        } catch (IOException e) {
            throw Errors.of(MPI.ERR_IO, "StoredCheckpoint: cannot read generation " + generation + " in " + dir + ": "
                    + e, e);
        }
    }

    /**
     * The generations of {@code prefix} that look complete (an intact manifest, every part present with the size it
     * gives), newest first. Checksums are not verified here, so this is cheap; {@link #of} verifies them.
     */
    public static List<Long> completeGenerations(Path prefix) throws MPIException {
        Path dir = checkPrefix(prefix);
        try {
            return Generations.present(dir);
        } catch (IOException e) {
            throw Errors.of(MPI.ERR_IO, "StoredCheckpoint: cannot list " + dir + ": " + e, e);
        }
    }

    private static Path checkPrefix(Path prefix) throws MPIException {
        if (prefix == null) {
            throw Errors.of(MPI.ERR_ARG, "StoredCheckpoint: the checkpoint directory must not be null");
        }
        Path dir = prefix.toAbsolutePath().normalize();
        if (!java.nio.file.Files.isDirectory(dir)) {
            throw Errors.of(MPI.ERR_NO_SUCH_FILE, "StoredCheckpoint: the checkpoint directory " + dir
                    + " does not exist");
        }
        return dir;
    }

    private static StoredCheckpoint verified(Path dir, long g) throws IOException, BadCheckpointException {
        Manifest m = Generations.present(dir, g);
        for (int r = 0; r < m.ranks(); r++) {
            Generations.verifyPart(dir, m, r);
        }
        return new StoredCheckpoint(dir, m, true);
    }

    /** The generation number. */
    public long generation() {
        return manifest.generation();
    }

    /** How many ranks wrote it (one part each). */
    public int ranks() {
        return manifest.ranks();
    }

    /** When its manifest was written. */
    public Instant time() {
        return manifest.time();
    }

    /** Its directory ({@code PREFIX/generation-N}). */
    public Path directory() {
        return CheckpointLayout.generationDirectory(prefix, manifest.generation());
    }

    /** The names of the items {@code rank} stored, in the order it registered them. */
    public List<String> names(int rank) throws MPIException {
        List<String> out = new ArrayList<>();
        for (ItemInfo i : items(rank)) {
            out.add(i.name());
        }
        return out;
    }

    /** The type of an item of {@code rank}. */
    public ItemType type(int rank, String name) throws MPIException {
        return info(rank, name).type();
    }

    /** The length of an item of {@code rank}: elements of an array, bytes of a buffer or serialised object. */
    public long count(int rank, String name) throws MPIException {
        return info(rank, name).count();
    }

    /**
     * Reads an item of {@code rank}: a {@code byte[]} for a byte array or a buffer, the array for other arrays
     * ({@code int[]}, {@code double[]}, ...), the object for a serialised one.
     */
    public Object read(int rank, String name) throws MPIException {
        ItemInfo i = info(rank, name);
        return switch (i.type()) {
            case BYTES, BUFFER -> readArray(rank, name, i.type(), i.type());
            case SHORTS -> readShorts(rank, name);
            case CHARS -> readChars(rank, name);
            case INTS -> readInts(rank, name);
            case LONGS -> readLongs(rank, name);
            case FLOATS -> readFloats(rank, name);
            case DOUBLES -> readDoubles(rank, name);
            case OBJECT -> readObject(rank, name, Serializable.class);
        };
    }

    /** A byte array or the bytes of a buffer. */
    public byte[] readBytes(int rank, String name) throws MPIException {
        return (byte[]) readArray(rank, name, ItemType.BYTES, ItemType.BUFFER);
    }

    /** A short array. */
    public short[] readShorts(int rank, String name) throws MPIException {
        return (short[]) readArray(rank, name, ItemType.SHORTS, ItemType.SHORTS);
    }

    /** A char array. */
    public char[] readChars(int rank, String name) throws MPIException {
        return (char[]) readArray(rank, name, ItemType.CHARS, ItemType.CHARS);
    }

    /** An int array. */
    public int[] readInts(int rank, String name) throws MPIException {
        return (int[]) readArray(rank, name, ItemType.INTS, ItemType.INTS);
    }

    /** A long array. */
    public long[] readLongs(int rank, String name) throws MPIException {
        return (long[]) readArray(rank, name, ItemType.LONGS, ItemType.LONGS);
    }

    /** A float array. */
    public float[] readFloats(int rank, String name) throws MPIException {
        return (float[]) readArray(rank, name, ItemType.FLOATS, ItemType.FLOATS);
    }

    /** A double array. */
    public double[] readDoubles(int rank, String name) throws MPIException {
        return (double[]) readArray(rank, name, ItemType.DOUBLES, ItemType.DOUBLES);
    }

    /**
     * A serialised object, checked to be a {@code type} (or null).
     *
     * @throws MPIException {@code MPI.ERR_TYPE} when the item is not an object or not of that type
     */
    public <T> T readObject(int rank, String name, Class<T> type) throws MPIException {
        byte[] bytes = (byte[]) readArray(rank, name, ItemType.OBJECT, ItemType.OBJECT);
        Object o;
        try {
            o = Checkpoint.deserialize(bytes, type);
        } catch (ClassNotFoundException | IOException e) {
            throw Errors.of(MPI.ERR_TYPE, where(rank, name) + " cannot be deserialised: " + e, e);
        }
        if (o != null && !type.isInstance(o)) {
            throw Errors.of(MPI.ERR_TYPE, where(rank, name) + " holds a " + o.getClass().getName() + ", not a "
                    + type.getName());
        }
        return type.cast(o);
    }

    private List<ItemInfo> items(int rank) throws MPIException {
        if (rank < 0 || rank >= manifest.ranks()) {
            throw Errors.of(MPI.ERR_RANK, "StoredCheckpoint: rank " + rank + " is not one of the " + manifest.ranks()
                    + " ranks of generation " + manifest.generation());
        }
        return manifest.items().get(rank);
    }

    private ItemInfo info(int rank, String name) throws MPIException {
        for (ItemInfo i : items(rank)) {
            if (i.name().equals(name)) {
                return i;
            }
        }
        throw Errors.of(MPI.ERR_ARG, where(rank, name) + " does not exist (rank " + rank + " stored "
                + names(rank) + ")");
    }

    private String where(int rank, String name) {
        return "StoredCheckpoint: generation " + manifest.generation() + ", rank " + rank + ", item '" + name + "'";
    }

    private synchronized Object readArray(int rank, String name, ItemType a, ItemType b) throws MPIException {
        ItemInfo info = info(rank, name);
        if (info.type() != a && info.type() != b) {
            throw Errors.of(MPI.ERR_TYPE, where(rank, name) + " is a " + info.type().javaName() + ", not a "
                    + a.javaName());
        }
        Path part = CheckpointLayout.part(directory(), rank);
        try {
            if (!verified[rank]) {
                Generations.verifyPart(prefix, manifest, rank);
                verified[rank] = true;
            }
            Map<String, PartFile.Entry> entries = index.get(rank);
            if (entries == null) {
                entries = new HashMap<>();
                for (PartFile.Entry e : PartFile.index(part, rank, manifest.ranks(), manifest.generation())) {
                    entries.put(e.name(), e);
                }
                index.put(rank, entries);
            }
            PartFile.Entry e = entries.get(name);
            if (e == null || e.type() != info.type() || e.count() != info.count()) {
                throw Errors.of(MPI.ERR_IO, where(rank, name) + ": the part does not hold what the manifest says");
            }
            if (e.count() > Integer.MAX_VALUE - 8) {
                throw Errors.of(MPI.ERR_COUNT, where(rank, name) + " has " + e.count() + " elements, more than a Java "
                        + "array holds");
            }
            int n = (int) e.count();
            Object target = switch (e.type()) {
                case BYTES, BUFFER, OBJECT -> new byte[n];
                case SHORTS -> new short[n];
                case CHARS -> new char[n];
                case INTS -> new int[n];
                case LONGS -> new long[n];
                case FLOATS -> new float[n];
                case DOUBLES -> new double[n];
            };
            PartFile.read(part, e.type() == ItemType.BUFFER ? new PartFile.Entry(e.name(), ItemType.BYTES, e.count(),
                    e.dataOffset()) : e, target);
            return target;
        } catch (BadCheckpointException e) {
            throw Errors.of(MPI.ERR_IO, where(rank, name) + ": " + e.getMessage());
        } catch (IOException e) {
            throw Errors.of(MPI.ERR_IO, where(rank, name) + ": cannot read " + part + ": " + e, e);
        }
    }

    @Override
    public String toString() {
        return "StoredCheckpoint[generation " + manifest.generation() + " of " + manifest.ranks() + " ranks in "
                + prefix + "]";
    }
}
