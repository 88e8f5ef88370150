package org.jmpi.datatype;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;
import org.junit.jupiter.api.Test;

/**
 * Views of a primitive array with a dense type (the first {@code count * size} bytes: predefined types, contiguous
 * types of them), which {@code BufferView} makes without a plan, and {@link BufferView#check}, which checks such a
 * buffer without a view: the same bytes, bounds and errors as the general way, which other types and buffers take.
 */
class DenseArrayViewTest {
    private static final TypeDescriptor BYTE = TypeDescriptor.primitive(BaseKind.BYTE);
    private static final TypeDescriptor INT = TypeDescriptor.primitive(BaseKind.INT);
    private static final TypeDescriptor DOUBLE = TypeDescriptor.primitive(BaseKind.DOUBLE);

    @Test
    void predefinedTypesAndContiguousTypesOfThemAreDenseOthersAreNot() {
        assertThat(BYTE.isDense()).isTrue();
        assertThat(DOUBLE.isDense()).isTrue();
        assertThat(TypeDescriptor.contiguous(3, DOUBLE).isDense()).isTrue();
        assertThat(TypeDescriptor.resized(DOUBLE, 0, 16).isDense()).as("padded").isFalse();
        assertThat(TypeDescriptor.resized(DOUBLE, -8, 16).isDense()).as("lower bound below 0").isFalse();
        assertThat(TypeDescriptor.hvector(2, 1, 16, INT).isDense()).as("strided").isFalse();
        assertThat(TypeDescriptor.contiguous(0, INT).isDense()).as("empty").isFalse();
    }

    @Test
    void aViewIsTheFirstBytesOfTheArrayAndWritesThrough() {
        double[] a = {1.5, 2.5, 3.5, 4.5};
        MessageData part = BufferView.of(a, 3, DOUBLE, true);
        assertThat(part.bytes()).isEqualTo(24);
        MemorySegment s = part.contiguous();
        assertThat(s.byteSize()).isEqualTo(24);
        assertThat(s.heapBase()).contains(a);
        s.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, 16, 9.0);
        assertThat(a).containsExactly(1.5, 2.5, 9.0, 4.5);
        assertThat(BufferView.of(a, 2, TypeDescriptor.contiguous(2, DOUBLE), false).bytes()).isEqualTo(32);
        int[] ints = {1, 2, 3};
        assertThat(BufferView.of(ints, 12, BYTE, false).contiguous().get(ValueLayout.JAVA_INT_UNALIGNED, 8))
                .as("an int[] as bytes").isEqualTo(3);
        assertThat(BufferView.of(new byte[5], 5, BYTE, false).small()).as("small payload").isNotNull();
    }

    @Test
    void aNonDenseTypeOverTheSameArrayIsPacked() {
        double[] a = {1, 2, 3, 4};
        MessageData every2nd = BufferView.of(a, 2, TypeDescriptor.resized(DOUBLE, 0, 16), false);
        assertThat(every2nd.bytes()).isEqualTo(16);
        assertThat(every2nd.contiguous()).isNull();
    }

    @Test
    void aCountPastTheEndIsRefusedWithTheSameErrorBothWays() {
        for (Object buf : List.<Object>of(new double[2], new byte[16], new int[4], new long[2], new float[4],
                new char[8], new short[8])) {
            assertThatCode(() -> BufferView.of(buf, 2, DOUBLE, true)).doesNotThrowAnyException();
            assertThatCode(() -> BufferView.check(buf, 2, DOUBLE, true)).doesNotThrowAnyException();
            for (var call : List.<org.assertj.core.api.ThrowableAssert.ThrowingCallable>of(
                    () -> BufferView.of(buf, 3, DOUBLE, true), () -> BufferView.check(buf, 3, DOUBLE, true))) {
                assertThatThrownBy(call).as(BufferView.describe(buf)).isInstanceOf(MpiError.class)
                        .hasMessageContaining("needs 24 bytes").hasMessageContaining("holds 16 bytes")
                        .extracting(e -> ((MpiError) e).errorClass()).isEqualTo(ErrorClass.ERR_BUFFER);
            }
        }
        assertThatThrownBy(() -> BufferView.check(new double[1], Integer.MAX_VALUE, TypeDescriptor.contiguous(
                1 << 20, DOUBLE), true)).isInstanceOf(MpiError.class);
    }

    @Test
    void checkRefusesWhatTheViewRefuses() {
        assertThatThrownBy(() -> BufferView.check(new double[1], -1, DOUBLE, true))
                .extracting(e -> ((MpiError) e).errorClass()).isEqualTo(ErrorClass.ERR_COUNT);
        assertThatThrownBy(() -> BufferView.check(null, 1, DOUBLE, true))
                .extracting(e -> ((MpiError) e).errorClass()).isEqualTo(ErrorClass.ERR_BUFFER);
        assertThatThrownBy(() -> BufferView.check("text", 1, BYTE, true))
                .extracting(e -> ((MpiError) e).errorClass()).isEqualTo(ErrorClass.ERR_BUFFER);
        assertThatThrownBy(() -> BufferView.check(java.nio.ByteBuffer.allocate(8).asReadOnlyBuffer(), 1, BYTE, true))
                .extracting(e -> ((MpiError) e).errorClass()).isEqualTo(ErrorClass.ERR_BUFFER);
        assertThatCode(() -> BufferView.check(new boolean[2], 2, BYTE, true)).doesNotThrowAnyException();
        assertThatCode(() -> BufferView.check(new double[1], 0, DOUBLE, true)).doesNotThrowAnyException();
    }
}
