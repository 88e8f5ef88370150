package org.jmpi.dl;

import java.nio.ByteBuffer;

/**
 * Wire compression of fp32 tensors: each float travels as 16 bits and the all-reduce adds 16-bit values.
 *
 * <p>{@link #FP16} (IEEE 754 binary16: 10-bit mantissa, largest finite value 65504) keeps about three decimal digits
 * but overflows to infinity beyond 65504; {@link #BF16} (bfloat16: fp32's 8-bit exponent, 7-bit mantissa) has fp32's
 * range and about two decimal digits. Rounding is to nearest, ties to even, in both directions. NaN and infinities
 * pass through (a NaN stays a NaN). With {@link ReduceOp#AVERAGE} each rank scales its tensor by 1/n before
 * compressing, so that the fp16 sum stays in range.
 *
 * <p>Error feedback ({@link ReducerOptions.Builder#errorFeedback(boolean)}): each rank keeps, per tensor name, the
 * difference between what it wanted to send and what the 16-bit value carried, and adds it to the tensor of the next
 * step, so rounding errors do not accumulate over a training run.
 */
public enum Compression {
    /** fp32 on the wire. */
    NONE(4),
    /** IEEE binary16 on the wire. */
    FP16(2),
    /** bfloat16 on the wire. */
    BF16(2);

    private final int wireBytes;

    Compression(int wireBytes) {
        this.wireBytes = wireBytes;
    }

    /** Bytes per element on the wire. */
    public int wireBytes() {
        return wireBytes;
    }

    /** The 16-bit pattern of {@code f} (for {@link #FP16} and {@link #BF16}). */
    public short encode(float f) {
        return switch (this) {
            case FP16 -> Float.floatToFloat16(f);
            case BF16 -> toBfloat16(f);
            case NONE -> throw new IllegalStateException("NONE has no 16-bit encoding");
        };
    }

    /** The float that the 16-bit pattern {@code h} stands for. */
    public float decode(short h) {
        return switch (this) {
            case FP16 -> Float.float16ToFloat(h);
            case BF16 -> Float.intBitsToFloat((h & 0xffff) << 16);
            case NONE -> throw new IllegalStateException("NONE has no 16-bit encoding");
        };
    }

    /** bfloat16 with round-to-nearest-even; NaN stays a (quiet) NaN. */
    static short toBfloat16(float f) {
        int bits = Float.floatToRawIntBits(f);
        if ((bits & 0x7fffffff) > 0x7f800000) {
            return (short) ((bits >>> 16) | 0x0040);
        }
        int rounding = 0x7fff + ((bits >>> 16) & 1);
        return (short) ((bits + rounding) >>> 16);
    }

    /** inOut[i] = in[i] + inOut[i] over {@code count} 16-bit values at byte offset 0 (native order). */
    void addInto(ByteBuffer in, ByteBuffer inOut, int count) {
        for (int i = 0; i < count; i++) {
            int at = i << 1;
            inOut.putShort(at, encode(decode(in.getShort(at)) + decode(inOut.getShort(at))));
        }
    }
}
