package mpi;

import java.nio.Buffer;

/**
 * A message matched by {@link #mProbe} or {@link #imProbe} and received later with {@link #mRecv} or
 * {@link #imRecv} (MPI_Message).
 */
public final class Message {
    /** True for MPI_MESSAGE_NULL: no matched message is attached. */
    boolean nullHandle;

    /** True for MPI_MESSAGE_NO_PROC: the message matched a probe on {@link MPI#PROC_NULL}. */
    boolean noProc;

    public Message() {
        this.nullHandle = true;
    }

    public boolean isNull() {
        return nullHandle;
    }

    public boolean isNoProc() {
        return noProc;
    }

    @NotImplemented
    public Status mProbe(int source, int tag, Comm comm) throws MPIException {
        throw Unsupported.of("Message.mProbe(int, int, Comm)");
    }

    @NotImplemented
    public Status imProbe(int source, int tag, Comm comm) throws MPIException {
        throw Unsupported.of("Message.imProbe(int, int, Comm)");
    }

    @NotImplemented
    public Status mRecv(Object buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("Message.mRecv(Object, int, Datatype)");
    }

    @NotImplemented
    public Request imRecv(Buffer buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("Message.imRecv(Buffer, int, Datatype)");
    }
}
