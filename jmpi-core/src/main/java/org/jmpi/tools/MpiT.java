package org.jmpi.tools;

import java.util.ArrayList;
import java.util.List;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;
import org.jmpi.tools.ToolVariables.Cvar;
import org.jmpi.tools.ToolVariables.Kind;
import org.jmpi.tools.ToolVariables.Pvar;

/**
 * MPI's tools information interface (MPI_T, MPI 4.0 chapter 15) for Java: what a tool, or a program that tunes
 * itself, can learn about jmpi and change while it runs.
 *
 * <ul>
 * <li><b>Control variables</b> are jmpi's {@code jmpi.*} tuning parameters (docs/tuning.md, docs/transports.md):
 * {@link #cvarGetNum}, {@link #cvarGetInfo}, {@link #cvarHandleAlloc}, then {@link CvarHandle#read} /
 * {@link CvarHandle#write}. Before MPI starts, a write sets the parameter MPI_Init will read (in threads mode for
 * every rank of the JVM that starts later); while MPI runs, the collectives' parameters ({@code jmpi.coll.*}, scope
 * {@link #SCOPE_ALL_EQ}: every rank must write the same value between the same calls) change this rank's next
 * calls, and the others, read once at start-up, answer {@link #ERR_CVAR_SET_NOT_NOW}.
 * <li><b>Performance variables</b> are the counters jmpi keeps anyway (no cost when nobody reads them): unexpected
 * messages queued, frames and bytes per peer over the transports, credit in flight, the route to each peer, the
 * algorithm of the last collective. Read them through a session: {@link #pvarSessionCreate}, then
 * {@link PvarSession#handleAlloc}. Counters count while their handle is started; levels and states are continuous.
 * <li><b>Categories</b> group them: {@link #categoryGetNum}, {@link #categoryGetInfo}.
 * </ul>
 *
 * <p>As the standard says, every call but {@link #initThread} needs the interface initialised, which MPI itself need
 * not be: control variables work before {@code MPI.Init}; performance variables need MPI running (their handles end
 * with it). Errors are {@link MPIException}s carrying the {@code ERR_*} classes below (Open MPI's numbers); the
 * interface never calls an error handler. Indices are fixed for the whole run; no variable comes or goes
 * ({@link #categoryChanged} stays 0).
 *
 * <p>Threading: every call may come from any thread ({@link #initThread} provides {@code MPI.THREAD_MULTIPLE}); the
 * calls take one lock of this class. In threads mode each rank has its own copy of the interface.
 */
public final class MpiT {
    private MpiT() {}

    // verbosity, bind, scope and variable classes: Open MPI's values

    public static final int VERBOSITY_USER_BASIC = 0;
    public static final int VERBOSITY_USER_DETAIL = 1;
    public static final int VERBOSITY_USER_ALL = 2;
    public static final int VERBOSITY_TUNER_BASIC = 3;
    public static final int VERBOSITY_TUNER_DETAIL = 4;
    public static final int VERBOSITY_TUNER_ALL = 5;
    public static final int VERBOSITY_MPIDEV_BASIC = 6;
    public static final int VERBOSITY_MPIDEV_DETAIL = 7;
    public static final int VERBOSITY_MPIDEV_ALL = 8;

    /** The variable is not bound to an MPI object (every jmpi variable). */
    public static final int BIND_NO_OBJECT = 0;
    public static final int BIND_MPI_COMM = 1;
    public static final int BIND_MPI_DATATYPE = 2;
    public static final int BIND_MPI_ERRHANDLER = 3;
    public static final int BIND_MPI_FILE = 4;
    public static final int BIND_MPI_GROUP = 5;
    public static final int BIND_MPI_OP = 6;
    public static final int BIND_MPI_REQUEST = 7;
    public static final int BIND_MPI_WIN = 8;
    public static final int BIND_MPI_MESSAGE = 9;
    public static final int BIND_MPI_INFO = 10;

    public static final int SCOPE_CONSTANT = 0;
    public static final int SCOPE_READONLY = 1;
    /** Writable (here: before MPI starts), with an effect on the calling process only. */
    public static final int SCOPE_LOCAL = 2;
    public static final int SCOPE_GROUP = 3;
    public static final int SCOPE_GROUP_EQ = 4;
    public static final int SCOPE_ALL = 5;
    /** Writable, and every process must give it the same value (the collectives' parameters). */
    public static final int SCOPE_ALL_EQ = 6;

    public static final int PVAR_CLASS_STATE = 0;
    public static final int PVAR_CLASS_LEVEL = 1;
    public static final int PVAR_CLASS_SIZE = 2;
    public static final int PVAR_CLASS_PERCENTAGE = 3;
    public static final int PVAR_CLASS_HIGHWATERMARK = 4;
    public static final int PVAR_CLASS_LOWWATERMARK = 5;
    public static final int PVAR_CLASS_COUNTER = 6;
    public static final int PVAR_CLASS_AGGREGATE = 7;
    public static final int PVAR_CLASS_TIMER = 8;
    public static final int PVAR_CLASS_GENERIC = 9;

    // error classes

    public static final int ERR_MEMORY = ErrorClass.T_ERR_MEMORY;
    /** A call other than {@link #initThread} while the interface is not initialised. */
    public static final int ERR_NOT_INITIALIZED = ErrorClass.T_ERR_NOT_INITIALIZED;
    public static final int ERR_CANNOT_INIT = ErrorClass.T_ERR_CANNOT_INIT;
    /** No variable or category has this index. */
    public static final int ERR_INVALID_INDEX = ErrorClass.T_ERR_INVALID_INDEX;
    public static final int ERR_INVALID_ITEM = ErrorClass.T_ERR_INVALID_ITEM;
    /** The handle was freed, or belongs to an ended use of the interface or of MPI. */
    public static final int ERR_INVALID_HANDLE = ErrorClass.T_ERR_INVALID_HANDLE;
    public static final int ERR_OUT_OF_HANDLES = ErrorClass.T_ERR_OUT_OF_HANDLES;
    public static final int ERR_OUT_OF_SESSIONS = ErrorClass.T_ERR_OUT_OF_SESSIONS;
    /** The session was freed, or belongs to an ended use of the interface. */
    public static final int ERR_INVALID_SESSION = ErrorClass.T_ERR_INVALID_SESSION;
    /** The control variable cannot be set now (it is read when MPI starts, and MPI runs). */
    public static final int ERR_CVAR_SET_NOT_NOW = ErrorClass.T_ERR_CVAR_SET_NOT_NOW;
    public static final int ERR_CVAR_SET_NEVER = ErrorClass.T_ERR_CVAR_SET_NEVER;
    /** The performance variable is continuous: it cannot be started or stopped. */
    public static final int ERR_PVAR_NO_STARTSTOP = ErrorClass.T_ERR_PVAR_NO_STARTSTOP;
    /** The performance variable is read-only: it cannot be written or reset. */
    public static final int ERR_PVAR_NO_WRITE = ErrorClass.T_ERR_PVAR_NO_WRITE;
    public static final int ERR_PVAR_NO_ATOMIC = ErrorClass.T_ERR_PVAR_NO_ATOMIC;
    /** A value the variable cannot take, or a call the variable does not allow (a string read as a number). */
    public static final int ERR_INVALID = ErrorClass.T_ERR_INVALID;
    /** No variable or category has this name. */
    public static final int ERR_INVALID_NAME = ErrorClass.T_ERR_INVALID_NAME;

    /**
     * What {@link CvarHandle#read} gives, and {@link CvarHandle#write(long)} takes, for a size parameter that is
     * {@code auto} ({@code jmpi.coll.pace}).
     */
    public static final long AUTO = -1;

    /** The items of an enumeration ({@code MPI_T_enum}): item {@code i} has the value {@code i}. */
    public record EnumInfo(String name, List<String> items) {}

    /**
     * What MPI_T_cvar_get_info tells of a control variable.
     *
     * @param datatype {@code MPI.LONG} (sizes and counts), {@code MPI.BOOLEAN}, {@code MPI.CHAR} (text) or
     *     {@code MPI.INT} (a choice of {@code enumType})
     * @param enumType the choices of an {@code MPI.INT} variable, else null
     */
    public record CvarInfo(String name, int verbosity, Datatype datatype, EnumInfo enumType, String description,
            int bind, int scope) {}

    /**
     * What MPI_T_pvar_get_info tells of a performance variable.
     *
     * @param datatype {@code MPI.LONG}, or {@code MPI.INT} for a state (an item of {@code enumType})
     */
    public record PvarInfo(String name, int verbosity, int varClass, Datatype datatype, EnumInfo enumType,
            String description, int bind, boolean readOnly, boolean continuous, boolean atomic) {}

    /** What MPI_T_category_get_info tells of a category. */
    public record CategoryInfo(String name, String description, int numCvars, int numPvars, int numCategories) {}

    private static int initCount;
    /** Counts the ends of the interface's use: handles and sessions of an earlier use are invalid. */
    private static long generation;

    /**
     * MPI_T_init_thread: starts (or counts one more) use of the interface. May be called before MPI starts, and
     * again after each {@link #finalizeTools}.
     *
     * @return the thread level provided: {@code MPI.THREAD_MULTIPLE}
     */
    public static synchronized int initThread(int required) {
        initCount++;
        return MPI.THREAD_MULTIPLE;
    }

    /** MPI_T_finalize: ends one use; when the last ends, every handle and session becomes invalid. */
    public static synchronized void finalizeTools() throws MPIException {
        check();
        endUse();
    }

    /** One use of the interface ends; the last one ends every handle and session. */
    private static void endUse() {
        if (--initCount == 0) {
            generation++;
        }
    }

    // ================================================================================================ control

    /** MPI_T_cvar_get_num. */
    public static synchronized int cvarGetNum() throws MPIException {
        check();
        return ToolVariables.CVARS.size();
    }

    /** MPI_T_cvar_get_info. */
    public static synchronized CvarInfo cvarGetInfo(int index) throws MPIException {
        Cvar v = cvar(index);
        Datatype type = switch (v.kind()) {
            case LONG -> MPI.LONG;
            case BOOLEAN -> MPI.BOOLEAN;
            case TEXT -> MPI.CHAR;
            case CHOICE -> MPI.INT;
        };
        return new CvarInfo(v.name(), v.kind() == Kind.CHOICE ? VERBOSITY_TUNER_BASIC : VERBOSITY_TUNER_DETAIL, type,
                v.choices() == null ? null : new EnumInfo(v.name(), v.choices()), v.description(), BIND_NO_OBJECT,
                v.source() == ToolVariables.Source.COLLECTIVES ? SCOPE_ALL_EQ : SCOPE_LOCAL);
    }

    /** MPI_T_cvar_get_index: the index of the control variable of this name. */
    public static synchronized int cvarGetIndex(String name) throws MPIException {
        return indexOf(ToolVariables.CVARS, v -> v.name().equals(name), "no control variable is named " + name);
    }

    /**
     * MPI_T_cvar_handle_alloc: a handle to read and write control variable {@code index}.
     *
     * @param object the object to bind to; ignored (no jmpi variable is bound to an object)
     */
    public static synchronized CvarHandle cvarHandleAlloc(int index, Object object) throws MPIException {
        return new CvarHandle(cvar(index), generation);
    }

    /** A handle to a control variable (MPI_T_cvar_handle); holds one value. */
    public static final class CvarHandle {
        private final Cvar variable;
        private final long generation;
        private boolean freed;

        private CvarHandle(Cvar variable, long generation) {
            this.variable = variable;
            this.generation = generation;
        }

        /** The number of values (1). */
        public int count() throws MPIException {
            synchronized (MpiT.class) {
                valid();
                return 1;
            }
        }

        /**
         * MPI_T_cvar_read of a number: the size or count ({@link #AUTO} for a parameter set to {@code auto}), 0 or 1
         * for a boolean, the index of the choice.
         *
         * @throws MPIException {@link #ERR_INVALID} for a text variable (read it with {@link #readString})
         */
        public long read() throws MPIException {
            synchronized (MpiT.class) {
                valid();
                String text = text();
                return switch (variable.kind()) {
                    case LONG -> text.equals("auto") ? AUTO : Long.parseLong(text);
                    case BOOLEAN -> Boolean.parseBoolean(text) ? 1 : 0;
                    case CHOICE -> variable.choices().indexOf(text);
                    case TEXT -> throw error(ERR_INVALID, variable.name() + " holds text: read it with readString");
                };
            }
        }

        /** MPI_T_cvar_read as text (any variable): the value as the parameter would be written. */
        public String readString() throws MPIException {
            synchronized (MpiT.class) {
                valid();
                return text();
            }
        }

        /**
         * MPI_T_cvar_write of a number (see {@link #read}).
         *
         * @throws MPIException {@link #ERR_INVALID} for a value the variable cannot take, {@link #ERR_CVAR_SET_NOT_NOW}
         *     for a variable read at start-up while MPI runs
         */
        public void write(long value) throws MPIException {
            String text = switch (variable.kind()) {
                case LONG -> value == AUTO ? "auto" : Long.toString(value);
                case BOOLEAN -> value == 0 || value == 1 ? Boolean.toString(value == 1) : null;
                case CHOICE -> value >= 0 && value < variable.choices().size() ? variable.choices().get((int) value)
                        : null;
                case TEXT -> throw error(ERR_INVALID, variable.name() + " holds text: write it with write(String)");
            };
            if (text == null) {
                throw error(ERR_INVALID, value + " is not a value of " + variable.name());
            }
            write(text);
        }

        /** MPI_T_cvar_write as text (any variable), as the parameter would be set ({@code 64k}, {@code ring}). */
        public void write(String value) throws MPIException {
            synchronized (MpiT.class) {
                valid();
                if (value == null) {
                    throw error(ERR_INVALID, "null value for " + variable.name());
                }
                try {
                    ToolVariables.write(variable, value);
                } catch (MpiError e) {
                    throw new MPIException(e);
                }
            }
        }

        /** MPI_T_cvar_handle_free. */
        public void free() throws MPIException {
            synchronized (MpiT.class) {
                valid();
                freed = true;
            }
        }

        private String text() throws MPIException {
            try {
                return ToolVariables.read(variable);
            } catch (MpiError | IllegalArgumentException e) {
                throw error(ERR_INVALID, "cannot read " + variable.name() + ": " + e.getMessage());
            }
        }

        private void valid() throws MPIException {
            check();
            if (freed || generation != MpiT.generation) {
                throw error(ERR_INVALID_HANDLE, "the handle of " + variable.name() + " was freed");
            }
        }
    }

    // ================================================================================================ performance

    /** MPI_T_pvar_get_num. */
    public static synchronized int pvarGetNum() throws MPIException {
        check();
        return ToolVariables.PVARS.size();
    }

    /** MPI_T_pvar_get_info. */
    public static synchronized PvarInfo pvarGetInfo(int index) throws MPIException {
        Pvar v = pvar(index);
        boolean counter = v.varClass() == PVAR_CLASS_COUNTER;
        return new PvarInfo(v.name(), VERBOSITY_TUNER_BASIC, v.varClass(), v.states() == null ? MPI.LONG : MPI.INT,
                v.states() == null ? null : new EnumInfo(v.name(), v.states()), v.description(), BIND_NO_OBJECT,
                !counter, !counter, false);
    }

    /** MPI_T_pvar_get_index: the index of the performance variable of this name and class. */
    public static synchronized int pvarGetIndex(String name, int varClass) throws MPIException {
        return indexOf(ToolVariables.PVARS, v -> v.name().equals(name) && v.varClass() == varClass,
                "no performance variable of class " + varClass + " is named " + name);
    }

    /** MPI_T_pvar_session_create: a session, in which handles of performance variables are allocated. */
    public static synchronized PvarSession pvarSessionCreate() throws MPIException {
        check();
        return new PvarSession(generation);
    }

    /** A performance-variable session (MPI_T_pvar_session): its handles' starts, stops and resets are its own. */
    public static final class PvarSession {
        private final long generation;
        private final List<PvarHandle> handles = new ArrayList<>();
        private boolean freed;

        private PvarSession(long generation) {
            this.generation = generation;
        }

        /**
         * MPI_T_pvar_handle_alloc: a handle to variable {@code index}, stopped (counters), with one value per world
         * rank for the per-peer variables and one otherwise ({@link PvarHandle#count}).
         *
         * @param object the object to bind to; ignored (no jmpi variable is bound to an object)
         * @throws MPIException {@link #ERR_INVALID} when MPI does not run in this process
         */
        public PvarHandle handleAlloc(int index, Object object) throws MPIException {
            synchronized (MpiT.class) {
                valid();
                Pvar v = pvar(index);
                JmpiRuntime rt = runtime(v);
                PvarHandle h = new PvarHandle(this, index, v, rt, v.perPeer() ? rt.size() : 1);
                handles.add(h);
                return h;
            }
        }

        /** MPI_T_pvar_start with MPI_T_PVAR_ALL_HANDLES: starts every stopped counter of this session. */
        public void startAll() throws MPIException {
            synchronized (MpiT.class) {
                valid();
                for (PvarHandle h : handles) {
                    if (!h.freed && !h.continuous() && !h.started) {
                        h.start();
                    }
                }
            }
        }

        /** MPI_T_pvar_stop with MPI_T_PVAR_ALL_HANDLES: stops every started counter of this session. */
        public void stopAll() throws MPIException {
            synchronized (MpiT.class) {
                valid();
                for (PvarHandle h : handles) {
                    if (!h.freed && !h.continuous() && h.started) {
                        h.stop();
                    }
                }
            }
        }

        /** MPI_T_pvar_reset with MPI_T_PVAR_ALL_HANDLES: resets every counter of this session. */
        public void resetAll() throws MPIException {
            synchronized (MpiT.class) {
                valid();
                for (PvarHandle h : handles) {
                    if (!h.freed && !h.continuous()) {
                        h.reset();
                    }
                }
            }
        }

        /** MPI_T_pvar_session_free: frees the session and its handles. */
        public void free() throws MPIException {
            synchronized (MpiT.class) {
                valid();
                freed = true;
                for (PvarHandle h : handles) {
                    h.freed = true;
                }
            }
        }

        private void valid() throws MPIException {
            check();
            if (freed || generation != MpiT.generation) {
                throw error(ERR_INVALID_SESSION, "the performance variable session was freed");
            }
        }
    }

    /**
     * A handle to a performance variable in a session (MPI_T_pvar_handle). A counter's handle starts stopped and
     * counts what happens while it is started (from 0, or from what {@link #write} or {@link #reset} set); a level's or
     * a state's handle reads the value now.
     */
    public static final class PvarHandle {
        private final PvarSession session;
        private final int index;
        private final Pvar variable;
        private final int count;
        /** The runtime the handle was made for: its values, and its end, which ends the handle. */
        private final JmpiRuntime runtime;
        private boolean started;
        private boolean freed;
        /** Counted while stopped (counters): the value a read gives while stopped. */
        private final long[] held;
        /** The raw values when last started (counters). */
        private final long[] base;

        private PvarHandle(PvarSession session, int index, Pvar variable, JmpiRuntime runtime, int count) {
            this.session = session;
            this.index = index;
            this.variable = variable;
            this.count = count;
            this.runtime = runtime;
            this.held = new long[count];
            this.base = new long[count];
        }

        /** The number of values: one per world rank for a per-peer variable, else 1. */
        public int count() throws MPIException {
            synchronized (MpiT.class) {
                valid();
                return count;
            }
        }

        /** MPI_T_pvar_start. */
        public void start() throws MPIException {
            synchronized (MpiT.class) {
                valid();
                noStartStop();
                if (!started) {
                    System.arraycopy(raw(), 0, base, 0, count);
                    started = true;
                }
            }
        }

        /** MPI_T_pvar_stop. */
        public void stop() throws MPIException {
            synchronized (MpiT.class) {
                valid();
                noStartStop();
                if (started) {
                    long[] now = raw();
                    for (int i = 0; i < count; i++) {
                        held[i] += now[i] - base[i];
                    }
                    started = false;
                }
            }
        }

        /** MPI_T_pvar_read: the values now ({@link #count} of them). */
        public long[] read() throws MPIException {
            synchronized (MpiT.class) {
                valid();
                long[] now = raw();
                if (continuous()) {
                    return now;
                }
                long[] out = held.clone();
                if (started) {
                    for (int i = 0; i < count; i++) {
                        out[i] += now[i] - base[i];
                    }
                }
                return out;
            }
        }

        /** MPI_T_pvar_write (counters): the value to count on from. */
        public void write(long[] values) throws MPIException {
            synchronized (MpiT.class) {
                valid();
                noWrite();
                if (values == null || values.length != count) {
                    throw error(ERR_INVALID, variable.name() + " takes " + count + " values");
                }
                System.arraycopy(values, 0, held, 0, count);
                if (started) {
                    System.arraycopy(raw(), 0, base, 0, count);
                }
            }
        }

        /** MPI_T_pvar_reset (counters): back to 0. */
        public void reset() throws MPIException {
            write(new long[count]);
        }

        /** MPI_T_pvar_readreset (counters): the values, then back to 0, in one step. */
        public long[] readReset() throws MPIException {
            synchronized (MpiT.class) {
                long[] v = read();
                reset();
                return v;
            }
        }

        /** MPI_T_pvar_handle_free. */
        public void free() throws MPIException {
            synchronized (MpiT.class) {
                valid();
                freed = true;
            }
        }

        boolean continuous() {
            return variable.varClass() != PVAR_CLASS_COUNTER;
        }

        private long[] raw() throws MPIException {
            if (JmpiRuntime.current() != runtime) {
                throw error(ERR_INVALID_HANDLE, "MPI has ended since the handle of " + variable.name()
                        + " was allocated");
            }
            return ToolVariables.sample(index, runtime);
        }

        private void noStartStop() throws MPIException {
            if (continuous()) {
                throw error(ERR_PVAR_NO_STARTSTOP, variable.name() + " is continuous: it cannot be started or stopped");
            }
        }

        private void noWrite() throws MPIException {
            if (continuous()) {
                throw error(ERR_PVAR_NO_WRITE, variable.name() + " is read-only");
            }
        }

        private void valid() throws MPIException {
            check();
            if (freed || session.freed || session.generation != MpiT.generation) {
                throw error(ERR_INVALID_HANDLE, "the handle of " + variable.name() + " was freed");
            }
        }
    }

    // ================================================================================================ categories

    /** MPI_T_category_get_num. */
    public static synchronized int categoryGetNum() throws MPIException {
        check();
        return ToolVariables.CATEGORIES.size();
    }

    /** MPI_T_category_get_info. */
    public static synchronized CategoryInfo categoryGetInfo(int index) throws MPIException {
        ToolVariables.Category c = category(index);
        return new CategoryInfo(c.name(), c.description(), c.cvars().length, c.pvars().length, 0);
    }

    /** MPI_T_category_get_index. */
    public static synchronized int categoryGetIndex(String name) throws MPIException {
        return indexOf(ToolVariables.CATEGORIES, c -> c.name().equals(name), "no category is named " + name);
    }

    /** MPI_T_category_get_cvars: the indices of the category's control variables. */
    public static synchronized int[] categoryGetCvars(int index) throws MPIException {
        return category(index).cvars().clone();
    }

    /** MPI_T_category_get_pvars: the indices of the category's performance variables. */
    public static synchronized int[] categoryGetPvars(int index) throws MPIException {
        return category(index).pvars().clone();
    }

    /** MPI_T_category_get_categories: none (jmpi's categories have no subcategories). */
    public static synchronized int[] categoryGetCategories(int index) throws MPIException {
        category(index);
        return new int[0];
    }

    /** MPI_T_category_changed: a stamp that changes when variables or categories are added; jmpi adds none. */
    public static synchronized int categoryChanged() throws MPIException {
        check();
        return 0;
    }

    // ================================================================================================ helpers

    /**
     * Lines describing every variable with its value now, as {@code jmpirun --info} prints them: a control variable
     * per line ({@code name = value  [scope] description}), then the performance variables.
     */
    public static synchronized List<String> describe() {
        List<String> out = new ArrayList<>();
        initThread(MPI.THREAD_SINGLE);
        try {
            out.add("# control variables (set as -Dname=value or JMPI_NAME=value; docs/tuning.md)");
            for (int i = 0; i < ToolVariables.CVARS.size(); i++) {
                Cvar v = ToolVariables.CVARS.get(i);
                String value;
                try {
                    value = ToolVariables.read(v);
                } catch (MpiError | IllegalArgumentException e) {
                    // one bad parameter spoils its group's reading: name it at its own line only
                    String set = org.jmpi.runtime.Config.raw(v.name());
                    value = e.getMessage().contains(v.name() + "=") ? set + " (invalid: " + e.getMessage() + ")"
                            : (set == null ? "(default)" : set) + " (not checked: another parameter of its group is"
                                    + " invalid)";
                }
                String choices = v.choices() == null ? "" : " (" + String.join(", ", v.choices()) + ")";
                out.add(v.name() + " = " + value + "    " + v.description() + choices);
            }
            out.add("# performance variables (read through org.jmpi.tools.MpiT while MPI runs)");
            for (Pvar v : ToolVariables.PVARS) {
                String kind = switch (v.varClass()) {
                    case PVAR_CLASS_COUNTER -> "counter";
                    case PVAR_CLASS_LEVEL -> "level";
                    default -> "state";
                };
                out.add(v.name() + "    " + kind + (v.perPeer() ? " per world rank" : "") + ": " + v.description());
            }
        } finally {
            endUse();
        }
        return out;
    }

    private static Cvar cvar(int index) throws MPIException {
        return item(ToolVariables.CVARS, index, "control variable");
    }

    private static Pvar pvar(int index) throws MPIException {
        return item(ToolVariables.PVARS, index, "performance variable");
    }

    private static ToolVariables.Category category(int index) throws MPIException {
        return item(ToolVariables.CATEGORIES, index, "category");
    }

    /** The index of the first of {@code items} that {@code wanted} accepts; ERR_INVALID_NAME if none does. */
    private static <T> int indexOf(List<T> items, java.util.function.Predicate<T> wanted, String none)
            throws MPIException {
        check();
        for (int i = 0; i < items.size(); i++) {
            if (wanted.test(items.get(i))) {
                return i;
            }
        }
        throw error(ERR_INVALID_NAME, none);
    }

    /** Item {@code index} of {@code items}, once the interface is initialised; ERR_INVALID_INDEX if there is none. */
    private static <T> T item(List<T> items, int index, String what) throws MPIException {
        check();
        if (index < 0 || index >= items.size()) {
            throw error(ERR_INVALID_INDEX, "no " + what + " has index " + index + " (there are " + items.size() + ")");
        }
        return items.get(index);
    }

    private static JmpiRuntime runtime(Pvar v) throws MPIException {
        JmpiRuntime rt = JmpiRuntime.current();
        if (rt == null) {
            throw error(ERR_INVALID, v.name() + " is read from MPI, which does not run in this process (yet, or any"
                    + " more)");
        }
        return rt;
    }

    private static void check() throws MPIException {
        if (initCount <= 0) {
            throw error(ERR_NOT_INITIALIZED, "the tools interface is not initialized (call MpiT.initThread first)");
        }
    }

    private static MPIException error(int errorClass, String message) {
        return new MPIException(new MpiError(errorClass, message));
    }
}
