package mpi;

import java.nio.ByteBuffer;

/**
 * A user-defined reduction, wrapped by {@link Op#Op(UserFunction, boolean)}. A subclass overrides one of the two
 * {@code call} methods: the {@link ByteBuffer} variant works on the data in place (native byte order); the
 * {@code Object} variant receives Java arrays. The default {@code ByteBuffer} variant copies both buffers into
 * arrays of the datatype's base Java type, calls the {@code Object} variant and copies the result back.
 */
public abstract class UserFunction {
    /** For subclasses: a user-defined reduction operation. */
    public UserFunction() {}

    /**
     * Combines {@code inVec} into {@code inOutVec}: {@code inOutVec[i] = inVec[i] op inOutVec[i]}. The arrays have
     * the datatype's base Java type ({@code boolean[]} for {@link MPI#BOOLEAN}, {@code byte[]} for pair types).
     *
     * @throws MPIException of class {@link MPI#ERR_OP} unless a subclass overrides this method or the
     *     {@code ByteBuffer} variant
     */
    public void call(Object inVec, Object inOutVec, int count, Datatype datatype) throws MPIException {
        throw new MPIException(MPI.ERR_OP,
                "UserFunction: " + getClass().getName() + " overrides neither call(Object, ...) nor call(ByteBuffer, ...)");
    }

    /**
     * Combines {@code in} into {@code inOut}, both holding {@code count} elements of {@code datatype} from position
     * 0 to their limit. This default copies the buffers into arrays of the datatype's base type, calls
     * {@link #call(Object, Object, int, Datatype)} and writes the array back into {@code inOut}.
     */
    public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype datatype) throws MPIException {
        if (in == null || inOut == null) {
            throw new MPIException(MPI.ERR_BUFFER, "UserFunction.call: null buffer");
        }
        if (datatype == null || datatype.isNull()) {
            throw new MPIException(MPI.ERR_TYPE, "UserFunction.call: null datatype");
        }
        ByteBuffer a = in.duplicate().order(in.order()).rewind();
        ByteBuffer b = inOut.duplicate().order(inOut.order()).rewind();
        Object inVec;
        Object inOutVec;
        switch (datatype.baseKind) {
            case Datatype.KIND_CHAR -> {
                char[] x = new char[a.remaining() / 2];
                char[] y = new char[b.remaining() / 2];
                a.asCharBuffer().get(x);
                b.asCharBuffer().get(y);
                inVec = x;
                inOutVec = y;
            }
            case Datatype.KIND_SHORT -> {
                short[] x = new short[a.remaining() / 2];
                short[] y = new short[b.remaining() / 2];
                a.asShortBuffer().get(x);
                b.asShortBuffer().get(y);
                inVec = x;
                inOutVec = y;
            }
            case Datatype.KIND_BOOLEAN -> {
                boolean[] x = new boolean[a.remaining()];
                boolean[] y = new boolean[b.remaining()];
                for (int i = 0; i < x.length; i++) {
                    x[i] = a.get(i) != 0;
                }
                for (int i = 0; i < y.length; i++) {
                    y[i] = b.get(i) != 0;
                }
                inVec = x;
                inOutVec = y;
            }
            case Datatype.KIND_INT -> {
                int[] x = new int[a.remaining() / 4];
                int[] y = new int[b.remaining() / 4];
                a.asIntBuffer().get(x);
                b.asIntBuffer().get(y);
                inVec = x;
                inOutVec = y;
            }
            case Datatype.KIND_LONG -> {
                long[] x = new long[a.remaining() / 8];
                long[] y = new long[b.remaining() / 8];
                a.asLongBuffer().get(x);
                b.asLongBuffer().get(y);
                inVec = x;
                inOutVec = y;
            }
            case Datatype.KIND_FLOAT, Datatype.KIND_FLOAT_COMPLEX -> {
                float[] x = new float[a.remaining() / 4];
                float[] y = new float[b.remaining() / 4];
                a.asFloatBuffer().get(x);
                b.asFloatBuffer().get(y);
                inVec = x;
                inOutVec = y;
            }
            case Datatype.KIND_DOUBLE, Datatype.KIND_DOUBLE_COMPLEX -> {
                double[] x = new double[a.remaining() / 8];
                double[] y = new double[b.remaining() / 8];
                a.asDoubleBuffer().get(x);
                b.asDoubleBuffer().get(y);
                inVec = x;
                inOutVec = y;
            }
            default -> {
                byte[] x = new byte[a.remaining()];
                byte[] y = new byte[b.remaining()];
                a.get(x);
                b.get(y);
                inVec = x;
                inOutVec = y;
            }
        }
        call(inVec, inOutVec, count, datatype);
        ByteBuffer out = inOut.duplicate().order(inOut.order()).rewind();
        switch (inOutVec) {
            case char[] y -> out.asCharBuffer().put(y);
            case short[] y -> out.asShortBuffer().put(y);
            case boolean[] y -> {
                for (int i = 0; i < y.length; i++) {
                    out.put(i, (byte) (y[i] ? 1 : 0));
                }
            }
            case int[] y -> out.asIntBuffer().put(y);
            case long[] y -> out.asLongBuffer().put(y);
            case float[] y -> out.asFloatBuffer().put(y);
            case double[] y -> out.asDoubleBuffer().put(y);
            case byte[] y -> out.put(y);
            default -> throw new AssertionError(inOutVec);
        }
    }
}
