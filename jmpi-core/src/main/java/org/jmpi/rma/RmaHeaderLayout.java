package org.jmpi.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The request header of a one-sided operation, the first bytes of the message an origin sends on a window's
 * request tag. Native byte order (both ends run the same JVM build on hosts of one job), 48 bytes:
 *
 * <pre>
 *  0        4        8                16               24       28       32       36       40       44      48
 *  +--------+--------+----------------+----------------+--------+--------+--------+--------+--------+-------+
 *  | kind   | reply  | target offset  |  data bytes    | runs   | flags  | op /   | element| count  | spare |
 *  |        | tag    | (bytes)        |  (packed)      |        |        | lock   | kind   |        |       |
 *  +--------+--------+----------------+----------------+--------+--------+--------+--------+--------+-------+
 *  then, with FLAG_INLINE_RUNS: RUNS x (long offset, long length), the target layout relative to the offset;
 *  then, with FLAG_INLINE_DATA: the origin's packed data (for COMPARE_AND_SWAP: the new value, then the compare
 *  value). Without the flags the runs follow on TAG_RUNS and the data on TAG_DATA, as messages of their own.
 * </pre>
 *
 * <ul>
 *   <li>{@code KIND}: one of the {@code KIND_*} constants.
 *   <li>{@code REPLY_TAG}: the tag of the answer(s) on the window's context; odd tags are never used, so that
 *       {@code REPLY_TAG + 1} carries the status of a get from a dynamic window.
 *   <li>{@code OFFSET}: where the access starts: a byte offset in the target's window, or for a dynamic window an
 *       address inside an attached region.
 *   <li>{@code DATA_BYTES}: packed bytes the access moves at the target.
 *   <li>{@code RUNS}: runs of the target layout; 0 means one contiguous run of {@code DATA_BYTES}.
 *   <li>{@code OP}: a {@code PredefinedOp} ordinal (accumulates), or the lock type (LOCK).
 *   <li>{@code ELEMENT_KIND}: an {@code ElementKind} ordinal (accumulates), else -1.
 * </ul>
 */
final class RmaHeaderLayout {
    private RmaHeaderLayout() {}

    static final int BYTES = 48;
    static final int KIND = 0;
    static final int REPLY_TAG = 4;
    static final int OFFSET = 8;
    static final int DATA_BYTES = 16;
    static final int RUNS = 24;
    static final int FLAGS = 28;
    static final int OP = 32;
    static final int ELEMENT_KIND = 36;
    static final int COUNT = 40;

    static final int KIND_PUT = 1;
    static final int KIND_GET = 2;
    static final int KIND_ACCUMULATE = 3;
    static final int KIND_GET_ACCUMULATE = 4;
    static final int KIND_COMPARE_AND_SWAP = 5;
    static final int KIND_LOCK = 6;
    static final int KIND_UNLOCK = 7;

    static final int FLAG_INLINE_RUNS = 1;
    static final int FLAG_INLINE_DATA = 2;
    /** The target answers a get with a status message on {@code REPLY_TAG + 1} as well (dynamic windows). */
    static final int FLAG_STATUS = 4;

    /** Bytes of one run in the run list. */
    static final int RUN_BYTES = 16;

    /** Requests up to this size travel as one message (header, runs and data); the server's receive buffer. */
    static final int INLINE_LIMIT = 8192;

    /** Tags on the window's context. Replies use even tags from {@link #FIRST_REPLY_TAG}. */
    static final int TAG_REQUEST = 1;
    static final int TAG_RUNS = 2;
    static final int TAG_DATA = 3;
    static final int TAG_POST = 4;
    static final int TAG_COMPLETE = 5;
    static final int FIRST_REPLY_TAG = 16;

    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.nativeOrder());
    private static final ValueLayout.OfLong LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.nativeOrder());

    static int getInt(MemorySegment s, long at) {
        return s.get(INT, at);
    }

    static void putInt(MemorySegment s, long at, int v) {
        s.set(INT, at, v);
    }

    static long getLong(MemorySegment s, long at) {
        return s.get(LONG, at);
    }

    static void putLong(MemorySegment s, long at, long v) {
        s.set(LONG, at, v);
    }
}
