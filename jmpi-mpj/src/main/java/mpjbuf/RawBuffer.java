package mpjbuf;

/** Storage for a {@link Buffer}, as {@link BufferFactory#create} makes it (MPJ Express's packing API). */
public class RawBuffer {
    final byte[] bytes;

    RawBuffer(int capacity) {
        bytes = new byte[capacity];
    }

    public int getCapacity() {
        return bytes.length;
    }
}
