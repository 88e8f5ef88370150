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
 * allows; detaching waits until every buffered message has left. {@code MPI.BUFFER_AUTOMATIC} attached instead of an
 * array has no capacity to run out of.
 *
 * <p>Which buffer a send uses (MPI 4.1): its communicator's if one is attached, else that of the session the
 * communicator comes from if it has one, else the process's.
 *
 * <p>Threading: each {@link Pool}'s state is guarded by its monitor.
 */
final class BufferedSends {
    private BufferedSends() {}

    /**
     * One attached buffer's accounting: the process's ({@code MPI.attachBuffer}) or a communicator's (MPI 4.1's
     * {@code Comm.attachBuffer}). Threading: guarded by its monitor.
     */
    static final class Pool {
        private byte[] attached;
        private long used;

        /** Whether {@code MPI.BUFFER_AUTOMATIC} is attached: sends take what they need. */
        private boolean automatic() {
            return attached == MPI.BUFFER_AUTOMATIC;
        }

        synchronized void attach(byte[] buffer) {
            if (buffer == null) {
                throw new MpiError(ErrorClass.ERR_BUFFER, "null buffer");
            }
            if (attached != null) {
                throw new MpiError(ErrorClass.ERR_BUFFER, (automatic() ? "MPI.BUFFER_AUTOMATIC"
                        : "a buffer of " + attached.length + " bytes") + " is already attached; detach it first");
            }
            attached = buffer;
            used = 0;
        }

        synchronized boolean isAttached() {
            return attached != null;
        }

        byte[] detach() {
            synchronized (this) {
                if (attached == null) {
                    throw new MpiError(ErrorClass.ERR_BUFFER, "no buffer is attached");
                }
            }
            flush();
            synchronized (this) {
                byte[] b = attached;
                attached = null;
                return b;
            }
        }

        /** Waits until every message buffered here has left (MPI 4.1's MPI_Buffer_flush). */
        void flush() {
            JmpiRuntime.get().progress().awaitUntil(() -> {
                synchronized (this) {
                    return used == 0;
                }
            });
        }

        private synchronized void reserve(long need) {
            if (attached == null) {
                throw new MpiError(ErrorClass.ERR_BUFFER, "buffered send of " + (need - MPI.BSEND_OVERHEAD)
                        + " bytes but no buffer is attached (MPI.attachBuffer or Comm.attachBuffer)");
            }
            if (!automatic() && used + need > attached.length) {
                throw new MpiError(ErrorClass.ERR_BUFFER, "buffered send needs " + need + " bytes (data plus "
                        + MPI.BSEND_OVERHEAD + " overhead) but only " + (attached.length - used) + " of the "
                        + attached.length + " attached bytes are free");
            }
            used += need;
        }

        private synchronized void release(long need) {
            used -= need;
        }
    }

    /** The process's buffer (one per rank: this class is loaded per rank). */
    static final Pool PROCESS = new Pool();

    static void attach(byte[] buffer) {
        PROCESS.attach(buffer);
    }

    static byte[] detach() {
        return PROCESS.detach();
    }

    /**
     * Starts a buffered send of already checked data; the returned request is complete. The communicator's buffer
     * is used when one is attached to it, else its session's ({@code sessionPool}, null for a communicator of the
     * world model) when one is attached there, else the process's.
     */
    static SendRequest start(Pool commPool, Pool sessionPool, Communicator c, MessageData data, int dest, int tag) {
        Pool pool = commPool != null && commPool.isAttached() ? commPool
                : sessionPool != null && sessionPool.isAttached() ? sessionPool : PROCESS;
        long n = data.bytes();
        long need = n + MPI.BSEND_OVERHEAD;
        pool.reserve(need);
        MemorySegment copy;
        try {
            if (n > Integer.MAX_VALUE - 8) {
                throw new MpiError(ErrorClass.ERR_BUFFER, "buffered sends of more than 2 GiB are not supported");
            }
            copy = MemorySegment.ofArray(new byte[(int) n]);
            data.packTo(0, copy, 0, n);
        } catch (RuntimeException e) {
            pool.release(need);
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
            pool.release(need);
        });
        return s;
    }
}
