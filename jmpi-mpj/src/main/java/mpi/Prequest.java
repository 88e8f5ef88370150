package mpi;

import java.util.function.Supplier;

/** A persistent request: {@link #Start()} begins the operation again, {@code Wait}/{@code Test} complete it. */
public class Prequest extends Request {
    /** For object data (serialised at each start) and boolean[] at an offset: starts one non-blocking operation. */
    private final Supplier<Request> starter;
    private final org.jmpi.mpj.ompi.Prequest persistent;
    private boolean freed;

    Prequest(org.jmpi.mpj.ompi.Prequest r, Datatype type) {
        this.persistent = r;
        this.starter = null;
        this.type = type;
        this.inactive = true;
    }

    Prequest(Supplier<Request> starter, Datatype type) {
        this.persistent = null;
        this.starter = starter;
        this.type = type;
        this.inactive = true;
    }

    public void Start() {
        if (!inactive) {
            throw new MPIException("Start: the request is already active", 13);
        }
        done = null;
        if (persistent != null) {
            try {
                persistent.start();
            } catch (org.jmpi.mpj.ompi.MPIException e) {
                throw MPIException.of(e);
            }
            runtime = persistent;
        } else {
            Request r = starter.get();
            runtime = r.runtime;
            after = r.after;
            objectReceive = r.objectReceive;
            done = r.done;
        }
        inactive = false;
    }

    /** False until {@link #Free()}: an inactive persistent request is not a null request. */
    @Override
    public boolean Is_null() {
        return freed;
    }

    public static void Startall(Prequest[] array_of_requests) {
        for (Prequest p : array_of_requests) {
            if (p != null) {
                p.Start();
            }
        }
    }

    @Override
    public void Free() {
        if (persistent != null && inactive) {
            try {
                persistent.free();
            } catch (org.jmpi.mpj.ompi.MPIException e) {
                throw MPIException.of(e);
            }
        }
        super.Free();
        freed = true;
    }
}
