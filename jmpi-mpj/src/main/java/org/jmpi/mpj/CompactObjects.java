package org.jmpi.mpj;

import java.io.IOException;
import java.io.ObjectInputFilter;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.jmpi.shared.ThreadsJob;

/**
 * The compact form of an {@code MPI.OBJECT} message whose elements are all primitive arrays, {@code String}s, boxed
 * primitives or {@code null}: the values themselves, with a tag and a length each, instead of a Java serialisation
 * stream. A row of 1,024 doubles is one bulk copy each way instead of an object stream's block-by-block conversion,
 * and a short string a few bytes instead of a string record and its handle.
 *
 * <p><b>Form</b> (little-endian): the magic {@code 4A 4D 50 01} (a Java serialisation stream begins with {@code AC ED},
 * so the two cannot be confused), the element count (int), then per element a tag byte and its value: nothing for
 * {@code null}; for an array its length (int) and its elements; for a string its length in chars (int) and either one
 * byte per char (every char below 256) or two; for a boxed value its bytes.
 *
 * <p><b>Same objects as Java serialisation.</b> The receiver gets new objects of the same classes and contents. The one
 * difference: Java serialisation sends an object that occurs twice in a message once, and the receiver gets one
 * object twice. For arrays, which can be changed through either reference, that matters, so a message with one array
 * twice takes Java serialisation ({@link #fits}); strings and boxed values, which cannot be changed, arrive as equal
 * objects.
 *
 * <p><b>Trust.</b> The decoder checks every length against the bytes left and the tags against the known ones, and
 * fails with an {@link IOException} on anything else; it creates only the classes above. The receiving rank's
 * {@link ObjectInputFilter} (as for a Java serialisation stream: the one set with
 * {@link Serialization#setObjectInputFilter}, else the JDK's serial filter) sees every element, with its class and
 * array length, and may reject it.
 *
 * <p>Threading: stateless.
 */
final class CompactObjects {
    private CompactObjects() {}

    private static final int MAGIC = 0x01504D4A; // bytes 4A 4D 50 01, read as a little-endian int
    private static final int HEADER = 8;
    private static final int PARCEL = 0x02504D4A; // bytes 4A 4D 50 02
    private static final int PARCEL_BYTES = 16;
    /** The largest message in this form (a Java array's limit); larger ones take Java serialisation. */
    static final long MAX_BYTES = Integer.MAX_VALUE - 16;

    private static final byte NULL = 0;
    private static final byte LATIN1 = 1;
    private static final byte UTF16 = 2;
    private static final byte BYTES = 3;
    private static final byte BOOLEANS = 4;
    private static final byte CHARS = 5;
    private static final byte SHORTS = 6;
    private static final byte INTS = 7;
    private static final byte LONGS = 8;
    private static final byte FLOATS = 9;
    private static final byte DOUBLES = 10;
    private static final byte BYTE = 11;
    private static final byte BOOLEAN = 12;
    private static final byte CHAR = 13;
    private static final byte SHORT = 14;
    private static final byte INT = 15;
    private static final byte LONG = 16;
    private static final byte FLOAT = 17;
    private static final byte DOUBLE = 18;

    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle SHORT_LE =
            MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfChar CHAR_LE = ValueLayout.JAVA_CHAR_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort SHORT_ARRAY_LE =
            ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT_ARRAY_LE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong LONG_ARRAY_LE =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfFloat FLOAT_ARRAY_LE =
            ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfDouble DOUBLE_ARRAY_LE =
            ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /**
     * Whether data is a parcel: the message of {@link #leave}, 16 bytes: the magic {@code 4A 4D 50 02}, the element
     * count (int) and the key (long) under which the elements wait in the job's {@link ThreadsJob#leave} table.
     */
    static boolean isParcel(byte[] data, int offset, int length) {
        return length == PARCEL_BYTES && (int) INT_LE.get(data, offset) == PARCEL;
    }

    /**
     * Between ranks of one JVM (threads mode): leaves copies of {@code items[0..n)} (which {@link #fits}) with the job
     * and returns the parcel that names them. Arrays are copied, as a send must; strings, boxed values and null are
     * passed as they are, since nobody can change them. One copy instead of encoding, moving and decoding.
     */
    static byte[] leave(ThreadsJob job, Object[] items, int n) {
        Object[] copies = new Object[n];
        for (int i = 0; i < n; i++) {
            copies[i] = copyOf(items[i]);
        }
        byte[] m = new byte[PARCEL_BYTES];
        INT_LE.set(m, 0, PARCEL);
        INT_LE.set(m, 4, n);
        LONG_LE.set(m, 8, job.leave(copies));
        return m;
    }

    /**
     * The elements a parcel names, taken from the job (null when this rank is not in threads mode); the filter sees
     * each as in {@link #read}.
     *
     * @throws IOException no elements under the parcel's key in this JVM's job (not sent from this JVM, or already
     *     taken), or the filter rejects one
     */
    static Object[] take(ThreadsJob job, byte[] data, int offset, ObjectInputFilter filter) throws IOException {
        int n = (int) INT_LE.get(data, offset + 4);
        Object[] items = job == null ? null : job.take((long) LONG_LE.get(data, offset + 8));
        if (items == null || items.length != n) {
            throw new IOException("a received object message names objects that were not left in this JVM's job");
        }
        if (filter != null) {
            for (int i = 0; i < n; i++) {
                Object o = items[i];
                if (o != null) {
                    check(filter, o, o.getClass().isArray() ? java.lang.reflect.Array.getLength(o) : 0, i + 1,
                            PARCEL_BYTES);
                }
            }
        }
        return items;
    }

    /** A copy of an element of the compact kinds: arrays copied, the rest (immutable) as it is. */
    private static Object copyOf(Object o) {
        if (o == null || !o.getClass().isArray()) {
            return o;
        }
        int n = java.lang.reflect.Array.getLength(o);
        Object c = java.lang.reflect.Array.newInstance(o.getClass().getComponentType(), n);
        System.arraycopy(o, 0, c, 0, n);
        return c;
    }

    /** Whether data begins as this form does. */
    static boolean isCompact(byte[] data, int offset, int length) {
        return length >= HEADER && (int) INT_LE.get(data, offset) == MAGIC;
    }

    /**
     * The size of the compact form of {@code items[0..n)}, or -1 when an element is of another class or an array
     * occurs twice (then Java serialisation carries the message).
     */
    static long fits(Object[] items, int n) {
        long bytes = HEADER;
        int arrays = 0;
        for (int i = 0; i < n; i++) {
            long b = size(items[i]);
            if (b < 0) {
                return -1;
            }
            bytes += b;
            if (items[i] != null && items[i].getClass().isArray()) {
                arrays++;
            }
        }
        if (arrays > 1 && repeatsAnArray(items, n, arrays)) {
            return -1;
        }
        return bytes;
    }

    /**
     * Bytes of one element in this form (tag included), or -1 when it has no compact form. Type tests, not a pattern
     * {@code switch}, which would generate a class at run time the first time it runs.
     */
    private static long size(Object o) {
        if (o == null) {
            return 1;
        }
        if (o instanceof String s) {
            return 5 + 2L * s.length(); // at most: two bytes per char
        }
        if (o instanceof double[] a) {
            return 5 + 8L * a.length;
        }
        if (o instanceof int[] a) {
            return 5 + 4L * a.length;
        }
        if (o instanceof long[] a) {
            return 5 + 8L * a.length;
        }
        if (o instanceof float[] a) {
            return 5 + 4L * a.length;
        }
        if (o instanceof byte[] a) {
            return 5 + (long) a.length;
        }
        if (o instanceof char[] a) {
            return 5 + 2L * a.length;
        }
        if (o instanceof short[] a) {
            return 5 + 2L * a.length;
        }
        if (o instanceof boolean[] a) {
            return 5 + (long) a.length;
        }
        if (o instanceof Integer || o instanceof Float) {
            return 5;
        }
        if (o instanceof Double || o instanceof Long) {
            return 9;
        }
        if (o instanceof Short || o instanceof Character) {
            return 3;
        }
        if (o instanceof Byte || o instanceof Boolean) {
            return 2;
        }
        return -1;
    }

    private static boolean repeatsAnArray(Object[] items, int n, int arrays) {
        java.util.Set<Object> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>(2 * arrays));
        for (int i = 0; i < n; i++) {
            Object o = items[i];
            if (o != null && o.getClass().isArray() && !seen.add(o)) {
                return true;
            }
        }
        return false;
    }

    /** The compact form of {@code items[0..n)}, whose size (at most) {@link #fits} computed. */
    static byte[] write(Object[] items, int n, long size) {
        byte[] out = new byte[(int) size];
        MemorySegment seg = MemorySegment.ofArray(out);
        INT_LE.set(out, 0, MAGIC);
        INT_LE.set(out, 4, n);
        int p = HEADER;
        for (int i = 0; i < n; i++) {
            p = put(out, seg, p, items[i]);
        }
        return p == out.length ? out : java.util.Arrays.copyOf(out, p);
    }

    /** Writes one element at {@code p}; the position after it. */
    private static int put(byte[] out, MemorySegment seg, int p, Object o) {
        if (o == null) {
            out[p] = NULL;
            return p + 1;
        }
        if (o instanceof String s) {
            return putString(out, seg, p, s);
        }
        if (o instanceof double[] a) {
            MemorySegment.copy(a, 0, seg, DOUBLE_ARRAY_LE, head(out, p, DOUBLES, a.length), a.length);
            return p + 5 + 8 * a.length;
        }
        if (o instanceof int[] a) {
            MemorySegment.copy(a, 0, seg, INT_ARRAY_LE, head(out, p, INTS, a.length), a.length);
            return p + 5 + 4 * a.length;
        }
        if (o instanceof long[] a) {
            MemorySegment.copy(a, 0, seg, LONG_ARRAY_LE, head(out, p, LONGS, a.length), a.length);
            return p + 5 + 8 * a.length;
        }
        if (o instanceof float[] a) {
            MemorySegment.copy(a, 0, seg, FLOAT_ARRAY_LE, head(out, p, FLOATS, a.length), a.length);
            return p + 5 + 4 * a.length;
        }
        if (o instanceof byte[] a) {
            System.arraycopy(a, 0, out, head(out, p, BYTES, a.length), a.length);
            return p + 5 + a.length;
        }
        if (o instanceof char[] a) {
            MemorySegment.copy(a, 0, seg, CHAR_LE, head(out, p, CHARS, a.length), a.length);
            return p + 5 + 2 * a.length;
        }
        if (o instanceof short[] a) {
            MemorySegment.copy(a, 0, seg, SHORT_ARRAY_LE, head(out, p, SHORTS, a.length), a.length);
            return p + 5 + 2 * a.length;
        }
        if (o instanceof boolean[] a) {
            int at = head(out, p, BOOLEANS, a.length);
            for (int k = 0; k < a.length; k++) {
                out[at + k] = a[k] ? (byte) 1 : (byte) 0;
            }
            return p + 5 + a.length;
        }
        return putBoxed(out, p, o);
    }

    /** Writes a tag and a length; the position of the values. */
    private static int head(byte[] out, int p, byte tag, int length) {
        out[p] = tag;
        INT_LE.set(out, p + 1, length);
        return p + 5;
    }

    private static int putString(byte[] out, MemorySegment seg, int p, String s) {
        int len = s.length();
        boolean latin1 = true;
        for (int k = 0; k < len && latin1; k++) {
            latin1 = s.charAt(k) < 256;
        }
        int at = head(out, p, latin1 ? LATIN1 : UTF16, len);
        if (latin1) {
            System.arraycopy(s.getBytes(StandardCharsets.ISO_8859_1), 0, out, at, len);
            return at + len;
        }
        MemorySegment.copy(s.toCharArray(), 0, seg, CHAR_LE, at, len);
        return at + 2 * len;
    }

    private static int putBoxed(byte[] out, int p, Object o) {
        if (o instanceof Integer v) {
            out[p] = INT;
            INT_LE.set(out, p + 1, v.intValue());
            return p + 5;
        }
        if (o instanceof Double v) {
            out[p] = DOUBLE;
            LONG_LE.set(out, p + 1, Double.doubleToRawLongBits(v));
            return p + 9;
        }
        if (o instanceof Long v) {
            out[p] = LONG;
            LONG_LE.set(out, p + 1, v.longValue());
            return p + 9;
        }
        if (o instanceof Float v) {
            out[p] = FLOAT;
            INT_LE.set(out, p + 1, Float.floatToRawIntBits(v));
            return p + 5;
        }
        if (o instanceof Short v) {
            out[p] = SHORT;
            SHORT_LE.set(out, p + 1, v.shortValue());
            return p + 3;
        }
        if (o instanceof Character v) {
            out[p] = CHAR;
            SHORT_LE.set(out, p + 1, (short) v.charValue());
            return p + 3;
        }
        if (o instanceof Byte v) {
            out[p] = BYTE;
            out[p + 1] = v;
            return p + 2;
        }
        if (o instanceof Boolean v) {
            out[p] = BOOLEAN;
            out[p + 1] = v ? (byte) 1 : (byte) 0;
            return p + 2;
        }
        throw new IllegalArgumentException("no compact form for " + o.getClass().getName());
    }

    /**
     * The elements of a compact message {@code data[offset..offset+length)} (which {@link #isCompact} recognised).
     *
     * @param filter the filter to consult for every element, or null
     * @throws IOException a malformed message, or one the filter rejects
     */
    static Object[] read(byte[] data, int offset, int length, ObjectInputFilter filter) throws IOException {
        int end = offset + length;
        int n = (int) INT_LE.get(data, offset + 4);
        // every element takes at least one byte
        if (n < 0 || n > length - HEADER) {
            throw new IOException("bad element count " + n + " in an object message of " + length + " bytes");
        }
        MemorySegment seg = MemorySegment.ofArray(data);
        Object[] items = new Object[n];
        int p = offset + HEADER;
        for (int i = 0; i < n; i++) {
            if (p >= end) {
                throw new IOException("object message ends after " + i + " of its " + n + " elements");
            }
            byte tag = data[p++];
            Object o;
            int len = 0;
            if (tag == NULL) {
                o = null;
            } else if (tag >= LATIN1 && tag <= DOUBLES) {
                len = length(data, p, end);
                p += 4;
                int width = width(tag);
                if ((long) len * width > end - p) {
                    throw new IOException("an element of " + len + " values runs past the end of the object message");
                }
                o = values(tag, data, seg, p, len);
                p += len * width;
            } else if (tag >= BYTE && tag <= DOUBLE) {
                int width = tag == BYTE || tag == BOOLEAN ? 1 : tag == CHAR || tag == SHORT ? 2
                        : tag == INT || tag == FLOAT ? 4 : 8;
                if (width > end - p) {
                    throw new IOException("a value runs past the end of the object message");
                }
                o = boxed(tag, data, p);
                p += width;
            } else {
                throw new IOException("unknown element tag " + tag + " in an object message");
            }
            if (filter != null && o != null) {
                check(filter, o, len, i + 1, p - offset);
            }
            items[i] = o;
        }
        if (p != end) {
            throw new IOException((end - p) + " bytes left over after the elements of an object message");
        }
        return items;
    }

    private static int length(byte[] data, int p, int end) throws IOException {
        if (end - p < 4) {
            throw new IOException("object message ends inside a length");
        }
        int len = (int) INT_LE.get(data, p);
        if (len < 0) {
            throw new IOException("negative length " + len + " in an object message");
        }
        return len;
    }

    private static int width(byte tag) {
        return switch (tag) {
            case LATIN1, BYTES, BOOLEANS -> 1;
            case UTF16, CHARS, SHORTS -> 2;
            case INTS, FLOATS -> 4;
            default -> 8;
        };
    }

    private static Object values(byte tag, byte[] data, MemorySegment seg, int p, int len) throws IOException {
        switch (tag) {
            case LATIN1:
                return new String(data, p, len, StandardCharsets.ISO_8859_1);
            case UTF16: {
                char[] c = new char[len];
                MemorySegment.copy(seg, CHAR_LE, p, c, 0, len);
                return new String(c);
            }
            case BYTES:
                return java.util.Arrays.copyOfRange(data, p, p + len);
            case BOOLEANS: {
                boolean[] b = new boolean[len];
                for (int k = 0; k < len; k++) {
                    byte v = data[p + k];
                    if (v != 0 && v != 1) {
                        throw new IOException("bad boolean " + v + " in an object message");
                    }
                    b[k] = v == 1;
                }
                return b;
            }
            case CHARS: {
                char[] a = new char[len];
                MemorySegment.copy(seg, CHAR_LE, p, a, 0, len);
                return a;
            }
            case SHORTS: {
                short[] a = new short[len];
                MemorySegment.copy(seg, SHORT_ARRAY_LE, p, a, 0, len);
                return a;
            }
            case INTS: {
                int[] a = new int[len];
                MemorySegment.copy(seg, INT_ARRAY_LE, p, a, 0, len);
                return a;
            }
            case FLOATS: {
                float[] a = new float[len];
                MemorySegment.copy(seg, FLOAT_ARRAY_LE, p, a, 0, len);
                return a;
            }
            case LONGS: {
                long[] a = new long[len];
                MemorySegment.copy(seg, LONG_ARRAY_LE, p, a, 0, len);
                return a;
            }
            default: {
                double[] a = new double[len];
                MemorySegment.copy(seg, DOUBLE_ARRAY_LE, p, a, 0, len);
                return a;
            }
        }
    }

    private static Object boxed(byte tag, byte[] data, int p) throws IOException {
        switch (tag) {
            case BYTE:
                return data[p];
            case BOOLEAN:
                if (data[p] != 0 && data[p] != 1) {
                    throw new IOException("bad boolean " + data[p] + " in an object message");
                }
                return data[p] == 1;
            case CHAR:
                return (char) (short) SHORT_LE.get(data, p);
            case SHORT:
                return (short) SHORT_LE.get(data, p);
            case INT:
                return (int) INT_LE.get(data, p);
            case FLOAT:
                return Float.intBitsToFloat((int) INT_LE.get(data, p));
            case LONG:
                return (long) LONG_LE.get(data, p);
            default:
                return Double.longBitsToDouble((long) LONG_LE.get(data, p));
        }
    }

    /** Asks the filter about one received element, as an object stream would (class, array length, counts). */
    private static void check(ObjectInputFilter filter, Object o, int length, long references, long bytes)
            throws IOException {
        Class<?> type = o.getClass();
        long arrayLength = type.isArray() ? length : -1;
        ObjectInputFilter.Status s = filter.checkInput(new ObjectInputFilter.FilterInfo() {
            @Override
            public Class<?> serialClass() {
                return type;
            }

            @Override
            public long arrayLength() {
                return arrayLength;
            }

            @Override
            public long depth() {
                return 1;
            }

            @Override
            public long references() {
                return references;
            }

            @Override
            public long streamBytes() {
                return bytes;
            }
        });
        if (s == ObjectInputFilter.Status.REJECTED) {
            throw new IOException("the object input filter rejected a received " + type.getName());
        }
    }
}
