package org.jmpi.datatype;

import static org.assertj.core.api.Assertions.assertThat;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import org.jmpi.runtime.MpiError;
import org.junit.jupiter.api.Test;

/**
 * The per-thread cache of buffer views: a loop that passes the same buffer, count and type gets the same view from its
 * second call on, also after a garbage collection (a collection that emptied the cache made the hot callers' compiled
 * code take a path it had never seen, and deoptimised them); a buffer passed once is not kept, nor are large views.
 * A new slice of a direct buffer at a place seen before gets the view of that place (found by address), which is of
 * the same memory; never one of read-only memory for a writable buffer or the reverse, nor one whose arena was closed.
 */
class BufferViewCacheTest {
    private static final TypeDescriptor BYTE = TypeDescriptor.primitive(BaseKind.BYTE);
    private static final TypeDescriptor DOUBLE = TypeDescriptor.primitive(BaseKind.DOUBLE);

    @Test
    void aRepeatedCallGetsTheSameViewAlsoAfterAGarbageCollection() {
        byte[] array = new byte[64];
        ByteBuffer direct = ByteBuffer.allocateDirect(64);
        BufferView.of(array, 64, BYTE, false);
        BufferView.of(direct, 8, DOUBLE, true);
        MessageData a = BufferView.of(array, 64, BYTE, false);
        MessageData d = BufferView.of(direct, 8, DOUBLE, true);
        assertThat(BufferView.of(array, 64, BYTE, false)).isSameAs(a);
        assertThat(BufferView.of(direct, 8, DOUBLE, true)).isSameAs(d);
        System.gc();
        System.gc();
        assertThat(BufferView.of(array, 64, BYTE, false)).isSameAs(a);
        assertThat(BufferView.of(direct, 8, DOUBLE, true)).isSameAs(d);
    }

    @Test
    void theArgumentsThatMakeAViewAreAllPartOfTheKey() {
        byte[] array = new byte[128]; // above the small arrays' 32 bytes, whose views come first from the last made
        BufferView.of(array, 64, BYTE, false);
        MessageData a = BufferView.of(array, 64, BYTE, false);
        assertThat(BufferView.of(array, 128, BYTE, false)).isNotSameAs(a);
        assertThat(BufferView.of(array, 64, BYTE, true)).isNotSameAs(a);
        assertThat(BufferView.of(array.clone(), 64, BYTE, false)).isNotSameAs(a);
        assertThat(BufferView.of(array, 64, BYTE, false).bytes()).isEqualTo(64);
    }

    @Test
    void aWindowOfSixtyFourBuffersInRotationKeepsItsViews() {
        ByteBuffer[] window = new ByteBuffer[64];
        MessageData[] views = new MessageData[window.length];
        for (int i = 0; i < window.length; i++) {
            window[i] = ByteBuffer.allocateDirect(8);
            BufferView.of(window[i], 8, BYTE, false); // seen once: not cached yet
        }
        for (int i = 0; i < window.length; i++) {
            views[i] = BufferView.of(window[i], 8, BYTE, false);
        }
        int kept = 0;
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < window.length; i++) {
                MessageData v = BufferView.of(window[i], 8, BYTE, false);
                kept += v == views[i] ? 1 : 0;
                views[i] = v;
            }
        }
        // sets are chosen by identity hash: five or more of the 64 in one set of four (3 % of programs) lose theirs
        assertThat(kept).as("views found again, of %d", 3 * window.length).isGreaterThanOrEqualTo(3 * 56);
        // the newest few are found whatever the hashes
        assertThat(BufferView.of(window[63], 8, BYTE, false)).isSameAs(views[63]);
        assertThat(BufferView.of(window[62], 8, BYTE, false)).isSameAs(views[62]);
    }

    @Test
    void buffersWhoseHashesShareASetAreCachedWhenALoopPassesThemInTurn() {
        // four arrays of one set of the filter of buffers seen once (BufferView.ViewCache.seen: 256 sets of 4)
        java.util.Map<Integer, java.util.List<byte[]>> bySet = new java.util.HashMap<>();
        java.util.List<byte[]> set = null;
        while (set == null) {
            byte[] a = new byte[64];
            int h = System.identityHashCode(a);
            java.util.List<byte[]> l = bySet.computeIfAbsent((h ^ (h >>> 16)) & 255, k -> new java.util.ArrayList<>());
            l.add(a);
            set = l.size() == 4 ? l : null;
        }
        MessageData[] views = new MessageData[4];
        for (int round = 0; round < 2; round++) { // seen once, then cached
            for (int i = 0; i < 4; i++) {
                views[i] = BufferView.of(set.get(i), 64, BYTE, false);
            }
        }
        for (int i = 0; i < 4; i++) {
            assertThat(BufferView.of(set.get(i), 64, BYTE, false)).as("buffer %d", i).isSameAs(views[i]);
        }
    }

    @Test
    void theCacheIsBoundedTheOldestViewsGo() {
        byte[] first = new byte[64];
        BufferView.of(first, 64, BYTE, false);
        MessageData view = BufferView.of(first, 64, BYTE, false);
        for (int i = 0; i < 20_000; i++) { // about 160 newer views per set of four
            byte[] other = new byte[64];
            BufferView.of(other, 64, BYTE, false);
            BufferView.of(other, 64, BYTE, false);
        }
        assertThat(BufferView.of(first, 64, BYTE, false)).isNotSameAs(view);
    }

    @Test
    void buffersPassedOnceLeaveTheCachedViewsAlone() {
        byte[] reused = new byte[64];
        double[] reusedSmall = new double[1];
        BufferView.of(reused, 64, BYTE, false);
        MessageData view = BufferView.of(reused, 64, BYTE, false);
        for (int i = 0; i < 3; i++) { // a small array: the last made at its second call, cached at its third
            BufferView.of(reusedSmall, 1, DOUBLE, false);
        }
        MessageData smallView = BufferView.of(reusedSmall, 1, DOUBLE, false);
        for (int i = 0; i < 20_000; i++) { // a fresh array per call, as in a dot product into new double[1]
            MessageData fresh = BufferView.of(new double[1], 1, DOUBLE, true);
            assertThat(fresh.bytes()).isEqualTo(8);
            byte[] big = new byte[64];
            BufferView.of(big, 64, BYTE, true);
        }
        assertThat(BufferView.of(reused, 64, BYTE, false)).isSameAs(view);
        assertThat(BufferView.of(reusedSmall, 1, DOUBLE, false)).isSameAs(smallView);
        byte[] again = new byte[64];
        MessageData once = BufferView.of(again, 64, BYTE, false);
        MessageData twice = BufferView.of(again, 64, BYTE, false);
        assertThat(twice).as("made again at the second call").isNotSameAs(once);
        assertThat(BufferView.of(again, 64, BYTE, false)).as("cached at the second call").isSameAs(twice);
    }

    @Test
    void aNewSmallArrayPassedTwiceHasOneViewAndItsCopiesGoToTheArray() {
        double[] fresh = {1.5, -2.0};
        MessageData sent = BufferView.of(fresh, 2, DOUBLE, false);
        MessageData received = BufferView.of(fresh, 2, DOUBLE, true);
        assertThat(received).as("the view made last, for either direction").isSameAs(sent);
        assertThat(BufferView.of(fresh, 1, DOUBLE, true)).as("another count").isNotSameAs(sent);
        assertThat(BufferView.of(fresh.clone(), 2, DOUBLE, true)).as("another array").isNotSameAs(sent);
        // the segment, made when asked for, is the array's first 16 bytes
        MemorySegment m = received.contiguous();
        assertThat(m.byteSize()).isEqualTo(16);
        assertThat(received.contiguous()).isSameAs(m);
        m.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, 8, 3.25);
        assertThat(fresh[1]).isEqualTo(3.25);
        assertThat(received.small()).isNotNull();
        int[] part = new int[3];
        MessageData first = BufferView.of(part, 2, TypeDescriptor.primitive(BaseKind.INT), true);
        assertThat(first.contiguous().byteSize()).as("the first 2 of 3 ints").isEqualTo(8);
    }

    @Test
    void viewsOfMoreThan64KiBAreKeptOnlyAmongTheLastFour() {
        byte[] small = new byte[64 << 10];
        byte[] large = new byte[(64 << 10) + 1];
        BufferView.of(small, small.length, BYTE, false);
        BufferView.of(large, large.length, BYTE, false);
        MessageData s = BufferView.of(small, small.length, BYTE, false);
        MessageData l = BufferView.of(large, large.length, BYTE, false);
        assertThat(BufferView.of(large, large.length, BYTE, false)).isSameAs(l);
        for (int i = 0; i < 4; i++) {
            byte[] other = new byte[64];
            BufferView.of(other, 64, BYTE, false);
            BufferView.of(other, 64, BYTE, false);
        }
        assertThat(BufferView.of(small, small.length, BYTE, false)).as("found in the table").isSameAs(s);
        assertThat(BufferView.of(large, large.length, BYTE, false)).as("only a recent view").isNotSameAs(l);
    }

    @Test
    void eachLookUpOrderFindsTheViewsTheOtherWouldHave() {
        // after a view found in the table the next look-up starts there, after one found among the four recent views
        // it starts with those; either way the other place is looked at too. A view of more than 64 KiB is only ever
        // among the recent views, so it shows a look-up that started with the table and had to go on.
        byte[][] small = new byte[5][];
        MessageData[] views = new MessageData[small.length];
        for (int i = 0; i < small.length; i++) {
            small[i] = new byte[64];
            BufferView.of(small[i], 64, BYTE, false);
            views[i] = BufferView.of(small[i], 64, BYTE, false); // cached: in the table and the newest recent view
        }
        byte[] large = new byte[(64 << 10) + 8];
        BufferView.of(large, large.length, BYTE, false);
        MessageData l = BufferView.of(large, large.length, BYTE, false); // recent views: small 2, 3, 4 and large
        assertThat(BufferView.of(small[0], 64, BYTE, false)).as("from the table").isSameAs(views[0]);
        assertThat(BufferView.of(large, large.length, BYTE, false)).as("table first, then recent").isSameAs(l);
        assertThat(BufferView.of(small[1], 64, BYTE, false)).as("recent first, then the table").isSameAs(views[1]);
        assertThat(BufferView.of(small[0], 64, BYTE, false)).as("table first").isSameAs(views[0]);
        assertThat(BufferView.of(large, large.length, BYTE, false)).as("table first, then recent").isSameAs(l);
        assertThat(BufferView.of(large, large.length, BYTE, false)).as("recent first").isSameAs(l);
        for (int i = 0; i < small.length; i++) {
            assertThat(BufferView.of(small[i], 64, BYTE, false)).as("small %d", i).isSameAs(views[i]);
        }
    }

    @Test
    void viewsOfMoreThanAMebibyteAreNotCached() {
        byte[] large = new byte[(1 << 20) + 1];
        BufferView.of(large, large.length, BYTE, false);
        MessageData first = BufferView.of(large, large.length, BYTE, false);
        assertThat(BufferView.of(large, large.length, BYTE, false)).isNotSameAs(first);
        byte[] limit = new byte[1 << 20];
        BufferView.of(limit, limit.length, BYTE, false);
        MessageData cached = BufferView.of(limit, limit.length, BYTE, false);
        assertThat(BufferView.of(limit, limit.length, BYTE, false)).isSameAs(cached);
    }

    @Test
    void newSlicesOfADirectBufferGetTheViewOfTheirPlace() {
        DoubleBuffer whole = ByteBuffer.allocateDirect(64).order(java.nio.ByteOrder.nativeOrder()).asDoubleBuffer();
        MessageData first = BufferView.of(whole.slice(1, 7), 2, DOUBLE, true);
        MessageData again = BufferView.of(whole.slice(1, 7), 2, DOUBLE, true);
        assertThat(again).as("a new slice at the same place").isSameAs(first);
        assertThat(BufferView.of(whole.slice(2, 6), 2, DOUBLE, true)).as("another place").isNotSameAs(first);
        assertThat(BufferView.of(whole.slice(1, 7), 3, DOUBLE, true)).as("more bytes").isNotSameAs(first);
        // the view found again is of the slice's memory: elements 1 and 2 of the whole
        MemorySegment m = ((MessageData.SegmentData) again).segment();
        m.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, 0, 4.5);
        m.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, 8, -1.25);
        assertThat(whole.get(1)).isEqualTo(4.5);
        assertThat(whole.get(2)).isEqualTo(-1.25);
        assertThat(m.byteSize()).isEqualTo(16);
    }

    @Test
    void aReadOnlyPlaceAndAWritableOneAtTheSameAddressHaveTheirOwnViews() {
        ByteBuffer direct = ByteBuffer.allocateDirect(32);
        MessageData readOnly = BufferView.of(direct.asReadOnlyBuffer(), 16, BYTE, false);
        MessageData writable = BufferView.of(direct.slice(0, 32), 16, BYTE, true);
        assertThat(writable).isNotSameAs(readOnly);
        assertThat(((MessageData.SegmentData) writable).segment().isReadOnly()).isFalse();
        assertThat(((MessageData.SegmentData) BufferView.of(direct.asReadOnlyBuffer(), 16, BYTE, false)).segment()
                .isReadOnly()).isTrue();
        assertThatThrownBy(() -> BufferView.of(direct.asReadOnlyBuffer(), 16, BYTE, true))
                .isInstanceOf(MpiError.class);
    }

    @Test
    void theViewOfAClosedArenasMemoryIsNotFoundAgain() {
        for (int i = 0; i < 50; i++) { // allocators often give a freed address to the next allocation of its size
            ByteBuffer first;
            MessageData view;
            try (Arena arena = Arena.ofConfined()) {
                first = arena.allocate(64, 16).asByteBuffer();
                view = BufferView.of(first, 64, BYTE, true);
                assertThat(BufferView.of(first.slice(0, 64), 64, BYTE, true)).isSameAs(view);
            }
            try (Arena arena = Arena.ofConfined()) {
                ByteBuffer second = arena.allocate(64, 16).asByteBuffer();
                MessageData v = BufferView.of(second, 64, BYTE, true);
                assertThat(v).isNotSameAs(view);
                ((MessageData.SegmentData) v).segment().set(ValueLayout.JAVA_BYTE, 3, (byte) 7); // alive
                assertThat(second.get(3)).isEqualTo((byte) 7);
            }
        }
    }
}
