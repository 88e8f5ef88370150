package org.jmpi.dl.examples;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import mpi.MPI;
import mpi.MPIException;
import org.jmpi.dl.GradientReducer;
import org.jmpi.dl.ReduceOp;
import org.jmpi.dl.ReducerOptions;
import org.jmpi.dl.data.Dataset;
import org.jmpi.dl.data.FashionMnist;
import org.jmpi.dl.nn.Mlp;
import org.jmpi.dl.nn.Parameter;
import org.jmpi.dl.nn.Sgd;
import org.jmpi.dl.ps.ParameterServer;

/**
 * Trains a multi-layer perceptron on Fashion-MNIST, data-parallel over the ranks.
 *
 * <pre>
 * jmpirun -n 4 -cp lib/jmpi-dl.jar org.jmpi.dl.examples.FashionMnistTraining --epochs 3
 * </pre>
 *
 * <p>Every global mini-batch of {@code --batch} images (from one shuffled order that every rank draws with the same
 * seed) is split between the ranks; each rank back-propagates its share and submits each gradient to the
 * {@link GradientReducer} as soon as it is final (output layer first), scaled by its share of the batch, so that the
 * summed result is exactly the gradient of the whole global batch; then every rank takes the same SGD step. Training
 * on any number of ranks therefore follows the one-rank run up to float rounding, and reaches the same accuracy after
 * the same number of epochs. The learning rate falls linearly from {@code --lr} to 0 over the run.
 *
 * <p>With {@code --mode ps} the same network is trained by asynchronous SGD through a
 * {@link ParameterServer}: {@code --servers} ranks hold the parameters, the others push gradients and pull values.
 *
 * <p>Options: {@code --epochs N} (3), {@code --batch B} (64, global), {@code --lr X} (0.05), {@code --momentum X}
 * (0.9), {@code --layers 784,128,10}, {@code --seed S} (1), {@code --train-limit N} (all 60,000 images),
 * {@code --mode allreduce|ps}, {@code --servers K} (1). Reducer settings come from the {@code JMPI_DL_*} environment
 * variables ({@link ReducerOptions}). The last line printed by rank 0 is a summary:
 * {@code result mode=... ranks=... epochs=... accuracy=... images_per_second=... seconds=...}.
 */
public final class FashionMnistTraining {
    private FashionMnistTraining() {}

    /** Parsed command line. */
    record Settings(int epochs, int batch, float lr, float momentum, int[] layers, long seed, int trainLimit,
            String mode, int servers, boolean overlap) {
        static Settings parse(String[] args) {
            int epochs = 3;
            int batch = 64;
            float lr = 0.05f;
            float momentum = 0.9f;
            int[] layers = {FashionMnist.PIXELS, 128, FashionMnist.CLASSES};
            long seed = 1;
            int limit = Integer.MAX_VALUE;
            String mode = "allreduce";
            int servers = 1;
            boolean overlap = false;
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("option " + a + " needs a value");
                }
                String v = args[++i];
                switch (a) {
                    case "--epochs" -> epochs = positive(a, Integer.parseInt(v));
                    case "--batch" -> batch = positive(a, Integer.parseInt(v));
                    case "--lr" -> lr = Float.parseFloat(v);
                    case "--momentum" -> momentum = Float.parseFloat(v);
                    case "--layers" -> layers = Arrays.stream(v.split(",")).mapToInt(Integer::parseInt).toArray();
                    case "--seed" -> seed = Long.parseLong(v);
                    case "--train-limit" -> limit = positive(a, Integer.parseInt(v));
                    case "--mode" -> mode = switch (v) {
                        case "allreduce", "ps" -> v;
                        default -> throw new IllegalArgumentException("--mode is allreduce or ps, not " + v);
                    };
                    case "--servers" -> servers = positive(a, Integer.parseInt(v));
                    case "--overlap" -> overlap = Boolean.parseBoolean(v);
                    default -> throw new IllegalArgumentException("unknown option " + a);
                }
            }
            if (layers.length < 2 || layers[0] != FashionMnist.PIXELS || layers[layers.length - 1]
                    != FashionMnist.CLASSES) {
                throw new IllegalArgumentException("--layers must start with 784 and end with 10");
            }
            return new Settings(epochs, batch, lr, momentum, layers, seed, limit, mode, servers, overlap);
        }

        private static int positive(String option, int v) {
            if (v <= 0) {
                throw new IllegalArgumentException(option + " must be positive, got " + v);
            }
            return v;
        }
    }

    public static void main(String[] args) throws Exception {
        ExampleStart.Loaded<Settings> run = ExampleStart.start("FashionMnistTraining", args, Settings::parse,
                Settings::trainLimit);
        Settings s = run.settings();
        Dataset train = run.train();
        Dataset test = run.test();
        if (s.mode().equals("ps")) {
            parameterServer(s, train, test);
        } else {
            allreduce(s, train, test);
        }
        MPI.Finalize();
    }

    /** What a training run ends with (on rank 0 in all-reduce mode, on worker 0 in parameter-server mode). */
    record Result(double accuracy, double imagesPerSecond, double seconds, Mlp model) {}

    static Result allreduce(Settings s, Dataset train, Dataset test) throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Mlp model = new Mlp(s.layers(), s.seed());
        List<Parameter> params = model.parameters();
        Sgd sgd = new Sgd(s.lr(), s.momentum(), 0f);
        int steps = (train.size() + s.batch() - 1) / s.batch();
        long totalSteps = (long) steps * s.epochs();
        long done = 0;
        double seconds = 0;
        double accuracy = 0;
        try (GradientReducer reducer = GradientReducer.create(MPI.COMM_WORLD)) {
            for (Parameter p : params) {
                reducer.broadcast(p.values(), 0); // the same start everywhere, whatever the seeds
            }
            if (rank == 0) {
                System.out.printf(Locale.ROOT, "training %s on %d rank(s): %d images, global batch %d, %d epochs;"
                        + " reducer %s, algorithm %s%n", Arrays.toString(s.layers()), size, train.size(), s.batch(),
                        s.epochs(), reducer.options(), reducer.algorithm());
            }
            List<CompletableFuture<float[]>> pending = new ArrayList<>();
            for (int epoch = 1; epoch <= s.epochs(); epoch++) {
                int[] order = train.shuffledIndices(s.seed() * 1000 + epoch);
                long t0 = System.nanoTime();
                double lossSum = 0;
                long computeNanos = 0;
                long waitNanos = 0;
                for (int step = 0; step < steps; step++) {
                    int from = step * s.batch();
                    int to = Math.min(train.size(), from + s.batch());
                    int global = to - from;
                    int myFrom = from + (int) ((long) global * rank / size);
                    int myTo = from + (int) ((long) global * (rank + 1) / size);
                    sgd.learningRate(s.lr() * (1 - (float) done / totalSteps));
                    pending.clear();
                    long c0 = System.nanoTime();
                    if (myTo > myFrom) {
                        float share = (float) (myTo - myFrom) / global;
                        float loss;
                        if (s.overlap()) {
                            // each gradient goes to the reducer as soon as back-propagation has it
                            loss = model.trainStep(train.images(), train.labels(), order, myFrom, myTo, p -> {
                                scale(p.gradients(), share);
                                pending.add(reducer.submit(p.name(), p.gradients(), ReduceOp.SUM));
                            });
                        } else {
                            loss = model.trainStep(train.images(), train.labels(), order, myFrom, myTo);
                            for (int i = params.size() - 1; i >= 0; i--) {
                                Parameter p = params.get(i);
                                scale(p.gradients(), share);
                                pending.add(reducer.submit(p.name(), p.gradients(), ReduceOp.SUM));
                            }
                        }
                        lossSum += loss * share;
                    } else {
                        for (Parameter p : params) { // more ranks than images in this batch: contribute zeros
                            Arrays.fill(p.gradients(), 0f);
                            pending.add(reducer.submit(p.name(), p.gradients(), ReduceOp.SUM));
                        }
                    }
                    long c1 = System.nanoTime();
                    for (CompletableFuture<float[]> f : pending) {
                        GradientReducer.synchronize(f);
                    }
                    long c2 = System.nanoTime();
                    computeNanos += c1 - c0;
                    waitNanos += c2 - c1;
                    sgd.step(params);
                    done++;
                }
                double epochSeconds = (System.nanoTime() - t0) / 1e9;
                seconds += epochSeconds;
                double[] perRank = reducer.allgather(lossSum, computeNanos / 1e6 / steps, waitNanos / 1e6 / steps);
                double loss = 0;
                StringBuilder times = new StringBuilder();
                for (int r = 0; r < size; r++) {
                    loss += perRank[3 * r] / steps;
                    times.append(String.format(Locale.ROOT, "%s%.2f/%.2f", r == 0 ? "" : " ", perRank[3 * r + 1],
                            perRank[3 * r + 2]));
                }
                accuracy = model.accuracy(test);
                if (rank == 0) {
                    System.out.printf(Locale.ROOT, "epoch %d: loss %.4f, test accuracy %.2f %%, %.2f s, %.0f images/s"
                            + " (ms per step, back-propagation/waiting for the reducer, by rank: %s)%n", epoch, loss,
                            100 * accuracy, epochSeconds, train.size() / epochSeconds, times);
                }
            }
            if (rank == 0) {
                System.out.printf(Locale.ROOT, "reducer: %s%n", reducer.stats());
            }
        }
        if (rank == 0) {
            System.out.printf(Locale.ROOT, "result mode=allreduce ranks=%d epochs=%d accuracy=%.2f"
                    + " images_per_second=%.0f seconds=%.2f%n", size, s.epochs(), 100 * accuracy,
                    (double) train.size() * s.epochs() / seconds, seconds);
        }
        return new Result(accuracy, train.size() * s.epochs() / seconds, seconds, model);
    }

    static void scale(float[] a, float f) {
        if (f != 1f) {
            for (int i = 0; i < a.length; i++) {
                a[i] *= f;
            }
        }
    }

    /** Null on the servers. */
    static Result parameterServer(Settings s, Dataset train, Dataset test) throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Mlp model = new Mlp(s.layers(), s.seed());
        List<Parameter> params = model.parameters();
        if (size <= s.servers()) {
            throw new IllegalArgumentException("--mode ps needs more ranks than --servers " + s.servers());
        }
        int workers = size - s.servers();
        try (ParameterServer ps = ParameterServer.create(MPI.COMM_WORLD, s.servers(), params)) {
            if (ps.isServer()) {
                // Each update applies one worker's gradient of batch / workers images: the rate is scaled to match,
                // and falls linearly to 0 over the expected number of updates.
                long total = (long) s.epochs() * ((train.size() + s.batch() - 1) / s.batch()) * workers;
                Sgd sgd = new Sgd(s.lr() / workers, s.momentum(), 0f);
                ps.serve(sgd, u -> sgd.learningRate(s.lr() / workers * Math.max(0f, 1 - (float) u / total)));
                return null;
            }
            int w = ps.workerIndex();
            int local = Math.max(1, s.batch() / workers);
            long t0 = System.nanoTime();
            for (int epoch = 1; epoch <= s.epochs(); epoch++) {
                int[] order = train.shuffledIndices(s.seed() * 1000 + epoch);
                // worker w takes the w-th share of every global batch
                for (int from = 0; from < train.size(); from += s.batch()) {
                    int to = Math.min(train.size(), from + s.batch());
                    int myFrom = from + (int) ((long) (to - from) * w / workers);
                    int myTo = from + (int) ((long) (to - from) * (w + 1) / workers);
                    if (myTo > myFrom) {
                        model.trainStep(train.images(), train.labels(), order, myFrom, myTo);
                        ps.pushPull();
                    }
                }
                if (w == 0) {
                    System.out.printf(Locale.ROOT, "epoch %d: test accuracy %.2f %% (worker 0's copy)%n", epoch,
                            100 * model.accuracy(test));
                }
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            ps.finish();
            double accuracy = model.accuracy(test);
            if (w == 0) {
                System.out.printf(Locale.ROOT, "result mode=ps ranks=%d servers=%d epochs=%d accuracy=%.2f"
                        + " images_per_second=%.0f seconds=%.2f local_batch=%d%n", size, s.servers(), s.epochs(),
                        100 * accuracy, (double) train.size() * s.epochs() / seconds, seconds, local);
            }
            return new Result(accuracy, train.size() * s.epochs() / seconds, seconds, model);
        }
    }
}
