package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import org.jmpi.datatype.DirectBuffers;
import org.jmpi.io.OpenFile;

/**
 * Entry point of the library: initialisation and finalisation, predefined objects and constants, timers, and
 * direct-buffer helpers.
 */
public final class MPI {
    /** As in Open MPI's bindings, where the class has an implicit public constructor; everything in it is static. */
    public MPI() {}

    /** The thread that called Init (for isThreadMain). */
    private static volatile Thread mainThread;
    public static final Errhandler ERRORS_ARE_FATAL = new Errhandler("MPI_ERRORS_ARE_FATAL");
    public static final Errhandler ERRORS_ABORT = new Errhandler("MPI_ERRORS_ABORT");
    public static final Errhandler ERRORS_RETURN = new Errhandler("MPI_ERRORS_RETURN");
    public static final Intracomm COMM_WORLD = new Intracomm("MPI_COMM_WORLD");
    public static final Intracomm COMM_SELF = new Intracomm("MPI_COMM_SELF");
    public static final int THREAD_SINGLE = 0;
    public static final int THREAD_FUNNELED = 1;
    public static final int THREAD_SERIALIZED = 2;
    public static final int THREAD_MULTIPLE = 3;
    public static final int GRAPH = 1;
    public static final int DIST_GRAPH = 3;
    public static final int CART = 2;
    public static final int ANY_SOURCE = -1;
    public static final int ANY_TAG = -1;
    public static final Op MAX = new Op("MPI_MAX", Op.CODE_MAX, true);
    public static final Op MIN = new Op("MPI_MIN", Op.CODE_MIN, true);
    public static final Op SUM = new Op("MPI_SUM", Op.CODE_SUM, true);
    public static final Op PROD = new Op("MPI_PROD", Op.CODE_PROD, true);
    public static final Op LAND = new Op("MPI_LAND", Op.CODE_LAND, true);
    public static final Op BAND = new Op("MPI_BAND", Op.CODE_BAND, true);
    public static final Op LOR = new Op("MPI_LOR", Op.CODE_LOR, true);
    public static final Op BOR = new Op("MPI_BOR", Op.CODE_BOR, true);
    public static final Op LXOR = new Op("MPI_LXOR", Op.CODE_LXOR, true);
    public static final Op BXOR = new Op("MPI_BXOR", Op.CODE_BXOR, true);
    public static final Op REPLACE = new Op("MPI_REPLACE", Op.CODE_REPLACE, true);
    public static final Op NO_OP = new Op("MPI_NO_OP", Op.CODE_NO_OP, true);
    public static final Op MINLOC = new Op("MPI_MINLOC", Op.CODE_MINLOC, true);
    public static final Op MAXLOC = new Op("MPI_MAXLOC", Op.CODE_MAXLOC, true);
    public static final Datatype DATATYPE_NULL = new Datatype("MPI_DATATYPE_NULL", Datatype.KIND_NULL, 0);
    public static final Datatype BYTE = new Datatype("MPI_BYTE", Datatype.KIND_BYTE, 1);
    public static final Datatype CHAR = new Datatype("MPI_CHAR", Datatype.KIND_CHAR, 2);
    public static final Datatype SHORT = new Datatype("MPI_SHORT", Datatype.KIND_SHORT, 2);
    public static final Datatype BOOLEAN = new Datatype("MPI_BOOLEAN", Datatype.KIND_BOOLEAN, 1);
    public static final Datatype INT = new Datatype("MPI_INT", Datatype.KIND_INT, 4);
    public static final Datatype LONG = new Datatype("MPI_LONG", Datatype.KIND_LONG, 8);
    public static final Datatype FLOAT = new Datatype("MPI_FLOAT", Datatype.KIND_FLOAT, 4);
    public static final Datatype DOUBLE = new Datatype("MPI_DOUBLE", Datatype.KIND_DOUBLE, 8);
    public static final Datatype PACKED = new Datatype("MPI_PACKED", Datatype.KIND_PACKED, 1);
    public static final Datatype FLOAT_COMPLEX = new Datatype("MPI_FLOAT_COMPLEX", Datatype.KIND_FLOAT_COMPLEX, 8);
    public static final Datatype DOUBLE_COMPLEX = new Datatype("MPI_DOUBLE_COMPLEX", Datatype.KIND_DOUBLE_COMPLEX, 16);
    public static final Datatype INT2 = new Datatype("MPI_INT2", Datatype.KIND_INT2, 8);
    public static final Datatype SHORT_INT = new Datatype("MPI_SHORT_INT", Datatype.KIND_SHORT_INT, 8);
    public static final Datatype LONG_INT = new Datatype("MPI_LONG_INT", Datatype.KIND_LONG_INT, 16);
    public static final Datatype FLOAT_INT = new Datatype("MPI_FLOAT_INT", Datatype.KIND_FLOAT_INT, 8);
    public static final Datatype DOUBLE_INT = new Datatype("MPI_DOUBLE_INT", Datatype.KIND_DOUBLE_INT, 16);
    public static final Int2 int2 = new Int2();
    public static final ShortInt shortInt = new ShortInt();
    public static final LongInt longInt = new LongInt();
    public static final FloatInt floatInt = new FloatInt();
    public static final DoubleInt doubleInt = new DoubleInt();
    public static final Request REQUEST_NULL = new Request();
    public static final Group GROUP_EMPTY = Group.newEmpty();
    public static final Info INFO_ENV = new Info(false);
    public static final Info INFO_NULL = new Info(true);
    public static final int PROC_NULL = -2;
    public static final int UNDEFINED = -32766;
    public static final int IDENT = 0;
    public static final int CONGRUENT = 1;
    public static final int SIMILAR = 2;
    public static final int UNEQUAL = 3;
    public static final int TAG_UB = 0;
    public static final int HOST = 1;
    public static final int IO = 2;
    public static final int WTIME_IS_GLOBAL = 3;
    public static final int APPNUM = 4;
    public static final int LASTUSEDCODE = 5;
    public static final int UNIVERSE_SIZE = 6;
    public static final int WIN_BASE = 7;
    public static final int WIN_SIZE = 8;
    public static final int WIN_DISP_UNIT = 9;
    public static final int VERSION = 3;
    public static final int SUBVERSION = 1;
    public static final int ROOT = -4;
    public static final int KEYVAL_INVALID = -1;
    public static final int BSEND_OVERHEAD = 128;
    /**
     * MPI_BUFFER_AUTOMATIC (MPI 4.1): attached instead of a buffer ({@link #attachBuffer}, {@link Comm#attachBuffer},
     * {@link Session#attachBuffer}), it lets buffered sends take the memory they need, without a capacity to run out of;
     * detaching it returns it. Compared by identity: its contents mean nothing.
     */
    public static final byte[] BUFFER_AUTOMATIC = new byte[0];
    public static final int MAX_OBJECT_NAME = 64;
    public static final int MAX_PORT_NAME = 1024;
    public static final int MAX_DATAREP_STRING = 128;
    public static final int MAX_INFO_KEY = 36;
    public static final int MAX_INFO_VAL = 256;
    public static final int ORDER_C = 0;
    public static final int ORDER_FORTRAN = 1;
    public static final int DISTRIBUTE_BLOCK = 0;
    public static final int DISTRIBUTE_CYCLIC = 1;
    public static final int DISTRIBUTE_NONE = 2;
    public static final int DISTRIBUTE_DFLT_DARG = -1;
    // file access modes and seek origins: one definition, in the MPI-IO layer (still compile-time constants)
    public static final int MODE_CREATE = OpenFile.MODE_CREATE;
    public static final int MODE_RDONLY = OpenFile.MODE_RDONLY;
    public static final int MODE_WRONLY = OpenFile.MODE_WRONLY;
    public static final int MODE_RDWR = OpenFile.MODE_RDWR;
    public static final int MODE_DELETE_ON_CLOSE = OpenFile.MODE_DELETE_ON_CLOSE;
    public static final int MODE_UNIQUE_OPEN = OpenFile.MODE_UNIQUE_OPEN;
    public static final int MODE_EXCL = OpenFile.MODE_EXCL;
    public static final int MODE_APPEND = OpenFile.MODE_APPEND;
    public static final int MODE_SEQUENTIAL = OpenFile.MODE_SEQUENTIAL;
    public static final int DISPLACEMENT_CURRENT = -54278278;
    public static final int SEEK_SET = OpenFile.SEEK_SET;
    public static final int SEEK_CUR = OpenFile.SEEK_CUR;
    public static final int SEEK_END = OpenFile.SEEK_END;
    public static final int MODE_NOCHECK = 1;
    public static final int MODE_NOPRECEDE = 2;
    public static final int MODE_NOPUT = 4;
    public static final int MODE_NOSTORE = 8;
    public static final int MODE_NOSUCCEED = 16;
    public static final int LOCK_EXCLUSIVE = 1;
    public static final int LOCK_SHARED = 2;
    public static final int SUCCESS = org.jmpi.runtime.ErrorClass.SUCCESS;
    public static final int ERR_BUFFER = org.jmpi.runtime.ErrorClass.ERR_BUFFER;
    public static final int ERR_COUNT = org.jmpi.runtime.ErrorClass.ERR_COUNT;
    public static final int ERR_TYPE = org.jmpi.runtime.ErrorClass.ERR_TYPE;
    public static final int ERR_TAG = org.jmpi.runtime.ErrorClass.ERR_TAG;
    public static final int ERR_COMM = org.jmpi.runtime.ErrorClass.ERR_COMM;
    public static final int ERR_RANK = org.jmpi.runtime.ErrorClass.ERR_RANK;
    public static final int ERR_REQUEST = org.jmpi.runtime.ErrorClass.ERR_REQUEST;
    public static final int ERR_ROOT = org.jmpi.runtime.ErrorClass.ERR_ROOT;
    public static final int ERR_GROUP = org.jmpi.runtime.ErrorClass.ERR_GROUP;
    public static final int ERR_OP = org.jmpi.runtime.ErrorClass.ERR_OP;
    public static final int ERR_TOPOLOGY = org.jmpi.runtime.ErrorClass.ERR_TOPOLOGY;
    public static final int ERR_DIMS = org.jmpi.runtime.ErrorClass.ERR_DIMS;
    public static final int ERR_ARG = org.jmpi.runtime.ErrorClass.ERR_ARG;
    public static final int ERR_UNKNOWN = org.jmpi.runtime.ErrorClass.ERR_UNKNOWN;
    public static final int ERR_TRUNCATE = org.jmpi.runtime.ErrorClass.ERR_TRUNCATE;
    public static final int ERR_OTHER = org.jmpi.runtime.ErrorClass.ERR_OTHER;
    public static final int ERR_INTERN = org.jmpi.runtime.ErrorClass.ERR_INTERN;
    public static final int ERR_IN_STATUS = org.jmpi.runtime.ErrorClass.ERR_IN_STATUS;
    public static final int ERR_PENDING = org.jmpi.runtime.ErrorClass.ERR_PENDING;
    public static final int ERR_ACCESS = org.jmpi.runtime.ErrorClass.ERR_ACCESS;
    public static final int ERR_AMODE = org.jmpi.runtime.ErrorClass.ERR_AMODE;
    public static final int ERR_ASSERT = org.jmpi.runtime.ErrorClass.ERR_ASSERT;
    public static final int ERR_BAD_FILE = org.jmpi.runtime.ErrorClass.ERR_BAD_FILE;
    public static final int ERR_BASE = org.jmpi.runtime.ErrorClass.ERR_BASE;
    public static final int ERR_CONVERSION = org.jmpi.runtime.ErrorClass.ERR_CONVERSION;
    public static final int ERR_DISP = org.jmpi.runtime.ErrorClass.ERR_DISP;
    public static final int ERR_DUP_DATAREP = org.jmpi.runtime.ErrorClass.ERR_DUP_DATAREP;
    public static final int ERR_FILE_EXISTS = org.jmpi.runtime.ErrorClass.ERR_FILE_EXISTS;
    public static final int ERR_FILE_IN_USE = org.jmpi.runtime.ErrorClass.ERR_FILE_IN_USE;
    public static final int ERR_FILE = org.jmpi.runtime.ErrorClass.ERR_FILE;
    public static final int ERR_INFO_KEY = org.jmpi.runtime.ErrorClass.ERR_INFO_KEY;
    public static final int ERR_INFO_NOKEY = org.jmpi.runtime.ErrorClass.ERR_INFO_NOKEY;
    public static final int ERR_INFO_VALUE = org.jmpi.runtime.ErrorClass.ERR_INFO_VALUE;
    public static final int ERR_INFO = org.jmpi.runtime.ErrorClass.ERR_INFO;
    public static final int ERR_IO = org.jmpi.runtime.ErrorClass.ERR_IO;
    public static final int ERR_KEYVAL = org.jmpi.runtime.ErrorClass.ERR_KEYVAL;
    public static final int ERR_LOCKTYPE = org.jmpi.runtime.ErrorClass.ERR_LOCKTYPE;
    public static final int ERR_NAME = org.jmpi.runtime.ErrorClass.ERR_NAME;
    public static final int ERR_NO_MEM = org.jmpi.runtime.ErrorClass.ERR_NO_MEM;
    public static final int ERR_NOT_SAME = org.jmpi.runtime.ErrorClass.ERR_NOT_SAME;
    public static final int ERR_NO_SPACE = org.jmpi.runtime.ErrorClass.ERR_NO_SPACE;
    public static final int ERR_NO_SUCH_FILE = org.jmpi.runtime.ErrorClass.ERR_NO_SUCH_FILE;
    public static final int ERR_PORT = org.jmpi.runtime.ErrorClass.ERR_PORT;
    public static final int ERR_PROC_ABORTED = org.jmpi.runtime.ErrorClass.ERR_PROC_ABORTED;
    /** An invalid or finalized session (MPI 4.0). */
    public static final int ERR_SESSION = org.jmpi.runtime.ErrorClass.ERR_SESSION;
    public static final int ERR_QUOTA = org.jmpi.runtime.ErrorClass.ERR_QUOTA;
    public static final int ERR_READ_ONLY = org.jmpi.runtime.ErrorClass.ERR_READ_ONLY;
    public static final int ERR_RMA_CONFLICT = org.jmpi.runtime.ErrorClass.ERR_RMA_CONFLICT;
    public static final int ERR_RMA_SYNC = org.jmpi.runtime.ErrorClass.ERR_RMA_SYNC;
    public static final int ERR_SERVICE = org.jmpi.runtime.ErrorClass.ERR_SERVICE;
    public static final int ERR_SIZE = org.jmpi.runtime.ErrorClass.ERR_SIZE;
    public static final int ERR_SPAWN = org.jmpi.runtime.ErrorClass.ERR_SPAWN;
    public static final int ERR_UNSUPPORTED_DATAREP = org.jmpi.runtime.ErrorClass.ERR_UNSUPPORTED_DATAREP;
    public static final int ERR_UNSUPPORTED_OPERATION = org.jmpi.runtime.ErrorClass.ERR_UNSUPPORTED_OPERATION;
    public static final int ERR_WIN = org.jmpi.runtime.ErrorClass.ERR_WIN;
    public static final int ERR_LASTCODE = org.jmpi.runtime.ErrorClass.ERR_LASTCODE;
    public static final int ERR_SYSRESOURCE = org.jmpi.runtime.ErrorClass.ERR_SYSRESOURCE;

    /** The parent intercommunicator of a spawned job (null when not spawned); see Intercomm.getParent. */
    static volatile Intercomm parent;

    public static String[] Init(String[] args) throws MPIException {
        initRuntime(THREAD_SINGLE, "MPI_Init", args);
        return args == null ? new String[0] : args.clone();
    }

    private static int initRuntime(int required, String call, String[] args) throws MPIException {
        try {
            org.jmpi.runtime.JmpiRuntime rt = org.jmpi.runtime.JmpiRuntime.init(required);
            COMM_WORLD.impl = rt.world();
            COMM_SELF.impl = rt.self();
            mainThread = Thread.currentThread();
            InfoEnv.fill(INFO_ENV, args, rt);
            org.jmpi.runtime.Communicator toParent = org.jmpi.dpm.DynamicProcesses.connectToParent();
            parent = toParent == null ? null : CommOps.adopt(COMM_WORLD, new Intercomm(), toParent, false);
            return rt.threadLevel();
        } catch (org.jmpi.runtime.MpiError e) {
            throw Errors.raise(call, e);
        }
    }

    /** Initialises MPI; every thread level up to THREAD_MULTIPLE is provided. */
    public static int InitThread(String[] args, int required) throws MPIException {
        return initRuntime(required, "MPI_Init_thread", args);
    }

    public static int queryThread() throws MPIException {
        try {
            return org.jmpi.runtime.JmpiRuntime.get().threadLevel();
        } catch (org.jmpi.runtime.MpiError e) {
            throw Errors.raise("MPI_Query_thread", e);
        }
    }

    public static boolean isThreadMain() throws MPIException {
        try {
            org.jmpi.runtime.JmpiRuntime.get();
            return Thread.currentThread() == mainThread;
        } catch (org.jmpi.runtime.MpiError e) {
            throw Errors.raise("MPI_Is_thread_main", e);
        }
    }

    public static void Finalize() throws MPIException {
        try {
            org.jmpi.dpm.DynamicProcesses.beforeFinalize();
            org.jmpi.runtime.JmpiRuntime.finalizeRuntime();
            if (org.jmpi.runtime.JmpiRuntime.current() != null) {
                // an MPI 4.0 session keeps MPI running: the world model's communicators are gone all the same
                COMM_WORLD.impl = null;
                COMM_SELF.impl = null;
            }
        } catch (org.jmpi.runtime.MpiError e) {
            throw Errors.raise("MPI_Finalize", e);
        }
    }

    /** Seconds since an arbitrary origin, from a monotonic clock (not synchronised across ranks). */
    public static double wtime() throws MPIException {
        return System.nanoTime() * 1e-9;
    }

    /** Resolution of {@link #wtime()} in seconds. */
    public static double wtick() throws MPIException {
        return 1e-9;
    }

    public static Version getVersion() {
        return new Version(VERSION, SUBVERSION);
    }

    public static String getLibVersion() {
        String v = MPI.class.getPackage().getImplementationVersion();
        return "jmpi " + (v == null ? "(development build)" : v) + ", MPI " + VERSION + "." + SUBVERSION
                + ", API of the Open MPI Java bindings v5.0";
    }

    public static String getProcessorName() throws MPIException {
        try {
            org.jmpi.runtime.JmpiRuntime.get();
            return org.jmpi.runtime.JmpiRuntime.processorName();
        } catch (org.jmpi.runtime.MpiError e) {
            throw Errors.raise("MPI_Get_processor_name", e);
        }
    }

    /** True once Init has been called (also after Finalize, as MPI_Initialized says). */
    public static boolean isInitialized() throws MPIException {
        return org.jmpi.runtime.JmpiRuntime.isInitialized();
    }

    public static boolean isFinalized() throws MPIException {
        return org.jmpi.runtime.JmpiRuntime.isFinalized();
    }

    /** Attaches the buffer whose capacity buffered sends (bSend, ibSend, bSendInit) may use. */
    public static void attachBuffer(byte[] buffer) throws MPIException {
        try {
            org.jmpi.runtime.JmpiRuntime.get();
            BufferedSends.attach(buffer);
        } catch (org.jmpi.runtime.MpiError e) {
            throw Errors.raise("MPI_Buffer_attach", e);
        }
    }

    /** MPI_Buffer_flush (MPI 4.1): waits until every message buffered in the process's buffer has left. */
    public static void flushBuffer() throws MPIException {
        try {
            org.jmpi.runtime.JmpiRuntime.get();
            BufferedSends.PROCESS.flush();
        } catch (org.jmpi.runtime.MpiError e) {
            throw Errors.raise("MPI_Buffer_flush", e);
        }
    }

    /** Waits until every buffered message has left, then detaches and returns the buffer. */
    public static byte[] detachBuffer() throws MPIException {
        try {
            org.jmpi.runtime.JmpiRuntime.get();
            return BufferedSends.detach();
        } catch (org.jmpi.runtime.MpiError e) {
            throw Errors.raise("MPI_Buffer_detach", e);
        }
    }

    public static void pControl(int level, Object obj) {
        // MPI_Pcontrol is a hook for profiling tools; the library itself does nothing with it.
    }

    /** A direct byte buffer of {@code capacity} elements of {@code elementBytes} bytes, in native byte order. */
    private static ByteBuffer nativeBytes(int capacity, int elementBytes) {
        return ByteBuffer.allocateDirect(Math.multiplyExact(capacity, elementBytes)).order(ByteOrder.nativeOrder());
    }

    public static ByteBuffer newByteBuffer(int capacity) {
        return DirectBuffers.register(nativeBytes(capacity, 1));
    }

    public static CharBuffer newCharBuffer(int capacity) {
        return DirectBuffers.register(nativeBytes(capacity, 2).asCharBuffer());
    }

    public static ShortBuffer newShortBuffer(int capacity) {
        return DirectBuffers.register(nativeBytes(capacity, 2).asShortBuffer());
    }

    public static IntBuffer newIntBuffer(int capacity) {
        return DirectBuffers.register(nativeBytes(capacity, 4).asIntBuffer());
    }

    public static LongBuffer newLongBuffer(int capacity) {
        return DirectBuffers.register(nativeBytes(capacity, 8).asLongBuffer());
    }

    public static FloatBuffer newFloatBuffer(int capacity) {
        return DirectBuffers.register(nativeBytes(capacity, 4).asFloatBuffer());
    }

    public static DoubleBuffer newDoubleBuffer(int capacity) {
        return DirectBuffers.register(nativeBytes(capacity, 8).asDoubleBuffer());
    }

    public static ByteBuffer slice(ByteBuffer buf, int offset) {
        return DirectBuffers.sliced(buf, buf.slice(offset, buf.capacity() - offset).order(buf.order()), offset);
    }

    public static CharBuffer slice(CharBuffer buf, int offset) {
        return DirectBuffers.sliced(buf, buf.slice(offset, buf.capacity() - offset), offset);
    }

    public static ShortBuffer slice(ShortBuffer buf, int offset) {
        return DirectBuffers.sliced(buf, buf.slice(offset, buf.capacity() - offset), offset);
    }

    public static IntBuffer slice(IntBuffer buf, int offset) {
        return DirectBuffers.sliced(buf, buf.slice(offset, buf.capacity() - offset), offset);
    }

    public static LongBuffer slice(LongBuffer buf, int offset) {
        return DirectBuffers.sliced(buf, buf.slice(offset, buf.capacity() - offset), offset);
    }

    public static FloatBuffer slice(FloatBuffer buf, int offset) {
        return DirectBuffers.sliced(buf, buf.slice(offset, buf.capacity() - offset), offset);
    }

    public static DoubleBuffer slice(DoubleBuffer buf, int offset) {
        return DirectBuffers.sliced(buf, buf.slice(offset, buf.capacity() - offset), offset);
    }

    public static ByteBuffer slice(byte[] buf, int offset) {
        return ByteBuffer.wrap(buf).slice(offset, buf.length - offset);
    }

    public static CharBuffer slice(char[] buf, int offset) {
        return CharBuffer.wrap(buf).slice(offset, buf.length - offset);
    }

    public static ShortBuffer slice(short[] buf, int offset) {
        return ShortBuffer.wrap(buf).slice(offset, buf.length - offset);
    }

    public static IntBuffer slice(int[] buf, int offset) {
        return IntBuffer.wrap(buf).slice(offset, buf.length - offset);
    }

    public static LongBuffer slice(long[] buf, int offset) {
        return LongBuffer.wrap(buf).slice(offset, buf.length - offset);
    }

    public static FloatBuffer slice(float[] buf, int offset) {
        return FloatBuffer.wrap(buf).slice(offset, buf.length - offset);
    }

    public static DoubleBuffer slice(double[] buf, int offset) {
        return DoubleBuffer.wrap(buf).slice(offset, buf.length - offset);
    }
}
