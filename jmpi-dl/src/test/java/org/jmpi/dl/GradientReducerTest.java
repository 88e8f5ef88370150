package org.jmpi.dl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.FloatBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * The reducer on real ranks: threads, processes over shared memory, processes over TCP; 1 to 4 ranks (3 included).
 * Data are per-rank pseudo-random floats, and every expected value is computed from an all-gather of every rank's
 * inputs, with the summation order the algorithm promises.
 */
class GradientReducerTest {
    static final String TCP = "-Djmpi.transport=tcp";

    /** Tensor sizes: many small ones (fusion), a few big ones, an empty one, one above the small fusion limit. */
    static final int[] SIZES = {1, 7, 100, 1000, 0, 3, 10_000, 64, 65_537, 5, 250_000, 17};

    @MpiTest(ranks = {1, 2, 3, 4}, modes = Mode.THREADS, timeoutSeconds = 120)
    void threads() throws Exception {
        all();
    }

    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES, timeoutSeconds = 120)
    void processesSharedMemory() throws Exception {
        all();
    }

    @MpiTest(ranks = {3, 4}, modes = Mode.PROCESSES, jvmArgs = TCP, timeoutSeconds = 120)
    void processesTcp() throws Exception {
        all();
    }

    static void all() throws Exception {
        orderedIsBitwiseTheRankOrderSumWhateverTheFusion();
        mpiAndHierarchicalEqualThePlainAllreduceOnExactData();
        theMpiAlgorithmReusesOnePersistentAllreducePerSize();
        differentSubmissionOrdersMatchByName();
        averagesAndBufferKinds();
        compressionStaysWithinItsBounds();
        mismatchedTensorsFailOnEveryRankWithoutHanging();
        stallsAreReportedAndCanFail();
        joinedRanksContributeZerosAndAreNotCounted();
        timelineIsValidJsonWithEveryPhase();
        badInput();
    }

    static int rank() throws MPIException {
        return MPI.COMM_WORLD.getRank();
    }

    static int size() throws MPIException {
        return MPI.COMM_WORLD.getSize();
    }

    static ReducerOptions.Builder quick() {
        return ReducerOptions.builder().stallWarning(Duration.ZERO);
    }

    /** Per-rank random floats of mixed magnitude (so that summation order shows in the last bits). */
    static float[] randomTensor(int n, long seed) {
        Random rnd = new Random(seed);
        float[] t = new float[n];
        for (int i = 0; i < n; i++) {
            t[i] = (float) (rnd.nextGaussian() * Math.pow(10, rnd.nextInt(7) - 3));
        }
        return t;
    }

    /** Every rank's copy of {@code mine}, by rank. */
    static float[][] gatherAll(float[] mine) throws MPIException {
        int p = size();
        float[] all = new float[mine.length * p];
        MPI.COMM_WORLD.allGather(mine, mine.length, MPI.FLOAT, all, mine.length, MPI.FLOAT);
        float[][] byRank = new float[p][mine.length];
        for (int r = 0; r < p; r++) {
            System.arraycopy(all, r * mine.length, byRank[r], 0, mine.length);
        }
        return byRank;
    }

    static float[] rankOrderSum(float[][] byRank) {
        float[] s = byRank[0].clone();
        for (int r = 1; r < byRank.length; r++) {
            for (int i = 0; i < s.length; i++) {
                s[i] += byRank[r][i];
            }
        }
        return s;
    }

    static void assertBitwise(String what, float[] actual, float[] expected) {
        assertThat(actual).as(what).hasSize(expected.length);
        for (int i = 0; i < expected.length; i++) {
            if (Float.floatToRawIntBits(actual[i]) != Float.floatToRawIntBits(expected[i])) {
                throw new AssertionError(what + ": element " + i + " is " + actual[i] + ", expected " + expected[i]
                        + " (bitwise)");
            }
        }
    }

    static List<float[]> submitAll(GradientReducer r, String prefix, List<float[]> inputs, ReduceOp op)
            throws Exception {
        List<float[]> out = new ArrayList<>();
        List<CompletableFuture<float[]>> fs = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            float[] t = inputs.get(i).clone();
            out.add(t);
            fs.add(r.submit(prefix + i, t, op, Compression.NONE));
        }
        for (int i = 0; i < fs.size(); i++) {
            assertThat(fs.get(i).get(60, TimeUnit.SECONDS)).isSameAs(out.get(i));
        }
        return out;
    }

    static void orderedIsBitwiseTheRankOrderSumWhateverTheFusion() throws Exception {
        List<float[]> inputs = new ArrayList<>();
        for (int i = 0; i < SIZES.length; i++) {
            inputs.add(randomTensor(SIZES[i], 1000L * rank() + i));
        }
        // Fused into large buffers, fused into 64 KiB buffers, and not fused at all.
        for (long fusion : new long[] {64L << 20, 64L << 10, 0}) {
            try (GradientReducer r = GradientReducer.create(MPI.COMM_WORLD,
                    quick().algorithm(Algorithm.ORDERED).fusionBytes(fusion).build())) {
                assertThat(r.algorithm()).isEqualTo(Algorithm.ORDERED);
                List<float[]> out = submitAll(r, "t", inputs, ReduceOp.SUM);
                for (int i = 0; i < inputs.size(); i++) {
                    assertBitwise("ORDERED fusion=" + fusion + " tensor " + i, out.get(i),
                            rankOrderSum(gatherAll(inputs.get(i))));
                }
                if (fusion == 0) {
                    assertThat(r.stats().fusedBuffers()).isEqualTo(SIZES.length);
                }
            }
        }
    }

    /** Integer-valued floats: every summation order gives the same bits, so any algorithm must match exactly. */
    static void mpiAndHierarchicalEqualThePlainAllreduceOnExactData() throws Exception {
        List<float[]> inputs = new ArrayList<>();
        List<float[]> expected = new ArrayList<>();
        for (int i = 0; i < SIZES.length; i++) {
            Random rnd = new Random(77L * rank() + i);
            float[] t = new float[SIZES[i]];
            for (int k = 0; k < t.length; k++) {
                t[k] = rnd.nextInt(2001) - 1000;
            }
            inputs.add(t);
            float[] e = t.clone();
            MPI.COMM_WORLD.allReduce(e, e.length, MPI.FLOAT, MPI.SUM);
            expected.add(e);
        }
        record Setup(Algorithm a, int ranksPerHost, long fusion) {}
        for (Setup s : List.of(new Setup(Algorithm.MPI, 0, 64L << 20), new Setup(Algorithm.MPI, 0, 0),
                new Setup(Algorithm.HIERARCHICAL, 2, 64L << 20), new Setup(Algorithm.HIERARCHICAL, 2, 4096),
                new Setup(Algorithm.AUTO, 2, 1L << 20))) {
            try (GradientReducer r = GradientReducer.create(MPI.COMM_WORLD,
                    quick().algorithm(s.a()).ranksPerHost(s.ranksPerHost()).fusionBytes(s.fusion()).build())) {
                if (s.a() == Algorithm.AUTO) {
                    // two ranks per "host": more than one host with several ranks from 3 ranks on
                    assertThat(r.algorithm()).isEqualTo(size() >= 3 ? Algorithm.HIERARCHICAL : Algorithm.MPI);
                    assertThat(r.hosts()).isEqualTo((size() + 1) / 2);
                }
                List<float[]> out = submitAll(r, "x", inputs, ReduceOp.SUM);
                for (int i = 0; i < inputs.size(); i++) {
                    assertBitwise(s + " tensor " + i, out.get(i), expected.get(i));
                }
            }
        }
        // Hierarchical on random data: equal to the flat sum within float rounding.
        try (GradientReducer flat = GradientReducer.create(MPI.COMM_WORLD,
                quick().algorithm(Algorithm.ORDERED).build());
                GradientReducer hier = GradientReducer.create(MPI.COMM_WORLD,
                        quick().algorithm(Algorithm.HIERARCHICAL).ranksPerHost(2).build())) {
            float[] in = randomTensor(50_000, 5L + rank());
            float[] a = flat.submit("w", in.clone(), ReduceOp.SUM).get(60, TimeUnit.SECONDS);
            float[] b = hier.submit("w", in.clone(), ReduceOp.SUM).get(60, TimeUnit.SECONDS);
            float[][] all = gatherAll(in);
            for (int i = 0; i < a.length; i++) {
                double magnitude = 0;
                for (float[] x : all) {
                    magnitude += Math.abs(x[i]);
                }
                assertThat((double) Math.abs(a[i] - b[i])).as("element %d", i)
                        .isLessThanOrEqualTo(magnitude * size() * 0x1p-23 + Float.MIN_NORMAL);
            }
        }
    }

    /**
     * The MPI algorithm makes one persistent all-reduce per fused buffer and element count and starts it at every
     * step: the sums are right whatever the buffer's earlier contents, a size made again only after it fell out of
     * the most recently used {@link FusedAllreduce#PERSISTENT_KEPT}, and a new buffer gets requests of its own.
     */
    static void theMpiAlgorithmReusesOnePersistentAllreducePerSize() throws Exception {
        try (FusedAllreduce f = new FusedAllreduce(MPI.COMM_WORLD, Algorithm.MPI, 0)) {
            java.nio.ByteBuffer buf = MPI.newByteBuffer(4 * 1000).order(java.nio.ByteOrder.nativeOrder());
            int[] counts = {1000, 7, 1000, 1, 7, 1000};
            for (int step = 0; step < counts.length; step++) {
                int n = counts[step];
                for (int i = 0; i < n; i++) {
                    buf.putFloat(4 * i, rank() + i + step); // exact in float: every order sums alike
                }
                f.sum(buf, n, Compression.NONE);
                for (int i = 0; i < n; i++) {
                    float want = (float) size() * (i + step) + size() * (size() - 1) / 2.0f;
                    if (buf.getFloat(4 * i) != want) {
                        throw new AssertionError("step " + step + " element " + i + ": " + buf.getFloat(4 * i)
                                + " instead of " + want);
                    }
                }
            }
            assertThat(f.persistentInits).as("one per size").isEqualTo(3);
            for (int n = 1; n <= FusedAllreduce.PERSISTENT_KEPT + 1; n++) {
                f.sum(buf, n, Compression.NONE);
            }
            // sizes 1..33: 31 new ones (1 and 7 were kept); the least recently used, 1000 and 1, went to make room
            assertThat(f.persistentInits).as("after 33 sizes").isEqualTo(3 + 31);
            f.sum(buf, 1000, Compression.NONE);
            assertThat(f.persistentInits).as("1000 again").isEqualTo(3 + 31 + 1);
            java.nio.ByteBuffer other = MPI.newByteBuffer(4 * 1000).order(java.nio.ByteOrder.nativeOrder());
            f.sum(other, 1000, Compression.NONE);
            assertThat(f.persistentInits).as("another buffer").isEqualTo(3 + 31 + 2);
        }
    }

    static void differentSubmissionOrdersMatchByName() throws Exception {
        int n = 40;
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            order.add(i);
        }
        Collections.shuffle(order, new Random(31L * rank() + 7));
        try (GradientReducer r = GradientReducer.create(MPI.COMM_WORLD, quick().algorithm(Algorithm.ORDERED).build())) {
            float[][] tensors = new float[n][];
            List<CompletableFuture<float[]>> fs = new ArrayList<>();
            for (int i : order) {
                tensors[i] = randomTensor(10 + i * 13, 97L * rank() + i);
            }
            float[][] inputs = new float[n][];
            for (int i = 0; i < n; i++) {
                inputs[i] = tensors[i].clone();
            }
            for (int i : order) {
                fs.add(r.submit("layer" + i + ".grad", tensors[i], ReduceOp.SUM));
            }
            CompletableFuture.allOf(fs.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            for (int i = 0; i < n; i++) {
                assertBitwise("layer" + i, tensors[i], rankOrderSum(gatherAll(inputs[i])));
            }
            // The same names again, as in the next training step.
            float[] again = new float[] {rank()};
            r.submit("layer0.grad", again, ReduceOp.AVERAGE).get(60, TimeUnit.SECONDS);
            assertThat(again[0]).isCloseTo((size() - 1) / 2.0f, within(1e-6f));
        }
    }

    static void averagesAndBufferKinds() throws Exception {
        int p = size();
        try (GradientReducer r = GradientReducer.create(MPI.COMM_WORLD, quick().build());
                Arena arena = Arena.ofShared()) {
            float[] arr = {rank(), 2 * rank(), Float.NaN, rank() == 0 ? Float.POSITIVE_INFINITY : 1};
            FloatBuffer heap = FloatBuffer.wrap(new float[] {9, rank(), 9}, 1, 1);
            FloatBuffer direct = MPI.newFloatBuffer(3).put(0, 1).put(1, rank()).put(2, 3);
            MemorySegment seg = arena.allocate(ValueLayout.JAVA_FLOAT, 5);
            for (int i = 0; i < 5; i++) {
                seg.setAtIndex(ValueLayout.JAVA_FLOAT, i, rank() * i);
            }
            var f1 = r.submit("arr", arr);
            var f2 = r.submit("heap", heap, ReduceOp.SUM, Compression.NONE);
            var f3 = r.submit("direct", direct, ReduceOp.AVERAGE, Compression.NONE);
            var f4 = r.submit("seg", seg, ReduceOp.SUM, Compression.NONE);
            CompletableFuture.allOf(f1, f2, f3, f4).get(60, TimeUnit.SECONDS);
            float mean = (p - 1) / 2.0f;
            assertThat(arr[0]).isCloseTo(mean, within(1e-6f));
            assertThat(arr[1]).isCloseTo(2 * mean, within(1e-6f));
            assertThat(arr[2]).as("NaN passes through").isNaN();
            assertThat(arr[3]).as("infinity passes through").isEqualTo(Float.POSITIVE_INFINITY);
            assertThat(heap.array()).as("only position..limit").containsExactly(9, p * (p - 1) / 2.0f, 9);
            assertThat(direct.get(0)).isEqualTo(1);
            assertThat(direct.get(1)).isCloseTo(mean, within(1e-6f));
            for (int i = 0; i < 5; i++) {
                assertThat(seg.getAtIndex(ValueLayout.JAVA_FLOAT, i)).isEqualTo(i * p * (p - 1) / 2.0f);
            }
            double[] metrics = r.allgather(rank(), 10.0 * rank());
            assertThat(metrics).hasSize(2 * p);
            for (int q = 0; q < p; q++) {
                assertThat(metrics[2 * q]).isEqualTo(q);
                assertThat(metrics[2 * q + 1]).isEqualTo(10.0 * q);
            }
            float[] weights = rank() == p - 1 ? new float[] {1, 2, 3} : new float[3];
            r.broadcast(weights, p - 1);
            assertThat(weights).containsExactly(1, 2, 3);
        }
    }

    static void compressionStaysWithinItsBounds() throws Exception {
        int p = size();
        float[] in = new float[20_000];
        Random rnd = new Random(3L + rank());
        for (int i = 0; i < in.length; i++) {
            in[i] = (float) (rnd.nextDouble() * 2 - 1);
        }
        float[][] all = gatherAll(in);
        for (Algorithm a : new Algorithm[] {Algorithm.MPI, Algorithm.ORDERED, Algorithm.HIERARCHICAL}) {
            for (Compression c : new Compression[] {Compression.FP16, Compression.BF16}) {
                try (GradientReducer r = GradientReducer.create(MPI.COMM_WORLD,
                        quick().algorithm(a).ranksPerHost(2).compression(c).errorFeedback(false).build())) {
                    float[] avg = r.submit("g", in.clone()).get(60, TimeUnit.SECONDS);
                    float[] sum = r.submit("s", in.clone(), ReduceOp.SUM).get(60, TimeUnit.SECONDS);
                    // Each value is rounded on the way in and after each of at most p - 1 additions: (p + 1) roundings
                    // of half an ulp relative to magnitudes of at most p (sum) or 1 (average).
                    double u = c == Compression.FP16 ? 0x1p-11 : 0x1p-8;
                    for (int i = 0; i < in.length; i++) {
                        double exact = 0;
                        for (float[] x : all) {
                            exact += x[i];
                        }
                        assertThat(Math.abs(sum[i] - exact)).as("%s %s sum element %d", a, c, i)
                                .isLessThanOrEqualTo((p + 1) * u * p);
                        assertThat(Math.abs(avg[i] - exact / p)).as("%s %s average element %d", a, c, i)
                                .isLessThanOrEqualTo((p + 1) * u);
                    }
                }
            }
        }
        // Error feedback: averaged over many steps of the same tensor, the compressed results come closer to the
        // exact mean with feedback than without (each rank's rounding error is carried into its next step).
        double[] meanError = new double[2];
        for (int fb = 0; fb < 2; fb++) {
            try (GradientReducer r = GradientReducer.create(MPI.COMM_WORLD, quick().algorithm(Algorithm.ORDERED)
                    .compression(Compression.BF16).errorFeedback(fb == 1).build())) {
                float[] v = new float[1000];
                double[] acc = new double[v.length];
                float[] base = new float[v.length];
                for (int i = 0; i < v.length; i++) {
                    base[i] = 1.0f + i * 1e-4f + rank() * 1e-5f;
                }
                int steps = 64;
                for (int s = 0; s < steps; s++) {
                    System.arraycopy(base, 0, v, 0, v.length);
                    r.submit("fb", v).get(60, TimeUnit.SECONDS);
                    for (int i = 0; i < v.length; i++) {
                        acc[i] += v[i];
                    }
                }
                float[][] bases = gatherAll(base);
                for (int i = 0; i < v.length; i++) {
                    double exact = 0;
                    for (float[] b : bases) {
                        exact += b[i];
                    }
                    meanError[fb] += Math.abs(acc[i] / steps - exact / p) / v.length;
                }
            }
        }
        assertThat(meanError[1]).as("mean error with feedback against without: %s", java.util.Arrays.toString(
                meanError)).isLessThan(meanError[0] * 0.75);
    }

    static void mismatchedTensorsFailOnEveryRankWithoutHanging() throws Exception {
        int p = size();
        try (GradientReducer r = GradientReducer.create(MPI.COMM_WORLD, quick().build())) {
            float[] good = {1};
            // rank 0 submits 3 floats, the others 4 (with 1 rank: the op differs from the other tensors' instead)
            CompletableFuture<float[]> bad = r.submit("fc1.weight", new float[rank() == 0 ? 3 : 4],
                    p > 1 ? ReduceOp.SUM : ReduceOp.AVERAGE);
            CompletableFuture<float[]> ok = r.submit("good", good, ReduceOp.SUM);
            assertThat(ok.get(60, TimeUnit.SECONDS)[0]).isEqualTo(p);
            if (p > 1) {
                assertThatThrownBy(() -> bad.get(60, TimeUnit.SECONDS)).cause().isInstanceOf(ReducerException.class)
                        .hasMessageContaining("tensor 'fc1.weight'").hasMessageContaining("rank(s) [0]: 3 x float32")
                        .hasMessageContaining("4 x float32");
            } else {
                bad.get(60, TimeUnit.SECONDS);
            }
            // the name is free again, and the reducer still works
            float[] again = {2};
            r.submit("fc1.weight", again, ReduceOp.SUM).get(60, TimeUnit.SECONDS);
            assertThat(again[0]).isEqualTo(2 * p);
        }
    }

    static void stallsAreReportedAndCanFail() throws Exception {
        int p = size();
        if (p == 1) {
            return;
        }
        List<String> warnings = new CopyOnWriteArrayList<>();
        CountDownLatch warned = new CountDownLatch(1);
        try (GradientReducer r = GradientReducer.create(MPI.COMM_WORLD, quick().stallWarning(Duration.ofMillis(100))
                .warnings(w -> {
                    warnings.add(w);
                    warned.countDown();
                }).build())) {
            float[] t = {1};
            CompletableFuture<float[]> f = null;
            if (rank() == 0) {
                f = r.submit("late", t, ReduceOp.SUM);
                assertThat(warned.await(60, TimeUnit.SECONDS)).as("a stall warning").isTrue();
                assertThat(warnings.get(0)).contains("tensor 'late'").contains("submitted by rank(s) [0]")
                        .contains("not yet by rank(s) [1" + (p > 2 ? ", 2" : "") + (p > 3 ? ", 3" : "") + "]");
            }
            MPI.COMM_WORLD.barrier(); // the others submit only after rank 0 saw the warning
            if (rank() != 0) {
                f = r.submit("late", t, ReduceOp.SUM);
            }
            assertThat(f.get(60, TimeUnit.SECONDS)[0]).isEqualTo(p);
        }
        try (GradientReducer r = GradientReducer.create(MPI.COMM_WORLD,
                quick().stallShutdown(Duration.ofMillis(200)).build())) {
            if (rank() == 1) {
                CompletableFuture<float[]> never = r.submit("never", new float[2], ReduceOp.SUM);
                assertThatThrownBy(() -> never.get(60, TimeUnit.SECONDS)).cause()
                        .isInstanceOf(ReducerException.class).hasMessageContaining("tensor 'never' stalled")
                        .hasMessageContaining("not submitted by rank(s) [0");
            }
            MPI.COMM_WORLD.barrier(); // nobody closes (which would fail the tensor differently) before rank 1 saw it
        }
    }

    static void joinedRanksContributeZerosAndAreNotCounted() throws Exception {
        int p = size();
        try (GradientReducer r = GradientReducer.create(MPI.COMM_WORLD, quick().build())) {
            // rank k has k + 1 batches: in step s the ranks >= s contribute; the average is over those only.
            for (int s = 0; s < p; s++) {
                if (rank() >= s) {
                    float[] g = {rank() + 1, 1};
                    float[] sum = {rank() + 1};
                    var fa = r.submit("g", g);
                    var fs = r.submit("sum", sum, ReduceOp.SUM);
                    CompletableFuture.allOf(fa, fs).get(60, TimeUnit.SECONDS);
                    float expectedSum = 0;
                    for (int q = s; q < p; q++) {
                        expectedSum += q + 1;
                    }
                    assertThat(sum[0]).as("step %d sum", s).isEqualTo(expectedSum);
                    assertThat(g[0]).as("step %d average", s).isCloseTo(expectedSum / (p - s), within(1e-5f));
                    assertThat(g[1]).isEqualTo(1);
                }
                if (rank() == s) {
                    int last = r.join();
                    assertThat(last).isEqualTo(p - 1);
                }
            }
            // after the join every rank reduces normally again
            float[] one = {1};
            r.submit("after", one, ReduceOp.SUM).get(60, TimeUnit.SECONDS);
            assertThat(one[0]).isEqualTo(p);
        }
    }

    static void timelineIsValidJsonWithEveryPhase() throws Exception {
        Path dir = Path.of(System.getProperty("java.io.tmpdir"));
        String id = shared("jmpi-dl-timeline-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
        Path file = dir.resolve(id + "-{rank}.json");
        try (GradientReducer r = GradientReducer.create(MPI.COMM_WORLD, quick().timeline(file).build())) {
            for (int step = 0; step < 3; step++) {
                List<CompletableFuture<float[]>> fs = new ArrayList<>();
                for (int i = 0; i < 5; i++) {
                    fs.add(r.submit("p" + i, new float[100 * (i + 1)]));
                }
                CompletableFuture.allOf(fs.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            }
        }
        Path mine = dir.resolve(id + "-" + rank() + ".json");
        try {
            JsonNode events = new ObjectMapper().readTree(mine.toFile());
            assertThat(events.isArray()).isTrue();
            Set<String> phases = new HashSet<>();
            Set<String> tracks = new HashSet<>();
            int fused = 0;
            for (JsonNode e : events) {
                assertThat(e.get("pid").asInt()).isEqualTo(rank());
                if (e.get("ph").asText().equals("M")) {
                    tracks.add(e.get("args").get("name").asText());
                } else {
                    assertThat(e.get("ph").asText()).isEqualTo("X");
                    assertThat(e.get("dur").asLong()).isNotNegative();
                    assertThat(e.get("ts").asLong()).isPositive();
                    if (e.get("tid").asInt() == 0) {
                        fused++;
                        assertThat(e.get("args").get("bytes").asLong()).isPositive();
                    } else {
                        phases.add(e.get("name").asText());
                    }
                }
            }
            assertThat(tracks).contains("rank " + rank(), "fused buffers", "p0", "p1", "p2", "p3", "p4");
            assertThat(phases).contains("NEGOTIATE", "COPY_IN", "ALLREDUCE", "COPY_OUT");
            assertThat(fused).isBetween(3, 15);
        } finally {
            Files.deleteIfExists(mine);
        }
    }

    /** Rank 0's string on every rank. */
    static String shared(String s) throws MPIException {
        byte[] b = new byte[200];
        byte[] mine = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        System.arraycopy(mine, 0, b, 0, mine.length);
        MPI.COMM_WORLD.bcast(b, b.length, MPI.BYTE, 0);
        return new String(b, java.nio.charset.StandardCharsets.UTF_8).trim();
    }

    static void badInput() throws Exception {
        assertThatThrownBy(() -> GradientReducer.create(MPI.COMM_WORLD,
                quick().timeline(Path.of("/proc/no-such-dir/t.json")).build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("/proc/no-such-dir");
        GradientReducer r = GradientReducer.create(MPI.COMM_WORLD, quick().build());
        try {
            assertThatThrownBy(() -> r.submit("", new float[1])).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> r.submit("x".repeat(2000), new float[1]))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> r.submit("ro", FloatBuffer.wrap(new float[2]).asReadOnlyBuffer(), ReduceOp.SUM,
                    Compression.NONE)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("read-only");
            assertThatThrownBy(() -> r.submit("odd", MemorySegment.ofArray(new byte[6]), ReduceOp.SUM,
                    Compression.NONE)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("6 bytes");
            try (Arena confined = Arena.ofConfined()) {
                MemorySegment c = confined.allocate(16);
                assertThatThrownBy(() -> r.submit("confined", c, ReduceOp.SUM, Compression.NONE))
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Arena.ofShared()");
            }
            if (size() > 1) {
                // A name in flight cannot be submitted again. "twiceA" stays in flight until rank 0 submits it after
                // the barrier, "twiceB" until the last rank does: every rank checks one that surely waits.
                CompletableFuture<float[]> fa = null;
                CompletableFuture<float[]> fb = null;
                if (rank() != 0) {
                    fa = r.submit("twiceA", new float[4]);
                    assertThatThrownBy(() -> r.submit("twiceA", new float[4]))
                            .isInstanceOf(IllegalStateException.class).hasMessageContaining("already in flight");
                }
                if (rank() != size() - 1) {
                    fb = r.submit("twiceB", new float[4]);
                    assertThatThrownBy(() -> r.submit("twiceB", new float[4]))
                            .isInstanceOf(IllegalStateException.class).hasMessageContaining("already in flight");
                }
                MPI.COMM_WORLD.barrier();
                if (rank() == 0) {
                    fa = r.submit("twiceA", new float[4]);
                }
                if (rank() == size() - 1) {
                    fb = r.submit("twiceB", new float[4]);
                }
                fa.get(60, TimeUnit.SECONDS);
                fb.get(60, TimeUnit.SECONDS);
            }
            assertThatThrownBy(() -> r.broadcast(new float[1], size())).isInstanceOf(IllegalArgumentException.class);
        } finally {
            r.close();
        }
        assertThatThrownBy(() -> r.submit("late", new float[1])).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        r.close(); // a second close does nothing
        // the caller's communicator is untouched and usable
        Intracomm w = MPI.COMM_WORLD;
        int[] one = {1};
        w.allReduce(one, 1, MPI.INT, MPI.SUM);
        assertThat(one[0]).isEqualTo(size());
    }
}
