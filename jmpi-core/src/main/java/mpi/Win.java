package mpi;

import java.nio.Buffer;

/** A window of memory exposed for one-sided communication (MPI_Win). */
public final class Win implements Freeable {
    public static final int WIN_NULL = 0;
    public static final int FLAVOR_PRIVATE = 0;
    public static final int FLAVOR_SHARED = 1;

    @NotImplemented
    public Win(Buffer base, int size, int dispUnit, Info info, Comm comm) throws MPIException {
        throw Unsupported.of("Win(Buffer, int, int, Info, Comm)");
    }

    @NotImplemented
    public Win(int size, int dispUnit, Info info, Comm comm, Buffer base, int flavor) throws MPIException {
        throw Unsupported.of("Win(int, int, Info, Comm, Buffer, int)");
    }

    @NotImplemented
    public Win(Info info, Comm comm) throws MPIException {
        throw Unsupported.of("Win(Info, Comm)");
    }

    @NotImplemented
    public void attach(Buffer base, int size) throws MPIException {
        throw Unsupported.of("Win.attach(Buffer, int)");
    }

    @NotImplemented
    public void detach(Buffer base) throws MPIException {
        throw Unsupported.of("Win.detach(Buffer)");
    }

    @NotImplemented
    public Group getGroup() throws MPIException {
        throw Unsupported.of("Win.getGroup()");
    }

    @NotImplemented
    public void put(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp, int targetCount, Datatype targetType) throws MPIException {
        throw Unsupported.of("Win.put(Buffer, int, Datatype, int, int, int, Datatype)");
    }

    @NotImplemented
    public void get(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp, int targetCount, Datatype targetType) throws MPIException {
        throw Unsupported.of("Win.get(Buffer, int, Datatype, int, int, int, Datatype)");
    }

    @NotImplemented
    public void accumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp, int targetCount, Datatype targetType, Op op) throws MPIException {
        throw Unsupported.of("Win.accumulate(Buffer, int, Datatype, int, int, int, Datatype, Op)");
    }

    @NotImplemented
    public void fence(int assertion) throws MPIException {
        throw Unsupported.of("Win.fence(int)");
    }

    @NotImplemented
    public void start(Group group, int assertion) throws MPIException {
        throw Unsupported.of("Win.start(Group, int)");
    }

    @NotImplemented
    public void complete() throws MPIException {
        throw Unsupported.of("Win.complete()");
    }

    @NotImplemented
    public void post(Group group, int assertion) throws MPIException {
        throw Unsupported.of("Win.post(Group, int)");
    }

    @NotImplemented
    public void waitFor() throws MPIException {
        throw Unsupported.of("Win.waitFor()");
    }

    @NotImplemented
    public boolean test() throws MPIException {
        throw Unsupported.of("Win.test()");
    }

    @NotImplemented
    public void lock(int lockType, int rank, int assertion) throws MPIException {
        throw Unsupported.of("Win.lock(int, int, int)");
    }

    @NotImplemented
    public void unlock(int rank) throws MPIException {
        throw Unsupported.of("Win.unlock(int)");
    }

    @NotImplemented
    public void setErrhandler(Errhandler errhandler) throws MPIException {
        throw Unsupported.of("Win.setErrhandler(Errhandler)");
    }

    @NotImplemented
    public Errhandler getErrhandler() throws MPIException {
        throw Unsupported.of("Win.getErrhandler()");
    }

    @NotImplemented
    public void callErrhandler(int errorCode) throws MPIException {
        throw Unsupported.of("Win.callErrhandler(int)");
    }

    /** The attributes set on this window, created on first use (see {@link Attributes}). */
    private Attributes attributes;

    /** A new window attribute key (no callbacks; values stored serialised, as in Open MPI). */
    public static int createKeyval() throws MPIException {
        try {
            org.jmpi.runtime.JmpiRuntime.get();
            return Attributes.WIN.create();
        } catch (org.jmpi.runtime.MpiError e) {
            throw Errors.raise("MPI_Win_create_keyval", e);
        }
    }

    public static void freeKeyval(int keyval) throws MPIException {
        try {
            org.jmpi.runtime.JmpiRuntime.get();
            Attributes.WIN.free(keyval);
        } catch (org.jmpi.runtime.MpiError e) {
            throw Errors.raise("MPI_Win_free_keyval", e);
        }
    }

    public void setAttr(int keyval, Object value) throws MPIException {
        try {
            org.jmpi.runtime.JmpiRuntime.get();
            winAttributes().set(keyval, value);
        } catch (org.jmpi.runtime.MpiError e) {
            throw Errors.raise("MPI_Win_set_attr", e);
        }
    }

    public Object getAttr(int keyval) throws MPIException {
        try {
            org.jmpi.runtime.JmpiRuntime.get();
            return winAttributes().get(keyval);
        } catch (org.jmpi.runtime.MpiError e) {
            throw Errors.raise("MPI_Win_get_attr", e);
        }
    }

    public void deleteAttr(int keyval) throws MPIException {
        try {
            org.jmpi.runtime.JmpiRuntime.get();
            winAttributes().delete(keyval);
        } catch (org.jmpi.runtime.MpiError e) {
            throw Errors.raise("MPI_Win_delete_attr", e);
        }
    }

    private synchronized Attributes winAttributes() {
        if (attributes == null) {
            attributes = new Attributes(Attributes.WIN);
        }
        return attributes;
    }

    @NotImplemented
    public void free() throws MPIException {
        throw Unsupported.of("Win.free()");
    }

    @NotImplemented
    public Info getInfo() throws MPIException {
        throw Unsupported.of("Win.getInfo()");
    }

    @NotImplemented
    public void setInfo(Info info) throws MPIException {
        throw Unsupported.of("Win.setInfo(Info)");
    }

    @NotImplemented
    public final Request rPut(Buffer origin_addr, int origin_count, Datatype origin_datatype, int target_rank, int target_disp, int target_count, Datatype target_datatype) throws MPIException {
        throw Unsupported.of("Win.rPut(Buffer, int, Datatype, int, int, int, Datatype)");
    }

    @NotImplemented
    public final Request rGet(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp, int targetCount, Datatype targetType) throws MPIException {
        throw Unsupported.of("Win.rGet(Buffer, int, Datatype, int, int, int, Datatype)");
    }

    @NotImplemented
    public Request rAccumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp, int targetCount, Datatype targetType, Op op) throws MPIException {
        throw Unsupported.of("Win.rAccumulate(Buffer, int, Datatype, int, int, int, Datatype, Op)");
    }

    @NotImplemented
    public void getAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr, int resultCount, Datatype resultType, int targetRank, int targetDisp, int targetCount, Datatype targetType, Op op) throws MPIException {
        throw Unsupported.of("Win.getAccumulate(Buffer, int, Datatype, Buffer, int, Datatype, int, int, int, Datatype, Op)");
    }

    @NotImplemented
    public Request rGetAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr, int resultCount, Datatype resultType, int targetRank, int targetDisp, int targetCount, Datatype targetType, Op op) throws MPIException {
        throw Unsupported.of("Win.rGetAccumulate(Buffer, int, Datatype, Buffer, int, Datatype, int, int, int, Datatype, Op)");
    }

    @NotImplemented
    public void lockAll(int assertion) throws MPIException {
        throw Unsupported.of("Win.lockAll(int)");
    }

    @NotImplemented
    public void unlockAll() throws MPIException {
        throw Unsupported.of("Win.unlockAll()");
    }

    @NotImplemented
    public void sync() throws MPIException {
        throw Unsupported.of("Win.sync()");
    }

    @NotImplemented
    public void flush(int targetRank) throws MPIException {
        throw Unsupported.of("Win.flush(int)");
    }

    @NotImplemented
    public void flushAll() throws MPIException {
        throw Unsupported.of("Win.flushAll()");
    }

    @NotImplemented
    public void compareAndSwap(Buffer origin, Buffer compareAddr, Buffer resultAddr, Datatype targetType, int targetRank, int targetDisp) throws MPIException {
        throw Unsupported.of("Win.compareAndSwap(Buffer, Buffer, Buffer, Datatype, int, int)");
    }

    @NotImplemented
    public void fetchAndOp(Buffer origin, Buffer resultAddr, Datatype dataType, int targetRank, int targetDisp, Op op) throws MPIException {
        throw Unsupported.of("Win.fetchAndOp(Buffer, Buffer, Datatype, int, int, Op)");
    }

    @NotImplemented
    public void flushLocal(int targetRank) throws MPIException {
        throw Unsupported.of("Win.flushLocal(int)");
    }

    @NotImplemented
    public void flushLocalAll() throws MPIException {
        throw Unsupported.of("Win.flushLocalAll()");
    }

    @NotImplemented
    public String getName() throws MPIException {
        throw Unsupported.of("Win.getName()");
    }

    @NotImplemented
    public void setName(String name) throws MPIException {
        throw Unsupported.of("Win.setName(String)");
    }
}
