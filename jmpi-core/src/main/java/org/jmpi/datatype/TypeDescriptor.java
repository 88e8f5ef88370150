package org.jmpi.datatype;

import java.util.Arrays;

/**
 * The internal, immutable description of a datatype's layout: its base kind and, for one element, the list of
 * contiguous byte runs it covers (its "plan"), plus the bounds MPI defines. All sizes here are in bytes; package
 * {@code mpi} converts to base-type units where the API asks for them.
 *
 * <p>Threading: immutable, freely shared.
 */
public final class TypeDescriptor {
    private final BaseKind base;
    private final long[] runOffsets;
    private final long[] runLengths;
    private final long size;
    private final long lb;
    private final long extent;
    private final long trueLb;
    private final long trueExtent;
    private final boolean contiguous;

    /**
     * @param runOffsets byte offset of each run from the element's start (its origin, not its lower bound)
     * @param runLengths byte length of each run; runs are in type-map order
     */
    public TypeDescriptor(BaseKind base, long[] runOffsets, long[] runLengths, long lb, long extent) {
        if (runOffsets.length != runLengths.length) {
            throw new IllegalArgumentException("runs");
        }
        this.base = base;
        // merge adjacent runs so that contiguous layouts have exactly one run
        int n = 0;
        long[] o = new long[runOffsets.length];
        long[] l = new long[runLengths.length];
        for (int i = 0; i < runOffsets.length; i++) {
            if (runLengths[i] == 0) {
                continue;
            }
            if (n > 0 && o[n - 1] + l[n - 1] == runOffsets[i]) {
                l[n - 1] += runLengths[i];
            } else {
                o[n] = runOffsets[i];
                l[n] = runLengths[i];
                n++;
            }
        }
        this.runOffsets = Arrays.copyOf(o, n);
        this.runLengths = Arrays.copyOf(l, n);
        long s = 0;
        long tlo = Long.MAX_VALUE;
        long thi = Long.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            s += this.runLengths[i];
            tlo = Math.min(tlo, this.runOffsets[i]);
            thi = Math.max(thi, this.runOffsets[i] + this.runLengths[i]);
        }
        this.size = s;
        this.lb = lb;
        this.extent = extent;
        this.trueLb = n == 0 ? 0 : tlo;
        this.trueExtent = n == 0 ? 0 : thi - tlo;
        this.contiguous = n == 0 || (n == 1 && this.runOffsets[0] == lb && this.runLengths[0] == extent);
    }

    /** A predefined type: one element of the base kind. */
    public static TypeDescriptor primitive(BaseKind base) {
        return new TypeDescriptor(base, new long[] {0}, new long[] {base.bytes}, 0, base.bytes);
    }

    public BaseKind base() {
        return base;
    }

    /** Bytes of data in one element (MPI size). */
    public long size() {
        return size;
    }

    public long lb() {
        return lb;
    }

    public long extent() {
        return extent;
    }

    public long trueLb() {
        return trueLb;
    }

    public long trueExtent() {
        return trueExtent;
    }

    /**
     * True when {@code count} elements occupy exactly {@code count * size} consecutive bytes starting at the lower
     * bound, so they can move without packing.
     */
    public boolean isContiguous() {
        return contiguous;
    }

    public int runCount() {
        return runOffsets.length;
    }

    public long runOffset(int i) {
        return runOffsets[i];
    }

    public long runLength(int i) {
        return runLengths[i];
    }

    /**
     * The span of memory, in bytes from the buffer start, that {@code count} elements touch: the lowest and one
     * past the highest byte. Used for bounds checks.
     */
    public long[] span(long count) {
        if (count == 0 || size == 0) {
            return new long[] {0, 0};
        }
        long lo = Math.min(trueLb, trueLb + (count - 1) * extent);
        long hi = Math.max(trueLb + trueExtent, trueLb + trueExtent + (count - 1) * extent);
        return new long[] {lo, hi};
    }
}
