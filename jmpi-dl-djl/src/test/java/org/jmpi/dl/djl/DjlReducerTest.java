package org.jmpi.dl.djl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ai.djl.Model;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.Parameter;
import ai.djl.nn.ParameterList;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.core.Linear;
import ai.djl.training.DefaultTrainingConfig;
import ai.djl.training.GradientCollector;
import ai.djl.training.Trainer;
import ai.djl.training.loss.Loss;
import ai.djl.training.optimizer.Optimizer;
import ai.djl.training.tracker.Tracker;
import ai.djl.util.Pair;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import mpi.MPI;
import mpi.MPIException;
import org.jmpi.dl.GradientReducer;
import org.jmpi.dl.ReducerOptions;
import org.jmpi.dl.data.Dataset;
import org.jmpi.dl.data.FashionMnist;
import org.jmpi.dl.djl.examples.DjlFashionMnist;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * The reducer with DJL's PyTorch engine on two ranks. Processes mode only: a native library loads in one class loader
 * per JVM, so in threads mode only the first rank's class loader gets PyTorch (the others fail with "libc10.so already
 * loaded in another classloader").
 */
class DjlReducerTest {
    // What each rank JVM needs besides the environment it inherits (DJL_CACHE_DIR, OMP_NUM_THREADS).
    static final String OFFLINE = "-Dai.djl.offline=true";
    static final String THREADS = "-Dai.djl.pytorch.num_threads=1";
    static final String INTEROP_THREADS = "-Dai.djl.pytorch.num_interop_threads=1";

    @MpiTest(ranks = 2, modes = Mode.PROCESSES, jvmArgs = {OFFLINE, THREADS, INTEROP_THREADS}, timeoutSeconds = 60)
    void gradientsAreAveragedAndParametersBroadcast() throws Exception {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        try (GradientReducer reducer = GradientReducer.create(MPI.COMM_WORLD, quick());
                Model model = Model.newInstance("net");
                NDManager manager = NDManager.newBaseManager()) {
            Engine.getInstance().setRandomSeed(100 + rank); // different initial values on every rank
            SequentialBlock net = new SequentialBlock()
                    .add(Linear.builder().setUnits(16).build())
                    .add(Activation::relu)
                    .add(Linear.builder().setUnits(3).build());
            model.setBlock(net);
            try (Trainer trainer = model.newTrainer(config())) {
                trainer.initialize(new Shape(1, 5));
                DjlReducer djl = new DjlReducer(reducer);

                // broadcast from the last rank: afterwards every rank holds its values
                int root = size - 1;
                List<float[]> mine = values(net.getParameters(), false);
                djl.broadcastParameters(net, root);
                List<float[]> after = values(net.getParameters(), false);
                for (int i = 0; i < after.size(); i++) {
                    float[][] all = gather(after.get(i));
                    for (int r = 0; r < size; r++) {
                        assertBitwise("parameter " + i + " of rank " + r + " after the broadcast", all[r], all[root]);
                    }
                    if (rank == root) {
                        assertBitwise("the root's parameter " + i, after.get(i), mine.get(i));
                    }
                }

                // per-rank data, so per-rank gradients; twice, to reuse the staging buffers
                for (int round = 0; round < 2; round++) {
                    backward(trainer, manager, 1000L * round + rank);
                    List<float[]> before = values(net.getParameters(), true);
                    List<float[]> weights = values(net.getParameters(), false);
                    djl.allreduceGradients(net);
                    List<float[]> averaged = values(net.getParameters(), true);
                    assertThat(averaged).hasSize(4);
                    for (int i = 0; i < before.size(); i++) {
                        float[][] all = gather(before.get(i));
                        float[] expected = new float[before.get(i).length];
                        for (float[] r : all) {
                            for (int j = 0; j < expected.length; j++) {
                                expected[j] += r[j] / size;
                            }
                        }
                        if (size > 1) {
                            assertThat(all[0]).as("ranks' gradients differ").isNotEqualTo(all[1]);
                        }
                        float[] got = averaged.get(i);
                        for (int j = 0; j < expected.length; j++) {
                            assertThat(got[j]).as("gradient %d[%d], round %d", i, j, round)
                                    .isCloseTo(expected[j], within(
                                            1e-6f + 1e-5f * Math.abs(expected[j])));
                        }
                        assertBitwise("rank 0's average of gradient " + i, gather(got)[0], got);
                        assertBitwise("weights " + i + " after the all-reduce", values(net.getParameters(), false)
                                .get(i), weights.get(i));
                    }
                    trainer.step();
                }

                // two different parameters under one name: refused on every rank before anything is sent
                ParameterList twice = new ParameterList();
                Pair<String, Parameter> first = net.getParameters().get(0);
                twice.add(first.getKey(), first.getValue());
                twice.add(first.getKey(), net.getParameters().get(2).getValue());
                assertThatThrownBy(() -> djl.allreduceGradients(twice))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("two different parameters are named '" + first.getKey() + "'");
                // the reducer still works after the refusal
                backward(trainer, manager, 7);
                djl.allreduceGradients(net);
            }
        }
    }

    @MpiTest(ranks = 2, modes = Mode.PROCESSES, jvmArgs = {OFFLINE, THREADS, INTEROP_THREADS}, timeoutSeconds = 90)
    void trainingKeepsTheRanksIdentical() throws Exception {
        assumeTrue(FashionMnist.available(),
                FashionMnist.defaultDirectory()
                        + " lacks Fashion-MNIST: apt-get install dataset-fashion-mnist (or set JMPI_DL_DATA)");
        DjlFashionMnist.Settings s = DjlFashionMnist.Settings.parse("--epochs", "1", "--train-limit", "6000");
        Dataset train = FashionMnist.train().slice(0, 6000);
        Dataset test = FashionMnist.test();
        DjlFashionMnist.Result r = DjlFashionMnist.train(s, train, test, false);
        float[][] all = gather(r.parameters());
        for (int rank = 1; rank < all.length; rank++) {
            assertBitwise("rank " + rank + "'s parameters after training, against rank 0's", all[rank], all[0]);
        }
        if (MPI.COMM_WORLD.getRank() == 0) {
            assertThat(r.accuracy()).as("test accuracy after one epoch of 6,000 images").isGreaterThan(0.7);
        }
    }

    static ReducerOptions quick() {
        return ReducerOptions.builder().cycleTime(Duration.ofMillis(1)).stallWarning(Duration.ZERO).build();
    }

    static DefaultTrainingConfig config() {
        return new DefaultTrainingConfig(Loss.softmaxCrossEntropyLoss())
                .optOptimizer(Optimizer.sgd().setLearningRateTracker(Tracker.fixed(0.1f)).build());
    }

    /** Forward and backward passes on 8 random samples drawn with {@code seed}. */
    static void backward(Trainer trainer, NDManager manager, long seed) {
        Random random = new Random(seed);
        float[] x = new float[8 * 5];
        float[] y = new float[8];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) random.nextGaussian();
        }
        for (int i = 0; i < y.length; i++) {
            y[i] = random.nextInt(3);
        }
        try (NDManager m = manager.newSubManager()) {
            NDArray input = m.create(x, new Shape(8, 5));
            NDArray labels = m.create(y, new Shape(8));
            try (GradientCollector collector = trainer.newGradientCollector()) {
                NDArray logits = trainer.forward(new NDList(input)).singletonOrThrow();
                collector.backward(trainer.getLoss().evaluate(new NDList(labels), new NDList(logits)));
            }
        }
    }

    /** Each parameter's values or gradient, as float arrays. */
    static List<float[]> values(ParameterList parameters, boolean gradients) {
        List<float[]> out = new ArrayList<>();
        for (Pair<String, Parameter> p : parameters) {
            NDArray a = p.getValue().getArray();
            assertThat(a.getDataType()).isEqualTo(DataType.FLOAT32);
            if (gradients) {
                try (NDArray g = a.getGradient()) {
                    out.add(g.toFloatArray());
                }
            } else {
                out.add(a.toFloatArray());
            }
        }
        return out;
    }

    /** Equal arrays, bit for bit (a quick check with a short message: the arrays are long). */
    static void assertBitwise(String what, float[] actual, float[] expected) {
        assertThat(actual.length).as(what + ": length").isEqualTo(expected.length);
        for (int i = 0; i < expected.length; i++) {
            if (Float.floatToRawIntBits(actual[i]) != Float.floatToRawIntBits(expected[i])) {
                throw new AssertionError(what + ": element " + i + " is " + actual[i] + ", expected " + expected[i]);
            }
        }
    }

    /** Every rank's copy of {@code mine}, by rank. */
    static float[][] gather(float[] mine) throws MPIException {
        int p = MPI.COMM_WORLD.getSize();
        float[] all = new float[mine.length * p];
        MPI.COMM_WORLD.allGather(mine, mine.length, MPI.FLOAT, all, mine.length, MPI.FLOAT);
        float[][] byRank = new float[p][mine.length];
        for (int r = 0; r < p; r++) {
            System.arraycopy(all, r * mine.length, byRank[r], 0, mine.length);
        }
        return byRank;
    }
}
