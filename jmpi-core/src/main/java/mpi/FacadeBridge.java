package mpi;

import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.FacadeAccess;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;

/** Package {@code mpi}'s side of {@link FacadeAccess}, for public extension packages above it (org.jmpi.ft). */
final class FacadeBridge extends FacadeAccess {
    @Override
    public Communicator communicator(Object comm) {
        if (!(comm instanceof Comm c)) {
            throw new MpiError(ErrorClass.ERR_COMM, "invalid communicator (null)");
        }
        return c.live();
    }

    @Override
    public Object intracomm(Object parent, Communicator c) {
        return CommOps.adopt((Comm) parent, new Intracomm(), c, false);
    }

    @Override
    public Object group(int[] worldRanks) {
        return new Group(worldRanks, JmpiRuntime.get().rank());
    }

    @Override
    public Exception raise(Object comm, String call, MpiError e) {
        Errhandler h = comm instanceof Comm c ? c.errhandler : MPI.COMM_WORLD.errhandler;
        return Errors.raise(h, call, e);
    }

    @Override
    public void keepOperation(Object request) {
        if (request instanceof Request r) {
            r.recyclable = false;
        }
    }

    @Override
    public int[] completedReceive(Object request) {
        if (!(request instanceof Request r) || !r.nullHandle || r.freed) {
            return null;
        }
        org.jmpi.runtime.RequestImpl done = r.impl;
        if (done == null || !done.isDone() || done.cancelled() || done.error() != 0) {
            return null;
        }
        return new int[] {done.source(), done.tag()};
    }
}
