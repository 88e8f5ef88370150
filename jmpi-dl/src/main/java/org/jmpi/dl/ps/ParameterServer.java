package org.jmpi.dl.ps;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongConsumer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import org.jmpi.dl.nn.Parameter;
import org.jmpi.dl.nn.Sgd;

/**
 * Asynchronous data-parallel training through parameter servers: ranks {@code 0 .. servers - 1} hold the parameters
 * (tensor {@code i} lives on server {@code i % servers}), the other ranks are workers. A worker computes gradients on
 * its own mini-batch, {@link #pushPull() pushes} them to the servers and gets back the parameters as they are after
 * the server applied them; the servers apply each push as it arrives, without waiting for the other workers (the
 * gradients of a slow worker are applied to parameters others have moved on since: "stale" gradients). This is the
 * classic alternative to the synchronous all-reduce of {@link org.jmpi.dl.GradientReducer}; it tolerates stragglers
 * but, with many workers, converges more slowly per image and puts all traffic on the servers.
 *
 * <p>Messages: one per (worker, server) and direction per step, holding the concatenated tensors of that server's
 * shard, on a duplicate of the communicator (tags: push 1, pull 2, done 3).
 *
 * <p>Threading: one thread per rank calls it.
 */
public final class ParameterServer implements AutoCloseable {
    private static final int TAG_PUSH = 1;
    private static final int TAG_PULL = 2;
    private static final int TAG_DONE = 3;

    private final Intracomm comm;
    private final int rank;
    private final int size;
    private final int servers;
    /** Per server: its tensors, in order, and the length of their concatenation. */
    private final List<List<Parameter>> shards = new ArrayList<>();
    private final int[] shardLength;
    private final float[][] sendBuf;
    private final float[][] recvBuf;
    private boolean finished;

    private ParameterServer(Intracomm comm, int servers, List<Parameter> params) throws MPIException {
        this.comm = comm.dup();
        rank = comm.getRank();
        size = comm.getSize();
        this.servers = servers;
        shardLength = new int[servers];
        for (int s = 0; s < servers; s++) {
            shards.add(new ArrayList<>());
        }
        for (int i = 0; i < params.size(); i++) {
            Parameter p = params.get(i);
            shards.get(i % servers).add(p);
            shardLength[i % servers] += p.size();
            // every rank starts from rank 0's values
            this.comm.bcast(p.values(), p.size(), MPI.FLOAT, 0);
        }
        sendBuf = new float[servers][];
        recvBuf = new float[servers][];
        for (int s = 0; s < servers; s++) {
            sendBuf[s] = new float[shardLength[s]];
            recvBuf[s] = new float[shardLength[s]];
        }
    }

    /**
     * Collective over {@code comm}: every rank passes the same number of servers and parameters of the same names
     * and sizes, in the same order. {@code servers} must be at least 1 and less than the communicator's size.
     */
    public static ParameterServer create(Intracomm comm, int servers, List<Parameter> params) throws MPIException {
        Objects.requireNonNull(comm, "comm");
        Objects.requireNonNull(params, "params");
        int size = comm.getSize();
        if (servers < 1 || servers >= size) {
            throw new IllegalArgumentException("servers must be in [1, " + (size - 1) + "] for " + size
                    + " ranks, got " + servers);
        }
        if (params.size() < servers) {
            throw new IllegalArgumentException(params.size() + " tensors cannot be spread over " + servers
                    + " servers");
        }
        return new ParameterServer(comm, servers, params);
    }

    public boolean isServer() {
        return rank < servers;
    }

    /** This worker's number, 0 .. workers - 1. */
    public int workerIndex() {
        if (isServer()) {
            throw new IllegalStateException("rank " + rank + " is a server");
        }
        return rank - servers;
    }

    public int workers() {
        return size - servers;
    }

    /**
     * Serves until every worker has called {@link #finish()}: applies each pushed gradient with {@code optimizer}
     * to this server's tensors and sends the new values back to the worker that pushed.
     *
     * @param beforeUpdate called with the number of updates applied so far before each one (to set a learning-rate
     *                     schedule); may be null
     * @return the number of updates applied
     */
    public long serve(Sgd optimizer, LongConsumer beforeUpdate) throws MPIException {
        if (!isServer()) {
            throw new IllegalStateException("rank " + rank + " is a worker, not a server");
        }
        List<Parameter> mine = shards.get(rank);
        float[] buf = recvBuf[rank];
        int done = 0;
        long updates = 0;
        while (done < workers()) {
            Status st = comm.recv(buf, buf.length, MPI.FLOAT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            if (st.getTag() == TAG_DONE) {
                done++;
                continue;
            }
            int got = st.getCount(MPI.FLOAT);
            if (got != buf.length) {
                throw new IllegalStateException("server " + rank + ": a push from rank " + st.getSource() + " has "
                        + got + " floats, the shard has " + buf.length);
            }
            unpack(buf, mine, false);
            if (beforeUpdate != null) {
                beforeUpdate.accept(updates);
            }
            optimizer.step(mine);
            updates++;
            pack(mine, buf, true);
            comm.send(buf, buf.length, MPI.FLOAT, st.getSource(), TAG_PULL);
        }
        return updates;
    }

    /** Sends this worker's gradients to the servers and replaces its values with theirs. */
    public void pushPull() throws MPIException {
        workerIndex();
        if (finished) {
            throw new IllegalStateException("finish() was called");
        }
        Request[] reqs = new Request[2 * servers];
        for (int s = 0; s < servers; s++) {
            reqs[2 * s] = comm.iRecv((Object) recvBuf[s], recvBuf[s].length, MPI.FLOAT, s, TAG_PULL);
        }
        for (int s = 0; s < servers; s++) {
            pack(shards.get(s), sendBuf[s], false);
            reqs[2 * s + 1] = comm.iSend((Object) sendBuf[s], sendBuf[s].length, MPI.FLOAT, s, TAG_PUSH);
        }
        Request.waitAll(reqs);
        for (int s = 0; s < servers; s++) {
            unpack(recvBuf[s], shards.get(s), true);
        }
    }

    /** Tells the servers this worker is done. */
    public void finish() throws MPIException {
        workerIndex();
        if (!finished) {
            finished = true;
            for (int s = 0; s < servers; s++) {
                comm.send(new float[0], 0, MPI.FLOAT, s, TAG_DONE);
            }
        }
    }

    /** Frees the duplicated communicator; a worker that did not call {@link #finish()} does so first. */
    @Override
    public void close() throws MPIException {
        if (!isServer()) {
            finish();
        }
        comm.free();
    }

    private static void pack(List<Parameter> ps, float[] buf, boolean values) {
        int at = 0;
        for (Parameter p : ps) {
            float[] src = values ? p.values() : p.gradients();
            System.arraycopy(src, 0, buf, at, src.length);
            at += src.length;
        }
    }

    private static void unpack(float[] buf, List<Parameter> ps, boolean values) {
        int at = 0;
        for (Parameter p : ps) {
            float[] dst = values ? p.values() : p.gradients();
            System.arraycopy(buf, at, dst, 0, dst.length);
            at += dst.length;
        }
    }
}
