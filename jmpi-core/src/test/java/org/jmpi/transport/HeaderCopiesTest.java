package org.jmpi.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import org.junit.jupiter.api.Test;

class HeaderCopiesTest {

    private static MemorySegment header(long seq) {
        MemorySegment h = MemorySegment.ofArray(new byte[FrameLayout.HEADER_BYTES]);
        FrameLayout.putLong(h, FrameLayout.SEND_ID, seq);
        FrameLayout.putInt(h, FrameLayout.TAG, (int) seq);
        return h;
    }

    @Test
    void copiesAreNativeIndependentAndHoldTheWholeHeader() {
        HeaderCopies copies = new HeaderCopies();
        List<MemorySegment> held = new ArrayList<>();
        for (int i = 0; i < 100; i++) { // more than one slab
            held.add(copies.copyOf(header(i)));
        }
        for (int i = 0; i < held.size(); i++) {
            MemorySegment c = held.get(i);
            assertThat(c.isNative()).isTrue();
            assertThat(c.byteSize()).isEqualTo(FrameLayout.HEADER_BYTES);
            assertThat(FrameLayout.getLong(c, FrameLayout.SEND_ID)).isEqualTo(i);
            assertThat(FrameLayout.getInt(c, FrameLayout.TAG)).isEqualTo(i);
        }
    }

    @Test
    void aCopyGivenBackIsReusedAndOverwritten() {
        HeaderCopies copies = new HeaderCopies();
        MemorySegment a = copies.copyOf(header(1));
        copies.giveBack(a);
        IdentityHashMap<MemorySegment, Boolean> seen = new IdentityHashMap<>();
        boolean reused = false;
        for (int i = 0; i < 64 && !reused; i++) {
            MemorySegment c = copies.copyOf(header(1000 + i));
            reused = c == a;
            assertThat(seen.put(c, Boolean.TRUE)).as("a copy handed out twice while held").isNull();
            assertThat(FrameLayout.getLong(c, FrameLayout.SEND_ID)).isEqualTo(1000 + i);
        }
        assertThat(reused).isTrue();
    }
}
