package mpjbuf;

/**
 * A packing buffer for {@code Comm.Pack}/{@code Unpack} and {@code MPI.PACKED} messages, in MPJ Express's form:
 * {@code new Buffer(BufferFactory.create(n + MPI.SEND_OVERHEAD), MPI.SEND_OVERHEAD, n + MPI.SEND_OVERHEAD)}. Packed
 * positions count bytes from the start of the packing area.
 */
public class Buffer {
    private final RawBuffer storage;
    private final byte[] area;

    /** A buffer over {@code storage} (its bytes from {@code offset} up to {@code capacity}). */
    public Buffer(RawBuffer storage, int offset, int capacity) {
        if (storage == null || offset < 0 || capacity < offset || capacity > storage.bytes.length) {
            throw new IllegalArgumentException("bad packing buffer: offset " + offset + ", capacity " + capacity
                    + (storage == null ? ", no storage" : ", storage of " + storage.bytes.length));
        }
        this.storage = storage;
        this.area = offset == 0 && capacity == storage.bytes.length ? storage.bytes : new byte[capacity - offset];
    }

    /** A buffer with a packing area of {@code capacity} bytes. */
    public Buffer(int capacity) {
        this(BufferFactory.create(capacity), 0, capacity);
    }

    public RawBuffer getStaticBuffer() {
        return storage;
    }

    /** Bytes of the packing area. */
    public int getCapacity() {
        return area.length;
    }

    /** The packing area (for the MPI classes). */
    public byte[] bytes() {
        return area;
    }
}
