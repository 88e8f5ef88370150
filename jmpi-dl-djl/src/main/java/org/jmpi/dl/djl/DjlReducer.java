package org.jmpi.dl.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.index.NDIndex;
import ai.djl.ndarray.types.DataType;
import ai.djl.nn.Block;
import ai.djl.nn.Parameter;
import ai.djl.nn.ParameterList;
import ai.djl.util.Pair;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import mpi.MPIException;
import org.jmpi.dl.GradientReducer;
import org.jmpi.dl.ReduceOp;
import org.jmpi.dl.ReducerException;

/**
 * Averages the gradients of a DJL model over the ranks with a {@link GradientReducer}, for data-parallel training:
 * every rank trains the same model on its own share of each batch, and takes the same optimizer step with the average
 * of the ranks' gradients.
 *
 * <pre>{@code
 * MPI.InitThread(args, MPI.THREAD_MULTIPLE);
 * try (GradientReducer reducer = GradientReducer.create(MPI.COMM_WORLD);
 *      Model model = Model.newInstance("mlp");
 *      Trainer trainer = ...) {
 *     trainer.initialize(inputShape);
 *     DjlReducer djl = new DjlReducer(reducer);
 *     djl.broadcastParameters(model.getBlock(), 0);   // the same start on every rank
 *     for (Batch batch : myShareOfEachGlobalBatch) {
 *         EasyTrain.trainBatch(trainer, batch);        // forward and backward
 *         djl.allreduceGradients(model.getBlock());    // gradients now averaged over the ranks
 *         trainer.step();
 *         batch.close();
 *     }
 * }
 * }</pre>
 *
 * <h2>Rules</h2>
 * <ul>
 *   <li>Every rank calls {@link #broadcastParameters} and {@link #allreduceGradients} with the same model structure,
 *       the same number of times, in the same order (both are collective).</li>
 *   <li>Parameters are matched between ranks by their names in the {@link ParameterList} (the keys that
 *       {@link Block#getParameters()} gives, such as {@code 01Linear_weight}): the names must be unique. The same
 *       {@link Parameter} object listed twice (shared weights) is reduced once.</li>
 *   <li>Only {@link DataType#FLOAT32} parameters are supported.</li>
 *   <li>The average is the plain mean of the ranks' gradients: with a loss that averages over the batch, it is the
 *       gradient of the whole global batch when every rank has the same number of samples.</li>
 *   <li>Values are written back into the existing tensors (an in-place copy through {@link NDIndex} {@code "..."}),
 *       never by pointing a tensor at Java memory: DJL's {@code NDArray.set(Buffer)} may do the latter, with the
 *       PyTorch engine, and the tensor then reads memory the garbage collector may reuse.</li>
 *   <li>Not thread-safe: one thread per rank calls it (as it calls the trainer).</li>
 * </ul>
 *
 * <p>Each parameter gets one direct buffer of its size, kept from step to step: the gradient is copied into it, the
 * buffer is all-reduced in place, and copied back into the gradient.
 */
public final class DjlReducer {
    private static final NDIndex ALL = new NDIndex("...");

    private final GradientReducer reducer;
    /** Staging buffer per parameter name. */
    private final Map<String, ByteBuffer> buffers = new HashMap<>();
    private final List<CompletableFuture<FloatBuffer>> pending = new ArrayList<>();

    /**
     * @param reducer the reducer to all-reduce with; the caller still owns it (and closes it)
     */
    public DjlReducer(GradientReducer reducer) {
        this.reducer = Objects.requireNonNull(reducer, "reducer");
    }

    /** @return the reducer this one all-reduces with */
    public GradientReducer reducer() {
        return reducer;
    }

    /**
     * Copies the values of every parameter of {@code block} (trainable or not) from rank {@code root} to all ranks.
     * Collective.
     */
    public void broadcastParameters(Block block, int root) throws MPIException {
        broadcastParameters(Objects.requireNonNull(block, "block").getParameters(), root);
    }

    /** Copies the values of every parameter in {@code parameters} from rank {@code root} to all ranks. Collective. */
    public void broadcastParameters(ParameterList parameters, int root) throws MPIException {
        for (Pair<String, Parameter> p : distinct(parameters, false)) {
            NDArray array = array(p);
            float[] values = array.toFloatArray();
            reducer.broadcast(values, root);
            if (reducer.rank() != root) {
                // detached view: same storage, so that the in-place copy is allowed on a tensor that needs gradients
                try (NDArray target = array.stopGradient();
                        NDArray source = array.getManager().create(values, array.getShape())) {
                    target.set(ALL, source);
                }
            }
        }
    }

    /**
     * Averages the gradients of the trainable parameters of {@code block} over the ranks, in place. Call it after the
     * backward pass and before {@code Trainer.step()}. Collective.
     *
     * @throws IllegalArgumentException when two parameters have the same name, or one is not {@code float32}
     * @throws ReducerException         when the reducer fails (a rank mismatch, a closed reducer)
     */
    public void allreduceGradients(Block block) {
        allreduceGradients(Objects.requireNonNull(block, "block").getParameters());
    }

    /** Averages the gradients of the trainable parameters in {@code parameters} over the ranks, in place. */
    public void allreduceGradients(ParameterList parameters) {
        List<Pair<String, Parameter>> trainable = distinct(parameters, true);
        List<ByteBuffer> staged = new ArrayList<>(trainable.size());
        // Last parameters first: the order back-propagation finishes them in, which is the reducer's fusion order.
        pending.clear();
        for (int i = trainable.size() - 1; i >= 0; i--) {
            Pair<String, Parameter> p = trainable.get(i);
            NDArray array = array(p);
            int n = Math.toIntExact(array.size());
            ByteBuffer buffer = buffers.get(p.getKey());
            if (buffer == null || buffer.capacity() != 4 * n) {
                buffer = ByteBuffer.allocateDirect(4 * n).order(ByteOrder.nativeOrder());
                buffers.put(p.getKey(), buffer);
            }
            FloatBuffer floats = buffer.asFloatBuffer();
            try (NDArray gradient = array.getGradient()) {
                // tryDirect: the tensor's own memory where the engine allows it (no copy), read at once
                floats.put(0, gradient.toByteBuffer(true).asFloatBuffer(), 0, n);
            }
            staged.add(buffer);
            pending.add(reducer.submit(p.getKey(), floats, ReduceOp.AVERAGE, reducer.options().compression()));
        }
        try {
            for (CompletableFuture<FloatBuffer> f : pending) {
                f.join();
            }
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new ReducerException(e.getMessage(), e);
        } finally {
            pending.clear();
        }
        for (int i = trainable.size() - 1, k = 0; i >= 0; i--, k++) {
            NDArray array = array(trainable.get(i));
            ByteBuffer buffer = staged.get(k).rewind();
            // The temporary tensor may share the staging buffer's memory (PyTorch does): it lives only for the copy.
            try (NDArray gradient = array.getGradient();
                    NDArray averaged = gradient.getManager().create(buffer, gradient.getShape(), DataType.FLOAT32)) {
                gradient.set(ALL, averaged);
            }
        }
    }

    /**
     * The entries of {@code parameters} in order, each parameter once, only those that need gradients if
     * {@code trainableOnly}. Checks the names are unique and every array is a float32 one.
     */
    private static List<Pair<String, Parameter>> distinct(ParameterList parameters, boolean trainableOnly) {
        Objects.requireNonNull(parameters, "parameters");
        Map<String, Parameter> byName = new HashMap<>();
        Map<Parameter, String> seen = new IdentityHashMap<>();
        List<Pair<String, Parameter>> out = new ArrayList<>(parameters.size());
        for (Pair<String, Parameter> p : parameters) {
            String name = p.getKey();
            Parameter parameter = p.getValue();
            if (name == null || name.isEmpty()) {
                throw new IllegalArgumentException("a parameter without a name: ranks match parameters by name");
            }
            Parameter other = byName.putIfAbsent(name, parameter);
            if (other != null && other != parameter) {
                throw new IllegalArgumentException("two different parameters are named '" + name + "': ranks match"
                        + " parameters by name, so names must be unique (give the blocks distinct names, or list"
                        + " each parameter under its own key)");
            }
            if (seen.putIfAbsent(parameter, name) != null || (trainableOnly && !parameter.requiresGradient())) {
                continue;
            }
            out.add(p);
        }
        for (Pair<String, Parameter> p : out) {
            NDArray array = array(p);
            if (array.getDataType() != DataType.FLOAT32) {
                throw new IllegalArgumentException("parameter '" + p.getKey() + "' is " + array.getDataType()
                        + ": only float32 parameters are supported");
            }
        }
        return out;
    }

    private static NDArray array(Pair<String, Parameter> p) {
        Parameter parameter = p.getValue();
        if (!parameter.isInitialized()) {
            throw new IllegalStateException("parameter '" + p.getKey() + "' is not initialized yet: initialize the"
                    + " model (say Trainer.initialize) first");
        }
        return parameter.getArray();
    }
}
