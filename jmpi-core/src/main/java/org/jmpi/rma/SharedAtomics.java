package org.jmpi.rma;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.jmpi.datatype.TypeDescriptor;
import org.jmpi.op.ElementKind;
import org.jmpi.op.PredefinedOp;

/**
 * Lock-free accumulate-class operations on int and long elements of a window in shared memory: each element is
 * updated with one CPU atomic through a {@link VarHandle} on the mapped segment (getAndAdd for SUM, getAndSet for
 * REPLACE, a volatile read for NO_OP, compareAndExchange for compareAndSwap, a compare-and-set loop for the other
 * operations), so fetchAndOp and compareAndSwap on a counter cost one atomic instruction and never wait for another
 * rank. MPI promises atomicity per basic element between accumulate-class operations of the same predefined type; every
 * such operation on int or long elements comes here, and everything else (other kinds, misaligned elements) takes the
 * part's lock word in {@link Window}, so the two never mix on one element of one type.
 *
 * <p>Threading: stateless; the atomics make concurrent callers (threads and processes) safe.
 */
final class SharedAtomics {
    private SharedAtomics() {}

    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final ValueLayout.OfInt PACKED_INT =
            ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.nativeOrder());
    private static final ValueLayout.OfLong PACKED_LONG =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.nativeOrder());

    /** The element kind of a compare-and-swap's type, or null. */
    static ElementKind kindOf(TypeDescriptor type) {
        org.jmpi.datatype.Primitive p = type.signature().uniform();
        return p == null ? null : ElementKind.valueOf(p.name());
    }

    /**
     * Applies the operation element by element with CPU atomics, or returns false (nothing done) when it does not
     * apply: elements that are not int or long, an operation without an atomic form, or an element not aligned.
     *
     * @param offsets memory runs of the target layout relative to {@code origin}, as (offset, length) pairs, or null
     *     for one run of {@code n} bytes
     * @param payload the origin's packed elements (null for NO_OP); for compareAndSwap the new value then the compare
     *     value
     * @param old where the target's previous elements go, packed (null when not wanted)
     */
    static boolean apply(MemorySegment part, long origin, long[] offsets, long n, ElementKind kind, PredefinedOp op,
            boolean compareAndSwap, MemorySegment payload, MemorySegment old) {
        int w = kind == ElementKind.INT ? 4 : kind == ElementKind.LONG ? 8 : 0;
        if (w == 0 || !compareAndSwap && !atomicOp(op)) {
            return false;
        }
        long[] runs = offsets != null ? offsets : new long[] {0, n};
        for (int i = 0; i < runs.length; i += 2) {
            if ((part.address() + origin + runs[i]) % w != 0 || runs[i + 1] % w != 0) {
                return false;
            }
        }
        long e = 0; // packed position
        for (int i = 0; i < runs.length; i += 2) {
            for (long at = origin + runs[i], end = at + runs[i + 1]; at < end; at += w, e += w) {
                if (w == 4) {
                    int x = payload == null ? 0 : payload.get(PACKED_INT, e);
                    int before = compareAndSwap ? (int) INT.compareAndExchange(part, at, payload.get(PACKED_INT, n + e),
                            x) : updateInt(part, at, op, x);
                    if (old != null) {
                        old.set(PACKED_INT, e, before);
                    }
                } else {
                    long x = payload == null ? 0 : payload.get(PACKED_LONG, e);
                    long before = compareAndSwap ? (long) LONG.compareAndExchange(part, at,
                            payload.get(PACKED_LONG, n + e), x) : updateLong(part, at, op, x);
                    if (old != null) {
                        old.set(PACKED_LONG, e, before);
                    }
                }
            }
        }
        return true;
    }

    private static boolean atomicOp(PredefinedOp op) {
        return switch (op) {
            case MINLOC, MAXLOC -> false;
            default -> true;
        };
    }

    private static int updateInt(MemorySegment s, long at, PredefinedOp op, int x) {
        switch (op) {
            case SUM:
                return (int) INT.getAndAdd(s, at, x);
            case REPLACE:
                return (int) INT.getAndSet(s, at, x);
            case NO_OP:
                return (int) INT.getVolatile(s, at);
            case BAND:
                return (int) INT.getAndBitwiseAnd(s, at, x);
            case BOR:
                return (int) INT.getAndBitwiseOr(s, at, x);
            case BXOR:
                return (int) INT.getAndBitwiseXor(s, at, x);
            default:
                break;
        }
        while (true) {
            int cur = (int) INT.getVolatile(s, at);
            int next = (int) combine(op, x, cur);
            if (INT.compareAndSet(s, at, cur, next)) {
                return cur;
            }
        }
    }

    private static long updateLong(MemorySegment s, long at, PredefinedOp op, long x) {
        switch (op) {
            case SUM:
                return (long) LONG.getAndAdd(s, at, x);
            case REPLACE:
                return (long) LONG.getAndSet(s, at, x);
            case NO_OP:
                return (long) LONG.getVolatile(s, at);
            case BAND:
                return (long) LONG.getAndBitwiseAnd(s, at, x);
            case BOR:
                return (long) LONG.getAndBitwiseOr(s, at, x);
            case BXOR:
                return (long) LONG.getAndBitwiseXor(s, at, x);
            default:
                break;
        }
        while (true) {
            long cur = (long) LONG.getVolatile(s, at);
            long next = combine(op, x, cur);
            if (LONG.compareAndSet(s, at, cur, next)) {
                return cur;
            }
        }
    }

    /** {@code x op target}, as the reduction kernels compute it (int results are truncated by the caller). */
    private static long combine(PredefinedOp op, long x, long target) {
        return switch (op) {
            case PROD -> x * target;
            case MAX -> Math.max(x, target);
            case MIN -> Math.min(x, target);
            case LAND -> x != 0 && target != 0 ? 1 : 0;
            case LOR -> x != 0 || target != 0 ? 1 : 0;
            case LXOR -> (x != 0) != (target != 0) ? 1 : 0;
            default -> throw new IllegalArgumentException("no atomic form for " + op);
        };
    }
}
