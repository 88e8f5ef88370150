package mpi;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An ordered set of (key, value) string pairs used to pass hints to MPI calls (MPI_Info). Keys keep the order in
 * which they were first set. Keys are 1 to {@code MPI.MAX_INFO_KEY - 1} characters long, values 1 to
 * {@code MPI.MAX_INFO_VAL - 1} characters (the C limits include the terminating NUL).
 *
 * <p>Not thread-safe: an info object belongs to the thread that uses it.
 */
public final class Info implements Freeable, Cloneable {
    /** The pairs; package-private so that the runtime can fill the predefined {@link MPI#INFO_ENV}. */
    final Map<String, String> entries = new LinkedHashMap<>();

    /** True for the predefined objects {@link MPI#INFO_NULL} and {@link MPI#INFO_ENV}, which users cannot change. */
    private final boolean predefined;

    /** True for {@link MPI#INFO_NULL} and for an info object that has been freed. */
    private boolean nullHandle;

    /** Creates an empty info object. */
    public Info() throws MPIException {
        this.predefined = false;
    }

    /** Creates a predefined info object: {@link MPI#INFO_NULL} when {@code nullHandle}, else {@link MPI#INFO_ENV}. */
    Info(boolean nullHandle) {
        this.predefined = true;
        this.nullHandle = nullHandle;
    }

    /** A user-owned copy of {@code source}'s pairs. */
    private Info(Info source) {
        this.predefined = false;
        this.entries.putAll(source.entries);
    }

    /**
     * Sets {@code key} to {@code value}, replacing an earlier value.
     *
     * @throws MPIException {@link MPI#ERR_INFO_KEY} for an empty or too long key, {@link MPI#ERR_INFO_VALUE} for an
     *     empty or too long value, {@link MPI#ERR_INFO} for a null, freed or predefined info object
     */
    public void set(String key, String value) throws MPIException {
        checkUsable("Info.set");
        if (predefined) {
            throw new MPIException(MPI.ERR_INFO, "Info.set: the predefined info object cannot be changed");
        }
        checkKey("Info.set", key);
        if (value == null || value.isEmpty() || value.length() >= MPI.MAX_INFO_VAL) {
            throw new MPIException(MPI.ERR_INFO_VALUE, "Info.set: the value must have 1 to "
                    + (MPI.MAX_INFO_VAL - 1) + " characters, got " + (value == null ? "null" : value.length()));
        }
        entries.put(key, value);
    }

    /**
     * The value of {@code key}, or {@code null} when the key is not set.
     *
     * @throws MPIException {@link MPI#ERR_INFO_KEY} for an empty or too long key, {@link MPI#ERR_INFO} for a null
     *     or freed info object
     */
    public String get(String key) throws MPIException {
        checkUsable("Info.get");
        checkKey("Info.get", key);
        return entries.get(key);
    }

    /** MPI_Info_get_string (MPI 4.0): the value of {@code key}, or null when it is not set (as {@link #get}). */
    public String getString(String key) throws MPIException {
        return get(key);
    }

    /**
     * Removes {@code key}.
     *
     * @throws MPIException {@link MPI#ERR_INFO_NOKEY} when the key is not set, {@link MPI#ERR_INFO_KEY} for an
     *     empty or too long key, {@link MPI#ERR_INFO} for a null, freed or predefined info object
     */
    public void delete(String key) throws MPIException {
        checkUsable("Info.delete");
        if (predefined) {
            throw new MPIException(MPI.ERR_INFO, "Info.delete: the predefined info object cannot be changed");
        }
        checkKey("Info.delete", key);
        if (entries.remove(key) == null) {
            throw new MPIException(MPI.ERR_INFO_NOKEY, "Info.delete: key \"" + key + "\" is not set");
        }
    }

    /**
     * The number of keys set.
     *
     * @throws MPIException {@link MPI#ERR_INFO} for a null or freed info object
     */
    public int size() throws MPIException {
        checkUsable("Info.size");
        return entries.size();
    }

    /**
     * Key number {@code i}, counting from 0 in the order the keys were first set.
     *
     * @throws MPIException {@link MPI#ERR_INFO_NOKEY} when {@code i} is not in {@code [0, size())},
     *     {@link MPI#ERR_INFO} for a null or freed info object
     */
    public String getKey(int i) throws MPIException {
        checkUsable("Info.getKey");
        if (i < 0 || i >= entries.size()) {
            throw new MPIException(MPI.ERR_INFO_NOKEY,
                    "Info.getKey: index " + i + " is out of range, the info object has " + entries.size() + " keys");
        }
        int n = 0;
        for (String key : entries.keySet()) {
            if (n++ == i) {
                return key;
            }
        }
        throw new AssertionError("unreachable");
    }

    /**
     * A new info object with the same pairs; a copy of a null or freed info object is {@code MPI.INFO_NULL}-like
     * (its {@link #isNull()} is true).
     */
    @Override
    public Info clone() {
        if (nullHandle) {
            return new Info(true);
        }
        return new Info(this);
    }

    /**
     * A new info object with the same pairs, owned by the caller.
     *
     * @throws MPIException {@link MPI#ERR_INFO} for a null or freed info object
     */
    public Info dup() throws MPIException {
        checkUsable("Info.dup");
        return new Info(this);
    }

    /**
     * Frees the info object; {@link #isNull()} is true afterwards.
     *
     * @throws MPIException {@link MPI#ERR_INFO} for a null, freed or predefined info object
     */
    @Override
    public void free() throws MPIException {
        checkUsable("Info.free");
        if (predefined) {
            throw new MPIException(MPI.ERR_INFO, "Info.free: a predefined info object cannot be freed");
        }
        entries.clear();
        nullHandle = true;
    }

    /** True for {@link MPI#INFO_NULL} and for a freed info object. */
    public boolean isNull() {
        return nullHandle;
    }

    @Override
    public String toString() {
        return nullHandle ? "MPI_INFO_NULL" : "Info" + entries;
    }

    private void checkUsable(String call) throws MPIException {
        if (nullHandle) {
            throw new MPIException(MPI.ERR_INFO, call + ": the info object is null or freed");
        }
    }

    private static void checkKey(String call, String key) throws MPIException {
        if (key == null || key.isEmpty() || key.length() >= MPI.MAX_INFO_KEY) {
            throw new MPIException(MPI.ERR_INFO_KEY, call + ": the key must have 1 to " + (MPI.MAX_INFO_KEY - 1)
                    + " characters, got " + (key == null ? "null" : key.length()));
        }
    }
}
