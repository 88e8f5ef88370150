package mpi;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The mpiJava 1.2 API's entry point and constants, with MPJ Express's values ({@code ANY_SOURCE = ANY_TAG = -2},
 * {@code PROC_NULL = -3}, {@code UNDEFINED = -1}). Unlike MPJ Express, {@link #Wtime()} has sub-microsecond
 * resolution, {@link Comm#Abort} ends the job, {@link #ERRORS_RETURN} exists and errors raise {@link MPIException}.
 */
public class MPI {
    /** Set by MPJ Express for its own debugging output; unused here. */
    public static final boolean DEBUG = false;
    public static boolean isOldSelected = false;
    public static final int NUM_OF_PROCESSORS = Runtime.getRuntime().availableProcessors();

    public static final int UNDEFINED = -1;
    public static final int ANY_SOURCE = -2;
    public static final int ANY_TAG = -2;
    public static final int PROC_NULL = -3;

    public static final Datatype NULL = Datatype.basic(Datatype.NULL_CODE);
    public static final Datatype BYTE = Datatype.basic(Datatype.BYTE_CODE);
    public static final Datatype CHAR = Datatype.basic(Datatype.CHAR_CODE);
    public static final Datatype SHORT = Datatype.basic(Datatype.SHORT_CODE);
    public static final Datatype BOOLEAN = Datatype.basic(Datatype.BOOLEAN_CODE);
    public static final Datatype INT = Datatype.basic(Datatype.INT_CODE);
    public static final Datatype LONG = Datatype.basic(Datatype.LONG_CODE);
    public static final Datatype FLOAT = Datatype.basic(Datatype.FLOAT_CODE);
    public static final Datatype DOUBLE = Datatype.basic(Datatype.DOUBLE_CODE);
    public static final Datatype PACKED = Datatype.basic(Datatype.PACKED_CODE);
    public static final Datatype LB = Datatype.basic(Datatype.LB_CODE);
    public static final Datatype UB = Datatype.basic(Datatype.UB_CODE);
    public static final Datatype OBJECT = Datatype.basic(Datatype.OBJECT_CODE);

    /** (value, index) pairs of one type, for MAXLOC and MINLOC. */
    public static final Datatype SHORT2 = Datatype.Contiguous(2, SHORT);
    public static final Datatype INT2 = Datatype.Contiguous(2, INT);
    public static final Datatype LONG2 = Datatype.Contiguous(2, LONG);
    public static final Datatype FLOAT2 = Datatype.Contiguous(2, FLOAT);
    public static final Datatype DOUBLE2 = Datatype.Contiguous(2, DOUBLE);

    public static final int THREAD_SINGLE = 1;
    public static final int THREAD_FUNNELED = 2;
    public static final int THREAD_SERIALIZED = 3;
    public static final int THREAD_MULTIPLE = 4;

    public static final Op MAX = new Op(org.jmpi.mpj.ompi.MPI.MAX, 1, "MPI.MAX");
    public static final Op MIN = new Op(org.jmpi.mpj.ompi.MPI.MIN, 2, "MPI.MIN");
    public static final Op SUM = new Op(org.jmpi.mpj.ompi.MPI.SUM, 3, "MPI.SUM");
    public static final Op PROD = new Op(org.jmpi.mpj.ompi.MPI.PROD, 4, "MPI.PROD");
    public static final Op LAND = new Op(org.jmpi.mpj.ompi.MPI.LAND, 5, "MPI.LAND");
    public static final Op BAND = new Op(org.jmpi.mpj.ompi.MPI.BAND, 6, "MPI.BAND");
    public static final Op LOR = new Op(org.jmpi.mpj.ompi.MPI.LOR, 7, "MPI.LOR");
    public static final Op BOR = new Op(org.jmpi.mpj.ompi.MPI.BOR, 8, "MPI.BOR");
    public static final Op LXOR = new Op(org.jmpi.mpj.ompi.MPI.LXOR, 9, "MPI.LXOR");
    public static final Op BXOR = new Op(org.jmpi.mpj.ompi.MPI.BXOR, 10, "MPI.BXOR");
    public static final Op MAXLOC = new Op(new Op.Loc(true), true, 11);
    public static final Op MINLOC = new Op(new Op.Loc(false), true, 12);

    public static final int IDENT = 0;
    public static final int CONGRUENT = 3;
    public static final int SIMILAR = 1;
    public static final int UNEQUAL = 2;
    public static final int GRAPH = 1;
    public static final int CART = 2;

    /** Keys of the predefined attributes ({@link Comm#Attr_get}). */
    public static final int TAG_UB = 0;
    public static final int HOST = 1;
    public static final int IO = 2;

    public static final int BSEND_OVERHEAD = org.jmpi.mpj.ompi.MPI.BSEND_OVERHEAD;
    /** MPJ Express's room for its headers in a packing buffer ({@code mpjbuf.Buffer}); none is needed here. */
    public static final int SEND_OVERHEAD = 0;
    public static final int RECV_OVERHEAD = 0;

    public static final Errhandler ERRORS_ARE_FATAL = new Errhandler(org.jmpi.mpj.ompi.MPI.ERRORS_ARE_FATAL,
            "MPI.ERRORS_ARE_FATAL");
    public static final Errhandler ERRORS_RETURN = new Errhandler(org.jmpi.mpj.ompi.MPI.ERRORS_RETURN,
            "MPI.ERRORS_RETURN");

    public static final Intracomm COMM_WORLD = new Intracomm(org.jmpi.mpj.ompi.MPI.COMM_WORLD);
    /** Declared {@code Comm} as in MPJ Express; it is an {@link Intracomm}. */
    public static final Comm COMM_SELF = new Intracomm(org.jmpi.mpj.ompi.MPI.COMM_SELF);
    public static final Comm COMM_NULL = new Comm(null);
    public static final Group GROUP_EMPTY = new Group(org.jmpi.mpj.ompi.MPI.GROUP_EMPTY);
    public static final Group GROUP_NULL = new Group(null);
    public static final Request REQUEST_NULL = Request.nullRequest();
    public static final Status EMPTY_STATUS = new Status(ANY_SOURCE, ANY_TAG, 0, 0);

    /** The second of the three leading arguments jmpi's launchers pass (MPJ Express passes rank, config, device). */
    static final String LAUNCH_MARK = "jmpi-mpj";

    MPI() {
    }

    /**
     * Starts MPI. Returns the program's own arguments: when the job was started by {@code mpjrun.sh} or
     * {@code jmpirun --api mpj}, {@code args} starts with three runtime arguments (as under MPJ Express: the rank,
     * a configuration and the device), which are left out. Errors raise {@link MPIException}.
     */
    public static String[] Init(String[] args) {
        return init(args, org.jmpi.mpj.ompi.MPI.THREAD_SINGLE, false);
    }

    private static String[] init(String[] args, int level, boolean threads) {
        String[] all = args == null ? new String[0] : args;
        boolean launched = all.length >= 3 && LAUNCH_MARK.equals(all[1]);
        String[] rest = launched ? Arrays.copyOfRange(all, 3, all.length) : all.clone();
        try {
            if (threads) {
                org.jmpi.mpj.ompi.MPI.InitThread(rest, level);
            } else {
                org.jmpi.mpj.ompi.MPI.Init(rest);
            }
            org.jmpi.mpj.ompi.MPI.COMM_WORLD.setErrhandler(org.jmpi.mpj.ompi.MPI.ERRORS_RETURN);
            org.jmpi.mpj.ompi.MPI.COMM_SELF.setErrhandler(org.jmpi.mpj.ompi.MPI.ERRORS_RETURN);
            if (launched) {
                all[0] = Integer.toString(org.jmpi.mpj.ompi.MPI.COMM_WORLD.getRank());
            }
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
        return rest;
    }

    /**
     * MPI_INIT_THREAD, in MPJ Express's form: asks for thread level {@code required} and returns the program's
     * arguments as {@link #Init} does; {@link #queryThread()} tells the level provided (jmpi provides every level).
     */
    public static String[] initThread(int required, int provided, String[] args) {
        if (required < THREAD_SINGLE || required > THREAD_MULTIPLE) {
            throw new MPIException("initThread: no thread level " + required, 13);
        }
        return init(args, required - 1, true);
    }

    /** The thread level provided (THREAD_SINGLE ... THREAD_MULTIPLE). */
    public static int queryThread() {
        try {
            return org.jmpi.mpj.ompi.MPI.queryThread() + 1;
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /** Whether the calling thread is the one that started MPI. */
    public static boolean isMainThread() {
        try {
            return org.jmpi.mpj.ompi.MPI.isThreadMain();
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public static void Finalize() {
        try {
            org.jmpi.mpj.ompi.MPI.Finalize();
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public static boolean Initialized() {
        try {
            return org.jmpi.mpj.ompi.MPI.isInitialized();
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /** Whether {@link #Finalize()} has been called (MPI-2's MPI_FINALIZED, an addition to MPJ Express's API). */
    public static boolean Finalized() {
        try {
            return org.jmpi.mpj.ompi.MPI.isFinalized();
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public static String Get_processor_name() {
        try {
            return org.jmpi.mpj.ompi.MPI.getProcessorName();
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /** Seconds since some time in the past, with the resolution of {@link #Wtick()} (not whole seconds). */
    public static double Wtime() {
        return System.nanoTime() * 1e-9;
    }

    public static double Wtick() {
        return 1e-9;
    }

    /** Gives buffered sends ({@code Bsend}) {@code buffer}'s capacity of room. */
    public static void Buffer_attach(ByteBuffer buffer) {
        if (buffer == null) {
            throw new MPIException("Buffer_attach: null buffer", 1);
        }
        Buffer_attach(buffer.hasArray() && buffer.arrayOffset() == 0 ? buffer.array() : new byte[buffer.capacity()]);
    }

    /** The mpiJava 1.2 specification's form of {@code Buffer_attach}. */
    public static void Buffer_attach(byte[] buffer) {
        try {
            org.jmpi.mpj.ompi.MPI.attachBuffer(buffer);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /** Waits until the buffered sends using the attached buffer are done, then detaches it. */
    public static void Buffer_detach() {
        try {
            org.jmpi.mpj.ompi.MPI.detachBuffer();
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /** Sets the error handler of MPI.COMM_WORLD (MPJ Express's static form; see {@link Comm#Errorhandler_set}). */
    public static void Errorhandler_set(Errhandler errhandler) {
        COMM_WORLD.Errorhandler_set(errhandler);
    }

    public static Errhandler Errorhandler_get() {
        return COMM_WORLD.Errorhandler_get();
    }

    /** MPJ's value of a comparison result of the runtime. */
    static int compareResult(int r) {
        return r == org.jmpi.mpj.ompi.MPI.IDENT ? IDENT : r == org.jmpi.mpj.ompi.MPI.CONGRUENT ? CONGRUENT
                : r == org.jmpi.mpj.ompi.MPI.SIMILAR ? SIMILAR : UNEQUAL;
    }
}
