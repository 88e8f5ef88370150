package mpi;

import java.util.Arrays;

/**
 * A datatype of the mpiJava 1.2 API. Every type has one base type (a Java element type, {@link MPI#OBJECT} included)
 * and a type map kept here as runs of consecutive base elements, with its bounds, all in base-type elements (the
 * unit of every count, offset, displacement and stride of this API; also of {@code Hvector} and {@code Hindexed}).
 * For primitive base types the runtime's datatype is built from the runs when the type is first used; for
 * {@code OBJECT} the runs select the elements of an {@code Object[]} directly.
 */
public class Datatype implements Freeable {
    static final int NULL_CODE = 0;
    static final int BYTE_CODE = 1;
    static final int CHAR_CODE = 2;
    static final int SHORT_CODE = 3;
    static final int BOOLEAN_CODE = 4;
    static final int INT_CODE = 5;
    static final int LONG_CODE = 6;
    static final int FLOAT_CODE = 7;
    static final int DOUBLE_CODE = 8;
    static final int PACKED_CODE = 9;
    static final int LB_CODE = 10;
    static final int UB_CODE = 11;
    static final int OBJECT_CODE = 12;

    private static final int[] BYTES = {0, 1, 2, 2, 1, 4, 8, 4, 8, 1, 0, 0, 0};
    private static final String[] NAMES = {"NULL", "BYTE", "CHAR", "SHORT", "BOOLEAN", "INT", "LONG", "FLOAT",
        "DOUBLE", "PACKED", "LB", "UB", "OBJECT"};

    /** The base type's code (MPJ Express's numbering: {@code BYTE} = 1 ... {@code OBJECT} = 12). */
    public int baseType;

    /** Runs of the type map: {@code runLength[i]} base elements from element {@code runStart[i]}, in order. */
    final int[] runStart;
    final int[] runLength;
    final int lb;
    final int ub;
    /** Whether the bounds come from MPI.LB / MPI.UB markers (which then stick through further constructors). */
    final boolean lbMarked;
    final boolean ubMarked;
    /** Base elements in the type map. */
    final int size;
    private final String name;
    private org.jmpi.mpj.ompi.Datatype runtime;
    private boolean freed;

    Datatype(int baseType, int[] runStart, int[] runLength, int lb, int ub, boolean lbMarked, boolean ubMarked,
            String name) {
        this.baseType = baseType;
        this.runStart = runStart;
        this.runLength = runLength;
        this.lb = lb;
        this.ub = ub;
        this.lbMarked = lbMarked;
        this.ubMarked = ubMarked;
        int s = 0;
        for (int n : runLength) {
            s += n;
        }
        this.size = s;
        this.name = name;
    }

    /** A predefined type. */
    static Datatype basic(int code) {
        if (code == LB_CODE || code == UB_CODE) {
            return new Datatype(code, new int[0], new int[0], 0, 0, code == LB_CODE, code == UB_CODE, NAMES[code]);
        }
        if (code == NULL_CODE) {
            return new Datatype(code, new int[0], new int[0], 0, 0, false, false, NAMES[code]);
        }
        return new Datatype(code, new int[] {0}, new int[] {1}, 0, 1, false, false, NAMES[code]);
    }

    /** The base type's code (as MPJ Express's {@code getType()}). */
    public int getType() {
        return baseType;
    }

    /** Bytes of one base element (0 for OBJECT and the markers). */
    public int getByteSize() {
        return BYTES[baseType];
    }

    /** The extent, in base-type elements. */
    public int Extent() {
        checkLive();
        return ub - lb;
    }

    /** Base elements in the type (the type map's length). */
    public int Size() {
        checkLive();
        return size;
    }

    public int Lb() {
        checkLive();
        return lb;
    }

    public int Ub() {
        checkLive();
        return ub;
    }

    /** Makes the type usable in communication (types are also usable without, as in MPJ Express). */
    public void Commit() {
        checkLive();
        if (!isObject()) {
            runtime();
        }
    }

    public void free() {
        freed = true;
    }

    /** Kept for programs that call it, as MPJ Express's public {@code finalize}; does nothing. */
    @SuppressWarnings({"deprecation", "removal"})
    @Override
    public void finalize() {
    }

    // ---------------------------------------------------------------- constructors of derived types

    /** {@code count} copies of {@code oldtype}, one extent apart. */
    public static Datatype Contiguous(int count, Datatype oldtype) {
        Builder b = new Builder(oldtype, "contiguous");
        checkCount(count);
        int ext = oldtype.ub - oldtype.lb;
        for (int i = 0; i < count; i++) {
            b.add(oldtype, (long) i * ext);
        }
        return b.build();
    }

    /** {@code count} blocks of {@code blocklength} copies, their starts {@code stride} old-type extents apart. */
    public static Datatype Vector(int count, int blocklength, int stride, Datatype oldtype) {
        return strided(count, blocklength, (long) stride * (oldtype.ub - oldtype.lb), oldtype, "vector");
    }

    /** As {@link #Vector}, but the stride counts base-type elements (the mpiJava rule), not extents. */
    public static Datatype Hvector(int count, int blocklength, int stride, Datatype oldtype) {
        return strided(count, blocklength, stride, oldtype, "hvector");
    }

    /** Blocks of {@code blocklengths[i]} copies at {@code displacements[i]} extents of the old type. */
    public static Datatype Indexed(int[] blocklengths, int[] displacements, Datatype oldtype) {
        return indexed(blocklengths, displacements, oldtype, oldtype == null ? 0 : oldtype.ub - oldtype.lb, "indexed");
    }

    /** As {@link #Indexed}, but the displacements count base-type elements. */
    public static Datatype Hindexed(int[] blocklengths, int[] displacements, Datatype oldtype) {
        return indexed(blocklengths, displacements, oldtype, 1, "hindexed");
    }

    /**
     * Blocks of {@code array_of_blocklengths[i]} copies of {@code array_of_types[i]} at element displacement
     * {@code array_of_displacements[i]}. All types share one base type; {@link MPI#LB} and {@link MPI#UB} set bounds.
     */
    public static Datatype Struct(int[] array_of_blocklengths, int[] array_of_displacements,
            Datatype[] array_of_types) {
        if (array_of_blocklengths == null || array_of_displacements == null || array_of_types == null) {
            throw new MPIException("Struct: null argument", ERR_ARG);
        }
        int n = array_of_types.length;
        if (array_of_blocklengths.length < n || array_of_displacements.length < n) {
            throw new MPIException("Struct: " + n + " types but " + array_of_blocklengths.length
                    + " block lengths and " + array_of_displacements.length + " displacements", ERR_ARG);
        }
        Builder b = new Builder(null, "struct");
        for (int i = 0; i < n; i++) {
            Datatype t = array_of_types[i];
            if (t == null) {
                throw new MPIException("Struct: types[" + i + "] is null", ERR_TYPE);
            }
            t.checkLive();
            checkCount(array_of_blocklengths[i]);
            int ext = t.ub - t.lb;
            for (int j = 0; j < array_of_blocklengths[i]; j++) {
                b.add(t, array_of_displacements[i] + (long) j * ext);
            }
        }
        return b.build();
    }

    private static Datatype strided(int count, int blocklength, long stride, Datatype oldtype, String what) {
        Builder b = new Builder(oldtype, what);
        checkCount(count);
        checkCount(blocklength);
        int ext = oldtype.ub - oldtype.lb;
        for (int i = 0; i < count; i++) {
            for (int j = 0; j < blocklength; j++) {
                b.add(oldtype, i * stride + (long) j * ext);
            }
        }
        return b.build();
    }

    private static Datatype indexed(int[] blocklengths, int[] displacements, Datatype oldtype, long unit,
            String what) {
        Builder b = new Builder(oldtype, what);
        if (blocklengths == null || displacements == null) {
            throw new MPIException(what + ": null array", ERR_ARG);
        }
        if (displacements.length < blocklengths.length) {
            throw new MPIException(what + ": " + blocklengths.length + " block lengths but " + displacements.length
                    + " displacements", ERR_ARG);
        }
        int ext = oldtype.ub - oldtype.lb;
        for (int i = 0; i < blocklengths.length; i++) {
            checkCount(blocklengths[i]);
            for (int j = 0; j < blocklengths[i]; j++) {
                b.add(oldtype, displacements[i] * unit + (long) j * ext);
            }
        }
        return b.build();
    }

    private static void checkCount(int n) {
        if (n < 0) {
            throw new MPIException("negative count " + n, ERR_COUNT);
        }
    }

    /** Collects copies of types at element displacements into runs and bounds (MPI-1's rules for LB and UB). */
    private static final class Builder {
        private final String what;
        private int base = -1;
        private int[] starts = new int[4];
        private int[] lengths = new int[4];
        private int runs;
        private long lb = Long.MAX_VALUE;
        private long ub = Long.MIN_VALUE;
        private long markedLb = Long.MAX_VALUE;
        private long markedUb = Long.MIN_VALUE;
        private boolean lbMarked;
        private boolean ubMarked;

        Builder(Datatype old, String what) {
            this.what = what;
            if (old == null && !what.equals("struct")) {
                throw new MPIException(what + ": null old type", ERR_TYPE);
            }
            if (old != null) {
                old.checkLive();
                if (old.baseType == LB_CODE || old.baseType == UB_CODE) {
                    throw new MPIException(what + ": MPI.LB and MPI.UB belong in a Struct only", ERR_TYPE);
                }
            }
        }

        void add(Datatype t, long at) {
            int code = t.baseType;
            if (code != LB_CODE && code != UB_CODE && code != NULL_CODE) {
                if (base < 0) {
                    base = code;
                } else if (base != code) {
                    throw new MPIException(what + ": all component types must have the same base type (have "
                            + NAMES[base] + " and " + NAMES[code] + ")", ERR_TYPE);
                }
            }
            for (int i = 0; i < t.runStart.length; i++) {
                long s = at + t.runStart[i];
                int n = t.runLength[i];
                if (s != (int) s || s + n != (int) (s + n)) {
                    throw new MPIException(what + ": displacement " + s + " does not fit in an int", ERR_ARG);
                }
                if (runs > 0 && starts[runs - 1] + lengths[runs - 1] == s) {
                    lengths[runs - 1] += n;
                } else {
                    if (runs == starts.length) {
                        starts = Arrays.copyOf(starts, runs * 2);
                        lengths = Arrays.copyOf(lengths, runs * 2);
                    }
                    starts[runs] = (int) s;
                    lengths[runs++] = n;
                }
            }
            if (t.lbMarked) {
                lbMarked = true;
                markedLb = Math.min(markedLb, at + t.lb);
            } else if (t.size > 0) {
                lb = Math.min(lb, at + t.lb);
            }
            if (t.ubMarked) {
                ubMarked = true;
                markedUb = Math.max(markedUb, at + t.ub);
            } else if (t.size > 0) {
                ub = Math.max(ub, at + t.ub);
            }
        }

        Datatype build() {
            long l = lbMarked ? markedLb : lb == Long.MAX_VALUE ? 0 : lb;
            long u = ubMarked ? markedUb : ub == Long.MIN_VALUE ? l : ub;
            if (l != (int) l || u != (int) u || u - l != (int) (u - l)) {
                throw new MPIException(what + ": the type's bounds do not fit in an int", ERR_ARG);
            }
            return new Datatype(base < 0 ? NULL_CODE : base, Arrays.copyOf(starts, runs), Arrays.copyOf(lengths, runs),
                    (int) l, (int) u, lbMarked, ubMarked, what);
        }
    }

    // ---------------------------------------------------------------- for the rest of the facade

    static final int ERR_TYPE = 3;
    static final int ERR_COUNT = 2;
    static final int ERR_ARG = 13;

    void checkLive() {
        if (freed) {
            throw new MPIException("the datatype has been freed", ERR_TYPE);
        }
    }

    boolean isObject() {
        return baseType == OBJECT_CODE;
    }

    /** Whether the type map is one run from element 0 with extent its length (a plain run of base elements). */
    boolean contiguous() {
        return runStart.length == 1 && runStart[0] == 0 && lb == 0 && ub == runLength[0];
    }

    /** The runtime's datatype for this one (primitive base types only), built on first use. */
    org.jmpi.mpj.ompi.Datatype runtime() {
        org.jmpi.mpj.ompi.Datatype r = runtime;
        if (r == null) {
            r = runtime = build();
        }
        return r;
    }

    private org.jmpi.mpj.ompi.Datatype build() {
        org.jmpi.mpj.ompi.Datatype base = switch (baseType) {
            case BYTE_CODE -> org.jmpi.mpj.ompi.MPI.BYTE;
            case CHAR_CODE -> org.jmpi.mpj.ompi.MPI.CHAR;
            case SHORT_CODE -> org.jmpi.mpj.ompi.MPI.SHORT;
            case BOOLEAN_CODE -> org.jmpi.mpj.ompi.MPI.BOOLEAN;
            case INT_CODE -> org.jmpi.mpj.ompi.MPI.INT;
            case LONG_CODE -> org.jmpi.mpj.ompi.MPI.LONG;
            case FLOAT_CODE -> org.jmpi.mpj.ompi.MPI.FLOAT;
            case DOUBLE_CODE -> org.jmpi.mpj.ompi.MPI.DOUBLE;
            case PACKED_CODE -> org.jmpi.mpj.ompi.MPI.PACKED;
            case NULL_CODE -> org.jmpi.mpj.ompi.MPI.BYTE; // a type without data (an empty Struct, LB/UB only)
            default -> throw new MPIException("MPI." + NAMES[baseType] + " has no data to communicate here",
                    ERR_TYPE);
        };
        try {
            if (runStart.length == 1 && runStart[0] == 0 && runLength[0] == 1 && lb == 0 && ub == 1) {
                return base;
            }
            org.jmpi.mpj.ompi.Datatype t;
            if (runStart.length == 0) {
                t = org.jmpi.mpj.ompi.Datatype.createResized(org.jmpi.mpj.ompi.Datatype.createContiguous(0, base),
                        lb, ub - lb);
            } else if (contiguous()) {
                t = org.jmpi.mpj.ompi.Datatype.createContiguous(runLength[0], base);
            } else {
                t = org.jmpi.mpj.ompi.Datatype.createIndexed(runLength, runStart, base);
                int natLb = runStart.length == 0 ? 0 : Integer.MAX_VALUE;
                int natUb = runStart.length == 0 ? 0 : Integer.MIN_VALUE;
                for (int i = 0; i < runStart.length; i++) {
                    natLb = Math.min(natLb, runStart[i]);
                    natUb = Math.max(natUb, runStart[i] + runLength[i]);
                }
                if (natLb != lb || natUb != ub) {
                    t = org.jmpi.mpj.ompi.Datatype.createResized(t, lb, ub - lb);
                }
            }
            t.commit();
            return t;
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    @Override
    public String toString() {
        return "MPI." + NAMES[baseType] + (name.equals(NAMES[baseType]) ? "" : " " + name + " of " + size
                + " elements, extent " + (ub - lb));
    }
}
