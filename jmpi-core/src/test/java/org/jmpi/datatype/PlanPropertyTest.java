package org.jmpi.datatype;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import org.jmpi.shared.FastCopy;

/**
 * Random nested datatypes, built both by {@link TypeDescriptor} and by the reference model {@link RefType}: bounds,
 * sizes and packed streams must agree, for whole messages and for packing in random chunks.
 */
class PlanPropertyTest {
    private static final BaseKind[] KINDS = {BaseKind.BYTE, BaseKind.SHORT, BaseKind.CHAR, BaseKind.INT,
        BaseKind.FLOAT, BaseKind.LONG, BaseKind.DOUBLE};
    /** Keeps the reference walk (one entry per primitive) cheap. */
    private static final int MAX_ENTRIES = 30_000;

    @Provide
    Arbitrary<TypeTree> trees() {
        return Arbitraries.of(KINDS).flatMap(k -> tree(k, 4)).withoutEdgeCases();
    }

    @Provide
    Arbitrary<TypeTree> booleanTrees() {
        return tree(BaseKind.BOOLEAN, 4).withoutEdgeCases();
    }

    private static Arbitrary<Integer> ints(int min, int max) {
        return Arbitraries.integers().between(min, max).withDistribution(RandomDistribution.uniform());
    }

    private Arbitrary<TypeTree> tree(BaseKind kind, int depth) {
        Arbitrary<TypeTree> leaf = Arbitraries.just(new TypeTree.Prim(kind));
        if (depth == 0) {
            return leaf;
        }
        Arbitrary<TypeTree> child = tree(kind, depth - 1);
        Arbitrary<TypeTree> contig = Combinators.combine(ints(0, 4), child).as(TypeTree.Contig::new);
        Arbitrary<TypeTree> vector = Combinators.combine(ints(0, 12), ints(0, 4), ints(-6, 8), child)
                .as(TypeTree.Vector::new);
        Arbitrary<TypeTree> longVector = Combinators.combine(ints(65, 200), ints(1, 3), ints(-4, 6), child)
                .as(TypeTree.Vector::new);
        Arbitrary<TypeTree> hvector = Combinators.combine(ints(0, 5), ints(0, 3), ints(-64, 96), child)
                .as(TypeTree.HVector::new);
        Arbitrary<TypeTree> indexed = ints(0, 6).flatMap(n -> Combinators.combine(
                ints(0, 3).array(int[].class).ofSize(n), ints(-8, 12).array(int[].class).ofSize(n),
                Arbitraries.of(false, true), child).as((b, d, bytes, c) -> (TypeTree) new TypeTree.Indexed(b,
                        bytes ? scale(d, 8) : d, bytes, c)));
        Arbitrary<TypeTree> resized = Combinators.combine(ints(-16, 16), ints(0, 48), child)
                .as(TypeTree.Resized::new);
        int leaves = depth == 1 ? 3 : 1;
        if (kind == BaseKind.BOOLEAN) {
            return Arbitraries.frequencyOf(Tuple.of(leaves, leaf), Tuple.of(2, contig), Tuple.of(3, vector),
                    Tuple.of(3, longVector), Tuple.of(2, hvector), Tuple.of(2, indexed), Tuple.of(2, resized));
        }
        Arbitrary<TypeTree> struct = ints(0, 4).flatMap(n -> Combinators.combine(
                ints(0, 3).array(int[].class).ofSize(n), ints(-48, 64).array(int[].class).ofSize(n),
                Arbitraries.of(KINDS).flatMap(k -> tree(k, depth - 1)).list().ofSize(n))
                .as(TypeTree.Struct::new));
        return Arbitraries.frequencyOf(Tuple.of(leaves, leaf), Tuple.of(2, contig), Tuple.of(3, vector),
                Tuple.of(3, longVector), Tuple.of(2, hvector), Tuple.of(2, indexed), Tuple.of(2, struct),
                Tuple.of(2, resized));
    }

    private static int[] scale(int[] a, int f) {
        return Arrays.stream(a).map(x -> x * f).toArray();
    }

    private static RefType checkedRef(TypeTree tree, int count) {
        Assume.that(tree.entries() * Math.max(count, 1) <= MAX_ENTRIES);
        return tree.ref();
    }

    @Property(tries = 250)
    void boundsAndSizesMatchTheReference(@ForAll("trees") TypeTree tree) {
        RefType ref = checkedRef(tree, 1);
        TypeDescriptor t = tree.build();
        assertThat(t.base()).isEqualTo(tree.base());
        assertThat(t.size()).as("size").isEqualTo(ref.size());
        assertThat(t.signature().bytes()).as("signature bytes").isEqualTo(ref.size());
        assertThat(t.lb()).as("lb").isEqualTo(ref.lb());
        assertThat(t.extent()).as("extent").isEqualTo(ref.extent());
        assertThat(t.trueLb()).as("true lb").isEqualTo(ref.trueLb());
        assertThat(t.trueExtent()).as("true extent").isEqualTo(ref.trueUb() - ref.trueLb());
        for (int count = 1; count <= 3; count++) {
            assertThat(t.span(count)).as("span of " + count).containsExactly(ref.span(count));
        }
    }

    @Property(tries = 250)
    void packingMatchesTheReference(@ForAll("trees") TypeTree tree, @ForAll @IntRange(min = 0, max = 5) int count,
            @ForAll long seed) {
        RefType ref = checkedRef(tree, count);
        TypeDescriptor t = tree.build();
        long[] span = ref.span(count);
        long origin = -span[0] + 3;
        byte[] mem = new byte[(int) (span[1] - span[0]) + 7];
        Random r = new Random(seed);
        r.nextBytes(mem);
        byte[] expected = ref.pack(mem, origin, count);

        // whole message, through the path BufferView uses (a plain segment when the layout is one run)
        MessageData whole = PlanData.over(MemorySegment.ofArray(mem), origin, t, count);
        assertThat(whole.bytes()).isEqualTo(expected.length);
        byte[] got = new byte[expected.length];
        whole.packTo(0, MemorySegment.ofArray(got), 0, got.length);
        assertThat(got).as("packed stream of %d x %s", count, tree).isEqualTo(expected);
        if (t.isContiguous() && count > 0 && t.size() > 0) {
            assertThat(whole.contiguous()).as("contiguous types move without packing").isNotNull();
        }

        // the same in random chunks, into a buffer at an offset
        PlanData chunked = new PlanData(MemorySegment.ofArray(mem), origin, t, count);
        byte[] out = new byte[expected.length + 5];
        int at = 0;
        while (at < expected.length) {
            int n = 1 + r.nextInt(Math.max(1, expected.length / 3 + 1));
            n = Math.min(n, expected.length - at);
            chunked.packTo(at, MemorySegment.ofArray(out), at + 5, n);
            at += n;
        }
        assertThat(Arrays.copyOfRange(out, 5, out.length)).as("chunked pack of %s", tree).isEqualTo(expected);
    }

    @Property(tries = 250)
    void unpackingMatchesTheReference(@ForAll("trees") TypeTree tree, @ForAll @IntRange(min = 0, max = 5) int count,
            @ForAll long seed) {
        RefType ref = checkedRef(tree, count);
        TypeDescriptor t = tree.build();
        long[] span = ref.span(count);
        long origin = -span[0] + 2;
        int memLength = (int) (span[1] - span[0]) + 4;
        Random r = new Random(seed);
        byte[] stream = new byte[(int) (ref.size() * count)];
        r.nextBytes(stream);
        byte[] expected = new byte[memLength];
        Arrays.fill(expected, (byte) 0x5a);
        ref.unpack(stream, expected, origin, count);

        byte[] mem = new byte[memLength];
        Arrays.fill(mem, (byte) 0x5a);
        PlanData.over(MemorySegment.ofArray(mem), origin, t, count)
                .unpackFrom(0, MemorySegment.ofArray(stream), 0, stream.length);
        assertThat(mem).as("unpack of %d x %s", count, tree).isEqualTo(expected);

        byte[] chunked = new byte[memLength];
        Arrays.fill(chunked, (byte) 0x5a);
        PlanData data = new PlanData(MemorySegment.ofArray(chunked), origin, t, count);
        int at = 0;
        while (at < stream.length) {
            int n = Math.min(1 + r.nextInt(Math.max(1, stream.length / 4 + 1)), stream.length - at);
            data.unpackFrom(at, MemorySegment.ofArray(stream), at, n);
            at += n;
        }
        assertThat(chunked).as("chunked unpack of %d x %s", count, tree).isEqualTo(expected);
    }

    /**
     * The same packing and unpacking with the user memory a typed array (any of the seven kinds, whatever the tree's
     * kind, at an element offset in it) or native memory, in random chunks: where the runs are whole elements they
     * move through {@link ArrayKernel}, elsewhere through the segment kernels, and both must give the reference's bytes.
     */
    @Property(tries = 300)
    void typedArraysAndNativeMemoryPackAndUnpackAsTheReference(@ForAll("trees") TypeTree tree,
            @ForAll @IntRange(min = 0, max = 5) int count, @ForAll @IntRange(min = 0, max = 7) int memoryKind,
            @ForAll long seed) {
        RefType ref = checkedRef(tree, count);
        TypeDescriptor t = tree.build();
        long[] span = ref.span(count);
        int element = new int[] {1, 2, 2, 4, 4, 8, 8, 8}[memoryKind];
        long origin = (-span[0] + 2 * element - 1) / element * element; // element 1 or 2 of the array on
        int memLength = (int) ((origin + span[1] + element) / element * element);
        Random r = new Random(seed);
        byte[] bytes = new byte[memLength];
        r.nextBytes(bytes);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment backing = memoryKind == 7 ? arena.allocate(memLength, 8)
                    : FastCopy.arraySegment(typedArray(memoryKind, memLength / element));
            MemorySegment.copy(MemorySegment.ofArray(bytes), 0, backing, 0, memLength);
            // the user segment starts one element into the array
            MemorySegment memory = backing.asSlice(element);
            long at = origin - element;

            byte[] expected = ref.pack(bytes, origin, count);
            PlanData data = new PlanData(memory, at, t, count);
            byte[] out = new byte[expected.length + 3];
            for (int done = 0; done < expected.length; ) {
                int n = Math.min(chunk(r, expected.length, element), expected.length - done);
                data.packTo(done, MemorySegment.ofArray(out), done + 3, n);
                done += n;
            }
            assertThat(Arrays.copyOfRange(out, 3, out.length)).as("pack of %d x %s from memory kind %d", count, tree,
                    memoryKind).isEqualTo(expected);

            byte[] stream = new byte[expected.length];
            r.nextBytes(stream);
            byte[] expectMem = bytes.clone();
            ref.unpack(stream, expectMem, origin, count);
            for (int done = 0; done < stream.length; ) {
                int n = Math.min(chunk(r, stream.length, element), stream.length - done);
                data.unpackFrom(done, MemorySegment.ofArray(stream), done, n);
                done += n;
            }
            byte[] gotMem = new byte[memLength];
            MemorySegment.copy(backing, 0, MemorySegment.ofArray(gotMem), 0, memLength);
            assertThat(gotMem).as("unpack of %d x %s into memory kind %d", count, tree, memoryKind)
                    .isEqualTo(expectMem);
        }
    }

    /**
     * A chunk length for a stream of {@code length} bytes: the whole stream, whole elements of {@code element}
     * bytes (so that ArrayKernel takes them where the layout allows), or any number of bytes (so that it does not).
     */
    private static int chunk(Random r, int length, int element) {
        int n = 1 + r.nextInt(Math.max(1, length / 3 + 1));
        return switch (r.nextInt(3)) {
            case 0 -> length;
            case 1 -> (n + element - 1) / element * element;
            default -> n;
        };
    }

    private static Object typedArray(int kind, int n) {
        return switch (kind) {
            case 0 -> new byte[n];
            case 1 -> new short[n];
            case 2 -> new char[n];
            case 3 -> new int[n];
            case 4 -> new float[n];
            case 5 -> new long[n];
            default -> new double[n];
        };
    }


    @Property(tries = 120)
    void runVisitsCoverThePackedStreamInOrder(@ForAll("trees") TypeTree tree,
            @ForAll @IntRange(min = 1, max = 4) int count, @ForAll long seed) {
        RefType ref = checkedRef(tree, count);
        TypeDescriptor t = tree.build();
        Assume.that(t.size() > 0);
        long[] span = ref.span(count);
        long origin = -span[0];
        byte[] mem = new byte[(int) (span[1] - span[0])];
        new Random(seed).nextBytes(mem);
        byte[] expected = ref.pack(mem, origin, count);
        byte[] got = new byte[expected.length];
        long[] next = {0};
        new PlanData(MemorySegment.ofArray(mem), origin, t, count).visitRuns(0, expected.length, (m, s, n) -> {
            assertThat(s).isEqualTo(next[0]);
            System.arraycopy(mem, (int) m, got, (int) s, (int) n);
            next[0] += n;
        });
        assertThat(got).isEqualTo(expected);
    }

    @Property(tries = 120)
    void booleanLayoutsMatchTheReference(@ForAll("booleanTrees") TypeTree tree,
            @ForAll @IntRange(min = 0, max = 4) int count, @ForAll long seed) {
        RefType ref = checkedRef(tree, count);
        TypeDescriptor t = tree.build();
        long[] span = ref.span(count);
        Assume.that(span[0] >= 0);
        boolean[] mem = new boolean[(int) span[1] + 3];
        Random r = new Random(seed);
        byte[] asBytes = new byte[mem.length];
        for (int i = 0; i < mem.length; i++) {
            mem[i] = r.nextBoolean();
            asBytes[i] = (byte) (mem[i] ? 1 : 0);
        }
        byte[] expected = ref.pack(asBytes, 0, count);
        BooleanPlanData data = new BooleanPlanData(mem, t, count);
        byte[] got = new byte[expected.length];
        data.packTo(0, MemorySegment.ofArray(got), 0, got.length);
        assertThat(got).isEqualTo(expected);

        byte[] stream = new byte[expected.length];
        for (int i = 0; i < stream.length; i++) {
            stream[i] = (byte) r.nextInt(3); // 0 is false, anything else true
        }
        byte[] expectMem = new byte[mem.length];
        ref.unpack(stream, expectMem, 0, count);
        boolean[] target = new boolean[mem.length];
        new BooleanPlanData(target, t, count).unpackFrom(0, MemorySegment.ofArray(stream), 0, stream.length);
        for (int i = 0; i < target.length; i++) {
            assertThat(target[i]).as("boolean %d", i).isEqualTo(expectMem[i] != 0);
        }
    }
}
