package org.jmpi.dl;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import mpi.Comm;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Prequest;
import mpi.UserFunction;

/**
 * All-reduces one fused buffer in place with the algorithm chosen when the reducer started ({@link Algorithm}).
 * The buffer holds fp32 values ({@link Compression#NONE}) or 16-bit patterns, native byte order, from byte 0.
 *
 * <p>Threading: used by the reducer's background thread only, on communicators that only that thread uses.
 */
final class FusedAllreduce implements AutoCloseable {
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED;

    private final Intracomm comm;
    private final int rank;
    private final int size;
    /** The algorithm in use: never AUTO. */
    final Algorithm algorithm;
    /** HIERARCHICAL: the ranks of this host, and (on the first rank of each host) one rank per host. */
    private final Intracomm local;
    private final Intracomm leaders;
    final int hosts;
    private final Map<Compression, Op> halfSums = new EnumMap<>(Compression.class);
    /**
     * MPI: persistent all-reduces (MPI_Allreduce_init) of the fused buffer of each compression, one per element count,
     * the most recently used {@link #PERSISTENT_KEPT} of them; made again when the buffer is replaced.
     */
    private final Map<Compression, Persistent> persistent = new EnumMap<>(Compression.class);
    /** Persistent all-reduces made so far (for tests). */
    long persistentInits;
    static final int PERSISTENT_KEPT = 32;
    /** ORDERED: receives every rank's block of this rank's part. */
    private ByteBuffer scratch;
    /** ORDERED: the fp32 sums of this rank's block. */
    private float[] acc;

    FusedAllreduce(Intracomm comm, Algorithm requested, int ranksPerHost) throws MPIException {
        this.comm = comm;
        rank = comm.getRank();
        size = comm.getSize();
        Intracomm host = ranksPerHost > 0 ? comm.split(rank / ranksPerHost, rank) : comm.splitType(Comm.TYPE_SHARED,
                rank, null);
        int localRank = host.getRank();
        int[] counts = {localRank == 0 ? 1 : 0, host.getSize()};
        int[] hostsAndMax = new int[2];
        int[] max = new int[1];
        comm.allReduce(new int[] {counts[0]}, hostsAndMax, 1, MPI.INT, MPI.SUM);
        comm.allReduce(new int[] {counts[1]}, max, 1, MPI.INT, MPI.MAX);
        hosts = hostsAndMax[0];
        Algorithm chosen = requested;
        if (requested == Algorithm.AUTO) {
            chosen = hosts > 1 && max[0] > 1 ? Algorithm.HIERARCHICAL : Algorithm.MPI;
        }
        algorithm = chosen;
        if (algorithm == Algorithm.HIERARCHICAL) {
            local = host;
            Comm l = comm.split(localRank == 0 ? 0 : MPI.UNDEFINED, rank);
            leaders = localRank == 0 ? (Intracomm) l : null;
        } else {
            host.free();
            local = null;
            leaders = null;
        }
    }

    /**
     * All-reduces (sums) {@code count} elements of {@code buf}, fp32 or 16-bit as {@code c} says, in place.
     */
    void sum(ByteBuffer buf, int count, Compression c) throws MPIException {
        Datatype type = c == Compression.NONE ? MPI.FLOAT : MPI.SHORT;
        switch (algorithm) {
            case MPI -> {
                // a training step reduces the same groups of tensors, so the same sizes, every time: a persistent
                // all-reduce fixes the algorithm, schedule and buffers once, and each step only starts it
                Prequest p = persistent(buf, count, c, type);
                p.start();
                p.waitFor();
            }
            case ORDERED -> ordered(buf, count, c);
            case HIERARCHICAL -> {
                Op op = op(c);
                if (local.getSize() > 1) {
                    local.reduce(buf, count, type, op, 0);
                }
                if (leaders != null && leaders.getSize() > 1) {
                    leaders.allReduce(buf, count, type, op);
                }
                if (local.getSize() > 1) {
                    local.bcast(buf, count, type, 0);
                }
            }
            case AUTO -> throw new IllegalStateException("AUTO is resolved in the constructor");
        }
    }

    private Prequest persistent(ByteBuffer buf, int count, Compression c, Datatype type) throws MPIException {
        Persistent kept = persistent.get(c);
        if (kept == null || kept.buffer != buf) {
            if (kept != null) {
                kept.free();
            }
            kept = new Persistent(buf);
            persistent.put(c, kept);
        }
        Prequest p = kept.byCount.get(count);
        if (p == null) {
            if (kept.byCount.size() >= PERSISTENT_KEPT) {
                Iterator<Prequest> eldest = kept.byCount.values().iterator();
                eldest.next().free();
                eldest.remove();
            }
            p = comm.allReduceInit(buf, count, type, op(c));
            kept.byCount.put(count, p);
            persistentInits++;
        }
        return p;
    }

    /** The persistent all-reduces of one fused buffer, by element count, least recently used first. */
    private static final class Persistent {
        final ByteBuffer buffer;
        final LinkedHashMap<Integer, Prequest> byCount = new LinkedHashMap<>(16, 0.75f, true);

        Persistent(ByteBuffer buffer) {
            this.buffer = buffer;
        }

        void free() throws MPIException {
            for (Prequest p : byCount.values()) {
                p.free();
            }
            byCount.clear();
        }
    }

    private Op op(Compression c) {
        if (c == Compression.NONE) {
            return MPI.SUM;
        }
        return halfSums.computeIfAbsent(c, k -> new Op(new HalfSum(k), true));
    }

    /** Alltoallv of blocks, rank-order sum of this rank's block in fp32, allgatherv of the sums. */
    private void ordered(ByteBuffer buf, int count, Compression c) throws MPIException {
        if (size == 1) {
            return;
        }
        int[] counts = new int[size];
        int[] displs = new int[size];
        int base = count / size;
        int extra = count % size;
        for (int r = 0, at = 0; r < size; r++) {
            counts[r] = base + (r < extra ? 1 : 0);
            displs[r] = at;
            at += counts[r];
        }
        int mine = counts[rank];
        int bytesPer = c.wireBytes();
        long need = (long) mine * size * bytesPer;
        if (scratch == null || scratch.capacity() < need) {
            scratch = MPI.newByteBuffer((int) Math.max(need, 64));
        }
        int[] recvCounts = new int[size];
        int[] recvDispls = new int[size];
        for (int q = 0; q < size; q++) {
            recvCounts[q] = mine;
            recvDispls[q] = q * mine;
        }
        int[] sendCounts = counts.clone();
        Datatype type = c == Compression.NONE ? MPI.FLOAT : MPI.SHORT;
        comm.allToAllv(buf, sendCounts, displs, type, scratch, recvCounts, recvDispls, type);
        MemorySegment in = MemorySegment.ofBuffer(scratch);
        MemorySegment out = MemorySegment.ofBuffer(buf);
        long outAt = (long) displs[rank] * bytesPer;
        // q outer, i inner: each element still gets ((x0 + x1) + x2) + ..., and the loops stream through memory.
        if (acc == null || acc.length < mine) {
            acc = new float[mine];
        }
        float[] a = acc;
        if (c == Compression.NONE) {
            MemorySegment.copy(in, F32, 0, a, 0, mine);
            for (int q = 1; q < size; q++) {
                long from = (long) q * mine * 4;
                for (int i = 0; i < mine; i++) {
                    a[i] += in.get(F32, from + 4L * i);
                }
            }
            MemorySegment.copy(a, 0, out, F32, outAt, mine);
        } else {
            for (int q = 0; q < size; q++) {
                long from = (long) q * mine * 2;
                if (q == 0) {
                    for (int i = 0; i < mine; i++) {
                        a[i] = c.decode(in.get(I16, from + 2L * i));
                    }
                } else {
                    for (int i = 0; i < mine; i++) {
                        a[i] += c.decode(in.get(I16, from + 2L * i));
                    }
                }
            }
            for (int i = 0; i < mine; i++) {
                out.set(I16, outAt + 2L * i, c.encode(a[i]));
            }
        }
        comm.allGatherv(buf, counts, displs, type);
    }

    @Override
    public void close() throws MPIException {
        for (Persistent kept : persistent.values()) {
            kept.free();
        }
        persistent.clear();
        if (local != null) {
            local.free();
        }
        if (leaders != null) {
            leaders.free();
        }
        for (Op op : halfSums.values()) {
            op.free();
        }
    }

    /** Sum of 16-bit floats: each pair decoded to fp32, added, rounded back. */
    private static final class HalfSum extends UserFunction {
        private final Compression c;

        HalfSum(Compression c) {
            this.c = c;
        }

        @Override
        public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype datatype) {
            c.addInto(in.order(java.nio.ByteOrder.nativeOrder()), inOut.order(java.nio.ByteOrder.nativeOrder()), count);
        }
    }
}
