package org.jmpi.mpj;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** MPI.OBJECT's two forms: the compact one for arrays, strings and boxed values, Java serialisation for the rest. */
class SerializationTest {
    @AfterEach
    void noFilter() {
        Serialization.setObjectInputFilter(null);
    }

    private static Object[] roundTrip(Object... items) throws IOException {
        byte[] data = Serialization.write(items, items.length);
        byte[] framed = new byte[data.length + 7];
        System.arraycopy(data, 0, framed, 3, data.length); // read at an offset, as the receive paths do
        return Serialization.read(framed, 3, data.length);
    }

    private static boolean compact(Object... items) throws IOException {
        byte[] data = Serialization.write(items, items.length);
        return CompactObjects.isCompact(data, 0, data.length);
    }

    @Test
    void everyCompactKindComesBackEqualAndOfItsClass() throws IOException {
        Object[] items = {null, "s1", "", "caf\u00e9", "\u4e2d\u6587 and \ud800 alone", new double[] {1.5, Double.NaN,
            -0.0}, new int[] {Integer.MIN_VALUE, 7}, new long[] {Long.MAX_VALUE}, new float[] {Float.MIN_VALUE},
            new byte[] {-1, 0, 1}, new char[] {'a', '\uffff'}, new short[] {Short.MIN_VALUE}, new boolean[] {true, false},
            new double[0], 42, 43L, 4.5, 4.5f, (short) -3, 'x', (byte) -7, true, false};
        assertThat(compact(items)).isTrue();
        Object[] back = roundTrip(items);
        assertThat(back).hasSameSizeAs(items);
        for (int i = 0; i < items.length; i++) {
            assertThat(Objects2.deepEquals(back[i], items[i])).as("element %d", i).isTrue();
            if (items[i] != null) {
                assertThat(back[i]).hasSameClassAs(items[i]);
            }
            if (items[i] instanceof String || items[i] != null && items[i].getClass().isArray()) {
                assertThat(back[i]).isNotSameAs(items[i]); // boxed values may come from the JDK's caches
            }
        }
        double[] nan = (double[]) back[5];
        assertThat(Double.doubleToRawLongBits(nan[1])).isEqualTo(Double.doubleToRawLongBits(Double.NaN));
        assertThat(Double.doubleToRawLongBits(nan[2])).isEqualTo(Double.doubleToRawLongBits(-0.0));
    }

    /** A class of the program's own. */
    record Point(int x, String label) implements Serializable {}

    @Test
    void otherClassesTakeJavaSerialisation() throws IOException {
        Object[] items = {new Point(1, "p"), "s", new double[] {2}};
        assertThat(compact(items)).isFalse();
        Object[] back = roundTrip(items);
        assertThat(back[0]).isEqualTo(items[0]).isNotSameAs(items[0]);
        assertThat(back[1]).isEqualTo("s");
        assertThat((double[]) back[2]).containsExactly(2);
        assertThat(compact(new Object[] {new Integer[] {1}})).isFalse();
        assertThat(compact(new Object[] {new double[][] {{1}}})).isFalse();
    }

    @Test
    void anArrayThatOccursTwiceArrivesAsOneArrayTwice() throws IOException {
        double[] row = {1, 2};
        Object[] items = {row, new double[] {3}, row};
        assertThat(compact(items)).isFalse();
        Object[] back = roundTrip(items);
        assertThat(back[0]).isSameAs(back[2]).isEqualTo(row);
        // two equal arrays that are not the same object stay two arrays
        Object[] twins = {new int[] {5}, new int[] {5}};
        assertThat(compact(twins)).isTrue();
        Object[] b2 = roundTrip(twins);
        assertThat(b2[0]).isNotSameAs(b2[1]).isEqualTo(twins[1]);
    }

    @Test
    void theFilterSeesCompactElements() throws IOException {
        Serialization.setObjectInputFilter(info -> info.serialClass() == double[].class && info.arrayLength() > 10
                ? ObjectInputFilter.Status.REJECTED : ObjectInputFilter.Status.UNDECIDED);
        assertThat(roundTrip(new double[10], "ok")[1]).isEqualTo("ok");
        assertThatThrownBy(() -> roundTrip("ok", new double[11])).isInstanceOf(IOException.class)
                .hasMessageContaining("filter");
    }

    @Test
    void malformedCompactMessagesFailWithIoException() throws IOException {
        byte[] good = Serialization.write(new Object[] {"abc", new int[] {1, 2, 3}, 9L}, 3);
        for (int cut = 8; cut < good.length; cut++) {
            int c = cut;
            assertThatThrownBy(() -> Serialization.read(good, 0, c)).as("cut at %d", c)
                    .isInstanceOf(IOException.class);
        }
        byte[] longer = Arrays.copyOf(good, good.length + 1);
        assertThatThrownBy(() -> Serialization.read(longer, 0, longer.length)).isInstanceOf(IOException.class);
        byte[] badTag = good.clone();
        badTag[8] = 99;
        assertThatThrownBy(() -> Serialization.read(badTag, 0, badTag.length)).isInstanceOf(IOException.class)
                .hasMessageContaining("tag");
        byte[] hugeCount = good.clone();
        hugeCount[7] = 0x7f;
        assertThatThrownBy(() -> Serialization.read(hugeCount, 0, hugeCount.length)).isInstanceOf(IOException.class);
        byte[] negativeLength = good.clone();
        negativeLength[12] = (byte) 0x80; // the high byte of the string's length
        assertThatThrownBy(() -> Serialization.read(negativeLength, 0, negativeLength.length))
                .isInstanceOf(IOException.class);
    }

    @Property(tries = 200)
    void anyMixOfCompactElementsRoundTrips(@ForAll("elements") List<Object> list) throws IOException {
        Object[] items = list.toArray();
        assertThat(compact(items)).isTrue();
        Object[] back = roundTrip(items);
        assertThat(back).hasSameSizeAs(items);
        for (int i = 0; i < items.length; i++) {
            assertThat(Objects2.deepEquals(back[i], items[i])).isTrue();
        }
    }

    @Property(tries = 300)
    void corruptedMessagesFailOnlyWithIoException(@ForAll("elements") List<Object> list, @ForAll int at,
            @ForAll byte value) throws IOException {
        byte[] data = Serialization.write(list.toArray(), list.size());
        int i = 4 + Math.floorMod(at, data.length - 4); // keep the magic: the compact decoder is under test
        data[i] = value;
        try {
            Serialization.read(data, 0, data.length);
        } catch (IOException expected) {
            // a corruption it noticed
        }
    }

    @Provide
    Arbitrary<List<Object>> elements() {
        Arbitrary<Object> one = Arbitraries.oneOf(List.of(
                Arbitraries.strings().ofMaxLength(20).map(s -> (Object) s),
                Arbitraries.doubles().array(double[].class).ofMaxSize(20).map(a -> (Object) a),
                Arbitraries.integers().array(int[].class).ofMaxSize(20).map(a -> (Object) a),
                Arbitraries.longs().array(long[].class).ofMaxSize(5).map(a -> (Object) a),
                Arbitraries.chars().array(char[].class).ofMaxSize(5).map(a -> (Object) a),
                Arbitraries.integers().map(v -> (Object) v),
                Arbitraries.doubles().map(v -> (Object) v),
                Arbitraries.just(null)));
        return one.list().ofMaxSize(12).map(ArrayList::new);
    }

    /** Arrays.deepEquals for two single elements. */
    static final class Objects2 {
        static boolean deepEquals(Object a, Object b) {
            return Arrays.deepEquals(new Object[] {a}, new Object[] {b});
        }
    }
}
