package org.jmpi.tests.datatype;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import mpi.Comm;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;
import org.jmpi.junit.MpiTest;

/**
 * Random nested datatypes built through the public API, sent between ranks and checked byte by byte against a
 * reference type map computed here from MPI's definitions (one entry per primitive, never merged). Every rank builds
 * the same types from the same seed. Buffers are byte buffers, which carry any base type.
 */
class RandomLayoutTest {
    /** A type map: entries {@code (byte displacement, bytes)} in order, plus explicit bounds if resized. */
    record Ref(List<long[]> entries, Long lbMark, Long ubMark) {
        long lb() {
            if (lbMark != null) {
                return lbMark;
            }
            return entries.stream().mapToLong(e -> e[0]).min().orElse(0);
        }

        long ub() {
            if (ubMark != null) {
                return ubMark;
            }
            return entries.stream().mapToLong(e -> e[0] + e[1]).max().orElse(0);
        }

        long extent() {
            return ub() - lb();
        }

        long size() {
            return entries.stream().mapToLong(e -> e[1]).sum();
        }

        /** Copies of the given types at the given byte displacements. */
        static Ref of(List<Ref> types, List<Long> disps) {
            List<long[]> e = new ArrayList<>();
            Long lbm = null;
            Long ubm = null;
            for (int k = 0; k < types.size(); k++) {
                Ref t = types.get(k);
                long d = disps.get(k);
                for (long[] x : t.entries) {
                    e.add(new long[] {x[0] + d, x[1]});
                }
                if (t.lbMark != null) {
                    lbm = lbm == null ? t.lbMark + d : Math.min(lbm, t.lbMark + d);
                }
                if (t.ubMark != null) {
                    ubm = ubm == null ? t.ubMark + d : Math.max(ubm, t.ubMark + d);
                }
            }
            return new Ref(e, lbm, ubm);
        }
    }

    /** A datatype and its reference, with the unit (bytes of the base type) of its API counts. */
    record Built(Datatype type, Ref ref, int unit) {}

    private static final Datatype[] PRIMS = {MPI.BYTE, MPI.SHORT, MPI.INT, MPI.LONG, MPI.DOUBLE};
    private static final int[] PRIM_BYTES = {1, 2, 4, 8, 8};

    /** A random type over one primitive (structs mix primitives and become byte-based). */
    private static Built random(Random r, int depth, List<Datatype> made) throws MPIException {
        int p = r.nextInt(PRIMS.length);
        return random(r, depth, p, made);
    }

    private static Built random(Random r, int depth, int prim, List<Datatype> made) throws MPIException {
        int choice = depth == 0 ? 0 : r.nextInt(7);
        if (choice == 0) {
            List<long[]> e = new ArrayList<>();
            e.add(new long[] {0, PRIM_BYTES[prim]});
            return new Built(PRIMS[prim], new Ref(e, null, null), PRIM_BYTES[prim]);
        }
        Built c = random(r, depth - 1, prim, made);
        long ext = c.ref.extent();
        List<Ref> types = new ArrayList<>();
        List<Long> disps = new ArrayList<>();
        Datatype t;
        int unit = c.unit;
        switch (choice) {
            case 1 -> {
                int n = r.nextInt(4);
                t = Datatype.createContiguous(n, c.type);
                for (int i = 0; i < n; i++) {
                    types.add(c.ref);
                    disps.add(i * ext);
                }
            }
            case 2 -> {
                int count = r.nextInt(3) == 0 && c.ref.entries.size() <= 50 ? 40 + r.nextInt(100) : r.nextInt(5);
                int bl = r.nextInt(4);
                int stride = r.nextInt(9) - 3;
                t = Datatype.createVector(count, bl, stride, c.type);
                for (int i = 0; i < count; i++) {
                    for (int j = 0; j < bl; j++) {
                        types.add(c.ref);
                        disps.add(i * stride * ext + j * ext);
                    }
                }
            }
            case 3 -> {
                int count = r.nextInt(5);
                int bl = r.nextInt(3);
                int stride = r.nextInt(80) - 24;
                t = Datatype.createHVector(count, bl, stride, c.type);
                for (int i = 0; i < count; i++) {
                    for (int j = 0; j < bl; j++) {
                        types.add(c.ref);
                        disps.add(i * (long) stride + j * ext);
                    }
                }
            }
            case 4 -> {
                int n = r.nextInt(5);
                int[] bl = new int[n];
                int[] d = new int[n];
                boolean bytes = r.nextBoolean();
                for (int i = 0; i < n; i++) {
                    bl[i] = r.nextInt(3);
                    d[i] = bytes ? r.nextInt(100) - 30 : r.nextInt(12) - 4;
                    for (int j = 0; j < bl[i]; j++) {
                        types.add(c.ref);
                        disps.add((bytes ? d[i] : d[i] * ext) + j * ext);
                    }
                }
                t = bytes ? Datatype.createHIndexed(bl, d, c.type) : Datatype.createIndexed(bl, d, c.type);
            }
            case 5 -> {
                int lb = r.nextInt(7) - 3;
                int extent = r.nextInt(12);
                t = Datatype.createResized(c.type, lb, extent);
                made.add(t);
                Ref ref = new Ref(c.ref.entries, (long) lb * unit, (long) (lb + extent) * unit);
                return new Built(t, ref, unit);
            }
            default -> {
                int n = 1 + r.nextInt(3);
                int[] bl = new int[n];
                int[] d = new int[n];
                Datatype[] ts = new Datatype[n];
                for (int i = 0; i < n; i++) {
                    Built part = i == 0 ? c : random(r, depth - 1, made);
                    bl[i] = r.nextInt(3);
                    d[i] = r.nextInt(96) - 32;
                    ts[i] = part.type;
                    for (int j = 0; j < bl[i]; j++) {
                        types.add(part.ref);
                        disps.add(d[i] + j * part.ref.extent());
                    }
                }
                t = Datatype.createStruct(bl, d, ts);
                unit = 1;
            }
        }
        made.add(t);
        return new Built(t, Ref.of(types, disps), unit);
    }

    /** Lowest and one past the highest byte {@code count} elements touch. */
    private static long[] span(Ref ref, int count) {
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (int i = 0; i < count; i++) {
            for (long[] e : ref.entries) {
                lo = Math.min(lo, i * ref.extent() + e[0]);
                hi = Math.max(hi, i * ref.extent() + e[0] + e[1]);
            }
        }
        return lo > hi ? new long[] {0, 0} : new long[] {lo, hi};
    }

    @MpiTest(ranks = {2, 3}, timeoutSeconds = 60)
    void randomTypesTravelAsTheReferencePacksThem() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;
        int tried = 0;
        for (int round = 0; round < 60; round++) {
            Random r = new Random(1234 + round);
            List<Datatype> made = new ArrayList<>();
            Built b = random(r, 3, made);
            int count = 1 + r.nextInt(3);
            Ref ref = b.ref;
            if (ref.entries.size() * count > 200_000) {
                continue;
            }
            tried++;
            assertThat((long) b.type.getSize() * b.unit).as("size, round %d", round).isEqualTo(ref.size());
            assertThat((long) b.type.getExtent() * b.unit).as("extent, round %d", round)
                    .isEqualTo(ref.extent() / b.unit * b.unit);
            long[] one = span(ref, 1);
            assertThat((long) b.type.getTrueLb()).as("true lb, round %d: %s", round, b.type)
                    .isEqualTo(Math.floorDiv(one[0], b.unit));
            assertThat((long) b.type.getLb()).as("lb, round %d", round).isEqualTo(Math.floorDiv(ref.lb(), b.unit));
            b.type.commit();
            long[] sp = span(ref, count);
            int origin = (int) Math.max(0, -sp[0]);
            int length = (int) (origin + Math.max(0, sp[1]));
            int packedBytes = (int) (ref.size() * count);

            // send the type from a buffer filled by (rank, round); receive its packed stream as bytes
            // a direct buffer cannot be read before its start: when the type reaches back, slice a heap buffer
            boolean direct = round % 2 == 0 && origin == 0;
            ByteBuffer mine = direct ? MPI.newByteBuffer(length) : ByteBuffer.allocate(length);
            fill(mine, rank, round);
            byte[] stream = new byte[packedBytes];
            Status s = w.sendRecv(MPI.slice(mine, origin), count, b.type, right, round, stream, packedBytes, MPI.BYTE,
                    left, round);
            assertThat(s.getCount(MPI.BYTE)).isEqualTo(packedBytes);
            ByteBuffer theirs = ByteBuffer.allocate(length);
            fill(theirs, left, round);
            byte[] expected = new byte[packedBytes];
            int p = 0;
            for (int i = 0; i < count; i++) {
                for (long[] e : ref.entries) {
                    for (int k = 0; k < e[1]; k++) {
                        expected[p++] = theirs.get((int) (origin + i * ref.extent() + e[0] + k));
                    }
                }
            }
            assertThat(stream).as("round %d: %d x %s", round, count, b.type).isEqualTo(expected);

            // and the other way: a packed stream received into the type scatters as the type map says
            ByteBuffer into = origin == 0 ? MPI.newByteBuffer(length) : ByteBuffer.allocate(length);
            w.sendRecv(expected, packedBytes, MPI.BYTE, right, 1000 + round, MPI.slice(into, origin), count, b.type,
                    left, 1000 + round);
            byte[] incoming = new byte[packedBytes];
            ByteBuffer leftExpected = ByteBuffer.allocate(length);
            fill(leftExpected, left(left, size), round);
            p = 0;
            for (int i = 0; i < count; i++) {
                for (long[] e : ref.entries) {
                    for (int k = 0; k < e[1]; k++) {
                        incoming[p++] = leftExpected.get((int) (origin + i * ref.extent() + e[0] + k));
                    }
                }
            }
            byte[] memory = new byte[length];
            p = 0;
            for (int i = 0; i < count; i++) {
                for (long[] e : ref.entries) {
                    for (int k = 0; k < e[1]; k++) {
                        memory[(int) (origin + i * ref.extent() + e[0] + k)] = incoming[p++];
                    }
                }
            }
            byte[] got = new byte[length];
            into.get(0, got);
            assertThat(got).as("round %d unpack", round).isEqualTo(memory);
            for (Datatype t : made) {
                t.free();
            }
        }
        assertThat(tried).as("rounds not skipped for size").isGreaterThan(50);
    }

    private static int left(int r, int size) {
        return (r + size - 1) % size;
    }

    private static void fill(ByteBuffer b, int rank, int round) {
        for (int i = 0; i < b.capacity(); i++) {
            b.put(i, (byte) (rank * 37 + round * 11 + i * 7));
        }
    }
}
