package org.jmpi.io;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.jmpi.coll.Blocks;
import org.jmpi.datatype.BaseKind;
import org.jmpi.datatype.MessageData;
import org.jmpi.datatype.PlanData;
import org.jmpi.datatype.TypeDescriptor;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;
import org.jmpi.runtime.RequestImpl;

/**
 * Collective buffering (two-phase I/O), as ROMIO's generic collective read and write do it.
 *
 * <h2>Idea</h2>
 * The file range all ranks touch, {@code [min start, max end)}, is cut into {@code cb_nodes} contiguous <em>file
 * domains</em> (aligned to {@code striping_unit} when given), one per <em>aggregator</em> (ranks spread evenly
 * over the communicator). Each rank tells each aggregator once which pieces of its domain it accesses (an
 * all-to-all of counts, then the offset/length lists). The domains are then walked in cycles of
 * {@code cb_buffer_size} bytes: in a write cycle every rank sends each aggregator the bytes of its pieces in that
 * aggregator's current window (one message per pair, straight from user memory: the pieces of one rank in one
 * window are consecutive bytes of its data stream), the aggregator receives them straight into place in a window
 * buffer (a receive datatype made of the pieces), and writes the covered part of the window to the file in one
 * request (reading it first when the pieces leave holes). A read cycle is the mirror image. Many small
 * noncontiguous requests of every rank become a few large contiguous ones per aggregator.
 *
 * <h2>Cost</h2>
 * Per cycle one file request per aggregator and at most one message per (rank, aggregator) pair; every data byte
 * crosses memory twice (user memory to window, window to file) and the network at most once. The metadata costs
 * 16 bytes per piece once.
 *
 * <h2>Restrictions</h2>
 * Needs runs in nondecreasing file order on every rank (MPI requires monotone file types); the caller falls back
 * to independent access otherwise, and in atomic mode. Where ranks write overlapping bytes the result is one of
 * theirs per byte, as MPI allows outside atomic mode.
 *
 * <p>Threading: one call per file at a time (the facade's ordering); uses the file's channel and buffers.
 */
final class TwoPhase {
    private final OpenFile f;
    private final IoComm io;
    private final int p;
    private final int me;
    /** Aggregator rank of each domain. */
    private final int[] aggregator;
    /** Domain boundaries: domain d is {@code [bound[d], bound[d + 1])}. */
    private final long[] bound;
    /** My domain, or -1 when this rank is not an aggregator. */
    private final int myDomain;
    private final long cb;
    private final int cycles;
    private final int tag;

    private TwoPhase(OpenFile f, long min, long max) {
        this.f = f;
        this.io = f.io();
        this.p = io.size();
        this.me = io.rank();
        int n = Math.max(1, Math.min(p, f.hints().cbNodes()));
        aggregator = new int[n];
        int mine = -1;
        for (int d = 0; d < n; d++) {
            aggregator[d] = (int) ((long) d * p / n);
            if (aggregator[d] == me) {
                mine = d;
            }
        }
        myDomain = mine;
        long align = f.hints().stripingUnit() > 0 ? f.hints().stripingUnit() : 4096;
        long share = Math.ceilDiv(max - min, n);
        bound = new long[n + 1];
        bound[0] = min;
        for (int d = 1; d < n; d++) {
            long b = min + share * d;
            b = Math.ceilDiv(b, align) * align;
            bound[d] = Math.max(bound[d - 1], Math.min(max, b));
        }
        bound[n] = max;
        cb = f.hints().cbBufferSize();
        long c = 0;
        for (int d = 0; d < n; d++) {
            c = Math.max(c, Math.ceilDiv(bound[d + 1] - bound[d], cb));
        }
        cycles = (int) c;
        tag = io.nextTag();
    }

    /**
     * A collective write or read by two-phase I/O. Every rank calls it with its own runs (sorted) and data; it
     * returns when this rank's part is done, and raises on every rank the first error any aggregator met.
     *
     * @param extents every rank's {@code [start, end)} of its access (empty accesses have start > end)
     */
    static void run(OpenFile f, boolean write, long[] extents, FileRuns runs, MessageData data) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int r = 0; r < extents.length / 2; r++) {
            if (extents[2 * r] < extents[2 * r + 1]) {
                min = Math.min(min, extents[2 * r]);
                max = Math.max(max, extents[2 * r + 1]);
            }
        }
        if (min >= max) {
            return;
        }
        new TwoPhase(f, min, max).run(write, runs, data);
    }

    /** One rank's pieces in one domain, in stream order, and how far the cycles have consumed them. */
    private static final class Pieces {
        final FileRuns runs = new FileRuns();
        /** Current piece and bytes of it already consumed by earlier windows. */
        int index;
        long used;

        /**
         * Takes the parts of the pieces that lie before {@code windowEnd}; calls {@code out} with (file offset,
         * stream offset, length) of each.
         */
        void take(long windowEnd, PieceVisitor out) {
            while (index < runs.count) {
                long start = runs.file[index] + used;
                if (start >= windowEnd) {
                    return;
                }
                long end = runs.file[index] + runs.length[index];
                long len = Math.min(end, windowEnd) - start;
                out.piece(start, runs.stream[index] + used, len);
                if (start + len == end) {
                    index++;
                    used = 0;
                } else {
                    used += len;
                    return;
                }
            }
        }
    }

    @FunctionalInterface
    private interface PieceVisitor {
        void piece(long file, long stream, long len);
    }

    private void run(boolean write, FileRuns runs, MessageData data) {
        int n = aggregator.length;
        // my pieces per domain
        Pieces[] mine = new Pieces[n];
        for (int d = 0; d < n; d++) {
            mine[d] = new Pieces();
        }
        int d = 0;
        for (int i = 0; i < runs.count; i++) {
            long pos = runs.file[i];
            long end = pos + runs.length[i];
            long stream = runs.stream[i];
            while (pos < end) {
                while (pos >= bound[d + 1] && d < n - 1) {
                    d++;
                }
                long cut = Math.min(end, d == n - 1 ? end : bound[d + 1]);
                mine[d].runs.add(pos, stream, cut - pos);
                stream += cut - pos;
                pos = cut;
            }
        }
        // tell the aggregators which pieces they serve
        long[] counts = new long[p];
        for (int k = 0; k < n; k++) {
            counts[aggregator[k]] = mine[k].runs.count;
        }
        long[] incoming = io.alltoall(counts);
        Pieces[] others = new Pieces[p];
        List<RequestImpl> pending = new ArrayList<>();
        if (myDomain >= 0) {
            for (int src = 0; src < p; src++) {
                if (src == me) {
                    others[src] = mine[myDomain];
                } else if (incoming[src] > 0) {
                    long[] list = new long[(int) (2 * incoming[src])];
                    others[src] = new Pieces();
                    others[src].runs.file = list;
                    pending.add(io.irecv(IoComm.data(list), src, tag));
                }
            }
        }
        for (int k = 0; k < n; k++) {
            FileRuns r = mine[k].runs;
            if (aggregator[k] != me && r.count > 0) {
                long[] list = new long[2 * r.count];
                for (int i = 0; i < r.count; i++) {
                    list[2 * i] = r.file[i];
                    list[2 * i + 1] = r.length[i];
                }
                pending.add(io.isend(IoComm.data(list), aggregator[k], tag));
            }
        }
        awaitAll(pending);
        for (int src = 0; src < p; src++) {
            if (others[src] != null && src != me) {
                unflatten(others[src].runs, (int) incoming[src]);
            }
        }
        int error = 0;
        String message = null;
        ByteBuffer window = myDomain >= 0 ? f.takeBuffer(Math.min(cb, bound[myDomain + 1] - bound[myDomain]))
                : null;
        try {
            for (int c = 0; c < cycles; c++) {
                try {
                    cycle(c, write, mine, others, data, window, error != 0);
                } catch (IOException e) {
                    if (error == 0) {
                        MpiError m = IoErrors.of(e, write ? "writing" : "reading", f.path());
                        error = m.errorClass();
                        message = m.getMessage();
                    }
                }
            }
        } finally {
            if (window != null) {
                f.giveBuffer(window);
            }
        }
        long[] errors = io.allgather(error);
        for (int r = 0; r < p; r++) {
            if (errors[r] != 0) {
                throw new MpiError((int) errors[r], r == me ? message
                        : "the collective access failed on rank " + r + " (" + ErrorClass.name((int) errors[r])
                                + ")");
            }
        }
    }

    /** Turns a received (file, length) list, kept in {@code runs.file}, into runs. */
    private static void unflatten(FileRuns runs, int count) {
        long[] list = runs.file;
        runs.file = new long[Math.max(1, count)];
        runs.stream = new long[Math.max(1, count)];
        runs.length = new long[Math.max(1, count)];
        for (int i = 0; i < count; i++) {
            runs.file[i] = list[2 * i];
            runs.length[i] = list[2 * i + 1];
        }
        runs.count = count;
    }

    private void cycle(int c, boolean write, Pieces[] mine, Pieces[] others, MessageData data, ByteBuffer window,
            boolean failed) throws IOException {
        List<RequestImpl> pending = new ArrayList<>();
        // the aggregator's side: which bytes of its window come from (or go to) each rank
        long ws = 0;
        long we = 0;
        MessageData[] place = new MessageData[p];
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        boolean holes = false;
        MemorySegment seg = window == null ? null : MemorySegment.ofBuffer(window);
        List<long[]> selfPieces = new ArrayList<>();
        if (myDomain >= 0) {
            ws = bound[myDomain] + c * cb;
            we = Math.min(bound[myDomain + 1], ws + cb);
            List<long[]> intervals = new ArrayList<>();
            for (int src = 0; src < p; src++) {
                if (others[src] == null || ws >= we) {
                    continue;
                }
                List<long[]> ps = new ArrayList<>();
                long base = ws;
                others[src].take(we, (file, stream, len) -> ps.add(new long[] {file - base, stream, len}));
                if (ps.isEmpty()) {
                    continue;
                }
                intervals.addAll(ps);
                if (src == me) {
                    selfPieces = ps;
                    continue;
                }
                long[] offs = new long[ps.size()];
                long[] lens = new long[ps.size()];
                for (int i = 0; i < offs.length; i++) {
                    offs[i] = ps.get(i)[0];
                    lens[i] = ps.get(i)[2];
                }
                TypeDescriptor t = new TypeDescriptor(BaseKind.BYTE, offs, lens, 0, we - ws);
                place[src] = PlanData.over(seg, 0, t, 1);
            }
            if (!intervals.isEmpty()) {
                intervals.sort((a, b) -> Long.compare(a[0], b[0]));
                long reach = intervals.get(0)[0];
                lo = reach;
                for (long[] iv : intervals) {
                    if (iv[0] > reach) {
                        holes = true;
                    }
                    reach = Math.max(reach, iv[0] + iv[2]);
                }
                hi = reach;
            }
        }
        boolean active = lo < hi;
        if (write) {
            if (active && holes && !failed) {
                int got = Sieve.readFully(f.channel(), window, (int) lo, ws + lo, (int) (hi - lo));
                seg.asSlice(lo + got, hi - lo - got).fill((byte) 0);
            }
            for (int src = 0; src < p; src++) {
                if (place[src] != null) {
                    pending.add(io.irecv(place[src], src, tag));
                }
            }
            sendOrReceiveMine(c, true, mine, data, pending);
            for (long[] piece : selfPieces) {
                data.packTo(piece[1], seg, piece[0], piece[2]);
            }
            awaitAll(pending);
            if (active && !failed) {
                Sieve.writeFully(f.channel(), window, (int) lo, ws + lo, (int) (hi - lo));
            }
        } else {
            if (active) {
                int got = failed ? 0 : Sieve.readFully(f.channel(), window, (int) lo, ws + lo, (int) (hi - lo));
                seg.asSlice(lo + got, hi - lo - got).fill((byte) 0);
            }
            for (int src = 0; src < p; src++) {
                if (place[src] != null) {
                    pending.add(io.isend(place[src], src, tag));
                }
            }
            for (long[] piece : selfPieces) {
                data.unpackFrom(piece[1], seg, piece[0], piece[2]);
            }
            sendOrReceiveMine(c, false, mine, data, pending);
            awaitAll(pending);
        }
    }

    /** This rank's messages of cycle {@code c} to (write) or from (read) every other aggregator. */
    private void sendOrReceiveMine(int c, boolean write, Pieces[] mine, MessageData data, List<RequestImpl> out) {
        for (int d = 0; d < aggregator.length; d++) {
            if (aggregator[d] == me) {
                continue;
            }
            long ws = bound[d] + c * cb;
            long we = Math.min(bound[d + 1], ws + cb);
            if (ws >= we) {
                continue;
            }
            long[] range = {Long.MAX_VALUE, 0};
            mine[d].take(we, (file, stream, len) -> {
                range[0] = Math.min(range[0], stream);
                range[1] += len;
            });
            if (range[1] > 0) {
                MessageData part = Blocks.slice(data, range[0], range[1]);
                out.add(write ? io.isend(part, aggregator[d], tag) : io.irecv(part, aggregator[d], tag));
            }
        }
    }

    private static void awaitAll(List<RequestImpl> pending) {
        MpiError first = null;
        for (RequestImpl r : pending) {
            try {
                IoComm.await(r);
            } catch (MpiError e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        pending.clear();
        if (first != null) {
            throw first;
        }
    }
}
