package mpi;

/** A reduction operation: one of MPI's predefined ones, or a {@link User_function}. */
public class Op implements Freeable {
    /** MPJ Express's operation code (kept for programs that read it; -1 for user operations). */
    public int opCode = -1;
    private final org.jmpi.mpj.ompi.Op predefined;
    final User_function function;
    final boolean commute;
    private final String name;

    Op(org.jmpi.mpj.ompi.Op predefined, int code, String name) {
        this.predefined = predefined;
        this.function = null;
        this.commute = true;
        this.opCode = code;
        this.name = name;
    }

    public Op(User_function function, boolean commute) {
        this(function, commute, -1);
    }

    public Op(User_function function, boolean commute, int opCode) {
        if (function == null) {
            throw new MPIException("Op: null function", 13);
        }
        this.predefined = null;
        this.function = function;
        this.commute = commute;
        this.opCode = opCode;
        this.name = function.getClass().getName();
    }

    /** Whether this is a predefined operation (MAX ... BXOR), which the runtime applies itself. */
    boolean isPredefined() {
        return predefined != null;
    }

    /** The runtime's operation for a reduction over {@code type}; {@link #release} after the call. */
    org.jmpi.mpj.ompi.Op runtimeFor(Datatype type) {
        if (predefined != null) {
            return predefined;
        }
        User_function f = function;
        return new org.jmpi.mpj.ompi.Op(new org.jmpi.mpj.ompi.UserFunction() {
            @Override
            public void call(Object inVec, Object inOutVec, int count, org.jmpi.mpj.ompi.Datatype datatype) {
                f.Call(inVec, 0, inOutVec, 0, count, type);
            }
        }, commute);
    }

    void release(org.jmpi.mpj.ompi.Op o) {
        if (o != predefined && o != null) {
            try {
                o.free();
            } catch (org.jmpi.mpj.ompi.MPIException e) {
                throw MPIException.of(e);
            }
        }
    }

    public void free() {
    }

    @SuppressWarnings({"deprecation", "removal"})
    @Override
    public void finalize() {
    }

    @Override
    public String toString() {
        return "Op[" + name + "]";
    }

    /** MAXLOC and MINLOC over (value, index) pairs of one type: SHORT2, INT2, LONG2, FLOAT2, DOUBLE2. */
    static final class Loc extends User_function {
        private final boolean max;

        Loc(boolean max) {
            this.max = max;
        }

        @Override
        public void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count, Datatype datatype) {
            int n = count * Math.max(1, datatype.size);
            for (int i = 0; i + 1 < n; i += 2) {
                int a = inoffset + i;
                int b = inoutoffset + i;
                switch (invec) {
                    case int[] in -> {
                        int[] io = (int[]) inoutvec;
                        if (better(Integer.compare(in[a], io[b]), in[a + 1] < io[b + 1])) {
                            io[b] = in[a];
                            io[b + 1] = in[a + 1];
                        }
                    }
                    case double[] in -> {
                        double[] io = (double[]) inoutvec;
                        if (better(Double.compare(in[a], io[b]), in[a + 1] < io[b + 1])) {
                            io[b] = in[a];
                            io[b + 1] = in[a + 1];
                        }
                    }
                    case long[] in -> {
                        long[] io = (long[]) inoutvec;
                        if (better(Long.compare(in[a], io[b]), in[a + 1] < io[b + 1])) {
                            io[b] = in[a];
                            io[b + 1] = in[a + 1];
                        }
                    }
                    case float[] in -> {
                        float[] io = (float[]) inoutvec;
                        if (better(Float.compare(in[a], io[b]), in[a + 1] < io[b + 1])) {
                            io[b] = in[a];
                            io[b + 1] = in[a + 1];
                        }
                    }
                    case short[] in -> {
                        short[] io = (short[]) inoutvec;
                        if (better(Short.compare(in[a], io[b]), in[a + 1] < io[b + 1])) {
                            io[b] = in[a];
                            io[b + 1] = in[a + 1];
                        }
                    }
                    default -> throw new MPIException("MAXLOC/MINLOC need SHORT2, INT2, LONG2, FLOAT2 or DOUBLE2"
                            + " data, not " + datatype, Datatype.ERR_TYPE);
                }
            }
        }

        /** Whether the incoming pair replaces the one in place: larger (smaller) value, or equal with a lower index. */
        private boolean better(int cmp, boolean lowerIndex) {
            return max ? cmp > 0 || (cmp == 0 && lowerIndex) : cmp < 0 || (cmp == 0 && lowerIndex);
        }
    }
}
