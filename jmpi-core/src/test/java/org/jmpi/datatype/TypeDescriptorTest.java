package org.jmpi.datatype;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.util.List;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;
import org.junit.jupiter.api.Test;

/** Plan shapes, bounds rules and signatures for hand-picked types. */
class TypeDescriptorTest {
    private static final TypeDescriptor INT = TypeDescriptor.primitive(BaseKind.INT);
    private static final TypeDescriptor DOUBLE = TypeDescriptor.primitive(BaseKind.DOUBLE);

    @Test
    void contiguousLayoutsAreOneRun() {
        TypeDescriptor c = TypeDescriptor.contiguous(1000, INT);
        assertThat(c.isContiguous()).isTrue();
        assertThat(c.runCount()).isEqualTo(1);
        // a vector whose blocks touch is contiguous too, and so is a contiguous type of it
        TypeDescriptor v = TypeDescriptor.hvector(10, 3, 12, INT);
        assertThat(v.isContiguous()).isTrue();
        assertThat(TypeDescriptor.contiguous(5, v).isContiguous()).isTrue();
    }

    @Test
    void aMillionBlockVectorIsOneRepeatNode() {
        TypeDescriptor column = TypeDescriptor.hvector(1 << 20, 1, 8 * 1024, DOUBLE);
        assertThat(column.plan()).isInstanceOf(Plan.Repeat.class);
        Plan.Repeat r = (Plan.Repeat) column.plan();
        assertThat(r.count).isEqualTo(1 << 20);
        assertThat(r.child.isSingleRun()).isTrue();
        assertThat(column.runCount()).isEqualTo(1 << 20);
        assertThat(column.size()).isEqualTo(8L << 20);
        // a message of many such vectors stays small as well
        PlanData many = new PlanData(MemorySegment.ofArray(new byte[8]), 0, column, 1000);
        assertThat(many.bytes()).isEqualTo(1000L * (8L << 20));
    }

    @Test
    void repeatsOfTilingRepeatsMerge() {
        // 4 blocks of 2 doubles every 3 doubles, then 100 of those one extent apart: the copies continue the stride
        TypeDescriptor v = TypeDescriptor.hvector(100, 2, 24, DOUBLE);
        TypeDescriptor resized = TypeDescriptor.resized(v, 0, 100 * 24);
        TypeDescriptor twice = TypeDescriptor.contiguous(1000, resized);
        assertThat(twice.plan()).isInstanceOf(Plan.Repeat.class);
        assertThat(((Plan.Repeat) twice.plan()).count).isEqualTo(100_000);
    }

    @Test
    void smallTypesAreFlatRunListsButRepeatsOfOneRunStayStrided() {
        // a repeat of one run is one strided copy however short (a matrix column of a few elements)
        TypeDescriptor v = TypeDescriptor.hvector(3, 1, 16, INT);
        assertThat(v.plan().toString()).isEqualTo("Repeat[3 x Runs[0+4] at 0 stride 16]");
        assertThat(v.lb()).isZero();
        assertThat(v.extent()).isEqualTo(36);
        assertThat(v.size()).isEqualTo(12);
        // elements of several runs flatten into one list
        TypeDescriptor pair = TypeDescriptor.struct(new long[] {1, 1}, new long[] {0, 8}, new TypeDescriptor[] {INT,
            INT});
        TypeDescriptor pairs = TypeDescriptor.hvector(3, 1, 16, pair);
        assertThat(pairs.plan()).isInstanceOf(Plan.Runs.class);
        assertThat(pairs.plan().toString()).isEqualTo("Runs[0+4, 8+4, 16+4, 24+4, 32+4, 40+4]");
    }

    @Test
    void negativeStridesGiveNegativeLowerBounds() {
        TypeDescriptor v = TypeDescriptor.hvector(3, 1, -8, INT);
        assertThat(v.lb()).isEqualTo(-16);
        assertThat(v.extent()).isEqualTo(20);
        assertThat(v.trueLb()).isEqualTo(-16);
        assertThat(v.span(2)).containsExactly(-16, 24);
    }

    @Test
    void explicitBoundsWinOverData() {
        TypeDescriptor r = TypeDescriptor.resized(INT, 4, 4); // data at 0..4, bounds 4..8
        TypeDescriptor s = TypeDescriptor.struct(new long[] {1, 1}, new long[] {0, 0}, new TypeDescriptor[] {INT, r});
        // only the marked part sets the bounds: lb 4, ub 8
        assertThat(s.lb()).isEqualTo(4);
        assertThat(s.extent()).isEqualTo(4);
        assertThat(s.trueLb()).isZero();
        assertThat(s.trueExtent()).isEqualTo(4);
        // a marked type inside a contiguous type keeps its spacing
        TypeDescriptor spaced = TypeDescriptor.resized(INT, 0, 12);
        TypeDescriptor c = TypeDescriptor.contiguous(3, spaced);
        assertThat(c.extent()).isEqualTo(36);
        assertThat(c.plan().toString()).isEqualTo("Repeat[3 x Runs[0+4] at 0 stride 12]");
    }

    @Test
    void emptyTypesHaveZeroBounds() {
        TypeDescriptor e = TypeDescriptor.hindexed(new long[] {0, 0}, new long[] {40, 80}, INT);
        assertThat(e.size()).isZero();
        assertThat(e.lb()).isZero();
        assertThat(e.extent()).isZero();
        assertThat(e.isContiguous()).isTrue();
        assertThat(PlanData.over(MemorySegment.ofArray(new byte[0]), 0, e, 5)).isSameAs(MessageData.EMPTY);
    }

    @Test
    void signaturesOfPairsAndStructs() {
        TypeDescriptor doubleInt = TypeDescriptor.predefined(BaseKind.BYTE, Primitive.DOUBLE_INT,
                new long[] {0, 8}, new long[] {8, 4}, 16);
        TypeDescriptor pairs = TypeDescriptor.contiguous(10, doubleInt);
        assertThat(pairs.signature().uniform()).isEqualTo(Primitive.DOUBLE_INT);
        assertThat(pairs.signature().entries()).containsExactly(new Signature.Entry(Primitive.DOUBLE_INT, 10));
        assertThat(pairs.size()).isEqualTo(120);
        assertThat(pairs.extent()).isEqualTo(160);
        assertThat(pairs.basicElementsIn(120)).isEqualTo(20);
        assertThat(pairs.basicElementsIn(12 + 8)).isEqualTo(3); // one pair and the value of the next
        assertThat(pairs.basicElementsIn(12 + 4)).isEqualTo(-1);

        TypeDescriptor s = TypeDescriptor.struct(new long[] {2, 1}, new long[] {0, 8},
                new TypeDescriptor[] {INT, DOUBLE});
        assertThat(s.base()).isEqualTo(BaseKind.BYTE);
        assertThat(s.signature().uniform()).isNull();
        assertThat(s.signature().entries()).containsExactly(new Signature.Entry(Primitive.INT, 2),
                new Signature.Entry(Primitive.DOUBLE, 1));
        assertThat(s.basicElementsIn(2 * 16)).isEqualTo(6);
        assertThat(s.basicElementsIn(16 + 4)).isEqualTo(4);
        assertThat(s.basicElementsIn(16 + 10)).isEqualTo(-1);
        assertThat(s.bytesOfBasicElements(5)).isEqualTo(16 + 8);
        // a mixed signature repeated beyond the cap keeps its totals
        TypeDescriptor big = TypeDescriptor.contiguous(100_000, s);
        assertThat(big.signature().entries()).isNull();
        assertThat(big.signature().basicElements()).isEqualTo(300_000);
        assertThat(big.basicElementsIn(big.size())).isEqualTo(300_000);
        // a uniform one stays one entry however large
        assertThat(TypeDescriptor.hvector(1 << 20, 3, 64, INT).signature().entries())
                .isEqualTo(List.of(new Signature.Entry(Primitive.INT, 3L << 20)));
    }

    @Test
    void badArgumentsAreMpiErrors() {
        assertThatThrownBy(() -> TypeDescriptor.hvector(-1, 1, 4, INT)).isInstanceOfSatisfying(MpiError.class,
                e -> assertThat(e.errorClass()).isEqualTo(ErrorClass.ERR_COUNT));
        assertThatThrownBy(() -> TypeDescriptor.hvector(1, -1, 4, INT)).isInstanceOfSatisfying(MpiError.class,
                e -> assertThat(e.errorClass()).isEqualTo(ErrorClass.ERR_ARG));
        assertThatThrownBy(() -> TypeDescriptor.resized(INT, 0, -4)).isInstanceOf(MpiError.class);
        TypeDescriptor huge = TypeDescriptor.hvector(Integer.MAX_VALUE, 1000, 1L << 20, DOUBLE);
        assertThatThrownBy(() -> TypeDescriptor.contiguous(Integer.MAX_VALUE, huge))
                .isInstanceOfSatisfying(MpiError.class, e -> assertThat(e.errorClass()).isEqualTo(ErrorClass.ERR_ARG));
        assertThatThrownBy(() -> huge.span(Integer.MAX_VALUE)).isInstanceOf(MpiError.class);
    }

    @Test
    void rangesOutsideTheStreamAreRefused() {
        PlanData d = new PlanData(MemorySegment.ofArray(new byte[64]), 0, TypeDescriptor.hvector(4, 1, 16, INT), 1);
        MemorySegment out = MemorySegment.ofArray(new byte[32]);
        assertThatThrownBy(() -> d.packTo(10, out, 0, 10)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> d.packTo(-1, out, 0, 1)).isInstanceOf(IndexOutOfBoundsException.class);
    }
}
