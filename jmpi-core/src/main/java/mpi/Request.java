package mpi;

import java.util.ArrayList;
import java.util.List;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;
import org.jmpi.runtime.RequestImpl;

/**
 * A handle to a pending non-blocking operation. Once the operation has completed and its completion has been
 * observed (by a wait, or a test that returned true), or once the request is freed, the handle becomes a null
 * request: {@link #isNull()} is true and waiting on it returns at once with an empty status.
 *
 * <p>Threading: a request may be waited on or tested by one thread at a time, as MPI requires.
 */
public class Request implements Freeable {
    /** True for MPI_REQUEST_NULL, and for a request once it has completed or been freed. */
    boolean nullHandle = true;

    /** The operation; null for MPI_REQUEST_NULL. */
    RequestImpl impl;

    /** Whose error handler applies; null means MPI_COMM_WORLD's. */
    Comm comm;

    /** For a file access, the file whose error handler applies (it takes precedence over {@link #comm}). */
    File file;

    /** MPI name of the call that started the operation, for error messages. */
    String call = "MPI_Request";

    /** True once {@link #free()} was called: using the request again is an error (ERR_REQUEST). */
    boolean freed;

    /**
     * True when {@link #impl} is a point-to-point request that only this handle refers to, which the engine may
     * reuse once the handle has observed its completion.
     */
    boolean recyclable;

    /** Creates a null request (MPI_REQUEST_NULL). */
    Request() {}

    /** A request for a started operation; a null {@code impl} (PROC_NULL) gives an already complete request. */
    static Request of(Comm comm, RequestImpl impl, String call) {
        Request r = new Request();
        r.comm = comm;
        r.call = call;
        r.impl = impl != null ? impl : RequestImpl.completed(JmpiRuntime.get().progress(), MPI.PROC_NULL,
                MPI.ANY_TAG, 0);
        r.nullHandle = false;
        return r;
    }

    /**
     * A request for a point-to-point operation that only this handle refers to: once the handle observes its
     * completion, the engine may reuse the operation's internal request.
     */
    static Request ofOwned(Comm comm, RequestImpl impl, String call) {
        Request r = of(comm, impl, call);
        r.recyclable = impl != null && !impl.shared();
        return r;
    }

    final MPIException fail(String name, MpiError e) {
        Errhandler h = file != null ? file.errhandler : comm != null ? comm.errhandler : MPI.COMM_WORLD.errhandler;
        return Errors.raise(h, name, e);
    }

    /** Persistent requests stay valid after completion. */
    boolean persistent() {
        return false;
    }

    /** Observes completion: builds the status and turns a non-persistent request into a null handle. */
    final Status finish(int index) {
        if (impl == null) { // finished (and recycled) already, e.g. listed twice in an array
            return emptyStatus(index);
        }
        Status s = Status.of(impl, index);
        finishQuietly();
        return s;
    }

    /**
     * Observes completion without a status: turns a non-persistent request into a null handle, whose operation
     * nobody can reach any more, so its internal request goes back to the engine for reuse.
     */
    final void finishQuietly() {
        RequestImpl observed = impl;
        if (observed != null && observed.isDone() && observed.error() == ErrorClass.ERR_PROC_FAILED_PENDING) {
            return; // ULFM: a receive from ANY_SOURCE that met an unacknowledged failure stays pending
        }
        if (!persistent()) {
            nullHandle = true;
            RequestImpl done = impl;
            if (done != null && recyclable) {
                impl = null;
                releaseOutOfLine(done);
            }
        } else {
            inactive();
        }
    }


    /**
     * Hands a finished point-to-point request back to the engine. Out of line (jmpirun's JIT hints), as
     * {@link #awaitOutOfLine} and {@link #pollOutOfLine}: {@link #waitFor()} and {@link #test()} stay small enough for
     * C2 to inline them into the caller, so that a {@code Request} that never leaves the caller (started, waited on,
     * dropped) is not allocated at all.
     */
    private static void releaseOutOfLine(RequestImpl done) {
        JmpiRuntime.get().engine().release(done);
    }

    private static void awaitOutOfLine(RequestImpl r) {
        JmpiRuntime.get().progress().await(r);
    }

    private static void pollOutOfLine() {
        JmpiRuntime.get().progress().poll();
    }

    /** Called when a persistent request's activation completes. */
    void inactive() {}

    /** Whether this handle refers to an active operation (not null, not an inactive persistent request). */
    boolean active() {
        if (nullHandle || impl == null) {
            return false;
        }
        RequestImpl i = impl;
        if (i.isDone() && i.error() == ErrorClass.ERR_PROC_FAILED_PENDING) {
            JmpiRuntime.get().engine().revive(i); // waited for again: posted again (or pending again at once)
        }
        return true;
    }

    static Status emptyStatus(int index) {
        Status s = new Status();
        s.index = index;
        return s;
    }

    private static void raiseIfError(Request r, Status s) {
        if (s.error != 0 && !s.cancelled) {
            throw new MpiError(s.error, s.errorMessage);
        }
    }

    /**
     * Frees the request. An operation still in progress goes on and completes on its own (as MPI_Request_free
     * says); the handle may not be used again: later calls on it fail with {@code MPI.ERR_REQUEST}.
     */
    public void free() throws MPIException {
        try {
            checkNotFreed();
            if (this == MPI.REQUEST_NULL) {
                throw new MpiError(ErrorClass.ERR_REQUEST, "cannot free MPI.REQUEST_NULL");
            }
            freed = true;
            nullHandle = true;
        } catch (MpiError e) {
            throw fail("MPI_Request_free", e);
        }
    }

    final void checkNotFreed() {
        if (freed) {
            throw new MpiError(ErrorClass.ERR_REQUEST, "the request was freed and may not be used again");
        }
    }

    public final void cancel() throws MPIException {
        try {
            checkNotFreed();
            if (nullHandle || impl == null) {
                throw new MpiError(ErrorClass.ERR_REQUEST, "cancel of a null request");
            }
            if (impl != null && !impl.isDone()) {
                impl.cancel();
            } else if (impl != null && impl.error() == ErrorClass.ERR_PROC_FAILED_PENDING) {
                JmpiRuntime.get().engine().cancelPending(impl);
            }
        } catch (MpiError e) {
            throw fail("MPI_Cancel", e);
        }
    }

    public final boolean isNull() {
        return nullHandle;
    }

    public final Status waitStatus() throws MPIException {
        try {
            checkNotFreed();
            if (!active()) {
                return emptyStatus(MPI.UNDEFINED);
            }
            JmpiRuntime.get().progress().await(impl);
            Status s = finish(MPI.UNDEFINED);
            raiseIfError(this, s);
            return s;
        } catch (MpiError e) {
            throw fail("MPI_Wait", e);
        }
    }

    public final void waitFor() throws MPIException {
        try {
            checkNotFreed();
            if (!active()) {
                return;
            }
            awaitOutOfLine(impl);
            observeCompletion();
        } catch (MpiError e) {
            throw fail("MPI_Wait", e);
        }
    }

    /** Raises the error of the completed operation, if any, then finishes the handle without building a status. */
    private void observeCompletion() {
        RequestImpl done = impl;
        if (done.error() != 0 && !done.cancelled()) {
            MpiError e = new MpiError(done.error(), done.errorMessage()); // before the request may be recycled
            finishQuietly();
            throw e;
        }
        finishQuietly();
    }

    public final Status testStatus() throws MPIException {
        try {
            checkNotFreed();
            if (!active()) {
                return emptyStatus(MPI.UNDEFINED);
            }
            if (!impl.isDone()) {
                JmpiRuntime.get().progress().poll();
                if (!impl.isDone()) {
                    return null;
                }
            }
            Status s = finish(MPI.UNDEFINED);
            raiseIfError(this, s);
            return s;
        } catch (MpiError e) {
            throw fail("MPI_Test", e);
        }
    }

    public final Status getStatus() throws MPIException {
        try {
            checkNotFreed();
            if (!active()) {
                return emptyStatus(MPI.UNDEFINED);
            }
            if (!impl.isDone()) {
                JmpiRuntime.get().progress().poll();
                if (!impl.isDone()) {
                    return null;
                }
            }
            return Status.of(impl);
        } catch (MpiError e) {
            throw fail("MPI_Request_get_status", e);
        }
    }

    /**
     * MPI_Request_get_status_all (MPI 4.1): the statuses of all requests when every one is complete (null or inactive
     * ones give empty statuses), else null; like {@link #getStatus()}, no request is freed or made inactive.
     */
    public static Status[] getStatusAll(Request[] requests) throws MPIException {
        Status[] out = statusesOrNull(requests, "MPI_Request_get_status_all");
        for (Status st : out) {
            if (st == null) {
                return null;
            }
        }
        return out;
    }

    /**
     * MPI_Request_get_status_any (MPI 4.1): the status of one complete active request, its index in the array set
     * ({@link Status#getIndex()}); null when none is complete; an empty status with index MPI.UNDEFINED when none is
     * active. No request is freed.
     */
    public static Status getStatusAny(Request[] requests) throws MPIException {
        Status[] all = statusesOrNull(requests, "MPI_Request_get_status_any");
        boolean anyActive = false;
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] != null && requests[i].active()) {
                anyActive = true;
                if (all[i] != null) {
                    all[i].index = i;
                    return all[i];
                }
            }
        }
        return anyActive ? null : emptyStatus(MPI.UNDEFINED);
    }

    /**
     * MPI_Request_get_status_some (MPI 4.1): the statuses of the complete active requests, each with its index; an
     * empty array when none is complete; null when none is active. No request is freed.
     */
    public static Status[] getStatusSome(Request[] requests) throws MPIException {
        Status[] all = statusesOrNull(requests, "MPI_Request_get_status_some");
        List<Status> done = new ArrayList<>();
        boolean anyActive = false;
        for (int i = 0; i < requests.length; i++) {
            if (requests[i] != null && requests[i].active()) {
                anyActive = true;
                if (all[i] != null) {
                    all[i].index = i;
                    done.add(all[i]);
                }
            }
        }
        return anyActive ? done.toArray(new Status[0]) : null;
    }

    /** {@link #getStatus()} of each request (null entries: empty statuses); null where not complete. */
    private static Status[] statusesOrNull(Request[] requests, String call) throws MPIException {
        if (requests == null) {
            throw Errors.raise(call, new MpiError(ErrorClass.ERR_ARG, "null request array"));
        }
        Status[] out = new Status[requests.length];
        for (int i = 0; i < requests.length; i++) {
            out[i] = requests[i] == null ? emptyStatus(MPI.UNDEFINED) : requests[i].getStatus();
        }
        return out;
    }

    public final boolean test() throws MPIException {
        try {
            checkNotFreed();
            if (!active()) {
                return true;
            }
            if (!impl.isDone()) {
                pollOutOfLine();
                if (!impl.isDone()) {
                    return false;
                }
            }
            observeCompletion();
            return true;
        } catch (MpiError e) {
            throw fail("MPI_Test", e);
        }
    }

    // ------------------------------------------------------------------ arrays

    private static RequestImpl[] impls(Request[] requests) {
        if (requests == null) {
            throw new MpiError(ErrorClass.ERR_ARG, "null request array");
        }
        RequestImpl[] out = new RequestImpl[requests.length];
        for (int i = 0; i < requests.length; i++) {
            Request r = requests[i];
            if (r != null) {
                r.checkNotFreed();
            }
            out[i] = r != null && r.active() ? r.impl : null;
        }
        return out;
    }

    private static int firstDone(RequestImpl[] rs) {
        for (int i = 0; i < rs.length; i++) {
            if (rs[i] != null && rs[i].isDone()) {
                return i;
            }
        }
        return -1;
    }

    private static boolean allNull(RequestImpl[] rs) {
        for (RequestImpl r : rs) {
            if (r != null) {
                return false;
            }
        }
        return true;
    }

    public static Status waitAnyStatus(Request[] requests) throws MPIException {
        try {
            RequestImpl[] rs = impls(requests);
            if (allNull(rs)) {
                return emptyStatus(MPI.UNDEFINED);
            }
            JmpiRuntime.get().progress().awaitAny(rs);
            int i = firstDone(rs);
            Status s = requests[i].finish(i);
            raiseIfError(requests[i], s);
            return s;
        } catch (MpiError e) {
            throw Errors.raise("MPI_Waitany", e);
        }
    }

    public static int waitAny(Request[] requests) throws MPIException {
        return waitAnyStatus(requests).getIndex();
    }

    public static Status testAnyStatus(Request[] requests) throws MPIException {
        try {
            RequestImpl[] rs = impls(requests);
            if (allNull(rs)) {
                return emptyStatus(MPI.UNDEFINED);
            }
            int i = firstDone(rs);
            if (i < 0) {
                JmpiRuntime.get().progress().poll();
                i = firstDone(rs);
            }
            if (i < 0) {
                return null;
            }
            Status s = requests[i].finish(i);
            raiseIfError(requests[i], s);
            return s;
        } catch (MpiError e) {
            throw Errors.raise("MPI_Testany", e);
        }
    }

    public static int testAny(Request[] requests) throws MPIException {
        Status s = testAnyStatus(requests);
        return s == null ? MPI.UNDEFINED : s.getIndex();
    }

    public static Status[] waitAllStatus(Request[] requests) throws MPIException {
        try {
            RequestImpl[] rs = impls(requests);
            org.jmpi.runtime.Progress progress = JmpiRuntime.get().progress();
            for (int i = rs.length - 1; i >= 0; i--) { // the last first, as in waitAll
                if (rs[i] != null) {
                    progress.await(rs[i]);
                }
            }
            return finishAll(requests, rs);
        } catch (MpiError e) {
            throw Errors.raise("MPI_Waitall", e);
        }
    }

    private static Status[] finishAll(Request[] requests, RequestImpl[] rs) {
        Status[] out = new Status[rs.length];
        MpiError first = null;
        for (int i = 0; i < rs.length; i++) {
            if (rs[i] == null) {
                out[i] = emptyStatus(i);
            } else {
                out[i] = requests[i].finish(i);
                if (out[i].error != 0 && !out[i].cancelled && first == null) {
                    first = new MpiError(out[i].error, "request " + i + ": " + out[i].errorMessage);
                }
            }
        }
        if (first != null) {
            throw first;
        }
        return out;
    }

    /**
     * {@link #waitAllStatus} without the statuses: allocates nothing (a window of 64 sends or receives made 64
     * statuses and two arrays per call). Raises the first request's error, as waitAllStatus does.
     */
    public static void waitAll(Request[] requests) throws MPIException {
        try {
            if (requests == null) {
                throw new MpiError(ErrorClass.ERR_ARG, "null request array");
            }
            for (Request r : requests) {
                if (r != null) {
                    r.checkNotFreed();
                }
            }
            // the last first: requests tend to complete in order, so the progress passes of this wait take every
            // message for the others on their way (Progress.awaited), and those waits find them done
            org.jmpi.runtime.Progress progress = JmpiRuntime.get().progress();
            for (int i = requests.length - 1; i >= 0; i--) {
                Request r = requests[i];
                if (r != null && r.active()) {
                    progress.await(r.impl);
                }
            }
            MpiError first = null;
            for (int i = 0; i < requests.length; i++) {
                Request r = requests[i];
                RequestImpl impl = r == null || r.nullHandle ? null : r.impl;
                if (impl == null) {
                    continue; // inactive, or listed twice and finished at its first place
                }
                if (impl.error() != 0 && !impl.cancelled() && first == null) {
                    first = new MpiError(impl.error(), "request " + i + ": " + impl.errorMessage());
                }
                r.finishQuietly();
            }
            if (first != null) {
                throw first;
            }
        } catch (MpiError e) {
            throw Errors.raise("MPI_Waitall", e);
        }
    }

    public static Status[] testAllStatus(Request[] requests) throws MPIException {
        try {
            RequestImpl[] rs = impls(requests);
            JmpiRuntime.get().progress().poll();
            for (RequestImpl r : rs) {
                if (r != null && !r.isDone()) {
                    return null;
                }
            }
            return finishAll(requests, rs);
        } catch (MpiError e) {
            throw Errors.raise("MPI_Testall", e);
        }
    }

    public static boolean testAll(Request[] requests) throws MPIException {
        return testAllStatus(requests) != null;
    }

    private static Status[] collectDone(Request[] requests, RequestImpl[] rs) {
        List<Status> done = new ArrayList<>();
        MpiError first = null;
        for (int i = 0; i < rs.length; i++) {
            if (rs[i] != null && rs[i].isDone()) {
                Status s = requests[i].finish(i);
                done.add(s);
                if (s.error != 0 && !s.cancelled && first == null) {
                    first = new MpiError(s.error, "request " + i + ": " + s.errorMessage);
                }
            }
        }
        if (first != null) {
            throw first;
        }
        return done.toArray(new Status[0]);
    }

    private static int[] indices(Status[] ss) {
        if (ss == null) {
            return null;
        }
        int[] out = new int[ss.length];
        for (int i = 0; i < ss.length; i++) {
            out[i] = ss[i].index;
        }
        return out;
    }

    /** Waits until at least one request completes; returns the statuses of all completed ones (null if all null). */
    public static Status[] waitSomeStatus(Request[] requests) throws MPIException {
        try {
            RequestImpl[] rs = impls(requests);
            if (allNull(rs)) {
                return null;
            }
            JmpiRuntime.get().progress().awaitAny(rs);
            return collectDone(requests, rs);
        } catch (MpiError e) {
            throw Errors.raise("MPI_Waitsome", e);
        }
    }

    public static int[] waitSome(Request[] requests) throws MPIException {
        return indices(waitSomeStatus(requests));
    }

    /** Statuses of the requests complete now (possibly none); null when all requests are null. */
    public static Status[] testSomeStatus(Request[] requests) throws MPIException {
        try {
            RequestImpl[] rs = impls(requests);
            if (allNull(rs)) {
                return null;
            }
            JmpiRuntime.get().progress().poll();
            return collectDone(requests, rs);
        } catch (MpiError e) {
            throw Errors.raise("MPI_Testsome", e);
        }
    }

    public static int[] testSome(Request[] requests) throws MPIException {
        return indices(testSomeStatus(requests));
    }
}
