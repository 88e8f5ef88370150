package mpi;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;

/**
 * A view of one double-precision complex number (real part, then imaginary part) stored in a double buffer or array.
 * Reads and writes go straight to the underlying storage.
 */
public final class DoubleComplex {
    private final DoubleBuffer buffer;
    private final int offset;

    private DoubleComplex(DoubleBuffer buffer, int index) {
        if (index < 0 || 2L * index + 2 > buffer.limit()) {
            throw new IndexOutOfBoundsException(
                    "complex number " + index + " is outside a buffer of " + buffer.limit() + " doubles");
        }
        this.buffer = buffer;
        this.offset = 2 * index;
    }

    /** The complex number at the start of {@code buffer}. */
    public static DoubleComplex get(DoubleBuffer buffer) {
        return new DoubleComplex(buffer, 0);
    }

    /** Complex number {@code index} of {@code buffer} (it starts at double {@code 2 * index}). */
    public static DoubleComplex get(DoubleBuffer buffer, int index) {
        return new DoubleComplex(buffer, index);
    }

    /** The complex number at the start of {@code array}. */
    public static DoubleComplex get(double[] array) {
        return new DoubleComplex(DoubleBuffer.wrap(array), 0);
    }

    /** Complex number {@code index} of {@code array}. */
    public static DoubleComplex get(double[] array, int index) {
        return new DoubleComplex(DoubleBuffer.wrap(array), index);
    }

    /** The complex number at the start of {@code buffer}, read in the buffer's byte order. */
    public static DoubleComplex get(ByteBuffer buffer) {
        return new DoubleComplex(buffer.duplicate().order(buffer.order()).clear().asDoubleBuffer(), 0);
    }

    /** Complex number {@code index} of {@code buffer}, read in the buffer's byte order. */
    public static DoubleComplex get(ByteBuffer buffer, int index) {
        return new DoubleComplex(buffer.duplicate().order(buffer.order()).clear().asDoubleBuffer(), index);
    }

    /** The real part. */
    public double getReal() {
        return buffer.get(offset);
    }

    /** The imaginary part. */
    public double getImag() {
        return buffer.get(offset + 1);
    }

    /** Stores the real part. */
    public void putReal(double real) {
        buffer.put(offset, real);
    }

    /** Stores the imaginary part. */
    public void putImag(double imag) {
        buffer.put(offset + 1, imag);
    }

    /** The underlying storage from this complex number to its end: element 0 is the real part. */
    public DoubleBuffer getBuffer() {
        return offset == 0 ? buffer : buffer.slice(offset, buffer.limit() - offset);
    }
}
