package mpi;

import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;
import org.jmpi.runtime.RequestImpl;

/** The outcome of a receive, probe, wait or test: source, tag, error, element counts. */
public final class Status {
    int source = MPI.ANY_SOURCE;
    int tag = MPI.ANY_TAG;
    int error = MPI.SUCCESS;
    int index = MPI.UNDEFINED;
    /** Bytes of data the operation moved (packed size). */
    long bytes;
    boolean cancelled;
    /** Detail of {@link #error}, for the exception raised from it. */
    String errorMessage;

    Status() {}

    /** The status of a completed internal request. */
    static Status of(RequestImpl r) {
        Status s = new Status();
        s.source = r.source();
        s.tag = r.tag();
        s.error = r.error();
        s.bytes = r.bytes();
        s.cancelled = r.cancelled();
        s.errorMessage = r.errorMessage();
        return s;
    }

    static Status of(RequestImpl r, int index) {
        Status s = of(r);
        s.index = index;
        return s;
    }

    private static void checkType(Datatype datatype) {
        if (datatype == null || datatype.isNull()) {
            throw new MpiError(ErrorClass.ERR_TYPE, "invalid datatype");
        }
    }

    /**
     * Number of whole {@code datatype} items received, or {@code MPI.UNDEFINED} when the data is not a whole
     * number of them.
     */
    public int getCount(Datatype datatype) throws MPIException {
        long n = count(datatype, "MPI_Get_count");
        return n > Integer.MAX_VALUE ? MPI.UNDEFINED : (int) n;
    }

    /**
     * MPI_Get_count_c (MPI 4.0): {@link #getCount} as a {@code long}, for counts above 2^31 - 1 (a message from a
     * memory segment); {@code MPI.UNDEFINED} when the data is not a whole number of items.
     */
    public long getCountLong(Datatype datatype) throws MPIException {
        return count(datatype, "MPI_Get_count_c");
    }

    private long count(Datatype datatype, String call) throws MPIException {
        try {
            checkType(datatype);
            long size = datatype.desc.size();
            if (size == 0) {
                return bytes == 0 ? 0 : MPI.UNDEFINED;
            }
            return bytes % size != 0 ? MPI.UNDEFINED : bytes / size;
        } catch (MpiError e) {
            throw Errors.raise(call, e);
        }
    }

    public boolean isCancelled() throws MPIException {
        return cancelled;
    }

    /**
     * Number of basic elements received (the primitives of the datatype's type map; a MINLOC/MAXLOC pair counts 2), or
     * MPI.UNDEFINED when the data ends inside one.
     */
    public int getElements(Datatype datatype) throws MPIException {
        long n = elements(datatype, "MPI_Get_elements");
        return n > Integer.MAX_VALUE ? MPI.UNDEFINED : (int) n;
    }

    /** MPI_Get_elements_c (MPI 4.0): {@link #getElements} as a {@code long}. */
    public long getElementsLong(Datatype datatype) throws MPIException {
        return elements(datatype, "MPI_Get_elements_c");
    }

    public Count getElementsX(Datatype datatype) throws MPIException {
        return new Count(elements(datatype, "MPI_Get_elements_x"));
    }

    /** Basic elements in the data, or MPI.UNDEFINED. */
    private long elements(Datatype datatype, String call) throws MPIException {
        try {
            checkType(datatype);
            long n = datatype.desc.basicElementsIn(bytes);
            return n < 0 ? MPI.UNDEFINED : n;
        } catch (MpiError e) {
            throw Errors.raise(call, e);
        }
    }

    public void setElements(Datatype datatype, int count) throws MPIException {
        setElementsX(datatype, new Count(count));
    }

    public void setElementsX(Datatype datatype, Count count) throws MPIException {
        try {
            checkType(datatype);
            if (count == null || count.getCount() < 0) {
                throw new MpiError(ErrorClass.ERR_COUNT, "invalid count");
            }
            long b = datatype.desc.bytesOfBasicElements(count.getCount());
            if (b < 0) {
                throw new MpiError(ErrorClass.ERR_COUNT, count.getCount() + " basic elements of " + datatype
                        + " do not end on an element boundary");
            }
            bytes = b;
        } catch (MpiError e) {
            throw Errors.raise("MPI_Status_set_elements_x", e);
        }
    }

    public void setCancelled(boolean flag) throws MPIException {
        cancelled = flag;
    }

    public int getSource() {
        return source;
    }

    public int getTag() {
        return tag;
    }

    public int getError() {
        return error;
    }

    public int getIndex() {
        return index;
    }

    @Override
    public String toString() {
        return "Status[source=" + source + ", tag=" + tag + ", error=" + error + ", bytes=" + bytes
                + (cancelled ? ", cancelled" : "") + (index != MPI.UNDEFINED ? ", index=" + index : "") + "]";
    }
}
