package org.jmpi.tests.ft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.jmpi.tests.ft.CheckpointTesting.capturingStderr;
import static org.jmpi.tests.ft.CheckpointTesting.expect;
import static org.jmpi.tests.ft.CheckpointTesting.generations;

import java.io.IOException;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import mpi.Comm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.jmpi.ft.Checkpoint;
import org.jmpi.ft.CheckpointOptions;
import org.jmpi.ft.ItemType;
import org.jmpi.ft.StoredCheckpoint;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * Coordinated checkpoints ({@link Checkpoint}) on several ranks, threads and processes: every kind of item comes back
 * as it was saved; K generations are kept; the newest complete generation is restored and a partial or corrupt one is
 * passed over (one message naming it) and never loaded; another rank count is an error unless allowed; bad
 * directories, settings and registrations give the right error class on every rank.
 */
class CheckpointTest {
    /** Doubles enough that a part file's staging buffer (1 MiB) turns over more than once: 2.4 MB. */
    static final int BIG_DOUBLES = 300_000;

    /** A Serializable object of the program's own (in threads mode its class belongs to the rank's loader). */
    static final class Tally implements Serializable {
        private static final long serialVersionUID = 1L;
        final String label;
        final List<Long> counts;

        Tally(String label, List<Long> counts) {
            this.label = label;
            this.counts = counts;
        }
    }

    /** Not Serializable. */
    static final class Opaque {}

    /** The state of one rank: one item of every kind, filled from a seed. */
    static final class State {
        final byte[] bytes;
        final short[] shorts;
        final char[] chars;
        final int[] ints;
        final long[] longs;
        final float[] floats;
        final double[] doubles;
        final ByteBuffer heap;
        final ByteBuffer direct;
        Tally tally;
        String note;

        State(int n) {
            bytes = new byte[n + 1];
            shorts = new short[n + 2];
            chars = new char[n + 3];
            ints = new int[n + 4];
            longs = new long[n + 5];
            floats = new float[n + 6];
            doubles = new double[BIG_DOUBLES];
            heap = ByteBuffer.allocate(n + 16);
            direct = ByteBuffer.allocateDirect(n + 32);
        }

        void fill(int seed) {
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) (seed * 7 + i);
            }
            for (int i = 0; i < shorts.length; i++) {
                shorts[i] = (short) (seed * 11 - i);
            }
            for (int i = 0; i < chars.length; i++) {
                chars[i] = (char) ('a' + (seed + i) % 26);
            }
            for (int i = 0; i < ints.length; i++) {
                ints[i] = seed * 1_000_003 + i;
            }
            for (int i = 0; i < longs.length; i++) {
                longs[i] = (long) seed << 40 | i;
            }
            for (int i = 0; i < floats.length; i++) {
                floats[i] = seed + i / 3.0f;
            }
            for (int i = 0; i < doubles.length; i++) {
                doubles[i] = seed * 0.5 + i / 7.0;
            }
            for (int i = 0; i < heap.capacity(); i++) {
                heap.put(i, (byte) (seed ^ i));
            }
            for (int i = 0; i < direct.capacity(); i++) {
                direct.put(i, (byte) (seed + 3 * i));
            }
            tally = new Tally("seed " + seed, List.of((long) seed, seed * 2L, -1L));
            note = seed % 2 == 0 ? null : "odd " + seed;
        }

        void clear() {
            Arrays.fill(bytes, (byte) 0);
            Arrays.fill(shorts, (short) 0);
            Arrays.fill(chars, '\0');
            Arrays.fill(ints, 0);
            Arrays.fill(longs, 0);
            Arrays.fill(floats, 0);
            Arrays.fill(doubles, 0);
            for (int i = 0; i < heap.capacity(); i++) {
                heap.put(i, (byte) 0);
            }
            for (int i = 0; i < direct.capacity(); i++) {
                direct.put(i, (byte) 0);
            }
            tally = null;
            note = "cleared";
        }

        void register(Checkpoint c) throws MPIException {
            c.register("bytes", bytes);
            c.register("shorts", shorts);
            c.register("chars", chars);
            c.register("ints", ints);
            c.register("longs", longs);
            c.register("floats", floats);
            c.register("doubles", doubles);
            c.register("heap buffer", heap);
            c.register("direct buffer", direct);
            c.register("tally", Tally.class, () -> tally, t -> tally = t);
            c.register("note", String.class, () -> note, s -> note = s);
        }

        void assertFilledWith(int seed) {
            State e = new State(bytes.length - 1);
            e.fill(seed);
            assertThat(bytes).isEqualTo(e.bytes);
            assertThat(shorts).isEqualTo(e.shorts);
            assertThat(chars).isEqualTo(e.chars);
            assertThat(ints).isEqualTo(e.ints);
            assertThat(longs).isEqualTo(e.longs);
            assertThat(floats).isEqualTo(e.floats);
            assertThat(doubles).isEqualTo(e.doubles);
            assertThat(heap.position()).isZero();
            assertThat(heap).isEqualTo(e.heap);
            assertThat(direct).isEqualTo(e.direct);
            assertThat(tally.label).isEqualTo(e.tally.label);
            assertThat(tally.counts).isEqualTo(e.tally.counts);
            assertThat(note).isEqualTo(e.note);
        }
    }

    private static CheckpointOptions options(Path dir) {
        return CheckpointOptions.of(dir);
    }

    /** Every kind of item, different on each rank, comes back as it was when saved. */
    @MpiTest(ranks = {1, 2, 3, 4, 8}, timeoutSeconds = 120)
    void everyKindOfItemComesBack() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        Path dir = CheckpointTesting.sharedTempDir(w);
        State s = new State(100 + rank);
        Checkpoint c = Checkpoint.open(w, options(dir));
        s.register(c);
        assertThat(c.restore()).as("nothing stored yet").isFalse();
        assertThat(c.generation()).isEqualTo(-1);
        s.fill(rank + 1);
        assertThat(c.checkpoint()).isTrue();
        assertThat(c.generation()).isZero();
        s.clear();
        // a new run: open, register, restore
        State t = new State(100 + rank);
        Checkpoint again = Checkpoint.open(w, options(dir));
        t.register(again);
        assertThat(again.restore()).isTrue();
        assertThat(again.generation()).isZero();
        t.assertFilledWith(rank + 1);
        // what the stored checkpoint says of every rank
        StoredCheckpoint stored = again.stored();
        assertThat(stored.ranks()).isEqualTo(w.getSize());
        assertThat(stored.generation()).isZero();
        int other = (rank + 1) % w.getSize();
        assertThat(stored.names(other)).containsExactly("bytes", "shorts", "chars", "ints", "longs", "floats",
                "doubles", "heap buffer", "direct buffer", "tally", "note");
        assertThat(stored.type(other, "doubles")).isEqualTo(ItemType.DOUBLES);
        assertThat(stored.count(other, "ints")).isEqualTo(100 + other + 4);
        State o = new State(100 + other);
        o.fill(other + 1);
        assertThat(stored.readDoubles(other, "doubles")).isEqualTo(o.doubles);
        assertThat(stored.readInts(other, "ints")).isEqualTo(o.ints);
        assertThat(stored.readBytes(other, "direct buffer")).isEqualTo(bytesOf(o.direct));
        assertThat(stored.read(other, "longs")).isEqualTo(o.longs);
        assertThat(stored.readObject(other, "tally", Tally.class).label).isEqualTo(o.tally.label);
        expect(MPI.ERR_TYPE, () -> stored.readInts(other, "doubles"));
        expect(MPI.ERR_ARG, () -> stored.readInts(other, "no such item"));
        expect(MPI.ERR_RANK, () -> stored.readInts(w.getSize(), "ints"));
        CheckpointTesting.removeTempDir(w, dir);
    }

    private static byte[] bytesOf(ByteBuffer b) {
        byte[] out = new byte[b.capacity()];
        b.duplicate().clear().get(out);
        return out;
    }

    /** The last K generations are kept, older ones removed only once a newer one is complete; the newest is loaded. */
    @MpiTest(ranks = {1, 3, 4})
    void theLastKGenerationsAreKept() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        Path dir = CheckpointTesting.sharedTempDir(w);
        for (int keep : new int[] {1, 2, 3}) {
            long[] v = new long[4];
            Checkpoint c = Checkpoint.open(w, options(dir).keep(keep));
            c.register("v", v);
            int first = (int) (c.restore() ? c.generation() + 1 : 0);
            for (int g = first; g < first + 5; g++) {
                Arrays.fill(v, g * 10L + w.getRank());
                assertThat(c.checkpointNow()).isTrue();
                assertThat(c.generation()).isEqualTo(g);
                w.barrier();
                List<String> expected = new ArrayList<>();
                for (int k = Math.max(0, g - keep + 1); k <= g; k++) {
                    expected.add("generation-" + k);
                }
                assertThat(generations(dir)).as("keep " + keep).containsExactlyInAnyOrderElementsOf(expected);
                w.barrier();
            }
            Arrays.fill(v, -1);
            Checkpoint r = Checkpoint.open(w, options(dir).keep(keep));
            r.register("v", v);
            assertThat(r.restore()).isTrue();
            assertThat(r.generation()).isEqualTo(first + 4);
            assertThat(v).containsOnly((first + 4) * 10L + w.getRank());
        }
        CheckpointTesting.removeTempDir(w, dir);
    }

    /** Ways a generation is left partial or damaged, each applied by rank 0 to the newest one. */
    enum Damage {
        NO_MANIFEST, MISSING_PART, TRUNCATED_PART, FLIPPED_BYTE, BAD_MANIFEST, TEMPORARY_PARTS_ONLY
    }

    /**
     * A partial or corrupt newest generation is passed over with one message naming it, and never loaded: the one
     * before it comes back.
     */
    @MpiTest(ranks = {1, 2, 4}, timeoutSeconds = 120)
    void partialOrCorruptGenerationsAreSkipped() throws Exception {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        for (Damage damage : Damage.values()) {
            Path dir = CheckpointTesting.sharedTempDir(w);
            double[] v = new double[1000];
            Checkpoint c = Checkpoint.open(w, options(dir).keep(5));
            c.register("v", v);
            for (int g = 0; g < 3; g++) {
                Arrays.fill(v, g + rank / 100.0);
                c.checkpoint();
            }
            w.barrier();
            if (rank == 0) {
                damage(dir.resolve("generation-2"), damage, size);
            }
            w.barrier();
            Arrays.fill(v, -1);
            Checkpoint r = Checkpoint.open(w, options(dir).keep(5));
            r.register("v", v);
            boolean restored;
            String err = "";
            if (rank == 0) {
                // only rank 0 prints, and only rank 0 captures: in threads mode System.err is the JVM's
                Object[] result = new Object[1];
                err = capturingStderr(r::restore, result);
                restored = (Boolean) result[0];
            } else {
                restored = r.restore();
            }
            assertThat(restored).as(damage.name()).isTrue();
            assertThat(r.generation()).as(damage.name()).isEqualTo(1);
            assertThat(v).as(damage.name()).containsOnly(1 + rank / 100.0);
            if (rank == 0) {
                assertThat(err.lines().filter(l -> l.contains("skipping")).toList()).as(damage.name()).singleElement()
                        .asString().contains("generation 2").contains(dir.toString()).contains("never loaded");
                // the library agrees when asked directly (a changed byte shows only in the checksum)
                Object[] latest = new Object[1];
                capturingStderr(() -> StoredCheckpoint.latest(dir), latest);
                assertThat(((StoredCheckpoint) latest[0]).generation()).as(damage.name()).isEqualTo(1);
                if (damage != Damage.FLIPPED_BYTE) {
                    assertThat(StoredCheckpoint.completeGenerations(dir)).as(damage.name()).containsExactly(1L, 0L);
                }
            }
            // the next checkpoint clears the partial one away
            assertThat(r.checkpoint()).isTrue();
            assertThat(r.generation()).isEqualTo(3);
            w.barrier();
            assertThat(generations(dir)).as(damage.name()).contains("generation-3").doesNotContain("generation-2");
            CheckpointTesting.removeTempDir(w, dir);
        }
    }

    private static void damage(Path gen, Damage damage, int size) throws IOException {
        Path lastPart = gen.resolve("rank-" + (size - 1) + ".part");
        switch (damage) {
            case NO_MANIFEST -> Files.delete(gen.resolve("manifest"));
            case MISSING_PART -> Files.delete(lastPart);
            case TRUNCATED_PART -> {
                try (FileChannel ch = FileChannel.open(lastPart, StandardOpenOption.WRITE)) {
                    ch.truncate(ch.size() - 5);
                }
            }
            case FLIPPED_BYTE -> {
                try (FileChannel ch = FileChannel.open(lastPart, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                    ByteBuffer b = ByteBuffer.allocate(1);
                    long at = ch.size() - 100;
                    ch.read(b, at);
                    b.put(0, (byte) (b.get(0) ^ 0x10)).rewind();
                    ch.write(b, at);
                }
            }
            case BAD_MANIFEST -> {
                byte[] m = Files.readAllBytes(gen.resolve("manifest"));
                m[20] ^= 1;
                Files.write(gen.resolve("manifest"), m);
            }
            case TEMPORARY_PARTS_ONLY -> {
                // as a job killed before any rename: the parts still under their temporary names, no manifest
                Files.delete(gen.resolve("manifest"));
                for (int r = 0; r < size; r++) {
                    Path p = gen.resolve("rank-" + r + ".part");
                    Files.move(p, p.resolveSibling(p.getFileName() + ".tmp"));
                }
            }
        }
    }

    /** Another rank count: a clear error, unless the program opts in and reads what it needs from stored(). */
    @MpiTest(ranks = {2, 3, 4})
    void anotherRankCountIsAnErrorUnlessAllowed() throws MPIException {
        Intracomm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        Path dir = CheckpointTesting.sharedTempDir(w);
        int[] rows = new int[10 + rank];
        Arrays.fill(rows, rank);
        Checkpoint c = Checkpoint.open(w, options(dir));
        c.register("rows", rows);
        c.register("first", new long[] {rank * 100L});
        c.checkpoint();
        // the same program on one rank fewer
        Intracomm fewer = w.split(rank < size - 1 ? 0 : MPI.UNDEFINED, rank);
        if (fewer != null && !fewer.isNull()) {
            int[] mine = new int[10 + rank];
            Checkpoint strict = Checkpoint.open(fewer, options(dir));
            strict.register("rows", mine);
            strict.register("first", new long[1]);
            expect(MPI.ERR_SIZE, strict::restore);
            try {
                strict.restore();
            } catch (MPIException e) {
                assertThat(e.getMessage()).contains("written by " + size + " ranks")
                        .contains("has " + (size - 1)).contains("allowRankCountChange");
            }
            assertThat(mine).containsOnly(0);
            Checkpoint loose = Checkpoint.open(fewer, options(dir).allowRankCountChange(true));
            loose.register("rows", mine);
            loose.register("first", new long[1]);
            assertThat(loose.restore()).isFalse();
            assertThat(mine).as("nothing loaded into the registered items").containsOnly(0);
            StoredCheckpoint s = loose.stored();
            assertThat(s).isNotNull();
            assertThat(loose.generation()).isZero();
            assertThat(s.ranks()).isEqualTo(size);
            for (int old = 0; old < size; old++) {
                assertThat(s.readInts(old, "rows")).hasSize(10 + old).containsOnly(old);
                assertThat(s.readLongs(old, "first")).containsExactly(old * 100L);
            }
            fewer.free();
        }
        CheckpointTesting.removeTempDir(w, dir);
    }

    /** A missing, non-directory or unwritable directory, and different settings on different ranks. */
    @MpiTest(ranks = {1, 3})
    void badDirectoriesAndSettings() throws Exception {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        Path dir = CheckpointTesting.sharedTempDir(w);
        expect(MPI.ERR_NO_SUCH_FILE, () -> Checkpoint.open(w, options(dir.resolve("missing"))));
        Path file = dir.resolve("a-file");
        if (rank == 0) {
            Files.writeString(file, "x");
        }
        w.barrier();
        expect(MPI.ERR_BAD_FILE, () -> Checkpoint.open(w, options(file)));
        // as root a mode of 0555 does not stop writing: /sys does
        boolean root = "root".equals(System.getProperty("user.name"));
        Path readOnly = root ? Path.of("/sys") : dir.resolve("read-only");
        if (!root && rank == 0) {
            Files.createDirectory(readOnly, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(
                    "r-xr-xr-x")));
        }
        w.barrier();
        expect(MPI.ERR_ACCESS, () -> Checkpoint.open(w, options(readOnly)));
        if (w.getSize() > 1) {
            expect(MPI.ERR_NOT_SAME, () -> Checkpoint.open(w, options(dir).keep(rank == 1 ? 3 : 2)));
            expect(MPI.ERR_NOT_SAME, () -> Checkpoint.open(w, rank == 1 ? CheckpointOptions.disabled()
                    : options(dir)));
        }
        expect(MPI.ERR_ARG, () -> Checkpoint.open(w, null));
        expect(MPI.ERR_COMM, () -> Checkpoint.open(null, options(dir)));
        // the checkpoint still works afterwards
        Checkpoint c = Checkpoint.open(w, options(dir));
        assertThat(c.checkpoint()).isTrue();
        if (!root && rank == 0) {
            Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        CheckpointTesting.removeTempDir(w, dir);
    }

    /** Registration mistakes, and a stored checkpoint that does not fit what is registered. */
    @MpiTest(ranks = {1, 3})
    void badRegistrationsAndMismatches() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        Path dir = CheckpointTesting.sharedTempDir(w);
        Checkpoint c = Checkpoint.open(w, options(dir));
        double[] v = new double[8];
        c.register("v", v);
        expect(MPI.ERR_ARG, () -> c.register("v", new int[2]));
        expect(MPI.ERR_ARG, () -> c.register("", new int[2]));
        expect(MPI.ERR_ARG, () -> c.register("new\nline", new int[2]));
        expect(MPI.ERR_ARG, () -> c.register("null", (int[]) null));
        expect(MPI.ERR_ARG, () -> c.register("ro", ByteBuffer.allocate(4).asReadOnlyBuffer()));
        expect(MPI.ERR_ARG, () -> c.register("o", String.class, null, s -> { }));
        c.register("name with spaces and ünïcödé", new int[] {rank});
        assertThat(c.checkpoint()).isTrue();
        expect(MPI.ERR_ARG, () -> c.register("late", new int[1]));
        // a restore into other shapes: every rank gets the error, nothing is loaded
        Checkpoint longer = Checkpoint.open(w, options(dir));
        double[] nine = new double[9];
        longer.register("v", nine);
        longer.register("name with spaces and ünïcödé", new int[1]);
        expect(MPI.ERR_COUNT, longer::restore);
        Checkpoint typed = Checkpoint.open(w, options(dir));
        typed.register("v", new float[8]);
        typed.register("name with spaces and ünïcödé", new int[1]);
        expect(MPI.ERR_TYPE, typed::restore);
        Checkpoint fewer = Checkpoint.open(w, options(dir));
        fewer.register("v", new double[8]);
        expect(MPI.ERR_ARG, fewer::restore);
        Checkpoint more = Checkpoint.open(w, options(dir));
        more.register("v", new double[8]);
        more.register("name with spaces and ünïcödé", new int[1]);
        more.register("extra", new int[1]);
        expect(MPI.ERR_ARG, more::restore);
        // only one rank registers differently: still every rank fails, so none goes on alone
        if (w.getSize() > 1) {
            Checkpoint one = Checkpoint.open(w, options(dir));
            one.register("v", new double[rank == 1 ? 7 : 8]);
            int[] mark = {-5};
            one.register("name with spaces and ünïcödé", mark);
            expect(MPI.ERR_COUNT, one::restore);
            assertThat(mark[0]).as("nothing loaded on the ranks that matched").isEqualTo(-5);
        }
        // an object that cannot be serialised on one rank: every rank fails and the generation is removed
        Checkpoint objects = Checkpoint.open(w, options(dir));
        boolean last = rank == w.getSize() - 1;
        objects.register("o", Serializable.class, () -> last ? new ArrayList<>(List.of(new Opaque())) : "fine",
                o -> { });
        expect(MPI.ERR_ARG, objects::checkpoint);
        w.barrier();
        assertThat(generations(dir)).containsExactly("generation-0");
        // checkpoints off: nothing written, nothing restored, registration checks the same
        Checkpoint off = Checkpoint.open(w, CheckpointOptions.disabled());
        off.register("v", v);
        expect(MPI.ERR_ARG, () -> off.register("v", v));
        assertThat(off.enabled()).isFalse();
        assertThat(off.restore()).isFalse();
        assertThat(off.checkpoint()).isFalse();
        assertThat(off.checkpointNow()).isFalse();
        assertThat(off.stored()).isNull();
        CheckpointTesting.removeTempDir(w, dir);
    }

    /** checkpoint() writes once the interval has passed on rank 0; checkpointNow() always; interval 0 every call. */
    @MpiTest(ranks = {1, 3})
    void intervalAndExplicitGeneration() throws Exception {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        Path dir = CheckpointTesting.sharedTempDir(w);
        int[] v = new int[3];
        Checkpoint hourly = Checkpoint.open(w, options(dir).interval(Duration.ofHours(1)).keep(10));
        hourly.register("v", v);
        assertThat(hourly.checkpoint()).as("the interval counts from open").isFalse();
        Arrays.fill(v, 0);
        assertThat(hourly.checkpointNow()).isTrue();
        assertThat(hourly.checkpoint()).isFalse();
        Checkpoint often = Checkpoint.open(w, options(dir).interval(Duration.ofMillis(200)).keep(10));
        often.register("v", v);
        if (rank == 0) {
            Thread.sleep(300); // only rank 0's clock decides: the others need not wait
        }
        Arrays.fill(v, 1);
        assertThat(often.checkpoint()).isTrue();
        Checkpoint every = Checkpoint.open(w, options(dir).keep(10));
        every.register("v", v);
        for (int g = 2; g < 5; g++) {
            Arrays.fill(v, g);
            assertThat(every.checkpoint()).isTrue();
            assertThat(every.generation()).isEqualTo(g);
        }
        // an explicit generation
        Checkpoint chosen = Checkpoint.open(w, options(dir).restartGeneration(1));
        chosen.register("v", v);
        assertThat(chosen.restore()).isTrue();
        assertThat(chosen.generation()).isEqualTo(1);
        assertThat(v).containsOnly(1);
        Checkpoint missing = Checkpoint.open(w, options(dir).restartGeneration(77));
        missing.register("v", v);
        expect(MPI.ERR_NO_SUCH_FILE, missing::restore);
        w.barrier();
        if (rank == 0) {
            Files.delete(dir.resolve("generation-3").resolve("manifest"));
        }
        w.barrier();
        Checkpoint partial = Checkpoint.open(w, options(dir).restartGeneration(3));
        partial.register("v", v);
        expect(MPI.ERR_IO, partial::restore);
        assertThat(v).containsOnly(1);
        // the newest complete one, passing over 3? 4 is newer and complete
        Checkpoint newest = Checkpoint.open(w, options(dir));
        newest.register("v", v);
        assertThat(newest.restore()).isTrue();
        assertThat(newest.generation()).isEqualTo(4);
        assertThat(v).containsOnly(4);
        CheckpointTesting.removeTempDir(w, dir);
    }

    /** The same over TCP between processes (the checkpoint's collectives go through whichever transport serves). */
    @MpiTest(ranks = {3}, modes = Mode.PROCESSES, jvmArgs = "-Djmpi.transport=tcp")
    void overTcp() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        Path dir = CheckpointTesting.sharedTempDir(w);
        State s = new State(50);
        Checkpoint c = Checkpoint.open(w, options(dir));
        s.register(c);
        s.fill(w.getRank() + 7);
        c.checkpoint();
        s.clear();
        Checkpoint r = Checkpoint.open(w, options(dir));
        State t = new State(50);
        t.register(r);
        assertThat(r.restore()).isTrue();
        t.assertFilledWith(w.getRank() + 7);
        CheckpointTesting.removeTempDir(w, dir);
    }
}
