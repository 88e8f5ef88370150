package org.jmpi.tests.datatype;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import mpi.Comm;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;
import org.jmpi.junit.MpiTest;

/**
 * The classic uses of derived datatypes, between ranks: matrix columns and sub-matrices, halo exchange with vectors,
 * resized types with counts above one, indexed triangles, over blocking, non-blocking and persistent calls.
 */
class DerivedDatatypeTest {
    private static int rank() throws MPIException {
        return MPI.COMM_WORLD.getRank();
    }

    private static int size() throws MPIException {
        return MPI.COMM_WORLD.getSize();
    }

    private static int right() throws MPIException {
        return (rank() + 1) % size();
    }

    private static int left() throws MPIException {
        return (rank() + size() - 1) % size();
    }

    /** Value of element (i, j) of rank {@code r}'s matrix. */
    private static double cell(int r, int i, int j) {
        return r * 1_000_000.0 + i * 1000.0 + j;
    }

    private static double[] matrix(int r, int rows, int cols) {
        double[] m = new double[rows * cols];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                m[i * cols + j] = cell(r, i, j);
            }
        }
        return m;
    }

    @MpiTest(ranks = {1, 2, 3}, timeoutSeconds = 30)
    void matrixColumnsMoveWithOneCall() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        // a small matrix (eager) and a tall one whose column is 256 KiB (rendezvous, several chunks over TCP)
        for (int[] shape : new int[][] {{8, 5}, {32768, 3}}) {
            int rows = shape[0];
            int cols = shape[1];
            Datatype column = Datatype.createVector(rows, 1, cols, MPI.DOUBLE);
            column.commit();
            assertThat(column.getSize()).isEqualTo(rows);
            assertThat(column.getExtent()).isEqualTo((rows - 1) * cols + 1);
            double[] m = matrix(rank(), rows, cols);
            int j = cols - 1;

            // column j of my matrix -> a contiguous array on the right
            double[] got = new double[rows];
            Status s = w.sendRecv(MPI.slice(m, j), 1, column, right(), 1, got, rows, MPI.DOUBLE, left(), 1);
            assertThat(s.getCount(MPI.DOUBLE)).isEqualTo(rows);
            assertThat(s.getCount(column)).isEqualTo(1);
            for (int i = 0; i < rows; i++) {
                assertThat(got[i]).isEqualTo(cell(left(), i, j));
            }

            // contiguous row 0 -> column 1 of the right neighbour's matrix (the receive side scatters)
            double[] target = new double[rows * cols];
            double[] row = new double[rows];
            for (int i = 0; i < rows; i++) {
                row[i] = cell(rank(), 0, i);
            }
            w.sendRecv(row, rows, MPI.DOUBLE, right(), 2, MPI.slice(target, 1), 1, column, left(), 2);
            for (int i = 0; i < rows; i++) {
                for (int c = 0; c < cols; c++) {
                    double expected = c == 1 ? cell(left(), 0, i) : 0.0;
                    assertThat(target[i * cols + c]).as("(%d, %d)", i, c).isEqualTo(expected);
                }
            }

            // column to column, direct buffers, non-blocking
            DoubleBuffer src = MPI.newDoubleBuffer(rows * cols).put(m);
            DoubleBuffer dst = MPI.newDoubleBuffer(rows * cols);
            Request r = w.iRecv(MPI.slice(dst, 0), 1, column, left(), 3);
            w.send(MPI.slice(src, j), 1, column, right(), 3);
            r.waitFor();
            for (int i = 0; i < rows; i++) {
                assertThat(dst.get(i * cols)).isEqualTo(cell(left(), i, j));
                if (cols > 1) {
                    assertThat(dst.get(i * cols + 1)).isZero();
                }
            }
            column.free();
            assertThat(column.isNull()).isTrue();
        }
    }

    @MpiTest(ranks = {1, 2, 3}, timeoutSeconds = 30)
    void subMatricesAndResizedTypesWithCounts() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rows = 10;
        int cols = 12;
        int[] m = new int[rows * cols];
        for (int i = 0; i < m.length; i++) {
            m[i] = rank() * 10_000 + i;
        }
        // the 4 x 5 block at (3, 2)
        Datatype block = Datatype.createVector(4, 5, cols, MPI.INT);
        block.commit();
        int[] got = new int[20];
        w.sendRecv(MPI.slice(m, 3 * cols + 2), 1, block, right(), 7, got, 20, MPI.INT, left(), 7);
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 5; j++) {
                assertThat(got[i * 5 + j]).isEqualTo(left() * 10_000 + (3 + i) * cols + 2 + j);
            }
        }

        // a column type resized to one int, so that count = cols sends the whole matrix transposed
        Datatype col = Datatype.createVector(rows, 1, cols, MPI.INT);
        Datatype colStep = Datatype.createResized(col, 0, 1);
        colStep.commit();
        assertThat(colStep.getExtent()).isEqualTo(1);
        assertThat(colStep.getSize()).isEqualTo(rows);
        int[] transposed = new int[rows * cols];
        w.sendRecv(m, cols, colStep, right(), 8, transposed, rows * cols, MPI.INT, left(), 8);
        for (int j = 0; j < cols; j++) {
            for (int i = 0; i < rows; i++) {
                assertThat(transposed[j * rows + i]).isEqualTo(left() * 10_000 + i * cols + j);
            }
        }
        // and back: receiving with the resized type transposes again
        int[] back = new int[rows * cols];
        w.sendRecv(transposed, rows * cols, MPI.INT, right(), 9, back, cols, colStep, left(), 9);
        for (int i = 0; i < rows * cols; i++) {
            assertThat(back[i]).isEqualTo(left(left()) * 10_000 + i);
        }

        // every third int, as a resized single int, count 7
        Datatype every3 = Datatype.createResized(MPI.INT, 0, 3);
        every3.commit();
        int[] spread = new int[21];
        int[] seven = {1, 2, 3, 4, 5, 6, 7};
        w.sendRecv(seven, 7, MPI.INT, right(), 10, spread, 7, every3, left(), 10);
        for (int i = 0; i < 21; i++) {
            assertThat(spread[i]).isEqualTo(i % 3 == 0 ? i / 3 + 1 : 0);
        }
        block.free();
        col.free();
        colStep.free();
        every3.free();
    }

    private static int left(int r) throws MPIException {
        return (r + size() - 1) % size();
    }

    @MpiTest(ranks = {1, 2, 3, 4}, timeoutSeconds = 30)
    void haloExchangeWithVectors() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        // each rank owns an n x n tile with a halo of one cell: (n + 2) x (n + 2); ranks form a ring left to right
        int n = 6;
        int stride = n + 2;
        double[] tile = new double[stride * stride];
        for (int i = 1; i <= n; i++) {
            for (int j = 1; j <= n; j++) {
                tile[i * stride + j] = cell(rank(), i, j);
            }
        }
        Datatype edge = Datatype.createVector(n, 1, stride, MPI.DOUBLE);
        edge.commit();
        // my last interior column -> right neighbour's left halo; my first interior column -> left's right halo
        w.sendRecv(MPI.slice(tile, stride + n), 1, edge, right(), 20, MPI.slice(tile, stride), 1, edge, left(), 20);
        w.sendRecv(MPI.slice(tile, stride + 1), 1, edge, left(), 21, MPI.slice(tile, stride + n + 1), 1, edge,
                right(), 21);
        // rows are contiguous: top interior row -> upper halo of the same rank's tile, through a self exchange
        Request up = w.iRecv(MPI.slice(DoubleBuffer.wrap(tile), 1), n, MPI.DOUBLE, rank(), 22);
        w.send(MPI.slice(tile, stride + 1), n, MPI.DOUBLE, rank(), 22);
        up.waitFor();
        for (int i = 1; i <= n; i++) {
            assertThat(tile[i * stride]).as("left halo %d", i).isEqualTo(cell(left(), i, n));
            assertThat(tile[i * stride + n + 1]).as("right halo %d", i).isEqualTo(cell(right(), i, 1));
            assertThat(tile[i * stride + 1]).isEqualTo(cell(rank(), i, 1));
        }
        for (int j = 1; j <= n; j++) {
            assertThat(tile[j]).isEqualTo(cell(rank(), 1, j));
        }
        assertThat(tile[0]).isZero();
        assertThat(tile[stride * stride - 1]).isZero();
        edge.free();
    }

    @MpiTest(ranks = {2, 3}, timeoutSeconds = 30)
    void indexedTrianglesAndPersistentRequests() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int n = 7;
        // upper triangle (with diagonal) of an n x n int matrix
        int[] lengths = new int[n];
        int[] displs = new int[n];
        for (int i = 0; i < n; i++) {
            lengths[i] = n - i;
            displs[i] = i * n + i;
        }
        Datatype upper = Datatype.createIndexed(lengths, displs, MPI.INT);
        upper.commit();
        assertThat(upper.getSize()).isEqualTo(n * (n + 1) / 2);
        assertThat(upper.getExtent()).isEqualTo(n * n);
        int[] a = new int[n * n];
        for (int i = 0; i < a.length; i++) {
            a[i] = rank() * 100 + i;
        }
        int[] b = new int[n * n];
        w.sendRecv(a, 1, upper, right(), 30, b, 1, upper, left(), 30);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                assertThat(b[i * n + j]).isEqualTo(j >= i ? left() * 100 + i * n + j : 0);
            }
        }
        // the same with byte displacements
        int[] byteDispls = new int[n];
        for (int i = 0; i < n; i++) {
            byteDispls[i] = displs[i] * 4;
        }
        Datatype upperH = Datatype.createHIndexed(lengths, byteDispls, MPI.INT);
        upperH.commit();
        assertThat(upperH.getExtent()).isEqualTo(n * n);

        // persistent send and receive of the triangle, started twice with different data
        IntBuffer src = MPI.newIntBuffer(n * n);
        IntBuffer dst = MPI.newIntBuffer(n * n);
        Prequest send = w.sendInit(src, 1, upperH, right(), 31);
        Prequest recv = w.recvInit(dst, 1, upper, left(), 31);
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < n * n; i++) {
                src.put(i, round * 1000 + rank() * 100 + i);
            }
            recv.start();
            send.start();
            Request.waitAll(new Request[] {send, recv});
            for (int i = 0; i < n; i++) {
                for (int j = i; j < n; j++) {
                    assertThat(dst.get(i * n + j)).isEqualTo(round * 1000 + left() * 100 + i * n + j);
                }
            }
        }
        send.free();
        recv.free();
        upper.free();
        upperH.free();
    }

    @MpiTest(ranks = {1, 2, 3}, timeoutSeconds = 30)
    void booleanCharAndFloatVectors() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        boolean[] flags = new boolean[12];
        for (int i = 0; i < flags.length; i++) {
            flags[i] = (i + rank()) % 3 != 0;
        }
        Datatype pairs = Datatype.createVector(4, 2, 3, MPI.BOOLEAN); // 0,1, 3,4, 6,7, 9,10
        pairs.commit();
        boolean[] got = new boolean[12];
        w.sendRecv(flags, 1, pairs, right(), 40, got, 1, pairs, left(), 40);
        for (int i = 0; i < 12; i++) {
            boolean inType = i % 3 != 2;
            assertThat(got[i]).as("flag %d", i).isEqualTo(inType && (i + left()) % 3 != 0);
        }
        boolean[] packed = new boolean[8];
        w.sendRecv(flags, 1, pairs, right(), 41, packed, 8, MPI.BOOLEAN, left(), 41);
        assertThat(packed[2]).isEqualTo((3 + left()) % 3 != 0);

        char[] text = "abcdefghijkl".toCharArray();
        Datatype odd = Datatype.createVector(6, 1, 2, MPI.CHAR);
        odd.commit();
        char[] chars = new char[6];
        w.sendRecv(MPI.slice(text, 1), 1, odd, right(), 42, chars, 6, MPI.CHAR, left(), 42);
        assertThat(new String(chars)).isEqualTo("bdfhjl");

        float[] f = new float[10];
        for (int i = 0; i < f.length; i++) {
            f[i] = rank() + i / 10f;
        }
        Datatype fv = Datatype.createHVector(5, 1, 8, MPI.FLOAT); // every other float, stride in bytes
        fv.commit();
        assertThat(fv.getExtent()).isEqualTo(9);
        float[] fg = new float[5];
        w.sendRecv(f, 1, fv, right(), 43, fg, 5, MPI.FLOAT, left(), 43);
        for (int i = 0; i < 5; i++) {
            assertThat(fg[i]).isEqualTo(left() + 2 * i / 10f);
        }
        pairs.free();
        odd.free();
        fv.free();
    }

    @MpiTest(ranks = {2, 3}, timeoutSeconds = 30)
    void countsAndElementsOfDerivedTypes() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        Datatype twoInts = Datatype.createContiguous(2, MPI.INT);
        twoInts.commit();
        int[] seven = new int[7];
        int[] in = new int[8];
        Status s = w.sendRecv(seven, 7, MPI.INT, right(), 50, in, 4, twoInts, left(), 50);
        assertThat(s.getCount(twoInts)).isEqualTo(MPI.UNDEFINED);
        assertThat(s.getElements(twoInts)).isEqualTo(7);
        assertThat(s.getCount(MPI.INT)).isEqualTo(7);

        // a struct of an int and a double: each counts as two basic elements
        Datatype pair = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8}, new Datatype[] {MPI.INT,
            MPI.DOUBLE});
        pair.commit();
        assertThat(pair.getSize()).isEqualTo(12);
        assertThat(pair.getExtent()).isEqualTo(16);
        byte[] structs = new byte[3 * 16];
        byte[] recv = new byte[3 * 16];
        s = w.sendRecv(structs, 3, pair, right(), 51, recv, 3, pair, left(), 51);
        assertThat(s.getCount(pair)).isEqualTo(3);
        assertThat(s.getElements(pair)).isEqualTo(6);
        // 2.33 structs: two whole ones and the int of the third
        s = w.sendRecv(new byte[28], 28, MPI.BYTE, right(), 52, recv, 3, pair, left(), 52);
        assertThat(s.getCount(pair)).isEqualTo(MPI.UNDEFINED);
        assertThat(s.getElements(pair)).isEqualTo(5);
        assertThat(s.getElementsX(pair).getCount()).isEqualTo(5);
        s.setElements(pair, 3);
        assertThat(s.getElements(pair)).isEqualTo(3);
        assertThat(s.getCount(MPI.BYTE)).isEqualTo(12 + 4);
        twoInts.free();
        pair.free();
    }

    @MpiTest(ranks = {1, 2, 3}, timeoutSeconds = 30)
    void packAndUnpackThroughPacked() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int[] ints = {10, 11, 12, 13, 14, 15, 16, 17};
        double[] doubles = {0.5, 1.5, 2.5};
        Datatype evens = Datatype.createVector(4, 1, 2, MPI.INT);
        evens.commit();
        int size = w.packSize(1, evens) + w.packSize(3, MPI.DOUBLE) + w.packSize(2, MPI.CHAR);
        assertThat(size).isEqualTo(16 + 24 + 4);
        byte[] packed = new byte[size];
        int pos = w.pack(ints, 1, evens, packed, 0);
        assertThat(pos).isEqualTo(16);
        pos = w.pack(doubles, 3, MPI.DOUBLE, packed, pos);
        pos = w.pack(new char[] {'o', 'k'}, 2, MPI.CHAR, packed, pos);
        assertThat(pos).isEqualTo(size);

        byte[] got = new byte[size];
        Status s = w.sendRecv(packed, pos, MPI.PACKED, right(), 60, got, size, MPI.PACKED, left(), 60);
        assertThat(s.getCount(MPI.PACKED)).isEqualTo(size);
        int[] odds = new int[8];
        Datatype oddSlots = Datatype.createVector(4, 1, 2, MPI.INT);
        oddSlots.commit();
        int p = w.unpack(got, 0, MPI.slice(odds, 1), 1, oddSlots);
        double[] d = new double[3];
        p = w.unpack(got, p, d, 3, MPI.DOUBLE);
        char[] c = new char[2];
        p = w.unpack(got, p, c, 2, MPI.CHAR);
        assertThat(p).isEqualTo(size);
        assertThat(odds).containsExactly(0, 10, 0, 12, 0, 14, 0, 16);
        assertThat(d).containsExactly(0.5, 1.5, 2.5);
        assertThat(c).containsExactly('o', 'k');

        // packed bytes received straight into the derived type
        int[] direct = new int[8];
        w.sendRecv(packed, 16, MPI.PACKED, right(), 61, direct, 1, evens, left(), 61);
        assertThat(direct).containsExactly(10, 0, 12, 0, 14, 0, 16, 0);
        // and a direct ByteBuffer as the user side of pack
        ByteBuffer bb = MPI.newByteBuffer(32);
        for (int i = 0; i < 8; i++) {
            bb.putInt(i * 4, 100 + i);
        }
        byte[] p2 = new byte[16];
        assertThat(w.pack(bb, 1, evens, p2, 0)).isEqualTo(16);
        ByteBuffer view = ByteBuffer.wrap(p2).order(java.nio.ByteOrder.nativeOrder());
        assertThat(view.getInt(4)).isEqualTo(102);
        evens.free();
        oddSlots.free();
    }
}
