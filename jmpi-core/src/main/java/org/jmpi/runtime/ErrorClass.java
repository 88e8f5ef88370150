package org.jmpi.runtime;

/**
 * MPI error classes with Open MPI's numeric values (ompi/include/mpi.h.in, v5.0.x). Package {@code mpi} exposes
 * the same values as {@code MPI.ERR_*}; the internals use these so they never depend on package {@code mpi}.
 */
public final class ErrorClass {
    private ErrorClass() {}

    public static final int SUCCESS = 0;
    public static final int ERR_BUFFER = 1;
    public static final int ERR_COUNT = 2;
    public static final int ERR_TYPE = 3;
    public static final int ERR_TAG = 4;
    public static final int ERR_COMM = 5;
    public static final int ERR_RANK = 6;
    public static final int ERR_REQUEST = 7;
    public static final int ERR_ROOT = 8;
    public static final int ERR_GROUP = 9;
    public static final int ERR_OP = 10;
    public static final int ERR_TOPOLOGY = 11;
    public static final int ERR_DIMS = 12;
    public static final int ERR_ARG = 13;
    public static final int ERR_UNKNOWN = 14;
    public static final int ERR_TRUNCATE = 15;
    public static final int ERR_OTHER = 16;
    public static final int ERR_INTERN = 17;
    public static final int ERR_IN_STATUS = 18;
    public static final int ERR_PENDING = 19;
    public static final int ERR_ACCESS = 20;
    public static final int ERR_AMODE = 21;
    public static final int ERR_ASSERT = 22;
    public static final int ERR_BAD_FILE = 23;
    public static final int ERR_BASE = 24;
    public static final int ERR_CONVERSION = 25;
    public static final int ERR_DISP = 26;
    public static final int ERR_DUP_DATAREP = 27;
    public static final int ERR_FILE_EXISTS = 28;
    public static final int ERR_FILE_IN_USE = 29;
    public static final int ERR_FILE = 30;
    public static final int ERR_INFO_KEY = 31;
    public static final int ERR_INFO_NOKEY = 32;
    public static final int ERR_INFO_VALUE = 33;
    public static final int ERR_INFO = 34;
    public static final int ERR_IO = 35;
    public static final int ERR_KEYVAL = 36;
    public static final int ERR_LOCKTYPE = 37;
    public static final int ERR_NAME = 38;
    public static final int ERR_NO_MEM = 39;
    public static final int ERR_NOT_SAME = 40;
    public static final int ERR_NO_SPACE = 41;
    public static final int ERR_NO_SUCH_FILE = 42;
    public static final int ERR_PORT = 43;
    public static final int ERR_QUOTA = 44;
    public static final int ERR_READ_ONLY = 45;
    public static final int ERR_RMA_CONFLICT = 46;
    public static final int ERR_RMA_SYNC = 47;
    public static final int ERR_SERVICE = 48;
    public static final int ERR_SIZE = 49;
    public static final int ERR_SPAWN = 50;
    public static final int ERR_UNSUPPORTED_DATAREP = 51;
    public static final int ERR_UNSUPPORTED_OPERATION = 52;
    public static final int ERR_WIN = 53;
    /** The tools interface's error classes (MPI_T_ERR_*, MPI 3.0-4.0), with Open MPI's numbers. */
    public static final int T_ERR_MEMORY = 54;
    public static final int T_ERR_NOT_INITIALIZED = 55;
    public static final int T_ERR_CANNOT_INIT = 56;
    public static final int T_ERR_INVALID_INDEX = 57;
    public static final int T_ERR_INVALID_ITEM = 58;
    public static final int T_ERR_INVALID_HANDLE = 59;
    public static final int T_ERR_OUT_OF_HANDLES = 60;
    public static final int T_ERR_OUT_OF_SESSIONS = 61;
    public static final int T_ERR_INVALID_SESSION = 62;
    public static final int T_ERR_CVAR_SET_NOT_NOW = 63;
    public static final int T_ERR_CVAR_SET_NEVER = 64;
    public static final int T_ERR_PVAR_NO_STARTSTOP = 65;
    public static final int T_ERR_PVAR_NO_WRITE = 66;
    public static final int T_ERR_PVAR_NO_ATOMIC = 67;
    public static final int T_ERR_INVALID = 72;
    public static final int T_ERR_INVALID_NAME = 73;
    /** MPI-3 one-sided error classes, with Open MPI's numbers. */
    public static final int ERR_RMA_RANGE = 68;
    public static final int ERR_RMA_ATTACH = 69;
    public static final int ERR_RMA_FLAVOR = 70;
    public static final int ERR_RMA_SHARED = 71;
    public static final int ERR_PROC_ABORTED = 74;
    /** A peer process failed (ULFM's MPI_ERR_PROC_FAILED; Open MPI's value). */
    public static final int ERR_PROC_FAILED = 75;
    /**
     * A non-blocking receive from MPI_ANY_SOURCE could not complete because a process of its group failed and the
     * failure was not acknowledged; the request stays pending (ULFM's MPI_ERR_PROC_FAILED_PENDING; Open MPI's value).
     */
    public static final int ERR_PROC_FAILED_PENDING = 76;
    /** The communicator was revoked (ULFM's MPI_ERR_REVOKED; Open MPI's value). */
    public static final int ERR_REVOKED = 77;
    /** An invalid or finalized session (MPI 4.0's MPI_ERR_SESSION; Open MPI's value). */
    public static final int ERR_SESSION = 78;
    public static final int ERR_LASTCODE = 92;
    public static final int ERR_SYSRESOURCE = -2;

    /** The MPI name of an error class, e.g. {@code MPI_ERR_RANK}. */
    public static String name(int errorClass) {
        return switch (errorClass) {
            case SUCCESS -> "MPI_SUCCESS";
            case ERR_BUFFER -> "MPI_ERR_BUFFER";
            case ERR_COUNT -> "MPI_ERR_COUNT";
            case ERR_TYPE -> "MPI_ERR_TYPE";
            case ERR_TAG -> "MPI_ERR_TAG";
            case ERR_COMM -> "MPI_ERR_COMM";
            case ERR_RANK -> "MPI_ERR_RANK";
            case ERR_REQUEST -> "MPI_ERR_REQUEST";
            case ERR_ROOT -> "MPI_ERR_ROOT";
            case ERR_GROUP -> "MPI_ERR_GROUP";
            case ERR_OP -> "MPI_ERR_OP";
            case ERR_TOPOLOGY -> "MPI_ERR_TOPOLOGY";
            case ERR_DIMS -> "MPI_ERR_DIMS";
            case ERR_ARG -> "MPI_ERR_ARG";
            case ERR_UNKNOWN -> "MPI_ERR_UNKNOWN";
            case ERR_TRUNCATE -> "MPI_ERR_TRUNCATE";
            case ERR_OTHER -> "MPI_ERR_OTHER";
            case ERR_INTERN -> "MPI_ERR_INTERN";
            case ERR_IN_STATUS -> "MPI_ERR_IN_STATUS";
            case ERR_PENDING -> "MPI_ERR_PENDING";
            case ERR_ACCESS -> "MPI_ERR_ACCESS";
            case ERR_AMODE -> "MPI_ERR_AMODE";
            case ERR_ASSERT -> "MPI_ERR_ASSERT";
            case ERR_BAD_FILE -> "MPI_ERR_BAD_FILE";
            case ERR_BASE -> "MPI_ERR_BASE";
            case ERR_CONVERSION -> "MPI_ERR_CONVERSION";
            case ERR_DISP -> "MPI_ERR_DISP";
            case ERR_DUP_DATAREP -> "MPI_ERR_DUP_DATAREP";
            case ERR_FILE_EXISTS -> "MPI_ERR_FILE_EXISTS";
            case ERR_FILE_IN_USE -> "MPI_ERR_FILE_IN_USE";
            case ERR_FILE -> "MPI_ERR_FILE";
            case ERR_INFO_KEY -> "MPI_ERR_INFO_KEY";
            case ERR_INFO_NOKEY -> "MPI_ERR_INFO_NOKEY";
            case ERR_INFO_VALUE -> "MPI_ERR_INFO_VALUE";
            case ERR_INFO -> "MPI_ERR_INFO";
            case ERR_IO -> "MPI_ERR_IO";
            case ERR_KEYVAL -> "MPI_ERR_KEYVAL";
            case ERR_LOCKTYPE -> "MPI_ERR_LOCKTYPE";
            case ERR_NAME -> "MPI_ERR_NAME";
            case ERR_NO_MEM -> "MPI_ERR_NO_MEM";
            case ERR_NOT_SAME -> "MPI_ERR_NOT_SAME";
            case ERR_NO_SPACE -> "MPI_ERR_NO_SPACE";
            case ERR_NO_SUCH_FILE -> "MPI_ERR_NO_SUCH_FILE";
            case ERR_PORT -> "MPI_ERR_PORT";
            case ERR_QUOTA -> "MPI_ERR_QUOTA";
            case ERR_READ_ONLY -> "MPI_ERR_READ_ONLY";
            case ERR_RMA_CONFLICT -> "MPI_ERR_RMA_CONFLICT";
            case ERR_RMA_SYNC -> "MPI_ERR_RMA_SYNC";
            case ERR_RMA_RANGE -> "MPI_ERR_RMA_RANGE";
            case ERR_RMA_ATTACH -> "MPI_ERR_RMA_ATTACH";
            case ERR_RMA_FLAVOR -> "MPI_ERR_RMA_FLAVOR";
            case ERR_RMA_SHARED -> "MPI_ERR_RMA_SHARED";
            case ERR_SERVICE -> "MPI_ERR_SERVICE";
            case ERR_SIZE -> "MPI_ERR_SIZE";
            case ERR_SPAWN -> "MPI_ERR_SPAWN";
            case ERR_UNSUPPORTED_DATAREP -> "MPI_ERR_UNSUPPORTED_DATAREP";
            case ERR_UNSUPPORTED_OPERATION -> "MPI_ERR_UNSUPPORTED_OPERATION";
            case ERR_WIN -> "MPI_ERR_WIN";
            case ERR_PROC_ABORTED -> "MPI_ERR_PROC_ABORTED";
            case ERR_PROC_FAILED -> "MPI_ERR_PROC_FAILED";
            case ERR_PROC_FAILED_PENDING -> "MPI_ERR_PROC_FAILED_PENDING";
            case ERR_REVOKED -> "MPI_ERR_REVOKED";
            case ERR_SESSION -> "MPI_ERR_SESSION";
            case T_ERR_MEMORY -> "MPI_T_ERR_MEMORY";
            case T_ERR_NOT_INITIALIZED -> "MPI_T_ERR_NOT_INITIALIZED";
            case T_ERR_CANNOT_INIT -> "MPI_T_ERR_CANNOT_INIT";
            case T_ERR_INVALID_INDEX -> "MPI_T_ERR_INVALID_INDEX";
            case T_ERR_INVALID_ITEM -> "MPI_T_ERR_INVALID_ITEM";
            case T_ERR_INVALID_HANDLE -> "MPI_T_ERR_INVALID_HANDLE";
            case T_ERR_OUT_OF_HANDLES -> "MPI_T_ERR_OUT_OF_HANDLES";
            case T_ERR_OUT_OF_SESSIONS -> "MPI_T_ERR_OUT_OF_SESSIONS";
            case T_ERR_INVALID_SESSION -> "MPI_T_ERR_INVALID_SESSION";
            case T_ERR_CVAR_SET_NOT_NOW -> "MPI_T_ERR_CVAR_SET_NOT_NOW";
            case T_ERR_CVAR_SET_NEVER -> "MPI_T_ERR_CVAR_SET_NEVER";
            case T_ERR_PVAR_NO_STARTSTOP -> "MPI_T_ERR_PVAR_NO_STARTSTOP";
            case T_ERR_PVAR_NO_WRITE -> "MPI_T_ERR_PVAR_NO_WRITE";
            case T_ERR_PVAR_NO_ATOMIC -> "MPI_T_ERR_PVAR_NO_ATOMIC";
            case T_ERR_INVALID -> "MPI_T_ERR_INVALID";
            case T_ERR_INVALID_NAME -> "MPI_T_ERR_INVALID_NAME";
            case ERR_SYSRESOURCE -> "MPI_ERR_SYSRESOURCE";
            default -> "MPI error class " + errorClass;
        };
    }
}
