import java.io.Serializable;
import java.util.Arrays;
import mpi.*;

/** MPI.OBJECT: point-to-point, wildcards, persistent requests, every collective, user reductions, bad streams. */
public class MpjObjects {
    /** A class of the program's own, deserialised with the rank's class loader. */
    static final class Point implements Serializable {
        private static final long serialVersionUID = 1L;
        final int rank;
        final String label;

        Point(int rank, String label) {
            this.rank = rank;
            this.label = label;
        }
    }

    public static void main(String[] args) {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        int me = w.Rank();
        int n = w.Size();
        int right = (me + 1) % n;
        int left = (me + n - 1) % n;

        // rows of a double[][] and strings, at offsets; elements are replaced on receipt
        double[][] rows = new double[4][];
        for (int i = 0; i < 4; i++) {
            rows[i] = new double[] {me, i};
        }
        double[][] got = new double[5][];
        Request r = w.Irecv(got, 2, 3, MPI.OBJECT, MPI.ANY_SOURCE, MPI.ANY_TAG);
        w.Send(rows, 1, 2, MPI.OBJECT, right, 3);
        Status s = r.Wait();
        MpjCheck.check(got[2] != null && got[2][0] == left && got[2][1] == 1, "row at offset");
        MpjCheck.check(got[3] != null && got[3][1] == 2 && got[4] == null, "second row, nothing past it");
        MpjCheck.equal(s.Get_count(MPI.OBJECT), 2, "object count");
        MpjCheck.equal(s.source, left, "object status source");
        MpjCheck.equal(s.tag, 3, "object status tag");

        Object[] pts = {new Point(me, "p" + me)};
        Object[] pin = new Object[1];
        w.Sendrecv(pts, 0, 1, MPI.OBJECT, right, 4, pin, 0, 1, MPI.OBJECT, left, 4);
        MpjCheck.check(pin[0] instanceof Point p && p.rank == left && p.label.equals("p" + left),
                "program's own class");

        // Waitany and Testsome over object receives
        String[][] boxes = new String[3][1];
        Request[] rs = new Request[3];
        for (int k = 0; k < 3; k++) {
            rs[k] = w.Irecv(boxes[k], 0, 1, MPI.OBJECT, left, 10 + k);
        }
        for (int k = 2; k >= 0; k--) {
            w.Isend(new String[] {"m" + k + "-" + me}, 0, 1, MPI.OBJECT, right, 10 + k).Wait();
        }
        int seen = 0;
        while (seen < 3) {
            Status a = Request.Waitany(rs);
            MpjCheck.check(boxes[a.index][0].equals("m" + a.index + "-" + left), "Waitany object " + a.index);
            seen++;
        }

        // a persistent object send: the data is taken at each start
        Object[] cell = new Object[1];
        Object[] into = new Object[1];
        Prequest ps = w.Send_init(cell, 0, 1, MPI.OBJECT, right, 20);
        Prequest pr = w.Recv_init(into, 0, 1, MPI.OBJECT, left, 20);
        for (int k = 0; k < 3; k++) {
            cell[0] = me * 10 + k;
            pr.Start();
            ps.Start();
            ps.Wait();
            pr.Wait();
            MpjCheck.check(Integer.valueOf(left * 10 + k).equals(into[0]), "persistent object round " + k);
        }

        // derived types over OBJECT: every second element
        Datatype every2 = Datatype.Vector(3, 1, 2, MPI.OBJECT);
        every2.Commit();
        Object[] src = new Object[6];
        Object[] dst = new Object[6];
        for (int i = 0; i < 6; i++) {
            src[i] = me + ":" + i;
        }
        w.Sendrecv(src, 0, 1, every2, right, 21, dst, 0, 1, every2, left, 21);
        MpjCheck.check((left + ":4").equals(dst[4]) && dst[1] == null && dst[5] == null, "vector of objects");

        // collectives
        Object[] b = new Object[2];
        if (me == n - 1) {
            b[1] = Arrays.asList("x", "y");
        }
        w.Bcast(b, 1, 1, MPI.OBJECT, n - 1);
        MpjCheck.check(Arrays.asList("x", "y").equals(b[1]), "Bcast of an object from the last rank");

        Object[] mine = {"r" + me};
        Object[] all = new Object[n];
        w.Gather(mine, 0, 1, MPI.OBJECT, all, 0, 1, MPI.OBJECT, 0);
        if (me == 0) {
            for (int i = 0; i < n; i++) {
                MpjCheck.check(("r" + i).equals(all[i]), "Gather " + i);
            }
        }
        Object[] every = new Object[n + 1];
        w.Allgather(mine, 0, 1, MPI.OBJECT, every, 1, 1, MPI.OBJECT);
        for (int i = 0; i < n; i++) {
            MpjCheck.check(("r" + i).equals(every[i + 1]), "Allgather " + i);
        }
        Object[] parts = new Object[n];
        for (int i = 0; i < n; i++) {
            parts[i] = "to" + i;
        }
        Object[] part = new Object[1];
        w.Scatter(parts, 0, 1, MPI.OBJECT, part, 0, 1, MPI.OBJECT, 0);
        MpjCheck.check(("to" + me).equals(part[0]), "Scatter");
        Object[] out = new Object[n];
        Object[] in = new Object[n];
        for (int i = 0; i < n; i++) {
            out[i] = me + ">" + i;
        }
        w.Alltoall(out, 0, 1, MPI.OBJECT, in, 0, 1, MPI.OBJECT);
        for (int i = 0; i < n; i++) {
            MpjCheck.check((i + ">" + me).equals(in[i]), "Alltoall " + i);
        }
        int[] counts = new int[n];
        int[] displs = new int[n];
        for (int i = 0; i < n; i++) {
            counts[i] = i + 1;
            displs[i] = i * (i + 1) / 2;
        }
        Object[] many = new Object[me + 1];
        Arrays.fill(many, me);
        Object[] gathered = new Object[n * (n + 1) / 2];
        w.Allgatherv(many, 0, me + 1, MPI.OBJECT, gathered, 0, counts, displs, MPI.OBJECT);
        MpjCheck.check(Integer.valueOf(n - 1).equals(gathered[gathered.length - 1]), "Allgatherv");

        // reductions with a user function over objects: string concatenation, not commutative
        Op concat = new Op(new User_function() {
            @Override
            public void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count, Datatype t) {
                Object[] a = (Object[]) invec;
                Object[] io = (Object[]) inoutvec;
                for (int i = 0; i < count; i++) {
                    io[inoutoffset + i] = (String) a[inoffset + i] + io[inoutoffset + i];
                }
            }
        }, false);
        Object[] word = {String.valueOf(me)};
        Object[] res = new Object[1];
        StringBuilder want = new StringBuilder();
        for (int i = 0; i < n; i++) {
            want.append(i);
        }
        w.Allreduce(word, 0, res, 0, 1, MPI.OBJECT, concat);
        MpjCheck.check(want.toString().equals(res[0]), "Allreduce of objects in rank order: " + res[0]);
        w.Scan(word, 0, res, 0, 1, MPI.OBJECT, concat);
        MpjCheck.check(want.substring(0, me + 1).equals(res[0]), "Scan of objects: " + res[0]);
        MpjCheck.fails(() -> w.Allreduce(word, 0, res, 0, 1, MPI.OBJECT, MPI.SUM), 10, "predefined op on objects");

        // the data is taken when the send is made: changing the array afterwards changes nothing received, and the
        // receiver gets arrays of its own (in threads mode too, where objects do not go through bytes)
        double[] row = {me, 7};
        w.Send(new Object[] {row, "s" + me}, 0, 2, MPI.OBJECT, right, 30);
        row[1] = -1;
        Object[] late = new Object[2];
        w.Recv(late, 0, 2, MPI.OBJECT, left, 30);
        MpjCheck.check(late[0] instanceof double[] d && d[0] == left && d[1] == 7 && d != row,
                "an array changed after its send arrives as it was");
        MpjCheck.check(("s" + left).equals(late[1]), "a string beside it");
        double[] theirs = (double[]) late[0];
        w.Sendrecv(new Object[] {theirs}, 0, 1, MPI.OBJECT, left, 31, late, 0, 1, MPI.OBJECT, right, 31);
        theirs[1] = -2;
        MpjCheck.check(late[0] instanceof double[] d && d[1] == 7, "a received array is the receiver's own");
        // one array twice in a message arrives as one array twice
        double[] shared = {me};
        Object[] pair = new Object[2];
        w.Sendrecv(new Object[] {shared, shared}, 0, 2, MPI.OBJECT, right, 32, pair, 0, 2, MPI.OBJECT, left, 32);
        MpjCheck.check(pair[0] instanceof double[] d && d[0] == left && pair[0] == pair[1], "an array twice");
        // the rank's object input filter sees every element
        org.jmpi.mpj.Serialization.setObjectInputFilter(
                i -> i.arrayLength() > 100 ? java.io.ObjectInputFilter.Status.REJECTED
                        : java.io.ObjectInputFilter.Status.UNDECIDED);
        Object[] big = new Object[1];
        w.Send(new Object[] {new double[101]}, 0, 1, MPI.OBJECT, right, 33);
        MpjCheck.fails(() -> w.Recv(big, 0, 1, MPI.OBJECT, left, 33), 16, "an array the filter rejects");
        org.jmpi.mpj.Serialization.setObjectInputFilter(null);

        // a malformed object stream fails that receive only; a truncated one says so
        if (me == 0 && n > 1) {
            w.Send(new byte[] {1, 2, 3, 4, 5}, 0, 5, MPI.BYTE, 1, 40);
            w.Send(new Object[] {"a", "b", "c"}, 0, 3, MPI.OBJECT, 1, 41);
            // a message that looks like a parcel of objects left for the receiver in this JVM, naming none
            byte[] parcel = {0x4A, 0x4D, 0x50, 0x02, 1, 0, 0, 0, 9, 9, 9, 9, 9, 9, 9, 9};
            w.Send(parcel, 0, parcel.length, MPI.BYTE, 1, 42);
        } else if (me == 1) {
            Object[] x = new Object[2];
            MpjCheck.fails(() -> w.Recv(x, 0, 2, MPI.OBJECT, 0, 40), 16, "malformed object stream");
            MpjCheck.fails(() -> w.Recv(x, 0, 2, MPI.OBJECT, 0, 42), 16, "a parcel that names no objects");
            MpjCheck.fails(() -> w.Recv(x, 0, 2, MPI.OBJECT, 0, 41), 15, "more objects than room");
        }
        MpjCheck.done("MpjObjects");
        MPI.Finalize();
    }
}
