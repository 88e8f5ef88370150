package mpi;

/**
 * A non-blocking operation. {@link #Test()} returns null while it is not complete; {@code Waitany}/{@code Testany}
 * return one status with {@link Status#index} set; a completed (non-persistent) request is inactive afterwards,
 * and waiting on it again returns an empty status at once.
 */
public class Request {
    /** The runtime's request, or null (an object receive not yet matched, a completed or a null request). */
    org.jmpi.mpj.ompi.Request runtime;
    /** The type whose elements a status counts. */
    Datatype type;
    /** Work once the runtime's request completes (copying back a boolean[] at an offset), or null. */
    Runnable after;
    /** An object receive still to be matched, or null. */
    ObjectMessages.Receive objectReceive;
    /** The status of a completed operation, kept until it is read. */
    Status done;
    /** Whether nothing is (or remains) to complete. */
    boolean inactive;

    Request() {
    }

    /** MPJ Express's {@code new Request(true)}-style null request (MPI.REQUEST_NULL). */
    static Request nullRequest() {
        Request r = new Request();
        r.inactive = true;
        return r;
    }

    static Request of(org.jmpi.mpj.ompi.Request r, Datatype type, Runnable after) {
        Request q = new Request();
        q.runtime = r;
        q.type = type;
        q.after = after;
        return q;
    }

    static Request completed(Status s) {
        Request q = new Request();
        q.done = s;
        return q;
    }

    /** Whether this is MPI.REQUEST_NULL or an inactive request. */
    public boolean Is_null() {
        return inactive && done == null;
    }

    /** Waits until the operation completes and returns its status. */
    public Status Wait() {
        if (done != null) {
            return finish();
        }
        if (inactive) {
            return emptyStatus();
        }
        if (objectReceive != null) {
            done = objectReceive.await();
            return finish();
        }
        try {
            org.jmpi.mpj.ompi.Status s = runtime.waitStatus();
            done = Status.of(s, type);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
        return finish();
    }

    /** The status if the operation is complete, else null. */
    public Status Test() {
        if (done != null) {
            return finish();
        }
        if (inactive) {
            return emptyStatus();
        }
        if (objectReceive != null) {
            Status s = objectReceive.poll();
            if (s == null) {
                return null;
            }
            done = s;
            return finish();
        }
        try {
            org.jmpi.mpj.ompi.Status s = runtime.testStatus();
            if (s == null) {
                return null;
            }
            done = Status.of(s, type);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
        return finish();
    }

    private Status finish() {
        Runnable a = after;
        if (a != null && runtime != null) {
            a.run();
        }
        Status s = done;
        done = null;
        complete();
        return s;
    }

    /** After completion: a persistent request stays, inactive until started; others become inactive for good. */
    void complete() {
        inactive = true;
        objectReceive = null;
    }

    private static Status emptyStatus() {
        return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, 0, 0);
    }

    /** Whether the request can be handed to the runtime's calls on arrays of requests as it is. */
    private boolean plain() {
        return runtime != null && done == null && !inactive && objectReceive == null;
    }

    /** Requests the cancellation of the operation; complete it with {@link #Wait} or {@link #Test}. */
    public void Cancel() {
        try {
            if (runtime != null && !inactive) {
                runtime.cancel();
            } else if (objectReceive != null) {
                done = objectReceive.cancel();
            }
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /** Frees the request; an operation in progress still completes (MPI_REQUEST_FREE). */
    public void Free() {
        try {
            if (runtime != null && !inactive && objectReceive == null) {
                runtime.free();
            }
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
        runtime = null;
        inactive = true;
        done = null;
    }

    /** As MPJ Express's public {@code finalize}: does nothing. */
    @SuppressWarnings({"deprecation", "removal"})
    @Override
    public void finalize() {
    }

    // ---------------------------------------------------------------- arrays of requests

    private static boolean allPlain(Request[] rs) {
        for (Request r : rs) {
            if (r != null && !r.plain()) {
                return false;
            }
        }
        return true;
    }

    private static org.jmpi.mpj.ompi.Request[] runtimes(Request[] rs) {
        org.jmpi.mpj.ompi.Request[] o = new org.jmpi.mpj.ompi.Request[rs.length];
        for (int i = 0; i < rs.length; i++) {
            o[i] = rs[i] == null ? null : rs[i].runtime;
        }
        return o;
    }

    private static boolean active(Request r) {
        return r != null && (!r.inactive || r.done != null);
    }

    /** Waits for all; their statuses in order (an empty status for null and inactive requests). */
    public static Status[] Waitall(Request[] array_of_requests) {
        Status[] out = new Status[array_of_requests.length];
        for (int i = 0; i < out.length; i++) {
            Request r = array_of_requests[i];
            out[i] = r == null ? emptyStatus() : r.Wait();
            out[i].index = i;
        }
        return out;
    }

    /** Waits for one; its status with {@code index} set (MPI.UNDEFINED and an empty status when none is active). */
    public static Status Waitany(Request[] array_of_requests) {
        if (allPlain(array_of_requests)) {
            try {
                org.jmpi.mpj.ompi.Status s = org.jmpi.mpj.ompi.Request.waitAnyStatus(runtimes(array_of_requests));
                int i = s.getIndex();
                if (i == org.jmpi.mpj.ompi.MPI.UNDEFINED || i < 0) {
                    return undefinedIndex();
                }
                Request r = array_of_requests[i];
                r.done = Status.of(s, r.type);
                Status f = r.finish();
                f.index = i;
                return f;
            } catch (org.jmpi.mpj.ompi.MPIException e) {
                throw MPIException.of(e);
            }
        }
        for (int spins = 0;; spins++) {
            Status s = Testany(array_of_requests);
            if (s != null) {
                return s;
            }
            pause(spins);
        }
    }

    private static Status undefinedIndex() {
        Status s = emptyStatus();
        s.index = MPI.UNDEFINED;
        return s;
    }

    /** One completed request's status with {@code index} set, or null; MPI.UNDEFINED index when none is active. */
    public static Status Testany(Request[] array_of_requests) {
        java.util.List<Status> done = test(array_of_requests, 1);
        return done == null ? undefinedIndex() : done.isEmpty() ? null : done.get(0);
    }

    /** All statuses if all are complete, else null (and nothing completed is lost: completed ones keep theirs). */
    public static Status[] Testall(Request[] array_of_requests) {
        for (Request r : array_of_requests) {
            if (active(r) && r.done == null) {
                Status s = r.Test();
                if (s == null) {
                    return null;
                }
                r.done = s; // kept for the statuses below
                r.inactive = false;
            }
        }
        return Waitall(array_of_requests);
    }

    /**
     * Waits until at least one completes; the statuses of all that did (each with its index). An empty array when
     * none is active (as MPJ Express; MPI's outcount MPI_UNDEFINED).
     */
    public static Status[] Waitsome(Request[] array_of_requests) {
        for (int spins = 0;; spins++) {
            Status[] s = testSome(array_of_requests);
            if (s == null || s.length > 0) {
                return s == null ? new Status[0] : s;
            }
            pause(spins);
        }
    }

    /** The statuses of those complete now (each with its index); an empty array if none is, or none is active. */
    public static Status[] Testsome(Request[] array_of_requests) {
        Status[] s = testSome(array_of_requests);
        return s == null ? new Status[0] : s;
    }

    /** {@link #Testsome}, but null when no request is active. */
    private static Status[] testSome(Request[] array_of_requests) {
        java.util.List<Status> done = test(array_of_requests, Integer.MAX_VALUE);
        return done == null ? null : done.toArray(new Status[0]);
    }

    /**
     * Tests the active requests in order, up to {@code most} completions (each status with its index); null when none
     * is active.
     */
    private static java.util.List<Status> test(Request[] array_of_requests, int most) {
        java.util.List<Status> out = new java.util.ArrayList<>();
        boolean any = false;
        for (int i = 0; i < array_of_requests.length && out.size() < most; i++) {
            Request r = array_of_requests[i];
            if (!active(r)) {
                continue;
            }
            any = true;
            Status s = r.Test();
            if (s != null) {
                s.index = i;
                out.add(s);
            }
        }
        return any || !out.isEmpty() ? out : null;
    }

    static void pause(int spins) {
        if (spins < 64) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }
}
