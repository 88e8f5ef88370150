package org.jmpi.dl.djl.examples;

import ai.djl.Model;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.core.Linear;
import ai.djl.training.DefaultTrainingConfig;
import ai.djl.training.GradientCollector;
import ai.djl.training.Trainer;
import ai.djl.training.loss.Loss;
import ai.djl.training.optimizer.Optimizer;
import ai.djl.training.tracker.Tracker;
import java.nio.FloatBuffer;
import java.util.Locale;
import mpi.MPI;
import mpi.MPIException;
import org.jmpi.dl.GradientReducer;
import org.jmpi.dl.data.Dataset;
import org.jmpi.dl.data.FashionMnist;
import org.jmpi.dl.djl.DjlReducer;
import org.jmpi.dl.examples.ExampleStart;

/**
 * Trains a DJL multi-layer perceptron (784-128-10, ReLU) on Fashion-MNIST, data-parallel over the ranks.
 *
 * <pre>
 * ./mvnw -q -pl jmpi-dl-djl package dependency:build-classpath -DskipTests -Dmdep.outputFile=target/run.cp
 * cd jmpi-dl-djl
 * jmpirun -n 2 --jvm-arg=--enable-native-access=ALL-UNNAMED -x DJL_CACHE_DIR=$PWD/target/djl-cache \
 *     -cp target/jmpi-dl-djl-0.1.0-SNAPSHOT.jar:$(cat target/run.cp) \
 *     org.jmpi.dl.djl.examples.DjlFashionMnist --epochs 2
 * </pre>
 *
 * <p>The class path holds jmpi-dl-djl, jmpi-dl, DJL's {@code ai.djl:api} and an engine: for PyTorch on CPU
 * {@code pytorch-engine}, {@code pytorch-jni} and {@code pytorch-native-cpu} (classifier {@code linux-x86_64}). The
 * module's test class path, built above, has them (and test libraries, which do no harm).
 * Every global mini-batch of {@code --batch} images (from one shuffled order that every rank draws with the same
 * seed) is split between the ranks; each rank runs forward and backward passes on its share, the
 * {@link DjlReducer} averages the gradients over the ranks, and every rank takes the same optimizer step.
 *
 * <p>Each rank limits PyTorch to one intra-op and one inter-op thread ({@code ai.djl.pytorch.num_threads},
 * {@code ai.djl.pytorch.num_interop_threads}), so that ranks sharing a machine do not fight over its cores: set
 * these system properties to change that. DJL runs offline ({@code ai.djl.offline=true}) unless told otherwise:
 * the engine's native libraries come from the class path, unpacked into {@code DJL_CACHE_DIR} (default
 * {@code ~/.djl.ai}, about 430 MB for PyTorch) on first use.
 *
 * <p>Options: {@code --epochs N} (2), {@code --batch B} (64, global), {@code --optimizer sgd|adam} (sgd),
 * {@code --lr X} (0.05 for SGD with momentum 0.9, 0.001 for Adam), {@code --seed S} (1), {@code --train-limit N}
 * (all 60,000 images). The last line printed by rank 0 is a summary:
 * {@code result mode=djl ranks=... epochs=... accuracy=... images_per_second=... seconds=...}.
 */
public final class DjlFashionMnist {
    private DjlFashionMnist() {}

    /** Parsed command line. */
    public record Settings(int epochs, int batch, String optimizer, float lr, long seed, int trainLimit) {
        /** Parses the options above. */
        public static Settings parse(String... args) {
            int epochs = 2;
            int batch = 64;
            String optimizer = "sgd";
            float lr = Float.NaN;
            long seed = 1;
            int limit = Integer.MAX_VALUE;
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("option " + a + " needs a value");
                }
                String v = args[++i];
                switch (a) {
                    case "--epochs" -> epochs = positive(a, Integer.parseInt(v));
                    case "--batch" -> batch = positive(a, Integer.parseInt(v));
                    case "--optimizer" -> optimizer = switch (v) {
                        case "sgd", "adam" -> v;
                        default -> throw new IllegalArgumentException("--optimizer is sgd or adam, not " + v);
                    };
                    case "--lr" -> lr = Float.parseFloat(v);
                    case "--seed" -> seed = Long.parseLong(v);
                    case "--train-limit" -> limit = positive(a, Integer.parseInt(v));
                    default -> throw new IllegalArgumentException("unknown option " + a);
                }
            }
            if (Float.isNaN(lr)) {
                lr = optimizer.equals("adam") ? 0.001f : 0.05f;
            }
            return new Settings(epochs, batch, optimizer, lr, seed, limit);
        }

        private static int positive(String option, int v) {
            if (v <= 0) {
                throw new IllegalArgumentException(option + " must be positive, got " + v);
            }
            return v;
        }
    }

    /**
     * What a run ends with, on every rank.
     *
     * @param accuracy        test accuracy after the last epoch, in [0, 1] (measured on rank 0 only; NaN elsewhere)
     * @param imagesPerSecond training images per second of training time, all ranks together
     * @param seconds         training time (without the tests of each epoch)
     * @param parameters      the final values of every parameter, concatenated in the model's order
     */
    public record Result(double accuracy, double imagesPerSecond, double seconds, float[] parameters) {}

    public static void main(String[] args) throws Exception {
        defaultProperty("ai.djl.offline", "true");
        limitThreads();
        ExampleStart.Loaded<Settings> run = ExampleStart.start("DjlFashionMnist", args, Settings::parse,
                Settings::trainLimit);
        Settings s = run.settings();
        Dataset train = run.train();
        Dataset test = run.test();
        train(s, train, test, true);
        MPI.Finalize();
    }

    /**
     * One intra-op and one inter-op thread for PyTorch, unless set otherwise. Call it before DJL loads its engine.
     */
    public static void limitThreads() {
        defaultProperty("ai.djl.pytorch.num_threads", "1");
        defaultProperty("ai.djl.pytorch.num_interop_threads", "1");
    }

    private static void defaultProperty(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }

    /** The network: 784 inputs, 128 ReLU units, 10 outputs (logits). */
    static SequentialBlock network() {
        return new SequentialBlock()
                .add(Linear.builder().setUnits(128).build())
                .add(Activation::relu)
                .add(Linear.builder().setUnits(FashionMnist.CLASSES).build());
    }

    /** Trains on {@code train} with MPI.COMM_WORLD's ranks; collective. Rank 0 prints progress if {@code print}. */
    public static Result train(Settings s, Dataset train, Dataset test, boolean print) throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int pixels = train.pixels();
        int steps = (train.size() + s.batch() - 1) / s.batch();
        int maxShare = (s.batch() + size - 1) / size;
        float[] x = new float[maxShare * pixels];
        float[] y = new float[maxShare];
        Engine.getInstance().setRandomSeed((int) s.seed());
        Optimizer optimizer = s.optimizer().equals("adam")
                ? Optimizer.adam().optLearningRateTracker(Tracker.fixed(s.lr())).build()
                : Optimizer.sgd().setLearningRateTracker(Tracker.fixed(s.lr())).optMomentum(0.9f).build();
        DefaultTrainingConfig config = new DefaultTrainingConfig(Loss.softmaxCrossEntropyLoss())
                .optOptimizer(optimizer);
        double seconds = 0;
        double accuracy = Double.NaN;
        try (GradientReducer reducer = GradientReducer.create(MPI.COMM_WORLD);
                Model model = Model.newInstance("mlp")) {
            SequentialBlock net = network();
            model.setBlock(net);
            try (Trainer trainer = model.newTrainer(config)) {
                trainer.initialize(new Shape(1, pixels));
                DjlReducer djl = new DjlReducer(reducer);
                djl.broadcastParameters(net, 0); // the same start everywhere, whatever the seeds
                if (print && rank == 0) {
                    System.out.printf(Locale.ROOT, "training DJL %s %s on %d rank(s): %d images, global batch %d,"
                            + " %d epochs, %s lr %s; PyTorch threads %s intra-op, %s inter-op%n",
                            Engine.getInstance().getEngineName(), Engine.getInstance().getVersion(), size,
                            train.size(), s.batch(), s.epochs(), s.optimizer(), s.lr(),
                            System.getProperty("ai.djl.pytorch.num_threads", "default"),
                            System.getProperty("ai.djl.pytorch.num_interop_threads", "default"));
                }
                for (int epoch = 1; epoch <= s.epochs(); epoch++) {
                    int[] order = train.shuffledIndices(s.seed() * 1000 + epoch);
                    long t0 = System.nanoTime();
                    double lossSum = 0;
                    for (int step = 0; step < steps; step++) {
                        int from = step * s.batch();
                        int to = Math.min(train.size(), from + s.batch());
                        int global = to - from;
                        int myFrom = from + (int) ((long) global * rank / size);
                        int myTo = from + (int) ((long) global * (rank + 1) / size);
                        int n = myTo - myFrom;
                        if (n == 0) {
                            throw new IllegalStateException("a batch of " + global + " images for " + size
                                    + " ranks: use a larger --batch");
                        }
                        for (int k = 0; k < n; k++) {
                            int image = order[myFrom + k];
                            System.arraycopy(train.images(), image * pixels, x, k * pixels, pixels);
                            y[k] = train.labels()[image];
                        }
                        try (NDManager batch = model.getNDManager().newSubManager()) {
                            NDArray input = batch.create(FloatBuffer.wrap(x, 0, n * pixels), new Shape(n, pixels));
                            NDArray labels = batch.create(FloatBuffer.wrap(y, 0, n), new Shape(n));
                            try (GradientCollector collector = trainer.newGradientCollector()) {
                                NDArray logits = trainer.forward(new NDList(input)).singletonOrThrow();
                                NDArray loss = trainer.getLoss().evaluate(new NDList(labels), new NDList(logits));
                                collector.backward(loss);
                                lossSum += loss.getFloat();
                            }
                        }
                        djl.allreduceGradients(net);
                        trainer.step();
                    }
                    double epochSeconds = (System.nanoTime() - t0) / 1e9;
                    seconds += epochSeconds;
                    double[] losses = reducer.allgather(lossSum / steps);
                    double loss = 0;
                    for (double l : losses) {
                        loss += l / size;
                    }
                    if (rank == 0) {
                        accuracy = accuracy(trainer, test);
                        if (print) {
                            System.out.printf(Locale.ROOT, "epoch %d: loss %.4f, test accuracy %.2f %%, %.2f s,"
                                    + " %.0f images/s%n", epoch, loss, 100 * accuracy, epochSeconds,
                                    train.size() / epochSeconds);
                        }
                    }
                }
                float[] parameters = parameters(net);
                double imagesPerSecond = (double) train.size() * s.epochs() / seconds;
                if (print && rank == 0) {
                    System.out.printf(Locale.ROOT, "reducer: %s%n", reducer.stats());
                    System.out.printf(Locale.ROOT, "result mode=djl ranks=%d epochs=%d accuracy=%.2f"
                            + " images_per_second=%.0f seconds=%.2f%n", size, s.epochs(), 100 * accuracy,
                            imagesPerSecond, seconds);
                }
                return new Result(accuracy, imagesPerSecond, seconds, parameters);
            }
        }
    }

    /** The fraction of {@code test} the model classifies right. */
    static double accuracy(Trainer trainer, Dataset test) {
        int pixels = test.pixels();
        int chunk = 1000;
        long right = 0;
        for (int from = 0; from < test.size(); from += chunk) {
            int n = Math.min(chunk, test.size() - from);
            try (NDManager m = trainer.getManager().newSubManager()) {
                NDArray input = m.create(FloatBuffer.wrap(test.images(), from * pixels, n * pixels),
                        new Shape(n, pixels));
                NDArray predicted = trainer.evaluate(new NDList(input)).singletonOrThrow().argMax(1)
                        .toType(DataType.INT32, false);
                int[] classes = predicted.toIntArray();
                for (int k = 0; k < n; k++) {
                    if (classes[k] == test.labels()[from + k]) {
                        right++;
                    }
                }
            }
        }
        return (double) right / test.size();
    }

    /** Every parameter's values, concatenated in the block's order. */
    static float[] parameters(SequentialBlock net) {
        int total = 0;
        for (var p : net.getParameters()) {
            total += Math.toIntExact(p.getValue().getArray().size());
        }
        float[] all = new float[total];
        int at = 0;
        for (var p : net.getParameters()) {
            float[] v = p.getValue().getArray().toFloatArray();
            System.arraycopy(v, 0, all, at, v.length);
            at += v.length;
        }
        return all;
    }
}
