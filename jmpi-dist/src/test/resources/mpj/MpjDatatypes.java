import mpi.*;

/** Derived datatypes in element units, LB/UB, MAXLOC pairs, user reductions on primitives, Pack/Unpack, groups. */
public class MpjDatatypes {
    public static void main(String[] args) {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        int me = w.Rank();
        int n = w.Size();

        MpjCheck.check(MPI.INT.Extent() == 1 && MPI.INT.Lb() == 0 && MPI.INT.Ub() == 1, "basic type bounds");
        Datatype vec = Datatype.Vector(3, 2, 4, MPI.INT);
        vec.Commit();
        MpjCheck.equal(vec.Extent(), 10, "vector extent");
        MpjCheck.equal(vec.Size(), 6, "vector size");
        Datatype hvec = Datatype.Hvector(2, 1, 5, vec);
        MpjCheck.equal(hvec.Extent(), 15, "hvector stride in elements");
        Datatype st = Datatype.Struct(new int[] {1, 1, 1}, new int[] {-2, 0, 7},
                new Datatype[] {MPI.LB, MPI.DOUBLE, MPI.UB});
        MpjCheck.check(st.Lb() == -2 && st.Ub() == 7 && st.Extent() == 9 && st.Size() == 1, "struct with LB/UB");
        MpjCheck.fails(() -> Datatype.Struct(new int[] {1, 1}, new int[] {0, 1}, new Datatype[] {MPI.INT, MPI.DOUBLE}),
                3, "struct of two base types");

        // a vector column sent at an offset and received as contiguous ints
        int[] grid = new int[20];
        for (int i = 0; i < 20; i++) {
            grid[i] = me * 1000 + i;
        }
        int[] col = new int[6];
        int right = (me + 1) % n;
        int left = (me + n - 1) % n;
        w.Sendrecv(grid, 1, 1, vec, right, 1, col, 0, 6, MPI.INT, left, 1);
        int[] want = {1, 2, 5, 6, 9, 10};
        for (int i = 0; i < 6; i++) {
            MpjCheck.equal(col[i], left * 1000 + want[i], "vector element " + i);
        }
        Datatype idx = Datatype.Indexed(new int[] {2, 1}, new int[] {3, 0}, MPI.INT);
        int[] back = new int[8];
        w.Sendrecv(col, 0, 3, MPI.INT, right, 2, back, 2, 1, idx, left, 2);
        int second = (left + n - 1) % n; // whose column the left neighbour received
        MpjCheck.check(back[5] == col2(second, 0) && back[6] == col2(second, 1) && back[2] == col2(second, 2)
                && back[3] == 0 && back[4] == 0, "indexed receive");

        // MAXLOC and MINLOC on (value, index) pairs of one type
        double[] pair = {me % 2 == 0 ? 5.0 : me, me};
        double[] best = new double[2];
        w.Allreduce(pair, 0, best, 0, 1, MPI.DOUBLE2, MPI.MAXLOC);
        double maxV = 5.0;
        int maxI = 0;
        for (int i = 0; i < n; i++) {
            double v = i % 2 == 0 ? 5.0 : i;
            if (v > maxV) {
                maxV = v;
                maxI = i;
            }
        }
        MpjCheck.check(best[0] == maxV && best[1] == maxI, "MAXLOC DOUBLE2: " + best[0] + "," + best[1]);
        int[] ip = {-me, me};
        int[] low = new int[2];
        w.Allreduce(ip, 0, low, 0, 1, MPI.INT2, MPI.MINLOC);
        MpjCheck.check(low[0] == -(n - 1) && low[1] == n - 1, "MINLOC INT2");

        // a user reduction on ints, at offsets
        Op max2 = new Op(new User_function() {
            @Override
            public void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count, Datatype t) {
                int[] a = (int[]) invec;
                int[] io = (int[]) inoutvec;
                for (int i = 0; i < count; i++) {
                    io[inoutoffset + i] = Math.max(a[inoffset + i], io[inoutoffset + i]) + 0;
                }
            }
        }, true);
        int[] vals = {0, me, 2 * me};
        int[] red = new int[4];
        w.Reduce(vals, 1, red, 2, 2, MPI.INT, max2, n - 1);
        if (me == n - 1) {
            MpjCheck.check(red[2] == n - 1 && red[3] == 2 * (n - 1) && red[1] == 0, "user Reduce at offsets");
        }
        long[] sums = {me, 1};
        long[] tot = new long[2];
        w.Scan(sums, 0, tot, 0, 2, MPI.LONG, MPI.SUM);
        MpjCheck.check(tot[0] == (long) me * (me + 1) / 2 && tot[1] == me + 1, "Scan of longs");
        int[] alias = {me, 1};
        w.Allreduce(alias, 0, alias, 0, 2, MPI.INT, MPI.SUM); // one array as both buffers: MPJ Express allowed it
        MpjCheck.check(alias[0] == n * (n - 1) / 2 && alias[1] == n, "Allreduce with one array as both buffers");
        boolean[] flag = {me == 0};
        boolean[] anyFlag = new boolean[1];
        w.Allreduce(flag, 0, anyFlag, 0, 1, MPI.BOOLEAN, MPI.LOR);
        MpjCheck.check(anyFlag[0], "LOR on booleans");
        // boolean[] at non-zero offsets in collectives (copied in and out; the elements around stay as they were)
        boolean[] bb = {true, false, me == 0, me == 0, true};
        w.Bcast(bb, 2, 2, MPI.BOOLEAN, 0);
        MpjCheck.check(bb[0] && !bb[1] && bb[2] && bb[3] && bb[4], "Bcast of booleans at offset 2");
        boolean[] gathered = new boolean[n + 2];
        gathered[0] = true;
        gathered[n + 1] = true;
        w.Allgather(new boolean[] {false, me % 2 == 1}, 1, 1, MPI.BOOLEAN, gathered, 1, 1, MPI.BOOLEAN);
        boolean allRight = gathered[0] && gathered[n + 1];
        for (int r = 0; r < n; r++) {
            allRight &= gathered[1 + r] == (r % 2 == 1);
        }
        MpjCheck.check(allRight, "Allgather of booleans at offset 1");
        boolean[] land = {false, true, false};
        w.Reduce(new boolean[] {false, false, me >= 0}, 2, land, 1, 1, MPI.BOOLEAN, MPI.LAND, n - 1);
        MpjCheck.check(me == n - 1 ? land[1] && !land[0] && !land[2] : land[1], "Reduce of booleans at offset 1");

        // Pack and Unpack with MPJ Express's buffer, sent as PACKED
        mpjbuf.Buffer pb = new mpjbuf.Buffer(mpjbuf.BufferFactory.create(200 + MPI.SEND_OVERHEAD), MPI.SEND_OVERHEAD,
                200 + MPI.SEND_OVERHEAD);
        int pos = w.Pack(new int[] {7, me}, 1, 1, MPI.INT, pb, 0);
        pos = w.Pack(new Object[] {"packed" + me}, 0, 1, MPI.OBJECT, pb, pos);
        int[] len = {pos};
        int[] rlen = new int[1];
        w.Sendrecv(len, 0, 1, MPI.INT, right, 3, rlen, 0, 1, MPI.INT, left, 3);
        mpjbuf.Buffer rb = new mpjbuf.Buffer(200);
        w.Sendrecv(pb, 0, pos, MPI.PACKED, right, 4, rb, 0, rlen[0], MPI.PACKED, left, 4);
        int[] iv = new int[1];
        Object[] ov = new Object[1];
        int p2 = w.Unpack(rb, 0, iv, 0, 1, MPI.INT);
        w.Unpack(rb, p2, ov, 0, 1, MPI.OBJECT);
        MpjCheck.check(iv[0] == left && ("packed" + left).equals(ov[0]), "Pack/Unpack with objects");

        // groups and communicators
        Group g = w.Group();
        // every second rank up to last = n, past the group: valid as long as no computed rank is
        Group every2 = g.Range_incl(new int[][] {{n % 2 == 0 ? 1 : 0, n, 2}});
        MpjCheck.equal(every2.Size(), (n + 1) / 2, "Range_incl with last past the end");
        MpjCheck.equal(Group.Compare(g, g), MPI.IDENT, "Group compare");
        Intracomm half = w.Split(me % 2, -me);
        MpjCheck.equal(half.Rank(), higherOfMyParity(me, n), "Split orders by key");
        Intracomm none = w.Split(me == 0 ? MPI.UNDEFINED : 1, 0);
        MpjCheck.check(me == 0 ? none == null : none.Size() == n - 1, "Split with UNDEFINED");
        MpjCheck.equal(Comm.Compare(w, (Comm) w.clone()), MPI.CONGRUENT, "clone is congruent");
        int[] dims = new int[2];
        Cartcomm.Dims_create(n, dims);
        Cartcomm cart = w.Create_cart(dims, new boolean[] {true, false}, false);
        ShiftParms sh = cart.Shift(1, 1);
        CartParms cp = cart.Get();
        MpjCheck.check(cp.coords[1] < dims[1] - 1 || sh.rank_dest == MPI.PROC_NULL, "Cartesian edge is PROC_NULL");
        MpjCheck.equal(cart.Topo_test(), MPI.CART, "Topo_test");
        MpjCheck.done("MpjDatatypes");
        MPI.Finalize();
    }

    private static int col2(int rank, int k) {
        int[] want = {1, 2, 5};
        return rank * 1000 + want[k];
    }

    /** The rank in the Split by colour me % 2 and key -me: higher world ranks first. */
    private static int higherOfMyParity(int me, int n) {
        int higher = 0;
        for (int r = me + 1; r < n; r++) {
            if (r % 2 == me % 2) {
                higher++;
            }
        }
        return higher;
    }
}
