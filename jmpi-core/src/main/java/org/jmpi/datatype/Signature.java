package org.jmpi.datatype;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The type signature of one element of a datatype: the sequence of {@link Primitive}s its packed stream holds, in
 * order, with runs of equal kinds merged into {@code (kind, count)} entries. Reductions use it to read a packed stream
 * element by element; {@code MPI_Get_elements} uses it to count basic elements.
 *
 * <p>Compact for large types: a signature of one kind (the usual case: every non-struct type, whatever its layout) is
 * one entry however many elements it has. Mixed signatures (structs) repeated many times would grow without bound, so
 * past {@link #MAX_ENTRIES} entries the list is dropped and only the totals are kept ({@link #entries()} returns
 * null).
 *
 * <p>Threading: immutable, freely shared.
 */
public final class Signature {
    /** Beyond this many {@code (kind, count)} entries only the totals are kept. */
    public static final int MAX_ENTRIES = 4096;

    /** One run of equal primitives. */
    public record Entry(Primitive kind, long count) {}

    static final Signature EMPTY = new Signature(List.of(), 0, 0);

    private final List<Entry> entries;
    private final long bytes;
    private final long basicElements;

    private Signature(List<Entry> entries, long bytes, long basicElements) {
        this.entries = entries;
        this.bytes = bytes;
        this.basicElements = basicElements;
    }

    /** {@code count} primitives of one kind. */
    static Signature of(Primitive kind, long count) {
        if (count == 0) {
            return EMPTY;
        }
        return new Signature(List.of(new Entry(kind, count)), Math.multiplyExact(count, (long) kind.bytes),
                Math.multiplyExact(count, (long) kind.basicElements));
    }

    /**
     * The entries in packed order, or null when the signature mixes kinds in more than {@link #MAX_ENTRIES} runs
     * (only the totals are known then).
     */
    public List<Entry> entries() {
        return entries;
    }

    /** The single primitive kind the whole signature consists of, or null if it mixes kinds or is empty. */
    public Primitive uniform() {
        return entries != null && entries.size() == 1 ? entries.get(0).kind() : null;
    }

    /** Packed bytes of one element (the datatype's size). */
    public long bytes() {
        return bytes;
    }

    /** Basic elements in one element, as {@code MPI_Get_elements} counts them. */
    public long basicElements() {
        return basicElements;
    }

    /** This signature {@code n} times over. */
    Signature repeat(long n) {
        if (n == 0 || bytes == 0) {
            return EMPTY;
        }
        if (n == 1) {
            return this;
        }
        long b = Math.multiplyExact(bytes, n);
        long e = Math.multiplyExact(basicElements, n);
        if (entries == null) {
            return new Signature(null, b, e);
        }
        if (entries.size() == 1) {
            Entry only = entries.get(0);
            return new Signature(List.of(new Entry(only.kind(), Math.multiplyExact(only.count(), n))), b, e);
        }
        if ((long) entries.size() * n > MAX_ENTRIES) {
            return new Signature(null, b, e);
        }
        Builder out = new Builder();
        for (long i = 0; i < n; i++) {
            out.add(this);
        }
        return out.build();
    }

    /** Concatenates signatures in order. */
    static final class Builder {
        private final List<Entry> list = new ArrayList<>();
        private boolean overflow;
        private long bytes;
        private long elements;

        Builder add(Signature s) {
            bytes = Math.addExact(bytes, s.bytes);
            elements = Math.addExact(elements, s.basicElements);
            if (overflow || s.entries == null) {
                overflow = true;
                list.clear();
                return this;
            }
            for (Entry e : s.entries) {
                int last = list.size() - 1;
                if (last >= 0 && list.get(last).kind() == e.kind()) {
                    list.set(last, new Entry(e.kind(), Math.addExact(list.get(last).count(), e.count())));
                } else {
                    list.add(e);
                }
            }
            if (list.size() > MAX_ENTRIES) {
                overflow = true;
                list.clear();
            }
            return this;
        }

        Signature build() {
            if (bytes == 0) {
                return EMPTY;
            }
            return new Signature(overflow ? null : Collections.unmodifiableList(new ArrayList<>(list)), bytes,
                    elements);
        }
    }

    /**
     * The basic elements in the first {@code prefixBytes} bytes of one element's packed stream, or -1 when that prefix
     * ends inside a basic element (or the entries are not known). A pair counts its value once the value is complete.
     */
    long basicElementsIn(long prefixBytes) {
        if (prefixBytes == 0) {
            return 0;
        }
        if (entries == null) {
            return -1;
        }
        long left = prefixBytes;
        long counted = 0;
        for (Entry e : entries) {
            long b = e.count() * e.kind().bytes;
            if (left >= b) {
                left -= b;
                counted += e.count() * e.kind().basicElements;
                if (left == 0) {
                    return counted;
                }
                continue;
            }
            long whole = left / e.kind().bytes;
            counted += whole * e.kind().basicElements;
            left -= whole * e.kind().bytes;
            if (left == 0) {
                return counted;
            }
            if (e.kind().isPair() && left == e.kind().pairValue.bytes) {
                return counted + 1;
            }
            return -1;
        }
        return -1;
    }

    /**
     * Bytes of one element's packed stream that hold its first {@code elements} basic elements, or -1 if that many do
     * not end on an element boundary known here (e.g. half a pair is fine: its value).
     */
    long bytesOfBasicElements(long elements) {
        if (elements == 0) {
            return 0;
        }
        if (entries == null) {
            return -1;
        }
        long left = elements;
        long bytesSoFar = 0;
        for (Entry e : entries) {
            long n = e.count() * e.kind().basicElements;
            if (left >= n) {
                left -= n;
                bytesSoFar += e.count() * e.kind().bytes;
                if (left == 0) {
                    return bytesSoFar;
                }
                continue;
            }
            long whole = left / e.kind().basicElements;
            bytesSoFar += whole * e.kind().bytes;
            left -= whole * e.kind().basicElements;
            if (left == 0) {
                return bytesSoFar;
            }
            return bytesSoFar + e.kind().pairValue.bytes; // one basic element into a pair: its value
        }
        return -1;
    }

    @Override
    public String toString() {
        return entries == null ? "Signature[" + bytes + " bytes, mixed]" : "Signature" + entries;
    }
}
