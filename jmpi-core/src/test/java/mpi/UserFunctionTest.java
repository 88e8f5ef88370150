package mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class UserFunctionTest {
    @Test
    void byteBufferVariantDelegatesToTheArrayVariant() throws MPIException {
        UserFunction sum = new UserFunction() {
            @Override
            public void call(Object inVec, Object inOutVec, int count, Datatype datatype) {
                int[] in = (int[]) inVec;
                int[] inOut = (int[]) inOutVec;
                for (int i = 0; i < count; i++) {
                    inOut[i] += in[i];
                }
            }
        };
        ByteBuffer in = MPI.newByteBuffer(12);
        ByteBuffer inOut = MPI.newByteBuffer(12);
        for (int i = 0; i < 3; i++) {
            in.putInt(4 * i, i + 1);
            inOut.putInt(4 * i, 10 * (i + 1));
        }
        sum.call(in, inOut, 3, MPI.INT);
        assertThat(inOut.getInt(0)).isEqualTo(11);
        assertThat(inOut.getInt(4)).isEqualTo(22);
        assertThat(inOut.getInt(8)).isEqualTo(33);
        assertThat(in.getInt(8)).isEqualTo(3);
    }

    @Test
    void booleansTravelAsBooleanArrays() throws MPIException {
        UserFunction or = new UserFunction() {
            @Override
            public void call(Object inVec, Object inOutVec, int count, Datatype datatype) {
                boolean[] in = (boolean[]) inVec;
                boolean[] inOut = (boolean[]) inOutVec;
                for (int i = 0; i < count; i++) {
                    inOut[i] |= in[i];
                }
            }
        };
        ByteBuffer in = MPI.newByteBuffer(2).put(0, (byte) 1);
        ByteBuffer inOut = MPI.newByteBuffer(2);
        or.call(in, inOut, 2, MPI.BOOLEAN);
        assertThat(inOut.get(0)).isEqualTo((byte) 1);
        assertThat(inOut.get(1)).isZero();
    }

    @Test
    void aFunctionOverridingNothingFailsWithErrOp() {
        UserFunction none = new UserFunction() {};
        assertThatThrownBy(() -> none.call(MPI.newByteBuffer(4), MPI.newByteBuffer(4), 1, MPI.INT))
                .isInstanceOf(MPIException.class)
                .satisfies(e -> assertThat(((MPIException) e).getErrorClass()).isEqualTo(MPI.ERR_OP));
    }

    @Test
    void userOpKeepsItsFunctionAndCommutativity() {
        UserFunction f = new UserFunction() {};
        Op op = new Op(f, false);
        assertThat(op.isCommutative()).isFalse();
        assertThat(op.isNull()).isFalse();
        assertThat(new Op(f, true).isCommutative()).isTrue();
        assertThat(MPI.SUM.isCommutative()).isTrue();
    }
}
