package org.jmpi.dl.nn;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import org.jmpi.dl.data.Dataset;
import org.jmpi.dl.data.FashionMnist;

/**
 * Trains an {@link Mlp} on Fashion-MNIST on one thread and prints, per epoch, the time, the images per second, the
 * mean training loss and the test accuracy. Not a test: a measurement to run by hand, e.g.
 * {@code java -cp target/classes:target/test-classes org.jmpi.dl.nn.TrainSingle 784,128,10 64 0.05 0.9 5}.
 *
 * <p>Arguments (all optional): layer sizes, batch size, learning rate, momentum, epochs, seed, and {@code linear}
 * for a learning rate falling linearly to 0 at the end (else constant). Each epoch visits the
 * 60,000 training images in the order {@code Dataset.shuffledIndices(seed + epoch)}.
 */
public final class TrainSingle {
    private TrainSingle() {
    }

    /**
     * @param args sizes batch learningRate momentum epochs seed [linear]
     * @throws IOException when the data set cannot be read
     */
    public static void main(String[] args) throws IOException {
        int[] sizes = Arrays.stream((args.length > 0 ? args[0] : "784,128,10").split(","))
                .mapToInt(Integer::parseInt).toArray();
        int batch = args.length > 1 ? Integer.parseInt(args[1]) : 64;
        float learningRate = args.length > 2 ? Float.parseFloat(args[2]) : 0.05f;
        float momentum = args.length > 3 ? Float.parseFloat(args[3]) : 0.9f;
        int epochs = args.length > 4 ? Integer.parseInt(args[4]) : 5;
        long seed = args.length > 5 ? Long.parseLong(args[5]) : 1;
        // Linear decay: the learning rate falls linearly from its initial value to 0 at the end of the last epoch.
        boolean linear = args.length > 6 && args[6].equals("linear");

        long t0 = System.nanoTime();
        Dataset train = FashionMnist.train();
        Dataset test = FashionMnist.test();
        System.out.printf("loaded %d + %d images in %.2f s; %s, batch %d, lr %s, momentum %s, seed %d%n",
                train.size(), test.size(), (System.nanoTime() - t0) / 1e9, Arrays.toString(sizes), batch,
                learningRate, momentum, seed);
        Mlp mlp = new Mlp(sizes, seed);
        Sgd sgd = new Sgd(learningRate, momentum, 0);
        double trainSeconds = 0;
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int epoch = 1; epoch <= epochs; epoch++) {
            int[] order = train.shuffledIndices(seed + epoch);
            double loss = 0;
            int steps = 0;
            long allocated = threads.getCurrentThreadAllocatedBytes();
            long start = System.nanoTime();
            for (int from = 0; from < order.length; from += batch) {
                if (linear) {
                    double done = (epoch - 1 + (double) from / order.length) / epochs;
                    sgd.learningRate((float) (learningRate * (1 - done)));
                }
                loss += mlp.trainStep(train.images(), train.labels(), order, from, Math.min(from + batch,
                        order.length));
                sgd.step(mlp.parameters());
                steps++;
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            allocated = threads.getCurrentThreadAllocatedBytes() - allocated;
            trainSeconds += seconds;
            long evalStart = System.nanoTime();
            double accuracy = mlp.accuracy(test);
            double evalSeconds = (System.nanoTime() - evalStart) / 1e9;
            System.out.printf("epoch %d: %.2f s (%.0f images/s, %d B allocated), loss %.4f, test accuracy %.2f %%"
                    + " (eval %.2f s)%n", epoch, seconds, order.length / seconds, allocated, loss / steps,
                    100 * accuracy, evalSeconds);
        }
        System.out.printf("total training %.1f s%n", trainSeconds);
    }
}
