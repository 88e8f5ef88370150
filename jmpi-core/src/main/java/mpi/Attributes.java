package mpi;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;

/**
 * The attributes of one communicator or window, and the keyvals of one object kind. As in the Open MPI Java
 * bindings, keyvals carry no callbacks and values are stored serialised: {@code getAttr} returns an equal copy, and
 * duplicating a communicator copies its attributes.
 *
 * <p>Communicators and windows number their keyvals from {@link #FIRST_USER_KEYVAL}, above the predefined ones
 * ({@code MPI.TAG_UB} ... {@code MPI.UNIVERSE_SIZE}), which read as the values of {@link #predefined}.
 *
 * <p>Threading: the keyval registry and the value map are concurrent maps, so threads may set and read attributes
 * at the same time (MPI leaves the outcome of racing updates of one attribute undefined).
 */
final class Attributes {
    /** The first keyval handed to users (the predefined ones are 0..6). */
    static final int FIRST_USER_KEYVAL = 16;

    /** The keyvals of one object kind. */
    static final class Keyvals {
        private final String kind;
        private final Set<Integer> live = ConcurrentHashMap.newKeySet();
        private final AtomicInteger next = new AtomicInteger(FIRST_USER_KEYVAL);

        Keyvals(String kind) {
            this.kind = kind;
        }

        int create() {
            int k = next.getAndIncrement();
            live.add(k);
            return k;
        }

        void free(int keyval) {
            if (isPredefined(keyval)) {
                throw new MpiError(ErrorClass.ERR_KEYVAL, "predefined keyval " + keyval + " cannot be freed");
            }
            if (!live.remove(keyval)) {
                throw invalid(keyval);
            }
        }

        MpiError invalid(int keyval) {
            return new MpiError(ErrorClass.ERR_KEYVAL, "invalid " + kind + " keyval " + keyval);
        }
    }

    static final Keyvals COMM = new Keyvals("communicator");
    static final Keyvals WIN = new Keyvals("window");

    private final Keyvals keyvals;
    private final Map<Integer, byte[]> values = new ConcurrentHashMap<>();

    Attributes(Keyvals keyvals) {
        this.keyvals = keyvals;
    }

    static boolean isPredefined(int keyval) {
        return keyval >= MPI.TAG_UB && keyval <= MPI.UNIVERSE_SIZE;
    }

    void set(int keyval, Object value) {
        if (isPredefined(keyval)) {
            throw new MpiError(ErrorClass.ERR_KEYVAL, "predefined keyval " + keyval + " is read-only");
        }
        if (!keyvals.live.contains(keyval)) {
            throw keyvals.invalid(keyval);
        }
        values.put(keyval, serialise(value));
    }

    /** The value under a user keyval, or null (predefined keyvals are answered by the caller). */
    Object get(int keyval) {
        byte[] b = values.get(keyval);
        if (b == null) {
            if (!keyvals.live.contains(keyval)) {
                throw keyvals.invalid(keyval);
            }
            return null;
        }
        return deserialise(b);
    }

    void delete(int keyval) {
        if (isPredefined(keyval)) {
            throw new MpiError(ErrorClass.ERR_KEYVAL, "predefined keyval " + keyval + " cannot be deleted");
        }
        if (values.remove(keyval) == null && !keyvals.live.contains(keyval)) {
            throw keyvals.invalid(keyval);
        }
    }

    /** A copy for a duplicated object (the stored bytes are immutable, so they are shared). */
    Attributes copy() {
        Attributes a = new Attributes(keyvals);
        a.values.putAll(values);
        return a;
    }

    void clear() {
        values.clear();
    }

    private static byte[] serialise(Object value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (IOException e) {
            throw new MpiError(ErrorClass.ERR_ARG, "the attribute value cannot be serialised: " + e, e);
        }
        return bytes.toByteArray();
    }

    private static Object deserialise(byte[] b) {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(b))) {
            return in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new MpiError(ErrorClass.ERR_OTHER, "the attribute value cannot be read back: " + e, e);
        }
    }

    /** This process's application context (jmpirun's MPMD context, spawnMultiple's command index). */
    static int appnum() {
        return org.jmpi.dpm.DynamicProcesses.appnum();
    }

    /**
     * The value of a predefined communicator attribute: TAG_UB, HOST (none: PROC_NULL), IO (any rank can do I/O:
     * ANY_SOURCE), APPNUM (the application context, 0 without MPMD), LASTUSEDCODE, UNIVERSE_SIZE
     * ({@code JMPI_UNIVERSE_SIZE}, else the process manager's, else the world's size) as Integer; WTIME_IS_GLOBAL as
     * Boolean (false).
     */
    static Object predefined(int keyval, int worldSize) {
        if (keyval == MPI.TAG_UB) {
            return Integer.MAX_VALUE;
        } else if (keyval == MPI.HOST) {
            return MPI.PROC_NULL;
        } else if (keyval == MPI.IO) {
            return MPI.ANY_SOURCE;
        } else if (keyval == MPI.APPNUM) {
            return appnum();
        } else if (keyval == MPI.LASTUSEDCODE) {
            return MPI.ERR_LASTCODE;
        } else if (keyval == MPI.UNIVERSE_SIZE) {
            int universe = org.jmpi.dpm.DynamicProcesses.universeSize();
            return universe > 0 ? universe : worldSize;
        } else {
            return Boolean.FALSE;
        }
    }
}
