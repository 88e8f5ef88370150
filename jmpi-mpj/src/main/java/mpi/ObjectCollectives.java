package mpi;

/**
 * Collective operations on {@link MPI#OBJECT} data: every contribution is serialised on its own rank; the byte
 * lengths travel first, then the bytes by the runtime's byte collectives; each receiver decodes its parts into its
 * {@code Object[]}. Reductions need a {@link User_function}: the contributions are combined in rank order.
 */
final class ObjectCollectives {
    private ObjectCollectives() {}

    private static final org.jmpi.mpj.ompi.Datatype BYTES = org.jmpi.mpj.ompi.MPI.BYTE;
    private static final org.jmpi.mpj.ompi.Datatype INTS = org.jmpi.mpj.ompi.MPI.INT;

    private static int extent(Datatype t) {
        return t.ub - t.lb;
    }

    private static int[] displacements(int[] lens) {
        int[] d = new int[lens.length];
        long at = 0;
        for (int i = 0; i < lens.length; i++) {
            d[i] = (int) at;
            at += lens[i];
        }
        if (at > Integer.MAX_VALUE) {
            throw new MPIException("object collective: more than 2 GiB of serialised data",
                    ObjectMessages.ERR_OTHER);
        }
        return d;
    }

    private static int sum(int[] a) {
        long s = 0;
        for (int v : a) {
            s += v;
        }
        return (int) Math.min(s, Integer.MAX_VALUE);
    }

    static void bcast(Intracomm c, Object buf, int offset, int count, Datatype type, int root) {
        org.jmpi.mpj.ompi.Comm o = c.live();
        try {
            boolean isRoot = o.getRank() == root;
            byte[] data = isRoot ? ObjectMessages.encode(buf, offset, count, type) : null;
            int[] len = {isRoot ? data.length : 0};
            o.bcast(len, 1, INTS, root);
            if (!isRoot) {
                data = new byte[len[0]];
            }
            o.bcast(data, len[0], BYTES, root);
            if (!isRoot) {
                ObjectMessages.decode(data, len[0], buf, offset, count, type);
            }
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /** Gatherv (to {@code root}) or, with {@code all}, Allgatherv of object data. */
    static void gatherv(Intracomm c, Object sendbuf, int sendoffset, int sendcount, Datatype sendtype, Object recvbuf,
            int recvoffset, int[] recvcount, int[] displs, Datatype recvtype, int root, boolean all) {
        checkBoth(sendtype, recvtype);
        try {
            Gathered g = gather(c.live(), ObjectMessages.encode(sendbuf, sendoffset, sendcount, sendtype),
                    all ? -1 : root);
            if (g != null) {
                for (int r = 0; r < g.lens.length; r++) {
                    ObjectMessages.decode(g.data, g.at[r], g.lens[r], recvbuf,
                            recvoffset + displs[r] * extent(recvtype), recvcount[r], recvtype);
                }
            }
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /** Every rank's serialised bytes, in rank order, on {@code root} (all ranks with -1). */
    private record Gathered(byte[] data, int[] lens, int[] at) {}

    /** Gathers every rank's {@code mine}: the bytes on {@code root} (on every rank with root -1), else null. */
    private static Gathered gather(org.jmpi.mpj.ompi.Comm o, byte[] mine, int root)
            throws org.jmpi.mpj.ompi.MPIException {
        int n = o.getSize();
        boolean all = root < 0;
        boolean receives = all || o.getRank() == root;
        int[] lens = new int[n];
        int[] one = {mine.length};
        if (all) {
            o.allGather(one, 1, INTS, lens, 1, INTS);
        } else {
            o.gather(one, 1, INTS, lens, 1, INTS, root);
        }
        int[] at = receives ? displacements(lens) : new int[n];
        byte[] data = new byte[receives ? sum(lens) : 0];
        if (all) {
            o.allGatherv(mine, mine.length, BYTES, data, lens, at, BYTES);
        } else {
            o.gatherv(mine, mine.length, BYTES, data, lens, at, BYTES, root);
        }
        return receives ? new Gathered(data, lens, at) : null;
    }

    static void scatterv(Intracomm c, Object sendbuf, int sendoffset, int[] sendcount, int[] displs,
            Datatype sendtype, Object recvbuf, int recvoffset, int recvcount, Datatype recvtype, int root) {
        checkBoth(sendtype, recvtype);
        org.jmpi.mpj.ompi.Comm o = c.live();
        try {
            int n = o.getSize();
            boolean isRoot = o.getRank() == root;
            int[] lens = new int[n];
            byte[] data = new byte[0];
            if (isRoot) {
                byte[][] parts = new byte[n][];
                for (int r = 0; r < n; r++) {
                    parts[r] = ObjectMessages.encode(sendbuf, sendoffset + displs[r] * extent(sendtype), sendcount[r],
                            sendtype);
                    lens[r] = parts[r].length;
                }
                int[] at = displacements(lens);
                data = new byte[sum(lens)];
                for (int r = 0; r < n; r++) {
                    System.arraycopy(parts[r], 0, data, at[r], lens[r]);
                }
            }
            int[] len = new int[1];
            o.scatter(lens, 1, INTS, len, 1, INTS, root);
            byte[] mine = new byte[len[0]];
            o.scatterv(data, lens, displacements(lens), BYTES, mine, len[0], BYTES, root);
            ObjectMessages.decode(mine, len[0], recvbuf, recvoffset, recvcount, recvtype);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    static void alltoallv(Intracomm c, Object sendbuf, int sendoffset, int[] sendcount, int[] sdispls,
            Datatype sendtype, Object recvbuf, int recvoffset, int[] recvcount, int[] rdispls, Datatype recvtype) {
        checkBoth(sendtype, recvtype);
        org.jmpi.mpj.ompi.Comm o = c.live();
        try {
            int n = o.getSize();
            int[] slens = new int[n];
            byte[][] parts = new byte[n][];
            for (int r = 0; r < n; r++) {
                parts[r] = ObjectMessages.encode(sendbuf, sendoffset + sdispls[r] * extent(sendtype), sendcount[r],
                        sendtype);
                slens[r] = parts[r].length;
            }
            int[] sat = displacements(slens);
            byte[] out = new byte[sum(slens)];
            for (int r = 0; r < n; r++) {
                System.arraycopy(parts[r], 0, out, sat[r], slens[r]);
            }
            int[] rlens = new int[n];
            o.allToAll(slens, 1, INTS, rlens, 1, INTS);
            int[] rat = displacements(rlens);
            byte[] in = new byte[sum(rlens)];
            o.allToAllv(out, slens, sat, BYTES, in, rlens, rat, BYTES);
            for (int r = 0; r < n; r++) {
                ObjectMessages.decode(in, rat[r], rlens[r], recvbuf, recvoffset + rdispls[r] * extent(recvtype),
                        recvcount[r], recvtype);
            }
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    // ---------------------------------------------------------------- reductions

    /** Where element 0 of a contribution sits in a scratch array (room for a negative lower bound). */
    private static int base(Datatype t) {
        return Math.max(0, -t.lb);
    }

    private static Object[] scratch(int count, Datatype t) {
        int span = count == 0 ? 0 : base(t) + (count - 1) * extent(t) + Math.max(t.ub, 0);
        return new Object[Math.max(span, 0)];
    }

    /** Every rank's contribution, decoded into scratch arrays (rank order); on the ranks that {@code get}. */
    private static Object[][] contributions(org.jmpi.mpj.ompi.Comm o, Object sendbuf, int sendoffset, int count,
            Datatype t, int root) throws org.jmpi.mpj.ompi.MPIException {
        Gathered g = gather(o, ObjectMessages.encode(sendbuf, sendoffset, count, t), root);
        if (g == null) {
            return null;
        }
        Object[][] parts = new Object[g.lens.length][];
        for (int r = 0; r < parts.length; r++) {
            parts[r] = scratch(count, t);
            ObjectMessages.decode(g.data, g.at[r], g.lens[r], parts[r], base(t), count, t);
        }
        return parts;
    }

    /** parts[0] op parts[1] op ... op parts[upTo], left to right. */
    private static Object[] fold(Object[][] parts, int upTo, int count, Datatype t, Op op) {
        Object[] acc = parts[0];
        for (int r = 1; r <= upTo; r++) {
            Object[] next = parts[r];
            op.function.Call(acc, base(t), next, base(t), count, t);
            acc = next;
        }
        return acc;
    }

    private static void copyOut(Object[] from, int count, Datatype t, Object recvbuf, int recvoffset) {
        int[] src = ObjectMessages.indices(base(t), count, t);
        Object[] items = new Object[src.length];
        for (int i = 0; i < src.length; i++) {
            items[i] = from[src[i]];
        }
        ObjectMessages.place(items, recvbuf, recvoffset, count, t);
    }

    private static void checkOp(Op op) {
        if (op.function == null) {
            throw new MPIException("the predefined operation " + op + " does not apply to MPI.OBJECT; use an Op of "
                    + "a User_function", 10);
        }
    }

    /** Reduce to {@code root}, or with root -1 Allreduce, of object data. */
    static void reduce(Intracomm c, Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
            Datatype t, Op op, int root) {
        checkOp(op);
        try {
            Object[][] parts = contributions(c.live(), sendbuf, sendoffset, count, t, root);
            if (parts != null) {
                copyOut(fold(parts, parts.length - 1, count, t, op), count, t, recvbuf, recvoffset);
            }
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    static void scan(Intracomm c, Object sendbuf, int sendoffset, Object recvbuf, int recvoffset, int count,
            Datatype t, Op op) {
        checkOp(op);
        try {
            org.jmpi.mpj.ompi.Comm o = c.live();
            Object[][] parts = contributions(o, sendbuf, sendoffset, count, t, -1);
            copyOut(fold(parts, o.getRank(), count, t, op), count, t, recvbuf, recvoffset);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    static void reduceScatter(Intracomm c, Object sendbuf, int sendoffset, Object recvbuf, int recvoffset,
            int[] recvcounts, Datatype t, Op op) {
        checkOp(op);
        try {
            org.jmpi.mpj.ompi.Comm o = c.live();
            int me = o.getRank();
            int total = sum(recvcounts);
            Object[][] parts = contributions(o, sendbuf, sendoffset, total, t, -1);
            Object[] all = fold(parts, parts.length - 1, total, t, op);
            int before = 0;
            for (int r = 0; r < me; r++) {
                before += recvcounts[r];
            }
            int[] src = ObjectMessages.indices(base(t) + before * extent(t), recvcounts[me], t);
            Object[] items = new Object[src.length];
            for (int i = 0; i < src.length; i++) {
                items[i] = all[src[i]];
            }
            ObjectMessages.place(items, recvbuf, recvoffset, recvcounts[me], t);
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    private static void checkBoth(Datatype a, Datatype b) {
        if (a.isObject() != b.isObject()) {
            throw new MPIException("MPI.OBJECT data cannot be matched with " + (a.isObject() ? b : a),
                    Datatype.ERR_TYPE);
        }
    }
}
