package mpi;

/** A group of processes. */
public class Group implements Freeable {
    /** MPJ Express's code of an empty group (kept for programs that read it). */
    public static final int EMPTY = 3;

    org.jmpi.mpj.ompi.Group runtime;

    Group(org.jmpi.mpj.ompi.Group runtime) {
        this.runtime = runtime;
    }

    private org.jmpi.mpj.ompi.Group live() {
        if (runtime == null) {
            throw new MPIException("invalid group (freed or MPI.GROUP_NULL)", 9);
        }
        return runtime;
    }

    private static int rank(int r) {
        return r == org.jmpi.mpj.ompi.MPI.UNDEFINED ? MPI.UNDEFINED : r == org.jmpi.mpj.ompi.MPI.PROC_NULL
                ? MPI.PROC_NULL : r;
    }

    public int Size() {
        try {
            return live().getSize();
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /** This process's rank in the group, or MPI.UNDEFINED. */
    public int Rank() {
        try {
            return rank(live().getRank());
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /** The ranks in {@code group2} of the processes {@code ranks1} of {@code group1} (MPI.UNDEFINED if absent). */
    public static int[] Translate_ranks(Group group1, int[] ranks1, Group group2) {
        try {
            int[] in = ranks1.clone();
            for (int i = 0; i < in.length; i++) {
                in[i] = in[i] == MPI.PROC_NULL ? org.jmpi.mpj.ompi.MPI.PROC_NULL : in[i];
            }
            int[] out = org.jmpi.mpj.ompi.Group.translateRanks(group1.live(), in, group2.live());
            for (int i = 0; i < out.length; i++) {
                out[i] = rank(out[i]);
            }
            return out;
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /** MPI.IDENT, MPI.SIMILAR or MPI.UNEQUAL. */
    public static int Compare(Group group1, Group group2) {
        try {
            return MPI.compareResult(org.jmpi.mpj.ompi.Group.compare(group1.live(), group2.live()));
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public static Group Union(Group group1, Group group2) {
        try {
            return new Group(org.jmpi.mpj.ompi.Group.union(group1.live(), group2.live()));
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public static Group Intersection(Group group1, Group group2) {
        try {
            return new Group(org.jmpi.mpj.ompi.Group.intersection(group1.live(), group2.live()));
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public static Group Difference(Group group1, Group group2) {
        try {
            return new Group(org.jmpi.mpj.ompi.Group.difference(group1.live(), group2.live()));
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public Group Incl(int[] ranks) {
        try {
            return new Group(live().incl(ranks));
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    public Group Excl(int[] ranks) {
        try {
            return new Group(live().excl(ranks));
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
    }

    /**
     * The ranks of the triplets {first, last, stride}: first, first + stride, ... up to last. As MPI says, each
     * computed rank must be valid; {@code last} itself need not be one (a stride may step over it).
     */
    public Group Range_incl(int[][] ranges) {
        return Incl(expand(ranges));
    }

    /** The group without the ranks of the triplets (see {@link #Range_incl}). */
    public Group Range_excl(int[][] ranges) {
        return Excl(expand(ranges));
    }

    private static int[] expand(int[][] ranges) {
        if (ranges == null) {
            throw new MPIException("null ranges", 13);
        }
        java.util.List<Integer> out = new java.util.ArrayList<>();
        for (int[] t : ranges) {
            if (t == null || t.length < 3) {
                throw new MPIException("a range needs {first, last, stride}", 13);
            }
            if (t[2] == 0) {
                throw new MPIException("range stride 0", 13);
            }
            for (long r = t[0]; t[2] > 0 ? r <= t[1] : r >= t[1]; r += t[2]) {
                out.add((int) r);
                if (out.size() > 1 << 24) {
                    throw new MPIException("range too long", 13);
                }
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    public void free() {
        try {
            if (runtime != null && runtime != org.jmpi.mpj.ompi.MPI.GROUP_EMPTY) {
                runtime.free();
            }
        } catch (org.jmpi.mpj.ompi.MPIException e) {
            throw MPIException.of(e);
        }
        runtime = null;
    }

    @SuppressWarnings({"deprecation", "removal"})
    @Override
    public void finalize() {
    }
}
