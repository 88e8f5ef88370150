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
    static final int ERR_COUNT = 2;

    private ObjectMessages() {}

    /**
     * Whether every rank {@code c} sends to runs in this JVM: this rank is in threads mode and they are all in its
     * world (not so for a spawned or connected job).
     */
    static boolean inJvm(org.jmpi.mpj.ompi.Comm c) {
        if (!Serialization.inThreadsMode()) {
            return false;
        }
        try {
            org.jmpi.mpj.ompi.Group g = c instanceof org.jmpi.mpj.ompi.Intercomm i ? i.getRemoteGroup() : c.getGroup();
            org.jmpi.mpj.ompi.Group world = org.jmpi.mpj.ompi.MPI.COMM_WORLD.getGroup();
            try {
                int[] ranks = new int[g.getSize()];
                for (int r = 0; r < ranks.length; r++) {
                    ranks[r] = r;
                }
                for (int w : org.jmpi.mpj.ompi.Group.translateRanks(g, ranks, world)) {
                    if (w == org.jmpi.mpj.ompi.MPI.UNDEFINED) {
                        return false;
                    }
                }
                return true;
            } finally {
                g.free();
                world.free();
            }
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            return false;
        }
    }

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
        return encode(buf, offset, count, type, false);
    }

    /**
     * The message of those elements; {@code inJvm}: its one receiver runs in this JVM, so elements of the compact
     * kinds may travel as a parcel ({@link Serialization#write(Object[], int, boolean)}).
     */
    static byte[] encode(Object buf, int offset, int count, Datatype type, boolean inJvm) {
        Object[] a = array(buf);
        Object[] items;
        if (type.contiguous()) {
            int n = Math.multiplyExact(count, type.size);
            inside(a, offset, n);
            items = java.util.Arrays.copyOfRange(a, offset, offset + n, Object[].class);
        } else {
            items = gather(a, indices(offset, count, type));
        }
        try {
            return Serialization.write(items, items.length, inJvm);
        } catch (IOException e) {
            throw new MPIException("cannot serialise an element of an MPI.OBJECT buffer: " + e, ERR_OTHER);
        }
    }

    /** Checks that elements {@code [offset, offset + n)} lie inside {@code a}. */
    private static void inside(Object[] a, int offset, int n) {
        if (n < 0) {
            throw new MPIException("negative count of objects: " + n, ERR_COUNT);
        }
        if (n > 0 && (offset < 0 || offset > a.length - n)) {
            throw new MPIException("element " + (offset < 0 ? offset : Math.max(offset, a.length))
                    + " is outside the Object[] of length " + a.length, ERR_BUFFER);
        }
    }

    private static Object[] gather(Object[] a, int[] idx) {
        Object[] items = new Object[idx.length];
        for (int i = 0; i < idx.length; i++) {
            int j = idx[i];
            if (j < 0 || j >= a.length) {
                throw new MPIException("element " + j + " is outside the Object[] of length " + a.length,
                        ERR_BUFFER);
            }
            items[i] = a[j];
        }
        return items;
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
        if (type.contiguous()) {
            int room = Math.multiplyExact(count, type.size);
            if (items.length > room) {
                throw new MPIException("message truncated: " + items.length + " objects received into room for "
                        + room, ERR_TRUNCATE);
            }
            inside(a, offset, items.length);
            try {
                System.arraycopy(items, 0, a, offset, items.length);
            } catch (ArrayStoreException e) {
                for (Object o : items) {
                    if (o != null && !a.getClass().getComponentType().isInstance(o)) {
                        throw misfit(o, a);
                    }
                }
                throw e;
            }
            return items.length;
        }
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
                throw misfit(items[i], a);
            }
        }
        return items.length;
    }

    private static MPIException misfit(Object o, Object[] a) {
        return new MPIException("a received " + o.getClass().getName() + " does not fit in the "
                + a.getClass().getComponentType().getName() + "[] receive buffer", ERR_OTHER);
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
