package org.jmpi.datatype;

import java.util.ArrayList;
import java.util.List;

/**
 * A reference model of MPI datatypes for tests, written from the MPI standard's definition and independent of
 * {@link Plan}: a type is its full type map (one entry per primitive, in order, never merged) plus its explicit lower
 * and upper bound markers. Packing walks the entries one by one.
 */
record RefType(BaseKind base, List<long[]> entries, Long lbMark, Long ubMark) {

    /** One primitive of {@code bytes} bytes at displacement 0. */
    static RefType primitive(BaseKind base) {
        List<long[]> e = new ArrayList<>();
        e.add(new long[] {0, base.bytes});
        return new RefType(base, e, null, null);
    }

    long lb() {
        if (lbMark != null) {
            return lbMark;
        }
        long m = entries.isEmpty() ? 0 : Long.MAX_VALUE;
        for (long[] e : entries) {
            m = Math.min(m, e[0]);
        }
        return m;
    }

    long ub() {
        if (ubMark != null) {
            return ubMark;
        }
        long m = entries.isEmpty() ? 0 : Long.MIN_VALUE;
        for (long[] e : entries) {
            m = Math.max(m, e[0] + e[1]);
        }
        return m;
    }

    long extent() {
        return ub() - lb();
    }

    long size() {
        long s = 0;
        for (long[] e : entries) {
            s += e[1];
        }
        return s;
    }

    long trueLb() {
        long m = entries.isEmpty() ? 0 : Long.MAX_VALUE;
        for (long[] e : entries) {
            m = Math.min(m, e[0]);
        }
        return m;
    }

    long trueUb() {
        long m = entries.isEmpty() ? 0 : Long.MIN_VALUE;
        for (long[] e : entries) {
            m = Math.max(m, e[0] + e[1]);
        }
        return m;
    }

    /** Builds a type from copies: copy {@code k} is {@code types.get(k)} placed at {@code displacements.get(k)}. */
    static RefType ofCopies(BaseKind base, List<RefType> types, List<Long> displacements) {
        List<long[]> e = new ArrayList<>();
        Long lbm = null;
        Long ubm = null;
        for (int k = 0; k < types.size(); k++) {
            RefType t = types.get(k);
            long d = displacements.get(k);
            for (long[] x : t.entries) {
                e.add(new long[] {x[0] + d, x[1]});
            }
            if (t.lbMark != null) {
                lbm = lbm == null ? t.lbMark + d : Math.min(lbm, t.lbMark + d);
            }
            if (t.ubMark != null) {
                ubm = ubm == null ? t.ubMark + d : Math.max(ubm, t.ubMark + d);
            }
        }
        return new RefType(base, e, lbm, ubm);
    }

    /** Bytes of the packed stream of {@code count} elements taken from {@code mem}, element 0 at {@code origin}. */
    byte[] pack(byte[] mem, long origin, int count) {
        byte[] out = new byte[(int) (size() * count)];
        int p = 0;
        long ext = extent();
        for (int i = 0; i < count; i++) {
            for (long[] e : entries) {
                for (int b = 0; b < e[1]; b++) {
                    out[p++] = mem[(int) (origin + i * ext + e[0] + b)];
                }
            }
        }
        return out;
    }

    /** Writes the packed stream {@code in} into {@code mem} in type-map order (later entries win on overlap). */
    void unpack(byte[] in, byte[] mem, long origin, int count) {
        int p = 0;
        long ext = extent();
        for (int i = 0; i < count; i++) {
            for (long[] e : entries) {
                for (int b = 0; b < e[1]; b++) {
                    mem[(int) (origin + i * ext + e[0] + b)] = in[p++];
                }
            }
        }
    }

    /** Lowest and one past the highest byte {@code count} elements touch, relative to element 0's origin. */
    long[] span(int count) {
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        long ext = extent();
        for (int i = 0; i < count; i++) {
            for (long[] e : entries) {
                lo = Math.min(lo, i * ext + e[0]);
                hi = Math.max(hi, i * ext + e[0] + e[1]);
            }
        }
        return lo > hi ? new long[] {0, 0} : new long[] {lo, hi};
    }
}
