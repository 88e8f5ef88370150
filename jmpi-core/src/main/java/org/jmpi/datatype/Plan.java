package org.jmpi.datatype;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The compiled layout of a datatype: a small tree that says which bytes of user memory make up the packed stream,
 * and in which order. Every committed datatype, and every message ({@code count} elements of a type), is one plan.
 *
 * <h2>Idea</h2>
 * Three node kinds, each giving byte offsets relative to the node's origin:
 * <ul>
 *   <li>{@link Runs}: a flat list of contiguous byte runs {@code (offset, length)}, in packed order; adjacent runs are
 *       merged, so a contiguous layout is exactly one run;</li>
 *   <li>{@link Repeat}: {@code count} copies of a child plan at {@code offset + i * stride} (vectors, contiguous
 *       types, and the elements of a message);</li>
 *   <li>{@link Seq}: child plans one after the other in packed order (indexed and struct types).</li>
 * </ul>
 * The builders ({@link #repeat}, {@link #seq}) normalise as they go: repeats of a run that tile without gaps become
 * one longer run ({@code contiguous(n, INT)} is a single run); a repeat of a repeat whose copies tile merges into one
 * repeat; a subtree of at most {@link #FLAT_LIMIT} runs is flattened into a {@link Runs}. So a vector of a million
 * blocks is one {@code Repeat} node over one run, not a million run objects, while a small struct is a flat run list.
 *
 * <h2>Cost</h2>
 * Building is proportional to the number of constructor arguments (plus the flattened runs, at most
 * {@link #FLAT_LIMIT} per node). Packing or unpacking any byte range {@code [skip, skip + len)} of the packed stream
 * costs a seek of O(depth * log(width)) and then one copy per contiguous run touched; a repeat over a single run (a
 * matrix column, a vector of blocks) runs a tight strided loop ({@link ArrayKernel}) with no per-run call.
 *
 * <h2>Restrictions</h2>
 * Offsets and sizes are longs in bytes; builders throw {@link ArithmeticException} on overflow (the caller turns it
 * into an MPI error). A plan knows nothing about Java element types; {@link TypeDescriptor} adds those.
 *
 * <p>Threading: immutable, freely shared.
 */
abstract sealed class Plan permits Plan.Runs, Plan.Repeat, Plan.Seq {
    /** Subtrees of at most this many runs are flattened into a run list. */
    static final int FLAT_LIMIT = 64;

    /** Bytes in the packed stream. */
    final long size;
    /** Lowest byte offset holding data (0 when {@link #size} is 0). */
    final long trueLb;
    /** One past the highest byte offset holding data (0 when {@link #size} is 0). */
    final long trueUb;
    /** Number of runs a full walk visits, saturated at {@link Long#MAX_VALUE}. */
    final long runCount;

    Plan(long size, long trueLb, long trueUb, long runCount) {
        this.size = size;
        this.trueLb = trueLb;
        this.trueUb = trueUb;
        this.runCount = runCount;
    }

    /** The empty plan. */
    static final Runs EMPTY = new Runs(new long[0], new long[0]);

    /** One contiguous run. */
    static Runs run(long offset, long length) {
        return length == 0 ? EMPTY : new Runs(new long[] {offset}, new long[] {length});
    }

    /** This plan moved by {@code d} bytes. */
    abstract Plan shift(long d);

    /** Appends this plan's runs, moved by {@code d}, to {@code out} (only called for small plans). */
    abstract void appendRuns(RunList out, long d);

    /**
     * Copies bytes {@code [skip, skip + len)} of this plan's packed stream between user memory and a packed buffer.
     *
     * @param mem user memory; this plan's origin is at byte {@code base} of it
     * @param buf the packed side; byte {@code skip} of the stream is at {@code bufAt}
     * @param pack true: memory to buffer; false: buffer to memory
     * @param k the copy loops ({@link ArrayKernel})
     */
    abstract void move(MemorySegment mem, long base, long skip, long len, MemorySegment buf, long bufAt, boolean pack,
            CopyKernel k);

    /**
     * Calls {@code visitor} for every contiguous run (or part of one) that bytes {@code [skip, skip + len)} of the
     * packed stream occupy, in packed order.
     *
     * @param streamAt the stream position reported for byte {@code skip}
     */
    abstract void visit(long base, long skip, long len, long streamAt, RunVisitor visitor);

    /** {@link #lowBits()}, or -1 before its first call. */
    private int lowBits = -1;

    /**
     * The three low bits of every run offset, run length and repeat stride of this plan, or-ed together: the plan
     * moves whole elements of {@code 2^k} bytes when the {@code k} low bits are clear ({@link ArrayKernel}).
     */
    final int lowBits() {
        int b = lowBits;
        if (b < 0) {
            b = (int) (orBits() & 7);
            lowBits = b; // racy but idempotent
        }
        return b;
    }

    /** The bits {@link #lowBits()} keeps the low three of. */
    abstract long orBits();

    /** True when the plan is one contiguous run. */
    final boolean isSingleRun() {
        return this instanceof Runs r && r.offsets.length == 1;
    }

    // ------------------------------------------------------------------------------------------------ builders

    /** {@code count} copies of {@code child} at {@code offset + i * stride}, normalised. */
    static Plan repeat(long offset, long count, long stride, Plan child) {
        if (count < 0) {
            throw new IllegalArgumentException("negative count");
        }
        if (count == 0 || child.size == 0) {
            return EMPTY;
        }
        if (count == 1) {
            return child.shift(offset);
        }
        Math.multiplyExact(count, child.size); // total size must fit
        Math.multiplyExact(count - 1, stride);
        if (child instanceof Runs r && r.offsets.length == 1 && r.lengths[0] == stride) {
            return run(Math.addExact(offset, r.offsets[0]), count * stride);
        }
        if (child instanceof Repeat r && tiles(r, stride)) {
            return repeat(Math.addExact(offset, r.offset), Math.multiplyExact(count, r.count), r.stride, r.child);
        }
        if (saturatedProduct(count, child.runCount) <= FLAT_LIMIT && !child.isSingleRun()) {
            RunList out = new RunList();
            for (long i = 0; i < count; i++) {
                child.appendRuns(out, offset + i * stride);
            }
            return out.build();
        }
        return new Repeat(offset, count, stride, child);
    }

    /** The parts one after the other in packed order, normalised (small neighbours merge into run lists). */
    static Plan seq(List<Plan> parts) {
        List<Plan> flat = new ArrayList<>();
        for (Plan p : parts) {
            if (p instanceof Seq s) {
                flat.addAll(Arrays.asList(s.parts));
            } else if (p.size > 0) {
                flat.add(p);
            }
        }
        List<Plan> out = new ArrayList<>();
        RunList pending = new RunList();
        for (Plan p : flat) {
            if (p.runCount <= FLAT_LIMIT) {
                p.appendRuns(pending, 0);
            } else {
                if (pending.size() > 0) {
                    out.add(pending.build());
                    pending = new RunList();
                }
                out.add(p);
            }
        }
        if (pending.size() > 0) {
            out.add(pending.build());
        }
        if (out.isEmpty()) {
            return EMPTY;
        }
        if (out.size() == 1) {
            return out.get(0);
        }
        return new Seq(out.toArray(new Plan[0]));
    }

    /** True when copies of {@code r} placed {@code stride} apart continue its own progression. */
    private static boolean tiles(Repeat r, long stride) {
        long hi = Math.multiplyHigh(r.count, r.stride);
        long lo = r.count * r.stride;
        return (hi == 0 && lo >= 0 || hi == -1 && lo < 0) && lo == stride;
    }

    static long saturatedProduct(long a, long b) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        return hi != 0 || lo < 0 ? Long.MAX_VALUE : lo;
    }

    static long saturatedSum(long a, long b) {
        long s = a + b;
        return s < 0 ? Long.MAX_VALUE : s;
    }

    /** Finds the first index {@code i} with {@code ends[i] > pos} ({@code ends} is strictly increasing). */
    static int firstEndAfter(long[] ends, long pos) {
        int i = Arrays.binarySearch(ends, pos);
        return i >= 0 ? i + 1 : -i - 1;
    }

    // ------------------------------------------------------------------------------------------------ node kinds

    /** A flat list of contiguous runs in packed order. */
    static final class Runs extends Plan {
        final long[] offsets;
        final long[] lengths;
        /** ends[i] = packed position just after run i. */
        final long[] ends;

        Runs(long[] offsets, long[] lengths) {
            this(offsets, lengths, cumulative(lengths));
        }

        private Runs(long[] offsets, long[] lengths, long[] ends) {
            super(ends.length == 0 ? 0 : ends[ends.length - 1], low(offsets), high(offsets, lengths),
                    offsets.length);
            this.offsets = offsets;
            this.lengths = lengths;
            this.ends = ends;
        }

        @Override
        long orBits() {
            long b = 0;
            for (int i = 0; i < offsets.length; i++) {
                b |= offsets[i] | lengths[i];
            }
            return b;
        }

        private static long[] cumulative(long[] lengths) {
            long[] e = new long[lengths.length];
            long s = 0;
            for (int i = 0; i < lengths.length; i++) {
                s = Math.addExact(s, lengths[i]);
                e[i] = s;
            }
            return e;
        }

        private static long low(long[] offsets) {
            long m = offsets.length == 0 ? 0 : Long.MAX_VALUE;
            for (long o : offsets) {
                m = Math.min(m, o);
            }
            return m;
        }

        private static long high(long[] offsets, long[] lengths) {
            long m = offsets.length == 0 ? 0 : Long.MIN_VALUE;
            for (int i = 0; i < offsets.length; i++) {
                m = Math.max(m, Math.addExact(offsets[i], lengths[i]));
            }
            return m;
        }

        @Override
        Plan shift(long d) {
            if (d == 0 || offsets.length == 0) {
                return this;
            }
            long[] o = new long[offsets.length];
            for (int i = 0; i < o.length; i++) {
                o[i] = Math.addExact(offsets[i], d);
            }
            return new Runs(o, lengths, ends);
        }

        @Override
        void appendRuns(RunList out, long d) {
            for (int i = 0; i < offsets.length; i++) {
                out.add(offsets[i] + d, lengths[i]);
            }
        }

        @Override
        void move(MemorySegment mem, long base, long skip, long len, MemorySegment buf, long bufAt, boolean pack,
                CopyKernel k) {
            int i = skip == 0 ? 0 : firstEndAfter(ends, skip);
            long within = skip - (i == 0 ? 0 : ends[i - 1]);
            long done = 0;
            while (done < len) {
                long n = Math.min(lengths[i] - within, len - done);
                long at = base + offsets[i] + within;
                if (pack) {
                    k.copy(mem, at, buf, bufAt + done, n);
                } else {
                    k.copy(buf, bufAt + done, mem, at, n);
                }
                done += n;
                within = 0;
                i++;
            }
        }

        @Override
        void visit(long base, long skip, long len, long streamAt, RunVisitor visitor) {
            int i = skip == 0 ? 0 : firstEndAfter(ends, skip);
            long within = skip - (i == 0 ? 0 : ends[i - 1]);
            long done = 0;
            while (done < len) {
                long n = Math.min(lengths[i] - within, len - done);
                visitor.run(base + offsets[i] + within, streamAt + done, n);
                done += n;
                within = 0;
                i++;
            }
        }

        @Override
        public String toString() {
            if (offsets.length <= 8) {
                StringBuilder b = new StringBuilder("Runs[");
                for (int i = 0; i < offsets.length; i++) {
                    b.append(i == 0 ? "" : ", ").append(offsets[i]).append('+').append(lengths[i]);
                }
                return b.append(']').toString();
            }
            return "Runs[" + offsets.length + " runs, " + size + " bytes]";
        }
    }

    /** {@code count} copies of a child plan at {@code offset + i * stride}. */
    static final class Repeat extends Plan {
        final long offset;
        final long count;
        final long stride;
        final Plan child;
        /** The child's only run when it has one ({@link #singleLength} > 0), for the strided fast path. */
        final long singleOffset;
        final long singleLength;

        Repeat(long offset, long count, long stride, Plan child) {
            super(Math.multiplyExact(count, child.size),
                    Math.addExact(offset, child.trueLb + Math.min(0, (count - 1) * stride)),
                    Math.addExact(offset, child.trueUb + Math.max(0, (count - 1) * stride)),
                    saturatedProduct(count, child.runCount));
            this.offset = offset;
            this.count = count;
            this.stride = stride;
            this.child = child;
            if (child instanceof Runs r && r.offsets.length == 1) {
                singleOffset = r.offsets[0];
                singleLength = r.lengths[0];
            } else {
                singleOffset = 0;
                singleLength = 0;
            }
        }

        @Override
        Plan shift(long d) {
            return d == 0 ? this : new Repeat(Math.addExact(offset, d), count, stride, child);
        }

        @Override
        long orBits() {
            return offset | stride | child.lowBits();
        }

        @Override
        void appendRuns(RunList out, long d) {
            for (long i = 0; i < count; i++) {
                child.appendRuns(out, d + offset + i * stride);
            }
        }

        @Override
        void move(MemorySegment mem, long base, long skip, long len, MemorySegment buf, long bufAt, boolean pack,
                CopyKernel k) {
            long cs = child.size;
            long i = skip / cs;
            long within = skip - i * cs;
            long at = base + offset + i * stride;
            long done = 0;
            if (within != 0) {
                long n = Math.min(cs - within, len);
                child.move(mem, at, within, n, buf, bufAt, pack, k);
                done = n;
                at += stride;
            }
            long whole = (len - done) / cs;
            if (whole > 0) {
                if (singleLength > 0) {
                    if (pack) {
                        k.strided(mem, at + singleOffset, stride, buf, bufAt + done, cs, cs, whole);
                    } else {
                        k.strided(buf, bufAt + done, cs, mem, at + singleOffset, stride, cs, whole);
                    }
                    at += whole * stride;
                    done += whole * cs;
                } else {
                    for (long e = 0; e < whole; e++) {
                        child.move(mem, at, 0, cs, buf, bufAt + done, pack, k);
                        at += stride;
                        done += cs;
                    }
                }
            }
            if (done < len) {
                child.move(mem, at, 0, len - done, buf, bufAt + done, pack, k);
            }
        }

        @Override
        void visit(long base, long skip, long len, long streamAt, RunVisitor visitor) {
            long cs = child.size;
            long i = skip / cs;
            long within = skip - i * cs;
            long at = base + offset + i * stride;
            long done = 0;
            while (done < len) {
                long n = Math.min(cs - within, len - done);
                child.visit(at, within, n, streamAt + done, visitor);
                done += n;
                within = 0;
                at += stride;
            }
        }

        @Override
        public String toString() {
            return "Repeat[" + count + " x " + child + " at " + offset + " stride " + stride + "]";
        }
    }

    /** Child plans one after the other in packed order. */
    static final class Seq extends Plan {
        final Plan[] parts;
        /** ends[i] = packed position just after part i. */
        final long[] ends;

        Seq(Plan[] parts) {
            super(total(parts), lowest(parts), highest(parts), runs(parts));
            this.parts = parts;
            this.ends = new long[parts.length];
            long s = 0;
            for (int i = 0; i < parts.length; i++) {
                s += parts[i].size;
                ends[i] = s;
            }
        }

        @Override
        long orBits() {
            long b = 0;
            for (Plan p : parts) {
                b |= p.lowBits();
            }
            return b;
        }

        private static long total(Plan[] parts) {
            long s = 0;
            for (Plan p : parts) {
                s = Math.addExact(s, p.size);
            }
            return s;
        }

        private static long lowest(Plan[] parts) {
            long m = Long.MAX_VALUE;
            for (Plan p : parts) {
                m = Math.min(m, p.trueLb);
            }
            return m;
        }

        private static long highest(Plan[] parts) {
            long m = Long.MIN_VALUE;
            for (Plan p : parts) {
                m = Math.max(m, p.trueUb);
            }
            return m;
        }

        private static long runs(Plan[] parts) {
            long s = 0;
            for (Plan p : parts) {
                s = saturatedSum(s, p.runCount);
            }
            return s;
        }

        @Override
        Plan shift(long d) {
            if (d == 0) {
                return this;
            }
            Plan[] moved = new Plan[parts.length];
            for (int i = 0; i < parts.length; i++) {
                moved[i] = parts[i].shift(d);
            }
            return new Seq(moved);
        }

        @Override
        void appendRuns(RunList out, long d) {
            for (Plan p : parts) {
                p.appendRuns(out, d);
            }
        }

        @Override
        void move(MemorySegment mem, long base, long skip, long len, MemorySegment buf, long bufAt, boolean pack,
                CopyKernel k) {
            int i = skip == 0 ? 0 : firstEndAfter(ends, skip);
            long within = skip - (i == 0 ? 0 : ends[i - 1]);
            long done = 0;
            while (done < len) {
                long n = Math.min(parts[i].size - within, len - done);
                parts[i].move(mem, base, within, n, buf, bufAt + done, pack, k);
                done += n;
                within = 0;
                i++;
            }
        }

        @Override
        void visit(long base, long skip, long len, long streamAt, RunVisitor visitor) {
            int i = skip == 0 ? 0 : firstEndAfter(ends, skip);
            long within = skip - (i == 0 ? 0 : ends[i - 1]);
            long done = 0;
            while (done < len) {
                long n = Math.min(parts[i].size - within, len - done);
                parts[i].visit(base, within, n, streamAt + done, visitor);
                done += n;
                within = 0;
                i++;
            }
        }

        @Override
        public String toString() {
            return "Seq" + Arrays.toString(parts);
        }
    }

    /** A growing list of runs; merges a run into the previous one when they touch in memory. */
    static final class RunList {
        private long[] offsets = new long[8];
        private long[] lengths = new long[8];
        private int n;

        void add(long offset, long length) {
            if (length == 0) {
                return;
            }
            if (n > 0 && offsets[n - 1] + lengths[n - 1] == offset) {
                lengths[n - 1] = Math.addExact(lengths[n - 1], length);
                return;
            }
            if (n == offsets.length) {
                offsets = Arrays.copyOf(offsets, n * 2);
                lengths = Arrays.copyOf(lengths, n * 2);
            }
            offsets[n] = offset;
            lengths[n] = length;
            n++;
        }

        int size() {
            return n;
        }

        Runs build() {
            return n == 0 ? EMPTY : new Runs(Arrays.copyOf(offsets, n), Arrays.copyOf(lengths, n));
        }
    }
}
