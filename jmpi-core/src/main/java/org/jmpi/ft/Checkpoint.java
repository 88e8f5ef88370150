package org.jmpi.ft;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import org.jmpi.ft.CheckpointLayout.BadCheckpointException;
import org.jmpi.ft.CheckpointLayout.ItemInfo;
import org.jmpi.ft.CheckpointLayout.Manifest;
import org.jmpi.ft.Coordination.Failure;

/**
 * Coordinated application checkpoints of the ranks of one communicator: each rank registers its state, the program
 * calls {@link #checkpoint()} at points where that state is consistent on every rank, and after a restart
 * {@link #restore()} gives every rank its state of the newest complete checkpoint back.
 *
 * <pre>{@code
 * Checkpoint ckpt = Checkpoint.open(MPI.COMM_WORLD);      // settings from jmpirun (-ckpoint-prefix ...); else off
 * double[] grid = new double[rows * n];
 * long[] step = new long[1];
 * ckpt.register("grid", grid);
 * ckpt.register("step", step);
 * if (!ckpt.restore()) {
 *     initialise(grid);                                    // a fresh start: nothing stored (or checkpointing off)
 * }
 * for (; step[0] < steps; step[0]++) {
 *     compute(grid);
 *     ckpt.checkpoint();                                   // writes when the interval has passed
 * }
 * }</pre>
 *
 * <p><b>Collective calls.</b> {@link #open}, {@link #restore()}, {@link #checkpoint()} and {@link #checkpointNow()}
 * are collective over the communicator: every rank calls them, in the same order, as it calls any collective
 * operation. They end the same way on every rank: all succeed, or all throw the same {@code MPIException} (naming
 * the ranks that met the problem), so that one rank's error never leaves the others waiting. As with MPI-IO, errors
 * are thrown whatever error handler the communicator has. {@code register} calls are local.
 *
 * <p><b>What is written.</b> Generation N of a checkpoint is a directory {@code PREFIX/generation-N} holding one part
 * per rank and a manifest (layout: {@link CheckpointLayout}). Each rank writes its part to a temporary file, forces it
 * to the device and renames it; rank 0 then gathers every part's size and CRC32C and writes the manifest the same
 * way, and only then removes generations beyond the {@link CheckpointOptions#keep() kept} ones. A generation counts
 * only when its manifest exists and every part matches it: a job that dies while writing leaves a partial generation,
 * which {@link #restore()} passes over (with one message on standard error naming it) and never loads.
 *
 * <p><b>Off.</b> Without a checkpoint directory ({@link CheckpointOptions#disabled()}, or no
 * {@code JMPI_CKPT_PREFIX}), {@code checkpoint()} writes nothing and returns false and {@code restore()} returns
 * false, so one program runs with checkpoints or without.
 *
 * <p>Threading: a {@code Checkpoint} belongs to its rank; call it from one thread at a time (its collective calls
 * follow the communicator's rules, as any collective does).
 */
public final class Checkpoint {
    private final Comm comm;
    private final int rank;
    private final int size;
    private final CheckpointOptions options;
    private final Map<String, Item> items = new LinkedHashMap<>();
    private boolean registrationClosed;
    private long generation = -1;
    private StoredCheckpoint stored;
    /** Rank 0: the number of the next generation to write (one more than any generation directory seen). */
    private long nextGeneration;
    /** Rank 0: when the last checkpoint was written (or the checkpoint opened or restored). */
    private long lastWriteNanos;
    /** Rank 0: generations a restore found corrupt (their manifest looked fine); removed by the next checkpoint. */
    private final java.util.Set<Long> knownBad = new java.util.HashSet<>();

    /** One registered item: an array or buffer (target), or an object's save and restore functions. */
    private record Item(String name, ItemType type, Object target, Supplier<?> save, Consumer<Object> restore,
            Class<?> objectType) {

        long count(Object data) {
            return switch (type) {
                case BUFFER -> ((ByteBuffer) data).remaining();
                case OBJECT, BYTES -> ((byte[]) data).length;
                default -> java.lang.reflect.Array.getLength(data);
            };
        }
    }

    private Checkpoint(Comm comm, CheckpointOptions options) throws MPIException {
        this.comm = comm;
        this.rank = comm.getRank();
        this.size = comm.getSize();
        this.options = options;
    }

    /**
     * Collective: a checkpoint of the ranks of {@code comm} with the settings of
     * {@link CheckpointOptions#fromEnvironment()}, which is where {@code jmpirun -ckpoint-prefix ...} puts them.
     *
     * @throws MPIException {@code MPI.ERR_ARG} for a malformed setting; as {@link #open(Comm, CheckpointOptions)}
     */
    public static Checkpoint open(Comm comm) throws MPIException {
        CheckpointOptions o;
        MPIException settingsError = null;
        try {
            o = CheckpointOptions.fromEnvironment();
        } catch (MPIException e) {
            o = CheckpointOptions.disabled();
            settingsError = e;
        }
        return open(comm, o, settingsError);
    }

    /**
     * Collective: a checkpoint of the ranks of {@code comm} (an intracommunicator) with these settings, the same on
     * every rank. With a directory it checks, on every rank, that the directory exists, can be written, and is the
     * same directory as rank 0's (on a job across hosts it must be on a file system they share).
     *
     * @throws MPIException {@code MPI.ERR_COMM} for a null or inter-communicator; {@code MPI.ERR_NOT_SAME} when the
     *     settings differ between ranks or the directory is not the same one on every rank;
     *     {@code MPI.ERR_NO_SUCH_FILE} when it does not exist; {@code MPI.ERR_BAD_FILE} when it is not a directory;
     *     {@code MPI.ERR_ACCESS} when it cannot be written
     */
    public static Checkpoint open(Comm comm, CheckpointOptions options) throws MPIException {
        if (options == null) {
            throw Errors.of(MPI.ERR_ARG, "Checkpoint.open: the options must not be null (CheckpointOptions.disabled() "
                    + "turns checkpoints off)");
        }
        return open(comm, options, null);
    }

    private static Checkpoint open(Comm comm, CheckpointOptions options, MPIException settingsError)
            throws MPIException {
        if (comm == null) {
            throw Errors.of(MPI.ERR_COMM, "Checkpoint.open: the communicator is null");
        }
        if (comm.isInter()) {
            throw Errors.of(MPI.ERR_COMM, "Checkpoint.open: an intercommunicator; checkpoints are taken over an "
                    + "intracommunicator");
        }
        Checkpoint c = new Checkpoint(comm, options);
        String canonical = settingsError != null ? "!" : options.canonical();
        String atRoot = Coordination.bcast(comm, canonical);
        Failure local = null;
        if (settingsError != null) {
            local = new Failure(settingsError.getErrorClass(), "Checkpoint.open: " + settingsError.getMessage());
        } else if (!atRoot.equals(canonical)) {
            local = new Failure(MPI.ERR_NOT_SAME, "Checkpoint.open: other checkpoint settings than rank 0's ("
                    + options + ")");
        }
        Failure f = Coordination.agree(comm, local);
        if (f != null) {
            throw f.exception();
        }
        if (options.enabled()) {
            c.checkDirectory();
        }
        return c;
    }

    /** Collective: the directory exists, can be written and is the same on every rank; rank 0 numbers generations. */
    private void checkDirectory() throws MPIException {
        Path dir = options.prefix();
        Failure local = null;
        Path probe = null;
        String token = "";
        if (rank == 0) {
            local = directoryProblem(dir);
            if (local == null) {
                byte[] t = new byte[16];
                new SecureRandom().nextBytes(t);
                token = HexFormat.of().formatHex(t);
                probe = dir.resolve(CheckpointLayout.PROBE_PREFIX + token);
                try {
                    Files.createFile(probe);
                } catch (IOException e) {
                    probe = null;
                    token = "";
                    local = new Failure(MPI.ERR_ACCESS, "Checkpoint.open: cannot write in the checkpoint directory "
                            + dir + ": " + e);
                }
            }
            if (local == null) {
                try {
                    List<Long> gens = CheckpointLayout.generationDirectories(dir);
                    nextGeneration = gens.isEmpty() ? 0 : gens.get(0) + 1;
                } catch (IOException e) {
                    local = new Failure(MPI.ERR_IO, "Checkpoint.open: cannot list the checkpoint directory " + dir
                            + ": " + e);
                }
            }
        }
        token = Coordination.bcast(comm, token);
        if (rank != 0) {
            local = directoryProblem(dir);
            if (local == null) {
                Path mine = dir.resolve(CheckpointLayout.PROBE_PREFIX + token + "-" + rank);
                try {
                    Files.deleteIfExists(Files.createFile(mine));
                } catch (IOException e) {
                    local = new Failure(MPI.ERR_ACCESS, "Checkpoint.open: cannot write in the checkpoint directory "
                            + dir + ": " + e);
                }
            }
            if (local == null && !token.isEmpty()
                    && !Files.exists(dir.resolve(CheckpointLayout.PROBE_PREFIX + token))) {
                local = new Failure(MPI.ERR_NOT_SAME, "Checkpoint.open: the checkpoint directory " + dir
                        + " is not the same directory as rank 0's (its probe file is not seen here): put it on a "
                        + "file system that every host shares");
            }
        }
        Failure f = Coordination.agree(comm, local);
        if (probe != null) {
            try {
                Files.deleteIfExists(probe);
            } catch (IOException e) {
                // a probe file left behind is harmless
            }
        }
        if (f != null) {
            throw f.exception();
        }
        lastWriteNanos = System.nanoTime();
    }

    private static Failure directoryProblem(Path dir) {
        if (!Files.exists(dir)) {
            return new Failure(MPI.ERR_NO_SUCH_FILE, "Checkpoint.open: the checkpoint directory " + dir
                    + " does not exist");
        }
        if (!Files.isDirectory(dir)) {
            return new Failure(MPI.ERR_BAD_FILE, "Checkpoint.open: the checkpoint directory " + dir
                    + " is not a directory");
        }
        return null;
    }

    /** The settings this checkpoint was opened with. */
    public CheckpointOptions options() {
        return options;
    }

    /** Whether checkpoints are written (a directory is set). */
    public boolean enabled() {
        return options.enabled();
    }

    /**
     * The generation last restored or written by this checkpoint, or -1 before either. After a restore with another
     * rank count ({@link CheckpointOptions#allowRankCountChange}), the generation found.
     */
    public long generation() {
        return generation;
    }

    /**
     * The stored checkpoint {@link #restore()} found (complete and verified), or null when it found none or was not
     * called. When the checkpoint was written by another number of ranks, this is how the program reads it.
     */
    public StoredCheckpoint stored() {
        return stored;
    }

    /**
     * How many times {@code jmpirun --restart-on-failure} has restarted this job ({@code JMPI_RESTART_COUNT}, or
     * system property {@code jmpi.restart.count}); 0 for the first run and outside jmpirun.
     */
    public static int restartCount() {
        String v = System.getProperty("jmpi.restart.count");
        if (v == null) {
            v = System.getenv("JMPI_RESTART_COUNT");
        }
        try {
            return v == null ? 0 : Math.max(0, Integer.parseInt(v.trim()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    // ---- registration (local) ----

    /** Registers a byte array: its contents are saved and restored in place. */
    public void register(String name, byte[] data) throws MPIException {
        add(name, ItemType.BYTES, data);
    }

    /** Registers a short array. */
    public void register(String name, short[] data) throws MPIException {
        add(name, ItemType.SHORTS, data);
    }

    /** Registers a char array. */
    public void register(String name, char[] data) throws MPIException {
        add(name, ItemType.CHARS, data);
    }

    /** Registers an int array. */
    public void register(String name, int[] data) throws MPIException {
        add(name, ItemType.INTS, data);
    }

    /** Registers a long array. */
    public void register(String name, long[] data) throws MPIException {
        add(name, ItemType.LONGS, data);
    }

    /** Registers a float array. */
    public void register(String name, float[] data) throws MPIException {
        add(name, ItemType.FLOATS, data);
    }

    /** Registers a double array. */
    public void register(String name, double[] data) throws MPIException {
        add(name, ItemType.DOUBLES, data);
    }

    /**
     * Registers the bytes of a buffer (heap or direct) from its position to its limit as they are now; later moves of
     * its position or limit do not change what is saved and restored, and neither touches them.
     *
     * @throws MPIException {@code MPI.ERR_ARG} also for a read-only buffer (it could not be restored)
     */
    public void register(String name, ByteBuffer data) throws MPIException {
        if (data != null && data.isReadOnly()) {
            throw Errors.of(MPI.ERR_ARG, "Checkpoint.register(\"" + name + "\"): the buffer is read-only, so it "
                    + "could not be restored");
        }
        add(name, ItemType.BUFFER, data == null ? null : data.slice());
    }

    /**
     * Registers an object by a pair of functions: at each checkpoint {@code save} gives the object to store (in Java
     * serialisation's form; null is stored as null), and {@link #restore()} hands the stored object, checked to be a
     * {@code type} (or null), to {@code restore}.
     */
    public <T extends Serializable> void register(String name, Class<T> type, Supplier<? extends T> save,
            Consumer<? super T> restore) throws MPIException {
        if (type == null || save == null || restore == null) {
            throw Errors.of(MPI.ERR_ARG, "Checkpoint.register(\"" + name + "\"): the type and the save and restore "
                    + "functions must not be null");
        }
        checkName(name);
        Consumer<Object> r = o -> restore.accept(type.cast(o));
        items.put(name, new Item(name, ItemType.OBJECT, null, save, r, type));
    }

    private void add(String name, ItemType type, Object data) throws MPIException {
        if (data == null) {
            throw Errors.of(MPI.ERR_ARG, "Checkpoint.register(\"" + name + "\"): the " + type.javaName()
                    + " must not be null");
        }
        checkName(name);
        items.put(name, new Item(name, type, data, null, null, null));
    }

    private void checkName(String name) throws MPIException {
        if (registrationClosed) {
            throw Errors.of(MPI.ERR_ARG, "Checkpoint.register(\"" + name + "\"): items must be registered before the "
                    + "first restore() or checkpoint()");
        }
        String bad = CheckpointLayout.badName(name);
        if (bad != null) {
            throw Errors.of(MPI.ERR_ARG, "Checkpoint.register: " + bad);
        }
        if (items.containsKey(name)) {
            throw Errors.of(MPI.ERR_ARG, "Checkpoint.register(\"" + name + "\"): an item of that name is already "
                    + "registered");
        }
    }

    // ---- checkpoint (collective) ----

    /**
     * Collective: writes a new generation if the interval has passed since the last one (rank 0's clock decides, so
     * all ranks agree); with interval 0, every call writes. Call it where the registered state is consistent across
     * the ranks (no message in flight that the state depends on).
     *
     * @return whether a generation was written (false too when checkpointing is off)
     * @throws MPIException {@code MPI.ERR_IO} when a part or the manifest cannot be written; {@code MPI.ERR_ARG}
     *     when an object's save function gives something that cannot be serialised. The generation is then removed
     *     and the previous ones stay.
     */
    public boolean checkpoint() throws MPIException {
        return checkpoint(false);
    }

    /** Collective: writes a new generation now, whatever the interval. Returns false only when checkpointing is off. */
    public boolean checkpointNow() throws MPIException {
        return checkpoint(true);
    }

    private boolean checkpoint(boolean now) throws MPIException {
        registrationClosed = true;
        if (!options.enabled()) {
            return false;
        }
        Path prefix = options.prefix();
        String decision = "";
        if (rank == 0) {
            long interval = options.interval().toNanos();
            if (!now && interval > 0 && System.nanoTime() - lastWriteNanos < interval) {
                decision = "skip";
            } else {
                long g = nextGeneration;
                try {
                    Files.createDirectory(CheckpointLayout.generationDirectory(prefix, g));
                    nextGeneration = g + 1; // taken, whatever becomes of it
                    Generations.forceDirectory(prefix); // the new directory's entry survives a crash with its files
                    decision = "write " + g;
                } catch (FileAlreadyExistsException e) {
                    decision = "error " + MPI.ERR_FILE_EXISTS + "\tcheckpoint: generation " + g + " already exists in "
                            + prefix + " (is another job writing checkpoints into the same directory?)";
                } catch (IOException e) {
                    decision = "error " + MPI.ERR_IO + "\tcheckpoint: cannot create generation " + g + " in "
                            + prefix + ": " + e;
                }
            }
        }
        decision = Coordination.bcast(comm, decision);
        if (decision.equals("skip")) {
            return false;
        }
        if (decision.startsWith("error ")) {
            int tab = decision.indexOf('\t');
            throw Errors.of(Integer.parseInt(decision.substring(6, tab)), decision.substring(tab + 1));
        }
        long g = Long.parseLong(decision.substring(6));
        write(prefix, g);
        generation = g;
        if (rank == 0) {
            lastWriteNanos = System.nanoTime();
        }
        return true;
    }

    /** Collective: every rank writes its part of generation {@code g}; rank 0 completes it with the manifest. */
    private void write(Path prefix, long g) throws MPIException {
        Path dir = CheckpointLayout.generationDirectory(prefix, g);
        Path part = CheckpointLayout.part(dir, rank);
        String report;
        try {
            report = writePart(part, g);
        } catch (ItemException e) {
            report = "error " + e.errorClass + "\t" + e.getMessage();
        } catch (IOException e) {
            report = "error " + MPI.ERR_IO + "\tcheckpoint: cannot write " + part + ": " + e;
        }
        String[] reports = Coordination.gather(comm, report);
        String result = "";
        if (rank == 0) {
            result = complete(prefix, g, reports);
        }
        result = Coordination.bcast(comm, result);
        if (!result.isEmpty()) {
            int tab = result.indexOf('\t');
            throw Errors.of(Integer.parseInt(result.substring(0, tab)), result.substring(tab + 1));
        }
    }

    /** Writes this rank's part; returns the report for rank 0: "ok SIZE CRC" and a line per item. */
    private String writePart(Path part, long g) throws IOException, ItemException {
        List<Object> data = new ArrayList<>(items.size());
        for (Item it : items.values()) {
            data.add(it.type() == ItemType.OBJECT ? serialize(it) : it.target());
        }
        Path tmp = CheckpointLayout.temporary(part);
        StringBuilder report = new StringBuilder();
        try (PartFile.Writer w = new PartFile.Writer(tmp)) {
            w.write(CheckpointLayout.partHeader(rank, size, items.size(), g));
            int i = 0;
            StringBuilder lines = new StringBuilder();
            for (Item it : items.values()) {
                Object d = data.get(i++);
                long count = it.count(d);
                w.item(it.name(), it.type(), count, d);
                lines.append(it.type().name()).append(' ').append(count).append(' ').append(it.name()).append('\n');
            }
            Generations.pause(options.writeDelayMillis());
            w.force();
            report.append("ok ").append(w.size()).append(' ').append(HexFormat.of().toHexDigits(w.checksum()))
                    .append('\n').append(lines);
        }
        Files.move(tmp, part, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        Generations.forceDirectory(part.getParent());
        return report.toString();
    }

    private static byte[] serialize(Item it) throws ItemException {
        Object o;
        try {
            o = it.save().get();
        } catch (RuntimeException e) {
            throw new ItemException(MPI.ERR_OTHER, "checkpoint: the save function of item '" + it.name() + "' threw "
                    + e);
        }
        if (o != null && !it.objectType().isInstance(o)) {
            throw new ItemException(MPI.ERR_TYPE, "checkpoint: the save function of item '" + it.name() + "' gave a "
                    + o.getClass().getName() + ", not a " + it.objectType().getName());
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        } catch (NotSerializableException e) {
            throw new ItemException(MPI.ERR_ARG, "checkpoint: item '" + it.name() + "' holds a " + e.getMessage()
                    + ", which is not Serializable");
        } catch (IOException e) {
            throw new ItemException(MPI.ERR_ARG, "checkpoint: item '" + it.name() + "' cannot be serialised: " + e);
        }
        return bytes.toByteArray();
    }

    /** Rank 0: the manifest when every part was written, then retention; the error report otherwise. */
    private String complete(Path prefix, long g, String[] reports) {
        Path dir = CheckpointLayout.generationDirectory(prefix, g);
        String[] failures = new String[reports.length];
        boolean failed = false;
        long[] sizes = new long[size];
        int[] crcs = new int[size];
        List<List<ItemInfo>> itemInfos = new ArrayList<>(size);
        for (int r = 0; r < size; r++) {
            String rep = reports[r];
            failures[r] = "";
            List<ItemInfo> infos = new ArrayList<>();
            itemInfos.add(infos);
            if (rep.startsWith("error ")) {
                failures[r] = rep.substring(6);
                failed = true;
                continue;
            }
            String[] lines = rep.split("\n");
            String[] head = lines[0].split(" ");
            sizes[r] = Long.parseLong(head[1]);
            crcs[r] = HexFormat.fromHexDigits(head[2]);
            for (int i = 1; i < lines.length; i++) {
                String[] f = lines[i].split(" ", 3);
                infos.add(new ItemInfo(f[2], ItemType.valueOf(f[0]), Long.parseLong(f[1])));
            }
        }
        String result = "";
        if (!failed) {
            Manifest m = new Manifest(g, size, Instant.now(), sizes, crcs, itemInfos);
            try {
                Generations.writeAtomically(CheckpointLayout.manifest(dir), m.encode(), options.writeDelayMillis());
            } catch (IOException e) {
                failed = true;
                result = MPI.ERR_IO + "\tcheckpoint: cannot write the manifest of generation " + g + " in " + prefix
                        + ": " + e;
            }
        } else {
            result = Coordination.combine(failures);
        }
        if (failed) {
            try {
                Generations.delete(dir);
            } catch (IOException e) {
                // a partial generation is never loaded; the next complete one removes it
            }
            return result;
        }
        try {
            Generations.retain(prefix, options.keep(), g, knownBad, System.err);
        } catch (IOException e) {
            System.err.println("jmpi: checkpoint: cannot list " + prefix + " to remove old generations: " + e);
        }
        return "";
    }

    /** An item that cannot be saved or restored, with its error class. */
    private static final class ItemException extends Exception {
        private static final long serialVersionUID = 1L;
        final int errorClass;

        ItemException(int errorClass, String message) {
            super(message);
            this.errorClass = errorClass;
        }
    }

    // ---- restore (collective) ----

    /**
     * Collective: loads the newest complete generation (or the one {@link CheckpointOptions#restartGeneration()}
     * names) into the registered items. Generations are tried newest first; a partial or corrupt one is passed over
     * with one message on standard error naming it, and is never loaded: nothing registered changes until every
     * rank's part has been verified against the manifest and matched against the registered items.
     *
     * @return true when this rank's items were restored; false when there is nothing to restore (no complete
     *     generation, or checkpointing is off), and, with {@link CheckpointOptions#allowRankCountChange}, when the
     *     generation found was written by another number of ranks (then {@link #stored()} gives it)
     * @throws MPIException {@code MPI.ERR_SIZE} when the generation was written by another number of ranks (and that
     *     is not allowed); {@code MPI.ERR_NO_SUCH_FILE} / {@code MPI.ERR_IO} when the requested generation does not
     *     exist / is incomplete or corrupt; {@code MPI.ERR_ARG} when the registered names differ from the stored ones;
     *     {@code MPI.ERR_TYPE} / {@code MPI.ERR_COUNT} when an item's type / length differs from the stored one
     */
    public boolean restore() throws MPIException {
        registrationClosed = true;
        stored = null;
        if (!options.enabled()) {
            return false;
        }
        Path prefix = options.prefix();
        long wanted = options.restartGeneration();
        List<Long> candidates = new ArrayList<>();
        String listError = null;
        if (rank == 0) {
            if (wanted >= 0) {
                candidates.add(wanted);
            } else {
                try {
                    // not those of a job that finished (jmpirun started this one afresh)
                    CheckpointLayout.generationDirectories(prefix).stream().filter(g -> g > options.restoreAfter())
                            .forEach(candidates::add);
                } catch (IOException e) {
                    listError = MPI.ERR_IO + "\trestore: cannot list the checkpoint directory " + prefix + ": " + e;
                }
            }
        }
        int next = 0;
        while (true) {
            String decision = "";
            if (rank == 0) {
                decision = listError != null ? "error " + listError : null;
                while (decision == null) {
                    if (next == candidates.size()) {
                        decision = "none";
                        break;
                    }
                    long g = candidates.get(next++);
                    try {
                        Manifest m = Generations.present(prefix, g);
                        decision = "try " + g + " " + m.ranks();
                    } catch (NoSuchFileException e) {
                        decision = wanted >= 0 ? "error " + MPI.ERR_NO_SUCH_FILE + "\trestore: generation " + g
                                + " does not exist in " + prefix : null;
                    } catch (BadCheckpointException e) {
                        if (wanted >= 0) {
                            decision = "error " + MPI.ERR_IO + "\trestore: generation " + g + " in " + prefix
                                    + " is not complete: " + e.getMessage();
                        } else {
                            Generations.reportSkipped(System.err, prefix, g, e.getMessage());
                        }
                    } catch (IOException e) {
                        decision = "error " + MPI.ERR_IO + "\trestore: cannot read generation " + g + " in " + prefix
                                + ": " + e;
                    }
                }
            }
            decision = Coordination.bcast(comm, decision);
            if (decision.equals("none")) {
                return false;
            }
            if (decision.startsWith("error ")) {
                int tab = decision.indexOf('\t');
                throw Errors.of(Integer.parseInt(decision.substring(6, tab)), decision.substring(tab + 1));
            }
            String[] f = decision.split(" ");
            long g = Long.parseLong(f[1]);
            int ranks = Integer.parseInt(f[2]);
            if (ranks != size && !options.allowRankCountChange()) {
                throw Errors.of(MPI.ERR_SIZE, "restore: generation " + g + " in " + prefix + " was written by "
                        + ranks + " ranks, and this communicator has " + size + " (run with " + ranks + " ranks, or "
                        + "open the checkpoint with CheckpointOptions.allowRankCountChange(true) and read it through "
                        + "Checkpoint.stored())");
            }
            Manifest m = null;
            Failure local = null;
            try {
                m = Generations.present(prefix, g);
                if (ranks == size) {
                    Generations.verifyPart(prefix, m, rank);
                } else {
                    for (int r = rank; r < ranks; r += size) {
                        Generations.verifyPart(prefix, m, r);
                    }
                }
            } catch (BadCheckpointException e) {
                local = new Failure(MPI.ERR_IO, e.getMessage());
            } catch (IOException e) {
                local = new Failure(MPI.ERR_IO, "cannot read it: " + e);
            }
            Failure bad = Coordination.agree(comm, local, false);
            if (bad != null) {
                if (wanted >= 0) {
                    throw Errors.of(MPI.ERR_IO, "restore: generation " + g + " in " + prefix + " is not intact: "
                            + bad.message());
                }
                if (rank == 0) {
                    Generations.reportSkipped(System.err, prefix, g, bad.message());
                    knownBad.add(g);
                }
                continue;
            }
            stored = new StoredCheckpoint(prefix, m, true);
            generation = g;
            if (rank == 0) {
                lastWriteNanos = System.nanoTime();
            }
            if (ranks != size) {
                return false;
            }
            load(prefix, m);
            return true;
        }
    }

    /** Collective: matches the verified part against the registered items, then (on every rank or none) loads it. */
    private void load(Path prefix, Manifest m) throws MPIException {
        Path part = CheckpointLayout.part(CheckpointLayout.generationDirectory(prefix, m.generation()), rank);
        Failure local = null;
        Map<String, PartFile.Entry> entries = new LinkedHashMap<>();
        Map<String, Object> objects = new LinkedHashMap<>();
        try {
            for (PartFile.Entry e : PartFile.index(part, rank, size, m.generation())) {
                entries.put(e.name(), e);
            }
            local = match(entries, part, objects, m.generation());
        } catch (BadCheckpointException e) {
            local = new Failure(MPI.ERR_IO, "restore: generation " + m.generation() + ": " + e.getMessage());
        } catch (IOException e) {
            local = new Failure(MPI.ERR_IO, "restore: cannot read " + part + ": " + e);
        }
        Failure f = Coordination.agree(comm, local);
        if (f != null) {
            throw f.exception();
        }
        local = null;
        String current = null;
        try {
            for (Item it : items.values()) {
                current = it.name();
                if (it.type() == ItemType.OBJECT) {
                    it.restore().accept(objects.get(it.name()));
                } else {
                    PartFile.read(part, entries.get(it.name()), it.target());
                }
            }
        } catch (IOException e) {
            local = new Failure(MPI.ERR_IO, "restore: reading item '" + current + "' from " + part + " failed, so "
                    + "the registered items are partly restored: " + e);
        } catch (RuntimeException e) {
            local = new Failure(MPI.ERR_OTHER, "restore: the restore function of item '" + current + "' threw " + e);
        }
        f = Coordination.agree(comm, local);
        if (f != null) {
            throw f.exception();
        }
    }

    /** Why the stored items do not fit the registered ones (null when they do); deserialises the objects. */
    private Failure match(Map<String, PartFile.Entry> entries, Path part, Map<String, Object> objects, long g)
            throws IOException {
        for (Item it : items.values()) {
            PartFile.Entry e = entries.get(it.name());
            String where = "restore: generation " + g + ", item '" + it.name() + "'";
            if (e == null) {
                return new Failure(MPI.ERR_ARG, where + " is registered here but was not stored by this rank");
            }
            if (e.type() != it.type()) {
                return new Failure(MPI.ERR_TYPE, where + " was stored as " + e.type().javaName()
                        + " and is registered as " + it.type().javaName());
            }
            if (it.type() == ItemType.OBJECT) {
                if (e.count() > Integer.MAX_VALUE - 8) {
                    return new Failure(MPI.ERR_IO, where + " is too large an object");
                }
                byte[] bytes = new byte[(int) e.count()];
                PartFile.read(part, e, bytes);
                try {
                    Object o = deserialize(bytes, it.objectType());
                    if (o != null && !it.objectType().isInstance(o)) {
                        return new Failure(MPI.ERR_TYPE, where + " holds a " + o.getClass().getName() + ", not a "
                                + it.objectType().getName());
                    }
                    objects.put(it.name(), o);
                } catch (ClassNotFoundException | InvalidClassException e2) {
                    return new Failure(MPI.ERR_TYPE, where + " cannot be deserialised: " + e2);
                } catch (IOException e2) {
                    return new Failure(MPI.ERR_IO, where + " cannot be deserialised: " + e2);
                }
            } else if (e.count() != it.count(it.target())) {
                return new Failure(MPI.ERR_COUNT, where + " holds " + e.count() + " elements, and the registered "
                        + it.type().javaName() + " has " + it.count(it.target()));
            }
        }
        for (String name : entries.keySet()) {
            if (!items.containsKey(name)) {
                return new Failure(MPI.ERR_ARG, "restore: generation " + g + " holds item '" + name + "' of this rank, "
                        + "which is not registered here");
            }
        }
        return null;
    }

    /** Java deserialisation that resolves classes through the loader of the registered type first. */
    static Object deserialize(byte[] bytes, Class<?> type) throws IOException, ClassNotFoundException {
        ClassLoader loader = type.getClassLoader();
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes)) {
            @Override
            protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
                if (loader != null) {
                    try {
                        return Class.forName(desc.getName(), false, loader);
                    } catch (ClassNotFoundException e) {
                        // a JDK class or an array: the default resolution finds it
                    }
                }
                return super.resolveClass(desc);
            }
        }) {
            return in.readObject();
        }
    }

    @Override
    public String toString() {
        return "Checkpoint[rank " + rank + " of " + size + ", " + options + ", " + items.size() + " items, generation "
                + generation + "]";
    }
}
