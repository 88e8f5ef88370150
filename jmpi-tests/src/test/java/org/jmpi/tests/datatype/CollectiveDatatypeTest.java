package org.jmpi.tests.datatype;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import mpi.Comm;
import mpi.Datatype;
import mpi.DoubleInt;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.UserFunction;
import org.jmpi.junit.MpiTest;

/** Derived datatypes in collectives: columns broadcast and gathered, reductions over vectors, pairs and user ops. */
class CollectiveDatatypeTest {

    @MpiTest(ranks = {1, 2, 3, 4}, timeoutSeconds = 30)
    void columnsAreBroadcastAndGatheredIntoAMatrix() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        int rows = 6;
        // bcast: column 2 of the root's rows x 4 matrix lands in column 2 of everyone's
        Datatype column4 = Datatype.createVector(rows, 1, 4, MPI.DOUBLE);
        column4.commit();
        double[] m = new double[rows * 4];
        if (rank == 0) {
            for (int i = 0; i < m.length; i++) {
                m[i] = i + 0.5;
            }
        }
        w.bcast(MPI.slice(m, 2), 1, column4, 0);
        for (int i = 0; i < rows; i++) {
            assertThat(m[i * 4 + 2]).isEqualTo(i * 4 + 2.5);
            assertThat(m[i * 4 + 1]).isEqualTo(rank == 0 ? i * 4 + 1.5 : 0.0);
        }

        // gather: each rank's contiguous column becomes column `rank` of a rows x size matrix at the root, through a
        // column type resized to one double so that consecutive ranks' columns sit side by side
        double[] mine = new double[rows];
        for (int i = 0; i < rows; i++) {
            mine[i] = rank * 100 + i;
        }
        Datatype column = Datatype.createVector(rows, 1, size, MPI.DOUBLE);
        Datatype columnStep = Datatype.createResized(column, 0, 1);
        columnStep.commit();
        double[] matrix = new double[rows * size];
        w.gather(mine, rows, MPI.DOUBLE, matrix, 1, columnStep, 0);
        if (rank == 0) {
            for (int i = 0; i < rows; i++) {
                for (int r = 0; r < size; r++) {
                    assertThat(matrix[i * size + r]).isEqualTo(r * 100 + i);
                }
            }
        }
        // and scattered back the same way
        double[] back = new double[rows];
        w.scatter(matrix, 1, columnStep, back, rows, MPI.DOUBLE, 0);
        assertThat(back).containsExactly(mine);
        column4.free();
        column.free();
        columnStep.free();
    }

    @MpiTest(ranks = {1, 2, 3}, timeoutSeconds = 30)
    void reductionsOverVectorsAndPairs() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        // SUM over every other int; the holes keep their own values
        Datatype evens = Datatype.createVector(5, 1, 2, MPI.INT);
        evens.commit();
        int[] in = new int[10];
        int[] out = new int[10];
        for (int i = 0; i < 10; i++) {
            in[i] = rank + i;
            out[i] = -1;
        }
        w.allReduce(in, out, 1, evens, MPI.SUM);
        for (int i = 0; i < 10; i++) {
            int sum = size * (size - 1) / 2 + size * i;
            assertThat(out[i]).as("int %d", i).isEqualTo(i % 2 == 0 ? sum : -1);
        }

        // MINLOC and MAXLOC over DOUBLE_INT pairs in a direct buffer
        int n = 3;
        ByteBuffer pairs = MPI.newByteBuffer(16 * n);
        for (int k = 0; k < n; k++) {
            DoubleInt.Data d = MPI.doubleInt.getData(pairs, k);
            d.putValue(k == 1 ? rank : -Math.abs(rank - k));
            d.putIndex(rank);
        }
        ByteBuffer min = MPI.newByteBuffer(16 * n);
        w.allReduce(pairs, min, n, MPI.DOUBLE_INT, MPI.MINLOC);
        ByteBuffer max = MPI.newByteBuffer(16 * n);
        w.allReduce(pairs, max, n, MPI.DOUBLE_INT, MPI.MAXLOC);
        DoubleInt.Data min1 = MPI.doubleInt.getData(min, 1);
        assertThat(min1.getValue()).isZero();
        assertThat(min1.getIndex()).isZero();
        DoubleInt.Data max1 = MPI.doubleInt.getData(max, 1);
        assertThat(max1.getValue()).isEqualTo(size - 1);
        assertThat(max1.getIndex()).isEqualTo(size - 1);
        DoubleInt.Data max0 = MPI.doubleInt.getData(max, 0);
        assertThat(max0.getValue()).isZero(); // -|rank - 0| is largest at rank 0
        assertThat(max0.getIndex()).isZero();

        // MAXLOC over a vector of INT2 pairs (every other pair) in an int[]
        Datatype everyOtherPair = Datatype.createVector(2, 1, 2, MPI.INT2);
        everyOtherPair.commit();
        int[] p = {rank, rank, 7, 7, -rank, rank, 7, 7};
        int[] q = new int[8];
        w.allReduce(p, q, 1, everyOtherPair, MPI.MAXLOC);
        assertThat(q).containsExactly(size - 1, size - 1, 0, 0, 0, 0, 0, 0);
        evens.free();
        everyOtherPair.free();
    }

    @MpiTest(ranks = {1, 2, 3}, timeoutSeconds = 30)
    void userOperationsSeeTheTypesLayout() throws MPIException {
        Comm w = MPI.COMM_WORLD;
        int rank = w.getRank();
        int size = w.getSize();
        // a vector of 3 ints every 4: the function receives the laid-out data and adds only the vector's ints
        Datatype spaced = Datatype.createVector(3, 1, 4, MPI.INT);
        spaced.commit();
        Op add = new Op(new UserFunction() {
            @Override
            public void call(ByteBuffer in, ByteBuffer inOut, int count, Datatype type) {
                IntBuffer a = in.asIntBuffer();
                IntBuffer b = inOut.asIntBuffer();
                for (int e = 0; e < count; e++) {
                    for (int j = 0; j < 3; j++) {
                        int at = e * 9 + j * 4;
                        b.put(at, a.get(at) + b.get(at));
                    }
                }
            }
        }, true);
        int count = 2;
        int[] in = new int[count * 9];
        for (int i = 0; i < in.length; i++) {
            in[i] = rank * 1000 + i;
        }
        int[] out = new int[count * 9];
        w.reduce(in, out, count, spaced, add, 0);
        if (rank == 0) {
            for (int i = 0; i < out.length; i++) {
                boolean inType = (i % 9) % 4 == 0;
                assertThat(out[i]).as("int %d", i).isEqualTo(inType ? 1000 * size * (size - 1) / 2 + size * i : 0);
            }
        }
        add.free();
        spaced.free();
    }
}
