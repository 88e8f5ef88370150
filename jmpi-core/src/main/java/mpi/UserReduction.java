package mpi;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.jmpi.datatype.PlanData;
import org.jmpi.datatype.TypeDescriptor;
import org.jmpi.op.Reduction;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;

/**
 * A user-defined operation ({@link Op} over a {@link UserFunction}) bound to a datatype, as the collectives call it.
 * Working arrays are {@code byte[]} holding packed elements. The function sees what the Open MPI bindings show it:
 * {@code call(ByteBuffer in, ByteBuffer inOut, count, type)} with the data in the datatype's memory layout and native
 * byte order, or, for {@link MPI#BOOLEAN}, {@code call(Object, Object, count, type)} with {@code boolean[]} arrays.
 * For a contiguous datatype the buffers are views of the packed data (no copy); otherwise the data is laid out into
 * the type's shape first and packed back after.
 *
 * <p>Threading: immutable; {@link #apply} runs in the thread that advances the collective, which in threads mode
 * may be another rank's thread.
 */
final class UserReduction implements Reduction {
    private final Op op;
    private final Datatype type;
    private final int size;
    private final boolean booleans;
    private final boolean packedLayout;

    UserReduction(Op op, Datatype type) {
        this.op = op;
        this.type = type;
        long s = type.desc.size();
        if (s == 0 || s > Integer.MAX_VALUE / 2) {
            throw new MpiError(ErrorClass.ERR_TYPE, "cannot reduce elements of the datatype " + type.name + " ("
                    + s + " bytes of data)");
        }
        this.size = (int) s;
        this.booleans = type.baseKind == Datatype.KIND_BOOLEAN;
        this.packedLayout = type.desc.isContiguous() && type.desc.lb() == 0;
    }

    @Override
    public Class<?> arrayType() {
        return byte[].class;
    }

    @Override
    public int slotsPerElement() {
        return size;
    }

    @Override
    public int slotBytes() {
        return 1;
    }

    @Override
    public boolean commutative() {
        return op.commute;
    }

    @Override
    public String describe() {
        return "a user-defined operation on " + type.name;
    }

    @Override
    public void apply(Object in, Object inout, int first, int count) {
        byte[] a = (byte[]) in;
        byte[] b = (byte[]) inout;
        int off = first * size;
        int len = count * size;
        try {
            if (booleans) {
                boolean[] x = new boolean[len];
                boolean[] y = new boolean[len];
                for (int i = 0; i < len; i++) {
                    x[i] = a[off + i] != 0;
                    y[i] = b[off + i] != 0;
                }
                op.function.call(x, y, count, type);
                for (int i = 0; i < len; i++) {
                    b[off + i] = y[i] ? (byte) 1 : (byte) 0;
                }
            } else if (packedLayout) {
                op.function.call(view(a, off, len), view(b, off, len), count, type);
            } else {
                callLaidOut(a, b, off, len, count);
            }
        } catch (MPIException e) {
            throw new MpiError(e.getErrorClass(), "the user-defined operation failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void applyNative(MemorySegment in, MemorySegment inout, long first, long count) {
        long off = first * size;
        long len = count * size;
        if (packedLayout && !booleans && len <= Integer.MAX_VALUE) {
            // the function works on the native memory itself
            try {
                op.function.call(in.asSlice(off, len).asByteBuffer().order(ByteOrder.nativeOrder()),
                        inout.asSlice(off, len).asByteBuffer().order(ByteOrder.nativeOrder()), (int) count, type);
            } catch (MPIException e) {
                throw new MpiError(e.getErrorClass(), "the user-defined operation failed: " + e.getMessage(), e);
            }
            return;
        }
        if (len > Integer.MAX_VALUE - 16) {
            throw new MpiError(ErrorClass.ERR_COUNT, "a user-defined reduction of more than 2 GiB at once");
        }
        byte[] a = in.asSlice(off, len).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        byte[] b = inout.asSlice(off, len).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        apply(a, b, 0, (int) count);
        MemorySegment.copy(MemorySegment.ofArray(b), 0, inout, off, len);
    }

    /** Lays the packed elements out in the datatype's shape, calls the function, packs the result back. */
    private void callLaidOut(byte[] a, byte[] b, int off, int len, int count) throws MPIException {
        TypeDescriptor d = type.desc;
        long[] span = d.span(count);
        long lo = Math.min(0, span[0]);
        long hi = Math.max(span[1], count * d.extent());
        if (hi - lo > Integer.MAX_VALUE) {
            throw new MpiError(ErrorClass.ERR_COUNT, "the data of a user-defined operation spans more than 2 GiB");
        }
        byte[] x = new byte[(int) (hi - lo)];
        byte[] y = new byte[(int) (hi - lo)];
        PlanData px = new PlanData(MemorySegment.ofArray(x), -lo, d, count);
        PlanData py = new PlanData(MemorySegment.ofArray(y), -lo, d, count);
        px.unpackFrom(0, MemorySegment.ofArray(a), off, len);
        py.unpackFrom(0, MemorySegment.ofArray(b), off, len);
        op.function.call(view(x, 0, x.length), view(y, 0, y.length), count, type);
        py.packTo(0, MemorySegment.ofArray(b), off, len);
    }

    private static ByteBuffer view(byte[] a, int off, int len) {
        return ByteBuffer.wrap(a, off, len).slice().order(ByteOrder.nativeOrder());
    }
}
