package org.jmpi.dl.nn;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stochastic gradient descent with momentum and L2 weight decay, as PyTorch's {@code torch.optim.SGD} (no dampening,
 * no Nesterov): {@code g = gradient + weightDecay * value; v = momentum * v + g; value -= learningRate * v}. The
 * velocity of each parameter is created, zero, on the first step that sees it and kept for later steps.
 */
public final class Sgd {
    private float learningRate;
    private final float momentum;
    private final float weightDecay;
    private final Map<Parameter, float[]> velocities = new IdentityHashMap<>();

    /**
     * @param learningRate step size, greater than 0
     * @param momentum     in [0, 1); 0 for plain SGD
     * @param weightDecay  L2 penalty, at least 0; 0 for none
     */
    public Sgd(float learningRate, float momentum, float weightDecay) {
        if (!(learningRate > 0) || !(momentum >= 0 && momentum < 1) || !(weightDecay >= 0)) {
            throw new IllegalArgumentException("learning rate " + learningRate + ", momentum " + momentum
                    + ", weight decay " + weightDecay);
        }
        this.learningRate = learningRate;
        this.momentum = momentum;
        this.weightDecay = weightDecay;
    }

    /** @return the current learning rate */
    public float learningRate() {
        return learningRate;
    }

    /** @param learningRate the learning rate for the following steps (for schedules), greater than 0 */
    public void learningRate(float learningRate) {
        if (!(learningRate > 0)) {
            throw new IllegalArgumentException("learning rate " + learningRate);
        }
        this.learningRate = learningRate;
    }

    /**
     * Updates the values of the parameters from their gradients (which it leaves as they are).
     *
     * @param parameters the parameters, usually {@link Mlp#parameters()}
     */
    public void step(List<Parameter> parameters) {
        float lr = learningRate;
        float mu = momentum;
        float wd = weightDecay;
        for (int p = 0, n = parameters.size(); p < n; p++) {
            Parameter parameter = parameters.get(p);
            float[] w = parameter.values();
            float[] g = parameter.gradients();
            float[] v = velocities.computeIfAbsent(parameter, k -> new float[k.size()]);
            for (int i = 0; i < w.length; i++) {
                float d = g[i] + wd * w[i];
                float vi = mu * v[i] + d;
                v[i] = vi;
                w[i] -= lr * vi;
            }
        }
    }
}
