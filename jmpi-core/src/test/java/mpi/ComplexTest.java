package mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import org.junit.jupiter.api.Test;

class ComplexTest {
    @Test
    void floatComplexOverArray() {
        float[] a = {1, 2, 3, 4};
        FloatComplex c = FloatComplex.get(a, 1);
        assertThat(c.getReal()).isEqualTo(3f);
        assertThat(c.getImag()).isEqualTo(4f);
        c.putReal(5);
        c.putImag(6);
        assertThat(a).containsExactly(1, 2, 5, 6);
        assertThat(FloatComplex.get(a).getImag()).isEqualTo(2f);
        assertThat(c.getBuffer().get(0)).isEqualTo(5f);
        assertThat(c.getBuffer().remaining()).isEqualTo(2);
        assertThatThrownBy(() -> FloatComplex.get(a, 2)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void floatComplexOverBuffers() {
        FloatBuffer fb = MPI.newFloatBuffer(4);
        FloatComplex.get(fb, 1).putImag(7);
        assertThat(fb.get(3)).isEqualTo(7f);
        assertThat(FloatComplex.get(fb).getReal()).isZero();

        ByteBuffer bb = MPI.newByteBuffer(16);
        FloatComplex.get(bb, 1).putReal(8);
        assertThat(bb.order(ByteOrder.nativeOrder()).getFloat(8)).isEqualTo(8f);
        assertThat(FloatComplex.get(bb).getReal()).isZero();
    }

    @Test
    void doubleComplex() {
        double[] a = {1, 2, 3, 4};
        DoubleComplex c = DoubleComplex.get(a, 1);
        assertThat(c.getReal()).isEqualTo(3.0);
        c.putImag(9);
        assertThat(a[3]).isEqualTo(9.0);
        assertThat(DoubleComplex.get(a).getBuffer().capacity()).isEqualTo(4);

        DoubleBuffer db = MPI.newDoubleBuffer(2);
        DoubleComplex.get(db).putReal(1.5);
        assertThat(db.get(0)).isEqualTo(1.5);

        ByteBuffer bb = MPI.newByteBuffer(32);
        DoubleComplex.get(bb, 1).putImag(2.5);
        assertThat(bb.getDouble(24)).isEqualTo(2.5);
        assertThat(DoubleComplex.get(bb, 1).getImag()).isEqualTo(2.5);
        assertThatThrownBy(() -> DoubleComplex.get(bb, 2)).isInstanceOf(IndexOutOfBoundsException.class);
    }
}
