package org.jmpi.benchmarks;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Not MPI: the message rate two JVMs reach with nothing but a ring of 64-byte records in a shared file, the floor
 * beneath {@link MessageRate}. Each record's first word is its sequence number, stored with release semantics and
 * polled with acquire semantics; no lock, no fence, no request, no matching. As in MessageRate, the producer writes a
 * window of records (default 64) of one payload byte each, then waits for the consumer's acknowledgement.
 *
 * <p>Usage: {@code rm -f /dev/shm/ringrate; java -cp jmpi-benchmarks.jar org.jmpi.benchmarks.RingRate c
 * /dev/shm/ringrate &} then {@code java -cp jmpi-benchmarks.jar org.jmpi.benchmarks.RingRate p /dev/shm/ringrate
 * [WINDOW]}; the producer prints messages per second for each of six rounds of 20,000 windows and deletes the file.
 * Start from no file: a file left by an interrupted run still holds the consumer's ready flag, which a producer
 * started first would take for the new consumer's (then both wait for ever).
 */
public final class RingRate {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final long LINES = 4096;
    private static final long RING = 4096;
    private static final long ACK = 0;
    private static final long READY_PRODUCER = 128;
    private static final long READY_CONSUMER = 256;
    private static final int ITERATIONS = 20_000;
    private static final int ROUNDS = 6;

    private RingRate() {}

    public static void main(String[] args) throws IOException {
        boolean producer = args[0].equals("p");
        Path file = Path.of(args[1]);
        int window = args.length > 2 ? Integer.parseInt(args[2]) : 64;
        if (window < 1 || window >= LINES) {
            throw new IllegalArgumentException("window must be 1.." + (LINES - 1));
        }
        long size = RING + LINES * 64;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE); Arena arena = Arena.ofShared()) {
            if (ch.size() < size) {
                ch.write(ByteBuffer.wrap(new byte[1]), size - 1);
            }
            MemorySegment shm = ch.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
            MemorySegment payload = arena.allocate(64);
            if (producer) {
                spinUntil(shm, READY_CONSUMER, 1);
                LONG.setRelease(shm, READY_PRODUCER, 1L);
            } else {
                shm.fill((byte) 0);
                LONG.setRelease(shm, READY_CONSUMER, 1L);
                spinUntil(shm, READY_PRODUCER, 1);
            }
            long seq = 0;
            for (int r = 0; r < ROUNDS; r++) {
                long t0 = System.nanoTime();
                for (int it = 0; it < ITERATIONS; it++) {
                    for (int w = 0; w < window; w++) {
                        seq++;
                        long off = RING + (seq % LINES) * 64;
                        if (producer) {
                            MemorySegment.copy(payload, 0, shm, off + 8, 1);
                            LONG.setRelease(shm, off, seq);
                        } else {
                            spinUntil(shm, off, seq);
                            MemorySegment.copy(shm, off + 8, payload, 0, 1);
                        }
                    }
                    if (producer) {
                        spinUntil(shm, ACK, seq);
                    } else {
                        LONG.setRelease(shm, ACK, seq);
                    }
                }
                double seconds = (System.nanoTime() - t0) / 1e9;
                if (producer) {
                    System.out.printf("round %d: %.0f messages/s%n", r, ITERATIONS * (double) window / seconds);
                }
            }
        }
        if (producer) {
            Files.deleteIfExists(file);
        }
    }

    private static void spinUntil(MemorySegment shm, long offset, long value) {
        while ((long) LONG.getAcquire(shm, offset) != value) {
            Thread.onSpinWait();
        }
    }
}
