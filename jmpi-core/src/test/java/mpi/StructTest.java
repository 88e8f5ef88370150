package mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class StructTest {
    /** A user struct in the style of the Open MPI examples. */
    static final class Particle extends Struct {
        final int id = addInt();
        final int pos = addDouble(3);
        final int tag = addChar();
        final int flags = addByte(2);

        @Override
        protected Data newData() {
            return new Data();
        }

        final class Data extends Struct.Data {
            int id() {
                return getInt(id);
            }

            void id(int v) {
                putInt(id, v);
            }

            double pos(int i) {
                return getDouble(pos, i);
            }

            void pos(int i, double v) {
                putDouble(pos, i, v);
            }

            char tag() {
                return getChar(tag);
            }

            void tag(char c) {
                putChar(tag, c);
            }

            byte flag(int i) {
                return getByte(flags, i);
            }

            void flag(int i, byte b) {
                putByte(flags, i, b);
            }
        }
    }

    @Test
    void layoutIsPackedInDeclarationOrder() throws MPIException {
        Particle p = new Particle();
        assertThat(p.id).isZero();
        assertThat(p.pos).isEqualTo(4);
        assertThat(p.tag).isEqualTo(28);
        assertThat(p.flags).isEqualTo(30);
        assertThat(p.getExtent()).isEqualTo(32);
        assertThatThrownBy(p::addInt).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void dataReadsAndWritesFieldsOfTheIndexedStruct() throws MPIException {
        Particle p = new Particle();
        byte[] bytes = new byte[64];
        Particle.Data d = p.getData(bytes, 1);
        d.id(42);
        d.pos(2, 1.25);
        d.tag('x');
        d.flag(1, (byte) 7);
        ByteBuffer native64 = ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder());
        assertThat(native64.getInt(32)).isEqualTo(42);
        assertThat(native64.getDouble(32 + 4 + 16)).isEqualTo(1.25);
        assertThat(bytes[32 + 31]).isEqualTo((byte) 7);
        Particle.Data again = p.getData(bytes, 1);
        assertThat(again.id()).isEqualTo(42);
        assertThat(again.pos(2)).isEqualTo(1.25);
        assertThat(again.tag()).isEqualTo('x');
        assertThat(((Particle.Data) p.getData(bytes)).id()).isZero();
        assertThat(again.getBuffer().array()).isSameAs(bytes);

        ByteBuffer direct = MPI.newByteBuffer(64);
        Particle.Data inDirect = p.getData(direct, 1);
        inDirect.id(9);
        assertThat(direct.getInt(32)).isEqualTo(9);
    }

    @Test
    void outOfRangeStructsAreBufferErrors() {
        Particle p = new Particle();
        assertThatThrownBy(() -> p.getData(new byte[40], 1))
                .isInstanceOf(MPIException.class)
                .satisfies(e -> assertThat(((MPIException) e).getErrorClass()).isEqualTo(MPI.ERR_BUFFER));
        assertThatThrownBy(() -> p.getData(new byte[64], -1)).isInstanceOf(MPIException.class);
        assertThatThrownBy(() -> p.getData((byte[]) null)).isInstanceOf(MPIException.class);
    }

    @Test
    void setOffsetPadsAndMovesTheNextField() throws MPIException {
        Struct s = new Struct() {
            @Override
            protected Data newData() {
                throw new UnsupportedOperationException();
            }
        };
        assertThat(s.addByte()).isZero();
        assertThat(s.setOffset(8)).isSameAs(s);
        assertThat(s.addLong()).isEqualTo(8);
        s.setOffset(24);
        assertThat(s.getExtent()).isEqualTo(24);
    }

    @Test
    void pairTypesUseTheCLayout() throws MPIException {
        assertThat(MPI.int2.getExtent()).isEqualTo(8);
        assertThat(MPI.shortInt.getExtent()).isEqualTo(8);
        assertThat(MPI.floatInt.getExtent()).isEqualTo(8);
        assertThat(MPI.longInt.getExtent()).isEqualTo(16);
        assertThat(MPI.doubleInt.getExtent()).isEqualTo(16);

        byte[] bytes = new byte[32];
        DoubleInt.Data d = MPI.doubleInt.getData(bytes, 1);
        d.putValue(2.5);
        d.putIndex(7);
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder());
        assertThat(b.getDouble(16)).isEqualTo(2.5);
        assertThat(b.getInt(24)).isEqualTo(7);
        DoubleInt.Data r = MPI.doubleInt.getData(bytes, 1);
        assertThat(r.getValue()).isEqualTo(2.5);
        assertThat(r.getIndex()).isEqualTo(7);

        ByteBuffer direct = MPI.newByteBuffer(16);
        ShortInt.Data s = MPI.shortInt.getData(direct, 1);
        s.putValue((short) -3);
        s.putIndex(4);
        assertThat(direct.getShort(8)).isEqualTo((short) -3);
        assertThat(direct.getInt(12)).isEqualTo(4);
        Int2.Data i = MPI.int2.getData(direct);
        i.putValue(1);
        i.putIndex(2);
        assertThat(((Int2.Data) MPI.int2.getData(direct)).getIndex()).isEqualTo(2);
        LongInt.Data l = MPI.longInt.getData(direct);
        l.putValue(Long.MIN_VALUE);
        assertThat(l.getValue()).isEqualTo(Long.MIN_VALUE);
        FloatInt.Data f = MPI.floatInt.getData(direct, 1);
        f.putValue(0.5f);
        f.putIndex(3);
        assertThat(f.getValue()).isEqualTo(0.5f);
        assertThat(f.getIndex()).isEqualTo(3);
    }

    @Test
    void nestedStructsThroughDataGetData() throws MPIException {
        final class Outer extends Struct {
            final int head = addInt();
            final int pairs = setOffset(8).addInt(4); // room for two int2 pairs

            @Override
            protected Data newData() {
                return new Data();
            }

            final class Data extends Struct.Data {
                Int2.Data pair(int i) {
                    return getData(MPI.int2, pairs, i);
                }

                void head(int v) {
                    putInt(head, v);
                }
            }
        }
        Outer o = new Outer();
        assertThat(o.getExtent()).isEqualTo(24);
        byte[] bytes = new byte[2 * 24];
        Outer.Data d = o.getData(bytes, 1);
        d.head(-1);
        d.pair(1).putIndex(5);
        d.pair(0).putValue(6);
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder());
        assertThat(b.getInt(24)).isEqualTo(-1);
        assertThat(b.getInt(24 + 8)).isEqualTo(6);
        assertThat(b.getInt(24 + 8 + 8 + 4)).isEqualTo(5);
    }
}
