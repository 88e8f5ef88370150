package org.jmpi.mpj;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.OutputStream;
import org.jmpi.shared.RankClassLoader;
import org.jmpi.shared.ThreadsJob;

/**
 * How {@code MPI.OBJECT} data travels: the elements of one message (or one contribution to a collective) as one
 * Java serialisation stream, so shared references and class descriptors are written once per message, read back
 * with the receiving rank's classes (the thread's context class loader, then the loader of the MPI classes, which in
 * threads mode is the rank's own). Elements that are all primitive arrays, strings, boxed primitives or null travel
 * in a compact form instead ({@link CompactObjects}): the same objects arrive, several times faster.
 *
 * <p><b>Trust.</b> Receiving objects runs Java deserialisation on bytes another rank sent: it instantiates classes
 * on the receiving rank's class path and runs their {@code readObject}/{@code readResolve}. Ranks of one job trust
 * each other (they run the same program), as with MPJ Express. A stream that is malformed or names a class the rank
 * does not have fails that receive with an {@code MPIException} of class {@code MPI_ERR_OTHER} and leaves the rank
 * running. To restrict what may be deserialised, set a filter with {@link #setObjectInputFilter} (or the JDK's
 * {@code jdk.serialFilter} system property, which applies too).
 *
 * <p>Threading: stateless apart from the filter, which is published through a volatile field.
 */
public final class Serialization {
    private static volatile ObjectInputFilter filter;
    /** This rank's job in threads mode (each rank loads this class itself), else null. */
    private static final ThreadsJob JOB =
            Serialization.class.getClassLoader() instanceof RankClassLoader l ? l.job() : null;

    private Serialization() {}

    /** A filter every object receive of this JVM applies (null: none beyond the JDK's own settings). */
    public static void setObjectInputFilter(ObjectInputFilter f) {
        filter = f;
    }

    /** Whether this rank runs in threads mode (so objects may travel to ranks of its job as parcels). */
    public static boolean inThreadsMode() {
        return JOB != null;
    }

    /** The filter set by {@link #setObjectInputFilter}, or null. */
    public static ObjectInputFilter objectInputFilter() {
        return filter;
    }

    /** The serialised form of {@code items[0..n)}: the count, then each element. */
    public static byte[] write(Object[] items, int n) throws IOException {
        return write(items, n, false);
    }

    /**
     * The message for {@code items[0..n)}; when {@code inJvm} (its receiver runs in this JVM, a rank of this threads
     * mode job) and the elements have a compact form, a parcel ({@link CompactObjects#leave}) that the receiver's
     * {@link #read} takes, else the serialised form.
     */
    public static byte[] write(Object[] items, int n, boolean inJvm) throws IOException {
        long compact = CompactObjects.fits(items, n);
        if (compact >= 0 && inJvm && JOB != null) {
            return CompactObjects.leave(JOB, items, n);
        }
        if (compact >= 0 && compact <= CompactObjects.MAX_BYTES) {
            return CompactObjects.write(items, n, compact);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + 16 * n);
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeInt(n);
            for (int i = 0; i < n; i++) {
                out.writeObject(items[i]);
            }
        }
        return bytes.toByteArray();
    }

    /** Writes {@code items[0..n)} to {@code to} as {@link #write} does. */
    public static void write(Object[] items, int n, OutputStream to) throws IOException {
        to.write(write(items, n));
    }

    /**
     * The elements of a stream made by {@link #write}.
     *
     * @throws IOException a malformed stream, a class this rank does not have, or one the filter rejects
     */
    public static Object[] read(byte[] data, int offset, int length) throws IOException {
        if (CompactObjects.isParcel(data, offset, length)) {
            ObjectInputFilter f = filter;
            return CompactObjects.take(JOB, data, offset, f != null ? f : ObjectInputFilter.Config.getSerialFilter());
        }
        if (CompactObjects.isCompact(data, offset, length)) {
            ObjectInputFilter f = filter;
            return CompactObjects.read(data, offset, length,
                    f != null ? f : ObjectInputFilter.Config.getSerialFilter());
        }
        try (ObjectInputStream in = new RankObjectInputStream(new ByteArrayInputStream(data, offset, length))) {
            ObjectInputFilter f = filter;
            if (f != null) {
                in.setObjectInputFilter(f);
            }
            int n = in.readInt();
            if (n < 0 || n > length) {
                throw new IOException("bad element count " + n + " in an object message of " + length + " bytes");
            }
            Object[] items = new Object[n];
            for (int i = 0; i < n; i++) {
                items[i] = in.readObject();
            }
            return items;
        } catch (ClassNotFoundException e) {
            throw new IOException("class " + e.getMessage() + " of a received object is not on this rank's class path",
                    e);
        } catch (RuntimeException e) {
            throw new IOException("malformed object message: " + e, e);
        }
    }

    /** Resolves classes with the rank's loaders first. */
    private static final class RankObjectInputStream extends ObjectInputStream {
        RankObjectInputStream(InputStream in) throws IOException {
            super(in);
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            ClassLoader context = Thread.currentThread().getContextClassLoader();
            if (context != null) {
                try {
                    return Class.forName(desc.getName(), false, context);
                } catch (ClassNotFoundException e) {
                    // try the next
                }
            }
            try {
                return Class.forName(desc.getName(), false, Serialization.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                return super.resolveClass(desc);
            }
        }
    }
}
