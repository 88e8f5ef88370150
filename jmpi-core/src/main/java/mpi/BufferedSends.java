package mpi;

import java.lang.foreign.MemorySegment;
import org.jmpi.datatype.MessageData;
import org.jmpi.pt2pt.SendMode;
import org.jmpi.pt2pt.SendRequest;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;

/**
 * Buffered-mode sends (MPI_Bsend and friends) and the buffer the user attaches for them. Each buffered send
 * copies its data at once (so it completes locally) and reserves its size plus {@code MPI.BSEND_OVERHEAD} of the
 * attached capacity until the message has left; a send that does not fit fails with {@code MPI.ERR_BUFFER}.
 * The copy lives in memory of our own, so the attached array is only an accounting of capacity, as the standard
 * allows; detaching waits until every buffered message has left.
 *
 * <p>Threading: all state is guarded by the class monitor (one per rank: this class is loaded per rank).
 */
final class BufferedSends {
    private BufferedSends() {}

    private static byte[] attached;
    private static long used;

    static synchronized void attach(byte[] buffer) {
        if (buffer == null) {
            throw new MpiError(ErrorClass.ERR_BUFFER, "null buffer");
        }
        if (attached != null) {
            throw new MpiError(ErrorClass.ERR_BUFFER, "a buffer of " + attached.length
                    + " bytes is already attached; detach it first");
        }
        attached = buffer;
        used = 0;
    }

    static byte[] detach() {
        synchronized (BufferedSends.class) {
            if (attached == null) {
                throw new MpiError(ErrorClass.ERR_BUFFER, "no buffer is attached");
            }
        }
        JmpiRuntime.get().progress().awaitUntil(() -> {
            synchronized (BufferedSends.class) {
                return used == 0;
            }
        });
        synchronized (BufferedSends.class) {
            byte[] b = attached;
            attached = null;
            return b;
        }
    }

    private static synchronized void reserve(long need) {
        if (attached == null) {
            throw new MpiError(ErrorClass.ERR_BUFFER, "buffered send of " + (need - MPI.BSEND_OVERHEAD)
                    + " bytes but no buffer is attached (MPI.attachBuffer)");
        }
        if (used + need > attached.length) {
            throw new MpiError(ErrorClass.ERR_BUFFER, "buffered send needs " + need + " bytes (data plus "
                    + MPI.BSEND_OVERHEAD + " overhead) but only " + (attached.length - used) + " of the "
                    + attached.length + " attached bytes are free");
        }
        used += need;
    }

    private static synchronized void release(long need) {
        used -= need;
    }

    /** Starts a buffered send of already checked data; the returned request is complete. */
    static SendRequest start(Communicator c, MessageData data, int dest, int tag) {
        long n = data.bytes();
        long need = n + MPI.BSEND_OVERHEAD;
        reserve(need);
        MemorySegment copy;
        try {
            if (n > Integer.MAX_VALUE - 8) {
                throw new MpiError(ErrorClass.ERR_BUFFER, "buffered sends of more than 2 GiB are not supported");
            }
            copy = MemorySegment.ofArray(new byte[(int) n]);
            data.packTo(0, copy, 0, n);
        } catch (RuntimeException e) {
            release(need);
            throw e;
        }
        SendRequest s = JmpiRuntime.get().engine().isend(new MessageData.SegmentData(copy), c.worldRank(dest),
                c.context(), c.rank(), tag, SendMode.STANDARD);
        boolean[] once = new boolean[1];
        s.whenDone(() -> {
            synchronized (once) {
                if (once[0]) {
                    return;
                }
                once[0] = true;
            }
            release(need);
        });
        return s;
    }
}
