package mpi;

import java.io.IOException;
import org.jmpi.mpj.Serialization;

/**
 * Point-to-point for {@link MPI#OBJECT}: the selected elements of an {@code Object[]} go as one serialised byte
 * message; the receiver sizes it by a matched probe (so wildcards and concurrent receives cannot take another
 * message's bytes) and replaces the elements of its array, in type-map order.
 */
final class ObjectMessages {
    static final int ERR_TRUNCATE = 15;
    static final int ERR_OTHER = 16;
    static final int ERR_BUFFER = 1;

    private ObjectMessages() {}

    /** The indices of the elements {@code count} copies of {@code type} at {@code offset} cover, in order. */
    static int[] indices(int offset, int count, Datatype type) {
        int per = type.size;
        int[] idx = new int[Math.multiplyExact(count, per)];
        int k = 0;
        int ext = type.ub - type.lb;
        for (int c = 0; c < count; c++) {
            int base = offset + c * ext;
            for (int r = 0; r < type.runStart.length; r++) {
                int s = base + type.runStart[r];
                for (int e = 0; e < type.runLength[r]; e++) {
                    idx[k++] = s + e;
                }
            }
        }
        return idx;
    }

    private static Object[] array(Object buf) {
        if (buf instanceof Object[] a) {
            return a;
        }
        throw new MPIException("MPI.OBJECT needs an Object[] buffer (any array of references), not "
                + (buf == null ? "null" : buf.getClass().getSimpleName()), ERR_BUFFER);
    }

    /** The serialised elements of {@code count} copies of {@code type} at {@code offset} of {@code buf}. */
    static byte[] encode(Object buf, int offset, int count, Datatype type) {
        Object[] a = array(buf);
        int[] idx = indices(offset, count, type);
        Object[] items = new Object[idx.length];
        for (int i = 0; i < idx.length; i++) {
            int j = idx[i];
            if (j < 0 || j >= a.length) {
                throw new MPIException("element " + j + " is outside the Object[] of length " + a.length,
                        ERR_BUFFER);
            }
            items[i] = a[j];
        }
        try {
            return Serialization.write(items, items.length);
        } catch (IOException e) {
            throw new MPIException("cannot serialise an element of an MPI.OBJECT buffer: " + e, ERR_OTHER);
        }
    }

    /** Decodes {@code data[0..length)} into {@code buf}; the number of objects placed. */
    static int decode(byte[] data, int length, Object buf, int offset, int count, Datatype type) {
        return decode(data, 0, length, buf, offset, count, type);
    }

    /** Decodes {@code data[from..from+length)} into {@code buf}; the number of objects placed. */
    static int decode(byte[] data, int from, int length, Object buf, int offset, int count, Datatype type) {
        Object[] items;
        try {
            items = Serialization.read(data, from, length);
        } catch (IOException e) {
            throw new MPIException("cannot read a received MPI.OBJECT message: " + e.getMessage(), ERR_OTHER);
        }
        return place(items, buf, offset, count, type);
    }

    static int place(Object[] items, Object buf, int offset, int count, Datatype type) {
        Object[] a = array(buf);
        int[] idx = indices(offset, count, type);
        if (items.length > idx.length) {
            throw new MPIException("message truncated: " + items.length + " objects received into room for "
                    + idx.length, ERR_TRUNCATE);
        }
        for (int i = 0; i < items.length; i++) {
            int j = idx[i];
            if (j < 0 || j >= a.length) {
                throw new MPIException("element " + j + " is outside the Object[] of length " + a.length,
                        ERR_BUFFER);
            }
            try {
                a[j] = items[i];
            } catch (ArrayStoreException e) {
                throw new MPIException("a received " + items[i].getClass().getName() + " does not fit in the "
                        + a.getClass().getComponentType().getName() + "[] receive buffer", ERR_OTHER);
            }
        }
        return items.length;
    }

    /** A receive of an object message, matched when it is waited for or tested. */
    static final class Receive {
        private final org.jmpi.mpj.ompi.Comm comm;
        private final Object buf;
        private final int offset;
        private final int count;
        private final Datatype type;
        private final int source;
        private final int tag;

        Receive(org.jmpi.mpj.ompi.Comm comm, Object buf, int offset, int count, Datatype type, int source, int tag) {
            array(buf);
            this.comm = comm;
            this.buf = buf;
            this.offset = offset;
            this.count = count;
            this.type = type;
            this.source = source;
            this.tag = tag;
        }

        Status await() {
            if (source == org.jmpi.mpj.ompi.MPI.PROC_NULL) {
                return Status.procNull();
            }
            try {
                org.jmpi.mpj.ompi.Message m = new org.jmpi.mpj.ompi.Message();
                return take(m, m.mProbe(source, tag, comm));
            } catch (org.jmpi.mpj.ompi.MPIException e) {
                throw MPIException.of(e);
            }
        }

        Status poll() {
            if (source == org.jmpi.mpj.ompi.MPI.PROC_NULL) {
                return Status.procNull();
            }
            try {
                org.jmpi.mpj.ompi.Message m = new org.jmpi.mpj.ompi.Message();
                org.jmpi.mpj.ompi.Status s = m.imProbe(source, tag, comm);
                return s == null ? null : take(m, s);
            } catch (org.jmpi.mpj.ompi.MPIException e) {
                throw MPIException.of(e);
            }
        }

        private Status take(org.jmpi.mpj.ompi.Message m, org.jmpi.mpj.ompi.Status s)
                throws org.jmpi.mpj.ompi.MPIException {
            int n = s.getCount(org.jmpi.mpj.ompi.MPI.BYTE);
            byte[] data = new byte[n];
            m.mRecv(data, n, org.jmpi.mpj.ompi.MPI.BYTE);
            int k = decode(data, n, buf, offset, count, type);
            return Status.ofObjects(s.getSource(), s.getTag(), k, n);
        }

        Status cancel() {
            Status s = new Status(source, tag, 0, 0);
            s.cancelled();
            return s;
        }
    }
}
