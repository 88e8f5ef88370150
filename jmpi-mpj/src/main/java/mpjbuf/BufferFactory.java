package mpjbuf;

/** Makes and releases the storage of packing buffers (MPJ Express's API; the storage is a plain byte array). */
public final class BufferFactory {
    private BufferFactory() {}

    public static RawBuffer create(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("negative capacity " + capacity);
        }
        return new RawBuffer(capacity);
    }

    /** Releases storage; nothing to do for a byte array. */
    public static void destroy(RawBuffer buffer) {
    }
}
