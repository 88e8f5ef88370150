package org.jmpi.transport.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** The header words of a connection's buffers at every byte offset, in the frames' (little-endian) byte order. */
class LittleWordsTest {

    @Test
    void aWordAtEveryOffsetIsTheEightBytesThereInLittleEndianOrder() {
        try (Arena arena = Arena.ofConfined()) {
            int size = 67; // not a multiple of 8: the last words of every view end short of the buffer's end
            ByteBuffer buffer = arena.allocate(size, 8).asByteBuffer();
            buffer.position(5).limit(9); // position and limit are not the words' business
            LittleWords words = new LittleWords(buffer);
            ByteBuffer bytes = buffer.duplicate().clear().order(ByteOrder.LITTLE_ENDIAN);
            for (int at = 0; at + Long.BYTES <= size; at++) {
                long value = 0x0102_0304_0506_0708L * (at + 1) ^ ((long) at << 56);
                words.put(at, value);
                assertThat(bytes.getLong(at)).as("bytes at %d", at).isEqualTo(value);
                assertThat(words.get(at)).as("word at %d", at).isEqualTo(value);
                bytes.putLong(at, ~value);
                assertThat(words.get(at)).as("word at %d after a byte buffer's store", at).isEqualTo(~value);
            }
            assertThat(buffer.position()).isEqualTo(5);
            assertThat(buffer.limit()).isEqualTo(9);
        }
    }
}
