package org.jmpi.datatype;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * The per-thread cache of buffer views: a loop that passes the same buffer, count and type gets the same view, also
 * after a garbage collection (a collection that emptied the cache made the hot callers' compiled code take a path it
 * had never seen, and deoptimised them), and large views are not kept.
 */
class BufferViewCacheTest {
    private static final TypeDescriptor BYTE = TypeDescriptor.primitive(BaseKind.BYTE);
    private static final TypeDescriptor DOUBLE = TypeDescriptor.primitive(BaseKind.DOUBLE);

    @Test
    void aRepeatedCallGetsTheSameViewAlsoAfterAGarbageCollection() {
        byte[] array = new byte[8];
        ByteBuffer direct = ByteBuffer.allocateDirect(64);
        MessageData a = BufferView.of(array, 8, BYTE, false);
        MessageData d = BufferView.of(direct, 8, DOUBLE, true);
        assertThat(BufferView.of(array, 8, BYTE, false)).isSameAs(a);
        assertThat(BufferView.of(direct, 8, DOUBLE, true)).isSameAs(d);
        System.gc();
        System.gc();
        assertThat(BufferView.of(array, 8, BYTE, false)).isSameAs(a);
        assertThat(BufferView.of(direct, 8, DOUBLE, true)).isSameAs(d);
    }

    @Test
    void theArgumentsThatMakeAViewAreAllPartOfTheKey() {
        byte[] array = new byte[16];
        MessageData a = BufferView.of(array, 8, BYTE, false);
        assertThat(BufferView.of(array, 16, BYTE, false)).isNotSameAs(a);
        assertThat(BufferView.of(array, 8, BYTE, true)).isNotSameAs(a);
        assertThat(BufferView.of(array.clone(), 8, BYTE, false)).isNotSameAs(a);
        assertThat(BufferView.of(array, 8, BYTE, false).bytes()).isEqualTo(8);
    }

    @Test
    void sixteenBuffersInRotationKeepTheirViewsAndASeventeenthEvictsTheOldest() {
        ByteBuffer[] window = new ByteBuffer[17];
        MessageData[] views = new MessageData[window.length];
        for (int i = 0; i < 16; i++) {
            window[i] = ByteBuffer.allocateDirect(8);
            views[i] = BufferView.of(window[i], 8, BYTE, false);
        }
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 16; i++) {
                assertThat(BufferView.of(window[i], 8, BYTE, false)).as("buffer %d, round %d", i, round)
                        .isSameAs(views[i]);
            }
        }
        window[16] = ByteBuffer.allocateDirect(8);
        views[16] = BufferView.of(window[16], 8, BYTE, false);
        assertThat(BufferView.of(window[16], 8, BYTE, false)).isSameAs(views[16]);
        assertThat(BufferView.of(window[0], 8, BYTE, false)).isNotSameAs(views[0]);
        assertThat(BufferView.of(window[2], 8, BYTE, false)).isSameAs(views[2]);
    }

    @Test
    void viewsOfMoreThanAMebibyteAreNotCached() {
        byte[] large = new byte[(1 << 20) + 1];
        MessageData first = BufferView.of(large, large.length, BYTE, false);
        assertThat(BufferView.of(large, large.length, BYTE, false)).isNotSameAs(first);
        byte[] limit = new byte[1 << 20];
        MessageData cached = BufferView.of(limit, limit.length, BYTE, false);
        assertThat(BufferView.of(limit, limit.length, BYTE, false)).isSameAs(cached);
    }
}
