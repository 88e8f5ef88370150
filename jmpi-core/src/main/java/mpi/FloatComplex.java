package mpi;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;

/**
 * A view of one float-precision complex number (real part, then imaginary part) stored in a float buffer or array.
 * Reads and writes go straight to the underlying storage.
 */
public final class FloatComplex {
    private final FloatBuffer buffer;
    private final int offset;

    private FloatComplex(FloatBuffer buffer, int index) {
        if (index < 0 || 2L * index + 2 > buffer.limit()) {
            throw new IndexOutOfBoundsException(
                    "complex number " + index + " is outside a buffer of " + buffer.limit() + " floats");
        }
        this.buffer = buffer;
        this.offset = 2 * index;
    }

    /** The complex number at the start of {@code buffer}. */
    public static FloatComplex get(FloatBuffer buffer) {
        return new FloatComplex(buffer, 0);
    }

    /** Complex number {@code index} of {@code buffer} (it starts at float {@code 2 * index}). */
    public static FloatComplex get(FloatBuffer buffer, int index) {
        return new FloatComplex(buffer, index);
    }

    /** The complex number at the start of {@code array}. */
    public static FloatComplex get(float[] array) {
        return new FloatComplex(FloatBuffer.wrap(array), 0);
    }

    /** Complex number {@code index} of {@code array}. */
    public static FloatComplex get(float[] array, int index) {
        return new FloatComplex(FloatBuffer.wrap(array), index);
    }

    /** The complex number at the start of {@code buffer}, read in the buffer's byte order. */
    public static FloatComplex get(ByteBuffer buffer) {
        return new FloatComplex(buffer.duplicate().order(buffer.order()).clear().asFloatBuffer(), 0);
    }

    /** Complex number {@code index} of {@code buffer}, read in the buffer's byte order. */
    public static FloatComplex get(ByteBuffer buffer, int index) {
        return new FloatComplex(buffer.duplicate().order(buffer.order()).clear().asFloatBuffer(), index);
    }

    /** The real part. */
    public float getReal() {
        return buffer.get(offset);
    }

    /** The imaginary part. */
    public float getImag() {
        return buffer.get(offset + 1);
    }

    /** Stores the real part. */
    public void putReal(float real) {
        buffer.put(offset, real);
    }

    /** Stores the imaginary part. */
    public void putImag(float imag) {
        buffer.put(offset + 1, imag);
    }

    /** The underlying storage from this complex number to its end: element 0 is the real part. */
    public FloatBuffer getBuffer() {
        return offset == 0 ? buffer : buffer.slice(offset, buffer.limit() - offset);
    }
}
