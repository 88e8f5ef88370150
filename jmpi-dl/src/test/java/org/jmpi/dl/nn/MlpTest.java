package org.jmpi.dl.nn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class MlpTest {
    private static final int[] TINY = {6, 5, 4, 3};

    @Test
    void namesTheParametersInLayerOrderWithPytorchStyleNames() {
        Mlp mlp = new Mlp(new int[] {784, 256, 128, 10}, 1);
        assertThat(mlp.parameters()).extracting(Parameter::name)
                .containsExactly("fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias", "fc3.weight", "fc3.bias");
        assertThat(mlp.parameters()).extracting(Parameter::size)
                .containsExactly(784 * 256, 256, 256 * 128, 128, 128 * 10, 10);
        assertThat(mlp.parameterCount()).isEqualTo(784 * 256 + 256 + 256 * 128 + 128 + 128 * 10 + 10);
        for (Parameter p : mlp.parameters()) {
            assertThat(p.gradients()).hasSameSizeAs(p.values());
        }
        // He initialisation: mean about 0, variance about 2 / fan-in.
        float[] w = mlp.parameters().get(0).values();
        double sum = 0;
        double squares = 0;
        for (float x : w) {
            sum += x;
            squares += x * x;
        }
        assertThat(sum / w.length).isCloseTo(0, within(0.001));
        assertThat(squares / w.length).isCloseTo(2.0 / 784, within(0.05 * 2.0 / 784));
        assertThat(mlp.parameters().get(1).values()).containsOnly(0f);
    }

    @Test
    void gradientsMatchFiniteDifferences() {
        int samples = 9;
        float[] inputs = randomInputs(samples, TINY[0], 7);
        int[] labels = new int[samples];
        for (int i = 0; i < samples; i++) {
            labels[i] = i % TINY[TINY.length - 1];
        }
        // Seven samples (not a multiple of four, one repeated) out of nine.
        int[] indices = {8, 0, 3, 3, 5, 1, 7, 2};
        int from = 1;
        int to = 8;
        Mlp mlp = new Mlp(TINY, 42);
        mlp.trainStep(inputs, labels, indices, from, to);
        List<float[]> analytic = new ArrayList<>();
        for (Parameter p : mlp.parameters()) {
            analytic.add(p.gradients().clone());
        }
        float epsilon = 1e-2f;
        int checked = 0;
        for (int q = 0; q < mlp.parameters().size(); q++) {
            Parameter p = mlp.parameters().get(q);
            float[] v = p.values();
            for (int i = 0; i < v.length; i++) {
                float saved = v[i];
                v[i] = saved + epsilon;
                double plus = mlp.trainStep(inputs, labels, indices, from, to);
                v[i] = saved - epsilon;
                double minus = mlp.trainStep(inputs, labels, indices, from, to);
                v[i] = saved;
                double numeric = (plus - minus) / (2 * epsilon);
                double exact = analytic.get(q)[i];
                assertThat(exact).as("%s[%d]", p.name(), i)
                        .isCloseTo(numeric, within(2e-3 + 2e-2 * Math.abs(numeric)));
                checked++;
            }
        }
        assertThat(checked).isEqualTo(6 * 5 + 5 + 5 * 4 + 4 + 4 * 3 + 3);
        // Gradients are overwritten, not accumulated: the same step again gives the same gradients.
        mlp.trainStep(inputs, labels, indices, from, to);
        for (int q = 0; q < mlp.parameters().size(); q++) {
            assertThat(mlp.parameters().get(q).gradients()).containsExactly(analytic.get(q));
        }
    }

    @Test
    void theSameSeedGivesBitIdenticalModelsAndSteps() {
        int[] sizes = {20, 16, 8, 4};
        int samples = 64;
        float[] inputs = randomInputs(samples, sizes[0], 3);
        int[] labels = new SplittableRandom(4).ints(samples, 0, 4).toArray();
        int[] order = new SplittableRandom(5).ints(samples, 0, samples).toArray();
        Mlp a = new Mlp(sizes, 99);
        Mlp b = new Mlp(sizes, 99);
        assertThat(new Mlp(sizes, 100).parameters().get(0).values()).isNotEqualTo(a.parameters().get(0).values());
        Sgd sgdA = new Sgd(0.1f, 0.9f, 1e-4f);
        Sgd sgdB = new Sgd(0.1f, 0.9f, 1e-4f);
        float first = 0;
        float last = 0;
        for (int step = 0; step < 8; step++) {
            int from = step * 8;
            float lossA = a.trainStep(inputs, labels, order, from, from + 8);
            float lossB = b.trainStep(inputs, labels, order, from, from + 8);
            assertThat(Float.floatToRawIntBits(lossA)).isEqualTo(Float.floatToRawIntBits(lossB));
            sgdA.step(a.parameters());
            sgdB.step(b.parameters());
            if (step == 0) {
                first = lossA;
            }
            last = lossA;
        }
        for (int q = 0; q < a.parameters().size(); q++) {
            assertThat(a.parameters().get(q).values()).containsExactly(b.parameters().get(q).values());
        }
        assertThat(last).isLessThan(first);
    }

    @Test
    void reportsEachGradientOnceFromTheLastLayerToTheFirst() {
        float[] inputs = randomInputs(4, TINY[0], 1);
        Mlp mlp = new Mlp(TINY, 1);
        List<String> order = new ArrayList<>();
        List<float[]> snapshots = new ArrayList<>();
        mlp.trainStep(inputs, new int[] {0, 1, 2, 0}, new int[] {0, 1, 2, 3}, 0, 4, p -> {
            order.add(p.name());
            snapshots.add(p.gradients().clone());
        });
        assertThat(order).containsExactly("fc3.bias", "fc3.weight", "fc2.bias", "fc2.weight", "fc1.bias",
                "fc1.weight");
        // Final when reported: unchanged at the end of the step.
        for (int i = 0; i < order.size(); i++) {
            Parameter p = mlp.parameters().get(mlp.parameters().size() - 1 - i);
            assertThat(p.name()).isEqualTo(order.get(i));
            assertThat(p.gradients()).containsExactly(snapshots.get(i));
        }
    }

    @Test
    void predictsTheClassItLearnt() {
        // Two well separated blobs: class 0 near (1, 0), class 1 near (0, 1).
        int samples = 200;
        float[] inputs = new float[samples * 2];
        int[] labels = new int[samples];
        SplittableRandom random = new SplittableRandom(8);
        for (int i = 0; i < samples; i++) {
            labels[i] = i % 2;
            inputs[2 * i + labels[i]] = 1f + (float) random.nextDouble(-0.2, 0.2);
            inputs[2 * i + 1 - labels[i]] = (float) random.nextDouble(0, 0.2);
        }
        Mlp mlp = new Mlp(new int[] {2, 8, 2}, 3);
        Sgd sgd = new Sgd(0.1f, 0.9f, 0);
        int[] all = new int[samples];
        for (int i = 0; i < samples; i++) {
            all[i] = i;
        }
        for (int epoch = 0; epoch < 5; epoch++) {
            for (int from = 0; from < samples; from += 20) {
                mlp.trainStep(inputs, labels, all, from, from + 20);
                sgd.step(mlp.parameters());
            }
        }
        assertThat(mlp.accuracy(inputs, labels)).isEqualTo(1.0);
        assertThat(mlp.predict(inputs, 10, 14)).containsExactly(0, 1, 0, 1);
    }

    private static float[] randomInputs(int samples, int width, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        float[] x = new float[samples * width];
        for (int i = 0; i < x.length; i++) {
            // A quarter exact zeros, as background pixels, to exercise the sparse loops.
            x[i] = random.nextInt(4) == 0 ? 0f : (float) random.nextDouble(-1, 1);
        }
        return x;
    }
}
