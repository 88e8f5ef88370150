package org.jmpi.dl.nn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.jmpi.dl.data.Dataset;

/**
 * A multi-layer perceptron for classification: fully connected layers {@code fc1, fc2, ...} with ReLU between them,
 * softmax and cross-entropy loss on the last. Single-threaded and not thread-safe.
 *
 * <p>Layer {@code k} (from 1) maps {@code in = layerSizes[k - 1]} inputs to {@code out = layerSizes[k]} outputs; its
 * weight {@code "fck.weight"} is an {@code in x out} matrix (the transpose of PyTorch's layout: the weight from input
 * {@code i} to output {@code o} is at {@code i * out + o}, so that the inner loops run along contiguous rows) and its
 * bias {@code "fck.bias"} a vector of {@code out}. Weights start from He initialisation, normal with standard
 * deviation {@code sqrt(2 / in)} drawn from {@code new SplittableRandom(seed)}, biases at zero: two models built with
 * the same sizes and seed are bit-identical, and stay so under the same steps.
 *
 * <p>A mini-batch is processed as matrices (one row per sample) in work buffers that are kept and reused: steps do
 * not allocate once the buffers have grown to the largest batch. Zero inputs (background pixels, inactive ReLUs) are
 * skipped, which halves the work on Fashion-MNIST.
 */
public final class Mlp {
    private final int[] sizes;
    private final int layers;
    private final Parameter[] weights;
    private final Parameter[] biases;
    private final List<Parameter> parameters;
    /** Rows the work buffers hold. */
    private int capacity;
    /** activations[k]: batch x sizes[k]; [0] the inputs, [k] the ReLU outputs of layer k, [layers] the softmax. */
    private float[][] activations;
    /** deltas[k] (k >= 1): batch x sizes[k], gradient of the mean loss with respect to layer k's pre-activations. */
    private float[][] deltas;
    /** Positions and values of the non-zero entries of a row (widest layer) or column (batch), for the sparse loops. */
    private int[] nonZeroIndex;
    private float[] nonZeroValue;

    /**
     * @param layerSizes at least two sizes, all positive: inputs, hidden layers, classes; e.g. {@code {784, 128, 10}}
     * @param seed       seed of the initial weights
     */
    public Mlp(int[] layerSizes, long seed) {
        Objects.requireNonNull(layerSizes, "layerSizes");
        if (layerSizes.length < 2 || Arrays.stream(layerSizes).anyMatch(s -> s < 1)) {
            throw new IllegalArgumentException("layer sizes " + Arrays.toString(layerSizes)
                    + ": at least two, all positive");
        }
        sizes = layerSizes.clone();
        layers = sizes.length - 1;
        weights = new Parameter[layers];
        biases = new Parameter[layers];
        List<Parameter> all = new ArrayList<>(2 * layers);
        SplittableRandom random = new SplittableRandom(seed);
        for (int k = 0; k < layers; k++) {
            weights[k] = new Parameter("fc" + (k + 1) + ".weight", sizes[k], sizes[k + 1]);
            biases[k] = new Parameter("fc" + (k + 1) + ".bias", 1, sizes[k + 1]);
            float[] w = weights[k].values();
            double deviation = Math.sqrt(2.0 / sizes[k]);
            for (int i = 0; i < w.length; i++) {
                w[i] = (float) (random.nextGaussian() * deviation);
            }
            all.add(weights[k]);
            all.add(biases[k]);
        }
        parameters = List.copyOf(all);
        allocate(0);
    }

    /** @return a copy of the layer sizes */
    public int[] layerSizes() {
        return sizes.clone();
    }

    /** @return the number of inputs per sample */
    public int inputs() {
        return sizes[0];
    }

    /** @return the number of classes */
    public int classes() {
        return sizes[layers];
    }

    /**
     * @return the parameters in a fixed order: {@code fc1.weight, fc1.bias, fc2.weight, fc2.bias, ...};
     *         back-propagation finishes their gradients in exactly the reverse order
     */
    public List<Parameter> parameters() {
        return parameters;
    }

    /** @return the total number of floats in the parameters */
    public int parameterCount() {
        int count = 0;
        for (Parameter p : parameters) {
            count += p.size();
        }
        return count;
    }

    /** Same as {@link #trainStep(float[], int[], int[], int, int, Consumer)} without the hook. */
    public float trainStep(float[] images, int[] labels, int[] indices, int from, int to) {
        return trainStep(images, labels, indices, from, to, null);
    }

    /**
     * One forward and backward pass over a mini-batch: fills the gradients of every parameter with the mean gradient
     * of the loss over the batch (overwriting what they held), without changing any value.
     *
     * @param images          all samples, {@link #inputs()} floats each, one after the other
     * @param labels          the class of each sample
     * @param indices         sample numbers; the batch is {@code indices[from .. to)}
     * @param from            first position in {@code indices}, inclusive
     * @param to              last position in {@code indices}, exclusive, greater than {@code from}
     * @param onGradientReady called with each parameter as soon as its gradient is final, from the last layer to the
     *                        first ({@code ..., fc2.bias, fc2.weight, fc1.bias, fc1.weight}); may be null. It must
     *                        not change the values before the step ends; it may read or replace the gradients.
     * @return the mean cross-entropy loss over the batch (natural log)
     */
    public float trainStep(float[] images, int[] labels, int[] indices, int from, int to,
            Consumer<Parameter> onGradientReady) {
        Objects.checkFromToIndex(from, to, indices.length);
        int batch = to - from;
        if (batch == 0) {
            throw new IllegalArgumentException("empty batch");
        }
        allocate(batch);
        int in = sizes[0];
        float[] input = activations[0];
        for (int b = 0; b < batch; b++) {
            System.arraycopy(images, indices[from + b] * in, input, b * in, in);
        }
        forward(batch);

        // Softmax output and cross-entropy: the gradient at the logits is (p - onehot) / batch.
        int classes = sizes[layers];
        float[] p = activations[layers];
        float[] d = deltas[layers];
        float scale = 1f / batch;
        double loss = 0;
        for (int b = 0, row = 0; b < batch; b++, row += classes) {
            int label = labels[indices[from + b]];
            if (label < 0 || label >= classes) {
                throw new IllegalArgumentException("label " + label + " of sample " + indices[from + b]
                        + " not in [0, " + classes + ")");
            }
            loss -= Math.log(Math.max(p[row + label], Float.MIN_NORMAL));
            for (int c = 0; c < classes; c++) {
                d[row + c] = p[row + c] * scale;
            }
            d[row + label] -= scale;
        }

        for (int k = layers - 1; k >= 0; k--) {
            backward(k, batch);
            if (onGradientReady != null) {
                onGradientReady.accept(biases[k]);
                onGradientReady.accept(weights[k]);
            }
        }
        return (float) (loss / batch);
    }

    /**
     * @param images all samples, {@link #inputs()} floats each
     * @param from   first sample, inclusive
     * @param to     last sample, exclusive
     * @return the most probable class of each sample {@code from .. to - 1}
     */
    public int[] predict(float[] images, int from, int to) {
        int in = sizes[0];
        Objects.checkFromToIndex(from, to, images.length / in);
        int[] predictions = new int[to - from];
        int chunk = Math.max(capacity, 256);
        allocate(Math.min(chunk, to - from));
        int classes = sizes[layers];
        for (int start = from; start < to; start += chunk) {
            int batch = Math.min(chunk, to - start);
            System.arraycopy(images, start * in, activations[0], 0, batch * in);
            forward(batch);
            float[] out = activations[layers];
            for (int b = 0; b < batch; b++) {
                int best = 0;
                for (int c = 1; c < classes; c++) {
                    if (out[b * classes + c] > out[b * classes + best]) {
                        best = c;
                    }
                }
                predictions[start - from + b] = best;
            }
        }
        return predictions;
    }

    /**
     * @param images all samples, {@link #inputs()} floats each
     * @param labels the class of each sample
     * @return the fraction of samples whose most probable class is their label
     */
    public double accuracy(float[] images, int[] labels) {
        int[] predictions = predict(images, 0, labels.length);
        int right = 0;
        for (int i = 0; i < predictions.length; i++) {
            if (predictions[i] == labels[i]) {
                right++;
            }
        }
        return labels.length == 0 ? 0 : (double) right / labels.length;
    }

    /**
     * @param data samples of {@link #inputs()} pixels
     * @return the fraction of samples whose most probable class is their label
     */
    public double accuracy(Dataset data) {
        if (data.pixels() != sizes[0]) {
            throw new IllegalArgumentException(data + " for a model of " + sizes[0] + " inputs");
        }
        return accuracy(data.images(), data.labels());
    }

    /** Grows the work buffers to hold {@code batch} rows. */
    private void allocate(int batch) {
        if (activations != null && batch <= capacity) {
            return;
        }
        capacity = Math.max(batch, 1);
        activations = new float[layers + 1][];
        deltas = new float[layers + 1][];
        for (int k = 0; k <= layers; k++) {
            activations[k] = new float[capacity * sizes[k]];
            deltas[k] = k == 0 ? null : new float[capacity * sizes[k]];
        }
        int longest = Math.max(capacity, Arrays.stream(sizes).max().orElseThrow());
        nonZeroIndex = new int[longest];
        nonZeroValue = new float[longest];
    }

    /** Fills activations[1 .. layers] from activations[0] for the first {@code batch} rows. */
    private void forward(int batch) {
        int[] index = nonZeroIndex;
        float[] value = nonZeroValue;
        for (int k = 0; k < layers; k++) {
            int in = sizes[k];
            int out = sizes[k + 1];
            float[] a = activations[k];
            float[] z = activations[k + 1];
            float[] w = weights[k].values();
            float[] bias = biases[k].values();
            boolean hidden = k < layers - 1;
            for (int b = 0; b < batch; b++) {
                int zo = b * out;
                // z[b] = bias + sum over the non-zero a[b][i] of a[b][i] * w[i], four rows of w at a time
                int n = 0;
                for (int i = 0, ao = b * in; i < in; i++) {
                    float x = a[ao + i];
                    if (x != 0f) {
                        index[n] = i * out;
                        value[n++] = x;
                    }
                }
                System.arraycopy(bias, 0, z, zo, out);
                int j = 0;
                for (; j + 3 < n; j += 4) {
                    axpy4(z, zo, out, w, index[j], value[j], index[j + 1], value[j + 1], index[j + 2], value[j + 2],
                            index[j + 3], value[j + 3]);
                }
                for (; j < n; j++) {
                    axpy(z, zo, out, w, index[j], value[j]);
                }
                if (hidden) {
                    for (int o = zo; o < zo + out; o++) {
                        z[o] = Math.max(z[o], 0f);
                    }
                } else {
                    softmax(z, zo, out);
                }
            }
        }
    }

    private static void softmax(float[] z, int offset, int n) {
        float max = z[offset];
        for (int c = offset + 1; c < offset + n; c++) {
            max = Math.max(max, z[c]);
        }
        float sum = 0;
        for (int c = offset; c < offset + n; c++) {
            float e = (float) Math.exp(z[c] - max);
            z[c] = e;
            sum += e;
        }
        float inverse = 1f / sum;
        for (int c = offset; c < offset + n; c++) {
            z[c] *= inverse;
        }
    }

    /**
     * Layer k's gradients from deltas[k + 1] and, below the first layer, deltas[k] (through the ReLU: zero where
     * the activation was zero).
     */
    private void backward(int k, int batch) {
        int in = sizes[k];
        int out = sizes[k + 1];
        float[] a = activations[k];
        float[] d = deltas[k + 1];
        float[] w = weights[k].values();
        float[] dw = weights[k].gradients();
        float[] db = biases[k].gradients();
        float[] below = k > 0 ? deltas[k] : null;

        System.arraycopy(d, 0, db, 0, out);
        for (int b = 1; b < batch; b++) {
            axpy(db, 0, out, d, b * out, 1f);
        }

        int[] index = nonZeroIndex;
        float[] value = nonZeroValue;
        if (below != null) {
            Arrays.fill(below, 0, batch * in, 0f);
        }
        for (int i = 0; i < in; i++) {
            // dw[i] = sum over the samples b with a[b][i] != 0 of a[b][i] * d[b]
            int n = 0;
            for (int b = 0, ao = i; b < batch; b++, ao += in) {
                float x = a[ao];
                if (x != 0f) {
                    index[n] = b * out;
                    value[n++] = x;
                }
            }
            int wo = i * out;
            if (n == 0) {
                Arrays.fill(dw, wo, wo + out, 0f);
                continue;
            }
            scale(dw, wo, out, d, index[0], value[0]);
            int j = 1;
            for (; j + 3 < n; j += 4) {
                axpy4(dw, wo, out, d, index[j], value[j], index[j + 1], value[j + 1], index[j + 2], value[j + 2],
                        index[j + 3], value[j + 3]);
            }
            for (; j < n; j++) {
                axpy(dw, wo, out, d, index[j], value[j]);
            }
            if (below != null) {
                // below[b][i] = w[i] . d[b] where the ReLU let a[b][i] through (a > 0), else 0
                for (j = 0; j < n; j++) {
                    int b = index[j] / out;
                    below[b * in + i] = dot(w, wo, d, index[j], out);
                }
            }
        }
    }

    /** y[yo ..] = s * x[xo ..], n elements. */
    private static void scale(float[] y, int yo, int n, float[] x, int xo, float s) {
        for (int o = 0; o < n; o++) {
            y[yo + o] = s * x[xo + o];
        }
    }

    /** y[yo ..] += s * x[xo ..], n elements. */
    private static void axpy(float[] y, int yo, int n, float[] x, int xo, float s) {
        for (int o = 0; o < n; o++) {
            y[yo + o] += s * x[xo + o];
        }
    }

    /** y[yo ..] += s0 * x[x0 ..] + s1 * x[x1 ..] + s2 * x[x2 ..] + s3 * x[x3 ..], n elements. */
    private static void axpy4(float[] y, int yo, int n, float[] x, int x0, float s0, int x1, float s1, int x2,
            float s2, int x3, float s3) {
        for (int o = 0; o < n; o++) {
            y[yo + o] += s0 * x[x0 + o] + s1 * x[x1 + o] + s2 * x[x2 + o] + s3 * x[x3 + o];
        }
    }

    /** The dot product of x[xo ..] and y[yo ..], n elements, in four partial sums. */
    private static float dot(float[] x, int xo, float[] y, int yo, int n) {
        float s0 = 0;
        float s1 = 0;
        float s2 = 0;
        float s3 = 0;
        int o = 0;
        for (; o + 3 < n; o += 4) {
            s0 += x[xo + o] * y[yo + o];
            s1 += x[xo + o + 1] * y[yo + o + 1];
            s2 += x[xo + o + 2] * y[yo + o + 2];
            s3 += x[xo + o + 3] * y[yo + o + 3];
        }
        for (; o < n; o++) {
            s0 += x[xo + o] * y[yo + o];
        }
        return (s0 + s1) + (s2 + s3);
    }
}
