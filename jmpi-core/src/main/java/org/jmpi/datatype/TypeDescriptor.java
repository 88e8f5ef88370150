package org.jmpi.datatype;

import java.util.ArrayList;
import java.util.List;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;

/**
 * The internal, immutable description of a datatype: its base kind (the Java buffer it is used with), its compiled
 * {@link Plan} (which bytes of one element hold data, in packed order), its {@link Signature} (which primitives the
 * packed bytes are), and the bounds MPI defines. All sizes here are in bytes; package {@code mpi} converts to
 * base-type units where the API asks for them.
 *
 * <h2>Bounds</h2>
 * {@code lb} and {@code ub = lb + extent} follow MPI's rules with sticky markers: a type made by
 * {@link #resized} has explicit ("marked") bounds; a constructor whose parts include marked bounds takes its bound
 * from the marked parts only, otherwise from all parts; an empty type has {@code lb = ub = 0}. The true bounds are
 * those of the data alone. No alignment padding is added to structs (as in Open MPI); {@code mpi.Struct} sets its
 * extent explicitly.
 *
 * <p>Threading: immutable, freely shared.
 */
public final class TypeDescriptor {
    private final BaseKind base;
    private final Plan plan;
    private final Signature signature;
    private final long lb;
    private final long ub;
    private final boolean lbMarked;
    private final boolean ubMarked;
    /** See {@link #isDense()}. */
    private final boolean dense;

    private TypeDescriptor(BaseKind base, Plan plan, Signature signature, long lb, long ub, boolean lbMarked,
            boolean ubMarked) {
        if (plan.size != signature.bytes()) {
            throw new IllegalStateException("plan of " + plan.size + " bytes, signature of " + signature.bytes());
        }
        this.base = base;
        this.plan = plan;
        this.signature = signature;
        this.lb = lb;
        this.ub = ub;
        this.lbMarked = lbMarked;
        this.ubMarked = ubMarked;
        this.dense = plan.size > 0 && lb == 0 && isContiguous();
    }

    /**
     * A type given by its runs, whose data are all elements of the base kind.
     *
     * @param runOffsets byte offset of each run from the element's origin
     * @param runLengths byte length of each run; runs are in type-map order
     */
    public TypeDescriptor(BaseKind base, long[] runOffsets, long[] runLengths, long lb, long extent) {
        this(base, Primitive.of(base), runOffsets, runLengths, lb, extent);
    }

    private TypeDescriptor(BaseKind base, Primitive kind, long[] runOffsets, long[] runLengths, long lb,
            long extent) {
        this(base, runs(runOffsets, runLengths), signatureOf(kind, runLengths), lb, lb + extent, false, false);
    }

    private static Plan runs(long[] offsets, long[] lengths) {
        if (offsets.length != lengths.length) {
            throw new IllegalArgumentException("runs");
        }
        Plan.RunList list = new Plan.RunList();
        for (int i = 0; i < offsets.length; i++) {
            list.add(offsets[i], lengths[i]);
        }
        return list.build();
    }

    private static Signature signatureOf(Primitive kind, long[] lengths) {
        long total = 0;
        for (long l : lengths) {
            total += l;
        }
        if (total % kind.bytes != 0) {
            throw new IllegalArgumentException(total + " bytes are not a whole number of " + kind);
        }
        return Signature.of(kind, total / kind.bytes);
    }

    /** A predefined type: one element of the base kind. */
    public static TypeDescriptor primitive(BaseKind base) {
        return new TypeDescriptor(base, new long[] {0}, new long[] {base.bytes}, 0, base.bytes);
    }

    /**
     * A predefined type holding one {@code kind} (a complex number or a pair), stored in memory in the given runs
     * (value, then index for a pair) within {@code extent} bytes.
     */
    public static TypeDescriptor predefined(BaseKind base, Primitive kind, long[] runOffsets, long[] runLengths,
            long extent) {
        long total = 0;
        for (long l : runLengths) {
            total += l;
        }
        if (total != kind.bytes) {
            throw new IllegalArgumentException(kind + " packs to " + kind.bytes + " bytes, not " + total);
        }
        return new TypeDescriptor(base, kind, runOffsets, runLengths, 0, extent);
    }

    // ------------------------------------------------------------------------------------------- constructors

    /** {@code count} copies of {@code old}, one extent apart ({@code MPI_Type_contiguous}). */
    public static TypeDescriptor contiguous(long count, TypeDescriptor old) {
        return hvector(count, 1, old.extent(), old);
    }

    /**
     * {@code count} blocks of {@code blockLength} copies of {@code old}, the blocks {@code strideBytes} apart
     * ({@code MPI_Type_create_hvector}; a vector's stride in extents is converted by the caller).
     */
    public static TypeDescriptor hvector(long count, long blockLength, long strideBytes, TypeDescriptor old) {
        checkNonNegative(count, "count");
        checkNonNegative(blockLength, "block length");
        try {
            Bounds b = new Bounds();
            b.add(0, count, strideBytes, blockLength, old.extent(), old);
            Plan block = Plan.repeat(0, blockLength, old.extent(), old.plan);
            Plan p = Plan.repeat(0, count, strideBytes, block);
            Signature s = old.signature.repeat(Math.multiplyExact(count, blockLength));
            return b.build(old.base, p, s);
        } catch (ArithmeticException e) {
            throw tooLarge(e);
        }
    }

    /**
     * Blocks of {@code blockLengths[i]} copies of {@code old} at byte displacements {@code displacements[i]}
     * ({@code MPI_Type_create_hindexed}; an indexed type's displacements in extents are converted by the caller).
     */
    public static TypeDescriptor hindexed(long[] blockLengths, long[] displacements, TypeDescriptor old) {
        TypeDescriptor[] types = new TypeDescriptor[blockLengths.length];
        java.util.Arrays.fill(types, old);
        return blocks(old.base, blockLengths, displacements, types);
    }

    /**
     * Blocks of {@code blockLengths[i]} copies of {@code types[i]} at byte displacements {@code displacements[i]}
     * ({@code MPI_Type_create_struct}). The result is byte-based, whatever its parts.
     */
    public static TypeDescriptor struct(long[] blockLengths, long[] displacements, TypeDescriptor[] types) {
        return blocks(BaseKind.BYTE, blockLengths, displacements, types);
    }

    private static TypeDescriptor blocks(BaseKind base, long[] blockLengths, long[] displacements,
            TypeDescriptor[] types) {
        if (blockLengths.length != displacements.length || blockLengths.length != types.length) {
            throw new MpiError(ErrorClass.ERR_ARG, "block lengths, displacements and types differ in length ("
                    + blockLengths.length + ", " + displacements.length + ", " + types.length + ")");
        }
        for (long l : blockLengths) {
            checkNonNegative(l, "block length");
        }
        try {
            Bounds b = new Bounds();
            List<Plan> parts = new ArrayList<>(blockLengths.length);
            Signature.Builder s = new Signature.Builder();
            for (int i = 0; i < blockLengths.length; i++) {
                TypeDescriptor t = types[i];
                b.add(displacements[i], 1, 0, blockLengths[i], t.extent(), t);
                parts.add(Plan.repeat(displacements[i], blockLengths[i], t.extent(), t.plan));
                s.add(t.signature.repeat(blockLengths[i]));
            }
            return b.build(base, Plan.seq(parts), s.build());
        } catch (ArithmeticException e) {
            throw tooLarge(e);
        }
    }

    /** {@code old} with explicit bounds {@code lb} and {@code lb + extent} ({@code MPI_Type_create_resized}). */
    public static TypeDescriptor resized(TypeDescriptor old, long lb, long extent) {
        checkNonNegative(extent, "extent");
        try {
            return new TypeDescriptor(old.base, old.plan, old.signature, lb, Math.addExact(lb, extent), true, true);
        } catch (ArithmeticException e) {
            throw tooLarge(e);
        }
    }

    private static void checkNonNegative(long v, String what) {
        if (v < 0) {
            throw new MpiError(what.equals("count") ? ErrorClass.ERR_COUNT : ErrorClass.ERR_ARG,
                    "negative " + what + " " + v);
        }
    }

    private static MpiError tooLarge(ArithmeticException e) {
        return new MpiError(ErrorClass.ERR_ARG, "the datatype is too large (its byte offsets overflow 64 bits)", e);
    }

    /** Collects the bounds of a constructor's parts with MPI's marker rules. */
    private static final class Bounds {
        private long lb = Long.MAX_VALUE;
        private long ub = Long.MIN_VALUE;
        private boolean lbMarked;
        private boolean ubMarked;
        private boolean any;

        /** Copies of {@code t} at {@code d + i * s1 + j * s2} for {@code i < n1}, {@code j < n2}. */
        void add(long d, long n1, long s1, long n2, long s2, TypeDescriptor t) {
            if (n1 == 0 || n2 == 0 || (t.size() == 0 && !t.lbMarked && !t.ubMarked)) {
                return;
            }
            long low = Math.addExact(d, Math.addExact(Math.min(0, Math.multiplyExact(n1 - 1, s1)),
                    Math.min(0, Math.multiplyExact(n2 - 1, s2))));
            long high = Math.addExact(d, Math.addExact(Math.max(0, Math.multiplyExact(n1 - 1, s1)),
                    Math.max(0, Math.multiplyExact(n2 - 1, s2))));
            long l = Math.addExact(low, t.lb);
            long u = Math.addExact(high, t.ub);
            any = true;
            if (t.lbMarked && !lbMarked) {
                lbMarked = true;
                lb = l;
            } else if (t.lbMarked == lbMarked) {
                lb = Math.min(lb, l);
            }
            if (t.ubMarked && !ubMarked) {
                ubMarked = true;
                ub = u;
            } else if (t.ubMarked == ubMarked) {
                ub = Math.max(ub, u);
            }
        }

        TypeDescriptor build(BaseKind base, Plan plan, Signature signature) {
            if (!any) {
                return new TypeDescriptor(base, plan, signature, 0, 0, false, false);
            }
            return new TypeDescriptor(base, plan, signature, lb, ub, lbMarked, ubMarked);
        }
    }

    // ------------------------------------------------------------------------------------------------ queries

    public BaseKind base() {
        return base;
    }

    /** The primitives one element packs to. */
    public Signature signature() {
        return signature;
    }

    /** Bytes of data in one element (MPI size). */
    public long size() {
        return plan.size;
    }

    public long lb() {
        return lb;
    }

    public long extent() {
        return ub - lb;
    }

    public long trueLb() {
        return plan.size == 0 ? 0 : plan.trueLb;
    }

    public long trueExtent() {
        return plan.size == 0 ? 0 : plan.trueUb - plan.trueLb;
    }

    Plan plan() {
        return plan;
    }

    /**
     * True when {@code count} elements occupy exactly {@code count * size} consecutive bytes starting at the lower
     * bound, so they can move without packing.
     */
    public boolean isContiguous() {
        return plan.size == 0
                || plan instanceof Plan.Runs r && r.offsets.length == 1 && r.offsets[0] == lb && r.lengths[0] == ub - lb;
    }

    /**
     * True when {@code count} elements are exactly the first {@code count * size} bytes from the buffer's start (lower
     * bound 0, one run of data filling the extent): every predefined type but the pairs and complex numbers with
     * padding, and contiguous types made of them. A view of such a type needs no plan ({@code BufferView}).
     */
    public boolean isDense() {
        return dense;
    }

    /** Number of contiguous runs one element has (saturated at {@link Long#MAX_VALUE}); 1 for contiguous types. */
    public long runCount() {
        return plan.runCount;
    }

    /**
     * The span of memory, in bytes from the buffer start, that {@code count} elements touch: the lowest and one
     * past the highest byte. Used for bounds checks.
     *
     * @throws MpiError ERR_COUNT when the span overflows
     */
    public long[] span(long count) {
        if (count == 0 || plan.size == 0) {
            return new long[] {0, 0};
        }
        try {
            long reach = Math.multiplyExact(count - 1, extent());
            return new long[] {Math.addExact(plan.trueLb, Math.min(0, reach)),
                Math.addExact(plan.trueUb, Math.max(0, reach))};
        } catch (ArithmeticException e) {
            throw new MpiError(ErrorClass.ERR_COUNT, "count " + count + " of a type of extent " + extent()
                    + " bytes overflows the address range");
        }
    }

    /**
     * Calls {@code visitor} for every contiguous run of memory that {@code count} elements of this type occupy, in
     * packed order, with offsets in bytes from element 0's origin (they may be negative). One-sided operations send
     * the target's layout this way.
     */
    public void visitRuns(long count, RunVisitor visitor) {
        Plan p = Plan.repeat(0, count, extent(), plan);
        if (p.size > 0) {
            p.visit(0, 0, p.size, 0, visitor);
        }
    }

    /**
     * The basic elements ({@code MPI_Get_elements}) in the first {@code bytes} bytes of a packed stream of this type,
     * or -1 when {@code bytes} ends inside a basic element.
     */
    public long basicElementsIn(long bytes) {
        long size = plan.size;
        if (size == 0) {
            return bytes == 0 ? 0 : -1;
        }
        long whole = bytes / size;
        long partial = signature.basicElementsIn(bytes - whole * size);
        if (partial < 0) {
            return -1;
        }
        return whole * signature.basicElements() + partial;
    }

    /**
     * The packed bytes that hold the first {@code elements} basic elements of a stream of this type, or -1 when that
     * cannot be told ({@code MPI_Status_set_elements}).
     */
    public long bytesOfBasicElements(long elements) {
        long per = signature.basicElements();
        if (per == 0) {
            return elements == 0 ? 0 : -1;
        }
        long whole = elements / per;
        long partial = signature.bytesOfBasicElements(elements - whole * per);
        if (partial < 0) {
            return -1;
        }
        return whole * plan.size + partial;
    }

    @Override
    public String toString() {
        return "TypeDescriptor[" + base + ", size " + plan.size + ", lb " + lb + ", extent " + extent() + ", "
                + plan + "]";
    }
}
