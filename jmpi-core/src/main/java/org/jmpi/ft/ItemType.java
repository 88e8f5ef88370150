package org.jmpi.ft;

/**
 * What a registered item of a {@link Checkpoint} is, as recorded in a stored checkpoint: a primitive array, the bytes
 * of a {@code ByteBuffer}, or a {@code Serializable} object in Java serialisation's form.
 */
public enum ItemType {
    /** A {@code byte[]}. */
    BYTES(1, "byte[]"),
    /** A {@code short[]}. */
    SHORTS(2, "short[]"),
    /** A {@code char[]}. */
    CHARS(2, "char[]"),
    /** An {@code int[]}. */
    INTS(4, "int[]"),
    /** A {@code long[]}. */
    LONGS(8, "long[]"),
    /** A {@code float[]}. */
    FLOATS(4, "float[]"),
    /** A {@code double[]}. */
    DOUBLES(8, "double[]"),
    /** The bytes of a {@code ByteBuffer} (heap or direct), from its position to its limit at registration. */
    BUFFER(1, "ByteBuffer"),
    /** A {@code Serializable} object, stored in Java serialisation's form. */
    OBJECT(1, "Serializable");

    private final int elementBytes;
    private final String javaName;

    ItemType(int elementBytes, String javaName) {
        this.elementBytes = elementBytes;
        this.javaName = javaName;
    }

    /** Bytes per element (1 for buffers and objects, whose count is in bytes). */
    public int elementBytes() {
        return elementBytes;
    }

    /** The Java type as a program writes it: {@code double[]}, {@code ByteBuffer}, {@code Serializable}. */
    public String javaName() {
        return javaName;
    }

    /** The code of this type in a part file ({@link CheckpointLayout}). */
    byte code() {
        return (byte) (ordinal() + 1);
    }

    /** The type of a code read from a part file, or null for an unknown code. */
    static ItemType ofCode(int code) {
        ItemType[] all = values();
        return code >= 1 && code <= all.length ? all[code - 1] : null;
    }
}
