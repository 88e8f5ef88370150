package mpi;

/**
 * What a receive, probe, wait or test found. The public fields are MPJ Express's: {@code source}, {@code tag},
 * {@code index} (the request's position after {@code Waitany}/{@code Testany}/{@code Waitsome}/...), {@code count}
 * and {@code numEls} (base elements received), {@code countInBytes}.
 */
public class Status implements Freeable {
    public int source;
    public int tag;
    public int index = MPI.UNDEFINED;
    public int count;
    public int countInBytes;
    public int numEls;

    /** The runtime's status (primitive data), or null for an object message. */
    private org.jmpi.mpj.ompi.Status runtime;
    /** Objects received (object messages; -1 otherwise). */
    private int objects = -1;
    private boolean cancelled;

    public Status() {
    }

    Status(int source, int tag, int count, int countInBytes) {
        this.source = source;
        this.tag = tag;
        this.count = count;
        this.numEls = count;
        this.countInBytes = countInBytes;
    }

    static Status of(org.jmpi.mpj.ompi.Status s, Datatype type) {
        Status r = new Status();
        try {
            int src = s.getSource();
            r.source = src == org.jmpi.mpj.ompi.MPI.PROC_NULL ? MPI.PROC_NULL
                    : src == org.jmpi.mpj.ompi.MPI.ANY_SOURCE ? MPI.ANY_SOURCE : src;
            r.tag = s.getTag() == org.jmpi.mpj.ompi.MPI.ANY_TAG ? MPI.ANY_TAG : s.getTag();
            r.cancelled = s.isCancelled();
            if (!r.cancelled) {
                r.countInBytes = s.getCount(org.jmpi.mpj.ompi.MPI.BYTE);
            }
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
        r.runtime = s;
        int unit = type == null ? 1 : Math.max(1, type.getByteSize());
        r.count = r.numEls = r.countInBytes / unit;
        return r;
    }

    /** A status for an object message of {@code n} objects in {@code bytes} serialised bytes. */
    static Status ofObjects(int source, int tag, int n, int bytes) {
        Status r = new Status(source, tag, n, bytes);
        r.objects = n;
        return r;
    }

    /** The status of a receive from MPI.PROC_NULL. */
    static Status procNull() {
        return new Status(MPI.PROC_NULL, MPI.ANY_TAG, 0, 0);
    }

    /** Elements of {@code datatype} received; MPI.UNDEFINED if the data is not a whole number of them. */
    public int Get_count(Datatype datatype) {
        if (datatype.size == 0 && !datatype.isObject()) {
            return count; // a type without data: the count received into (MPJ Express; MPI-1 left it open)
        }
        if (objects >= 0 || datatype.isObject()) {
            int per = Math.max(1, datatype.size);
            int n = objects >= 0 ? objects : count;
            return n % per == 0 ? n / per : MPI.UNDEFINED;
        }
        if (runtime == null) {
            int b = datatype.size * datatype.getByteSize();
            return b == 0 ? 0 : countInBytes % b == 0 ? countInBytes / b : MPI.UNDEFINED;
        }
        try {
            int n = runtime.getCount(datatype.runtime());
            return n == org.jmpi.mpj.ompi.MPI.UNDEFINED ? MPI.UNDEFINED : n;
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /** Base elements of {@code datatype} received (also when not a whole number of the type). */
    public int Get_elements(Datatype datatype) {
        if (datatype.size == 0 && !datatype.isObject()) {
            return MPI.UNDEFINED;
        }
        if (objects >= 0 || datatype.isObject()) {
            return objects >= 0 ? objects : count;
        }
        if (runtime == null) {
            int b = datatype.getByteSize();
            return b == 0 ? 0 : countInBytes / b;
        }
        try {
            int n = runtime.getElements(datatype.runtime());
            return n == org.jmpi.mpj.ompi.MPI.UNDEFINED ? MPI.UNDEFINED : n;
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    void cancelled() {
        cancelled = true;
    }

    /** Whether the operation this status describes was cancelled. */
    public boolean Test_cancelled() {
        return cancelled;
    }

    public void free() {
    }

    @Override
    public String toString() {
        return "Status[source=" + source + ", tag=" + tag + ", index=" + index + ", bytes=" + countInBytes + "]";
    }
}
