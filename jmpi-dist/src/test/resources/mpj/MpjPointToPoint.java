import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import mpi.*;

/** Point-to-point of the mpiJava 1.2 API on a ring of any size: offsets, modes, wildcards, requests, probes. */
public class MpjPointToPoint {
    public static void main(String[] args) {
        MPI.Init(args);
        Intracomm w = MPI.COMM_WORLD;
        int me = w.Rank();
        int n = w.Size();
        int right = (me + 1) % n;
        int left = (me + n - 1) % n;

        // every primitive type at an element offset, with each send mode
        int[] is = new int[10];
        for (int i = 0; i < 10; i++) {
            is[i] = me * 100 + i;
        }
        int[] ir = new int[10];
        Request r = w.Irecv(ir, 4, 3, MPI.INT, left, 1);
        w.Send(is, 2, 3, MPI.INT, right, 1);
        Status s = r.Wait();
        MpjCheck.equal(ir[4], left * 100 + 2, "int at offset");
        MpjCheck.equal(ir[6], left * 100 + 4, "int at offset, last");
        MpjCheck.equal(ir[3] + ir[7], 0, "around the offset untouched");
        MpjCheck.equal(s.source, left, "status source");
        MpjCheck.equal(s.tag, 1, "status tag");
        MpjCheck.equal(s.Get_count(MPI.INT), 3, "Get_count");

        double[] ds = {0, 0, 1.5, 2.5};
        double[] dr = new double[5];
        Request rd = w.Irecv(dr, 3, 2, MPI.DOUBLE, MPI.ANY_SOURCE, MPI.ANY_TAG);
        w.Ssend(ds, 2, 2, MPI.DOUBLE, right, 7);
        Status sd = rd.Wait();
        MpjCheck.check(dr[3] == 1.5 && dr[4] == 2.5, "double at offset with Ssend");
        MpjCheck.equal(sd.source, left, "ANY_SOURCE gives the sender");
        MpjCheck.equal(sd.tag, 7, "ANY_TAG gives the tag");

        long[] ls = {1, 2, 3, (long) me << 40};
        long[] lr = new long[2];
        short[] ss = {9, (short) me};
        short[] sr = new short[3];
        char[] cs = {'x', 'y', (char) ('a' + me)};
        char[] cr = new char[2];
        float[] fs = {0f, me + 0.25f};
        float[] fr = new float[1];
        byte[] bs = {0, 0, 0, (byte) me};
        byte[] br = new byte[4];
        boolean[] zs = {false, false, true, me % 2 == 0};
        boolean[] zr = new boolean[5];
        Request[] rs = {
            w.Irecv(lr, 1, 1, MPI.LONG, left, 2), w.Irecv(sr, 2, 1, MPI.SHORT, left, 3),
            w.Irecv(cr, 1, 1, MPI.CHAR, left, 4), w.Irecv(fr, 0, 1, MPI.FLOAT, left, 5),
            w.Irecv(br, 3, 1, MPI.BYTE, left, 6), w.Irecv(zr, 3, 2, MPI.BOOLEAN, left, 8)
        };
        w.Send(ls, 3, 1, MPI.LONG, right, 2);
        w.Send(ss, 1, 1, MPI.SHORT, right, 3);
        w.Send(cs, 2, 1, MPI.CHAR, right, 4);
        w.Send(fs, 1, 1, MPI.FLOAT, right, 5);
        w.Send(bs, 3, 1, MPI.BYTE, right, 6);
        w.Send(zs, 2, 2, MPI.BOOLEAN, right, 8);
        Status[] all = Request.Waitall(rs);
        MpjCheck.equal(all.length, 6, "Waitall statuses");
        MpjCheck.equal(lr[1], (long) left << 40, "long at offset");
        MpjCheck.equal(sr[2], left, "short at offset");
        MpjCheck.equal(cr[1], 'a' + left, "char at offset");
        MpjCheck.check(fr[0] == left + 0.25f, "float at offset");
        MpjCheck.equal(br[3], left, "byte at offset");
        MpjCheck.check(zr[3] && zr[4] == (left % 2 == 0) && !zr[2], "boolean at offset");

        // a direct ByteBuffer: the offset counts elements of the type
        ByteBuffer bb = ByteBuffer.allocateDirect(32).order(ByteOrder.nativeOrder());
        bb.putInt(8, 40 + me);
        ByteBuffer rb = ByteBuffer.allocateDirect(32).order(ByteOrder.nativeOrder());
        w.Sendrecv(bb, 2, 1, MPI.INT, right, 9, rb, 5, 1, MPI.INT, left, 9);
        MpjCheck.equal(rb.getInt(20), 40 + left, "direct buffer at an element offset");

        // Sendrecv_replace, Bsend with an attached buffer, Rsend after a barrier
        int[] rep = {0, me};
        Status sr2 = w.Sendrecv_replace(rep, 1, 1, MPI.INT, right, 10, left, 10);
        MpjCheck.equal(rep[1], left, "Sendrecv_replace");
        MpjCheck.equal(sr2.source, left, "Sendrecv_replace status");
        MPI.Buffer_attach(ByteBuffer.allocateDirect(1024 + MPI.BSEND_OVERHEAD));
        int[] one = {me};
        int[] got = new int[1];
        w.Bsend(one, 0, 1, MPI.INT, right, 11);
        w.Recv(got, 0, 1, MPI.INT, left, 11);
        MPI.Buffer_detach();
        MpjCheck.equal(got[0], left, "Bsend");
        Request pre = w.Irecv(got, 0, 1, MPI.INT, left, 12);
        w.Barrier();
        w.Rsend(one, 0, 1, MPI.INT, right, 12);
        pre.Wait();
        MpjCheck.equal(got[0], left, "Rsend");

        // PROC_NULL: returns at once
        Status pn = w.Recv(got, 0, 1, MPI.INT, MPI.PROC_NULL, 0);
        MpjCheck.equal(pn.source, MPI.PROC_NULL, "receive from PROC_NULL");
        w.Send(one, 0, 1, MPI.INT, MPI.PROC_NULL, 0);

        // Probe and Iprobe
        w.Send(one, 0, 1, MPI.INT, right, 13);
        Status p = w.Probe(MPI.ANY_SOURCE, 13);
        MpjCheck.equal(p.source, left, "Probe source");
        MpjCheck.equal(p.Get_count(MPI.INT), 1, "Probe count");
        MpjCheck.check(w.Iprobe(left, 14) == null, "Iprobe finds nothing");
        w.Recv(got, 0, 1, MPI.INT, p.source, p.tag);

        // persistent requests started several times
        int[] pv = new int[3];
        int[] pr = new int[3];
        Prequest ps = w.Send_init(pv, 1, 2, MPI.INT, right, 15);
        Prequest pq = w.Recv_init(pr, 0, 2, MPI.INT, left, 15);
        for (int k = 0; k < 3; k++) {
            pv[1] = me + k;
            pv[2] = -k;
            Prequest.Startall(new Prequest[] {pq, ps});
            Request.Waitall(new Request[] {ps, pq});
            MpjCheck.check(pr[0] == left + k && pr[1] == -k, "persistent round " + k);
        }
        MpjCheck.check(!pq.Is_null(), "an inactive persistent request is not null");
        pq.Free();
        ps.Free();

        // Waitany and Testsome: index set; a completed request is null afterwards
        int[][] bufs = new int[3][1];
        Request[] three = new Request[3];
        for (int k = 0; k < 3; k++) {
            three[k] = w.Irecv(bufs[k], 0, 1, MPI.INT, left, 20 + k);
        }
        int[] v = {me};
        w.Send(v, 0, 1, MPI.INT, right, 21);
        Status any = Request.Waitany(three);
        MpjCheck.equal(any.index, 1, "Waitany index");
        MpjCheck.equal(any.tag, 21, "Waitany status");
        MpjCheck.check(three[1].Is_null(), "completed request is null");
        w.Barrier(); // the other two only now, so that the one above was the only one complete
        w.Send(v, 0, 1, MPI.INT, right, 20);
        w.Send(v, 0, 1, MPI.INT, right, 22);
        int done = 0;
        while (done < 2) {
            Status[] some = Request.Testsome(three);
            done += some.length;
        }
        MpjCheck.equal(Request.Testsome(three).length, 0, "Testsome with no active request");
        Status none = Request.Waitany(three);
        MpjCheck.equal(none.index, MPI.UNDEFINED, "Waitany with no active request");

        // Cancel a receive that nothing matches
        Request c = w.Irecv(got, 0, 1, MPI.INT, left, 99);
        c.Cancel();
        MpjCheck.check(c.Wait().Test_cancelled(), "cancelled receive");

        // errors: an unchecked MPIException with MPI's error class
        MpjCheck.fails(() -> w.Send(one, 0, 1, MPI.INT, n + 5, 0), 6, "send to a rank past the end");
        int[] small = new int[2];
        if (me == 0) {
            w.Send(is, 0, 5, MPI.INT, right, 30);
        }
        if (me == 1) {
            MpjCheck.fails(() -> w.Recv(small, 0, 2, MPI.INT, 0, 30), 15, "truncated receive");
        }
        MpjCheck.check(MPI.Wtick() < 1e-3 && MPI.Wtime() > 0, "Wtime has sub-second resolution");
        MpjCheck.check(MPI.COMM_WORLD.Attr_get(MPI.TAG_UB) instanceof Integer t && t >= 32767, "TAG_UB");
        MpjCheck.done("MpjPointToPoint");
        MPI.Finalize();
    }
}
