package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Emulates a C struct over a {@code byte[]} or a {@link ByteBuffer}.
 *
 * <p>A subclass declares its fields in its constructor with the {@code add*} methods, each of which returns the
 * field's byte offset, and implements {@link #newData()} to return an instance of its own {@link Data} subclass,
 * whose accessors read and write the fields by offset. {@link #getType()} gives the matching MPI datatype.
 *
 * <p>Fields are laid out one after the other without padding; {@link #setOffset(int)} moves the place of the next
 * field (and so can insert padding). The extent is the end of the last field or the offset last set, whichever is
 * larger. Once the layout has been used ({@link #getExtent()}, {@link #getType()}, {@code getData}), adding fields
 * fails with {@link IllegalStateException}.
 */
public abstract class Struct {
    /** For subclasses: a user-defined structure type, laid out by the subclass's constructor. */
    public Struct() {}

    /** A field: a datatype, or a nested struct whose datatype is made when this struct's is. */
    private record Field(Datatype type, Struct nested, int offset, int length) {}

    private final List<Field> fields = new ArrayList<>();
    private int position;
    private int extent;
    private boolean sealed;
    private Datatype datatype;

    /** The extent of one struct in bytes. */
    public final int getExtent() throws MPIException {
        sealed = true;
        return extent;
    }

    /** The MPI datatype describing one struct (created and committed on first use). */
    public final Datatype getType() throws MPIException {
        sealed = true;
        Datatype predefined = predefinedType();
        if (predefined != null) {
            return predefined;
        }
        if (datatype == null) {
            int n = fields.size();
            int[] lengths = new int[n];
            int[] displs = new int[n];
            Datatype[] types = new Datatype[n];
            for (int i = 0; i < n; i++) {
                Field f = fields.get(i);
                lengths[i] = f.length();
                displs[i] = f.offset();
                types[i] = f.nested() != null ? f.nested().getType() : f.type();
            }
            Datatype struct = Datatype.createStruct(lengths, displs, types);
            Datatype resized = Datatype.createResized(struct, 0, extent);
            struct.free();
            resized.commit();
            datatype = resized;
        }
        return datatype;
    }

    /** The predefined datatype this layout describes (the MINLOC/MAXLOC pairs), or null for user structs. */
    Datatype predefinedType() {
        return null;
    }

    /** Creates a new, unattached accessor object of this struct's {@link Data} subclass. */
    protected abstract Data newData();

    /** An accessor for the struct at the start of {@code buffer}. */
    public final <T extends Data> T getData(ByteBuffer buffer) throws MPIException {
        return getData(buffer, 0);
    }

    /** An accessor for struct number {@code index} of {@code buffer} (at byte {@code index * getExtent()}). */
    @SuppressWarnings("unchecked") // the caller names its own Data subclass, as in the Open MPI bindings
    public final <T extends Data> T getData(ByteBuffer buffer, int index) throws MPIException {
        if (buffer == null) {
            throw new MPIException(MPI.ERR_BUFFER, "Struct.getData: the buffer is null");
        }
        sealed = true;
        int offset = checkedOffset(index, extent, buffer.capacity(), "Struct.getData");
        Data d = newData();
        d.attach(buffer, offset);
        return (T) d;
    }

    /** An accessor for the struct at the start of {@code array} (native byte order). */
    public final <T extends Data> T getData(byte[] array) throws MPIException {
        return getData(array, 0);
    }

    /** An accessor for struct number {@code index} of {@code array} (native byte order). */
    public final <T extends Data> T getData(byte[] array, int index) throws MPIException {
        if (array == null) {
            throw new MPIException(MPI.ERR_BUFFER, "Struct.getData: the array is null");
        }
        return getData(ByteBuffer.wrap(array).order(ByteOrder.nativeOrder()), index);
    }

    /** Places the next field at byte {@code offset}; returns this struct. */
    public final Struct setOffset(int offset) {
        checkOpen();
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        position = offset;
        extent = Math.max(extent, offset);
        return this;
    }

    /** Adds a {@code byte} field; returns its offset. */
    public final int addByte() {
        return addByte(1);
    }

    /** Adds an array of {@code length} bytes; returns its offset. */
    public final int addByte(int length) {
        return addField(MPI.BYTE, 1, length);
    }

    /** Adds a {@code char} field; returns its offset. */
    public final int addChar() {
        return addChar(1);
    }

    /** Adds an array of {@code length} chars; returns its offset. */
    public final int addChar(int length) {
        return addField(MPI.CHAR, 2, length);
    }

    /** Adds a {@code short} field; returns its offset. */
    public final int addShort() {
        return addShort(1);
    }

    /** Adds an array of {@code length} shorts; returns its offset. */
    public final int addShort(int length) {
        return addField(MPI.SHORT, 2, length);
    }

    /** Adds an {@code int} field; returns its offset. */
    public final int addInt() {
        return addInt(1);
    }

    /** Adds an array of {@code length} ints; returns its offset. */
    public final int addInt(int length) {
        return addField(MPI.INT, 4, length);
    }

    /** Adds a {@code long} field; returns its offset. */
    public final int addLong() {
        return addLong(1);
    }

    /** Adds an array of {@code length} longs; returns its offset. */
    public final int addLong(int length) {
        return addField(MPI.LONG, 8, length);
    }

    /** Adds a {@code float} field; returns its offset. */
    public final int addFloat() {
        return addFloat(1);
    }

    /** Adds an array of {@code length} floats; returns its offset. */
    public final int addFloat(int length) {
        return addField(MPI.FLOAT, 4, length);
    }

    /** Adds a {@code double} field; returns its offset. */
    public final int addDouble() {
        return addDouble(1);
    }

    /** Adds an array of {@code length} doubles; returns its offset. */
    public final int addDouble(int length) {
        return addField(MPI.DOUBLE, 8, length);
    }

    /** Adds a nested struct field; returns its offset. */
    public final int addStruct(Struct struct) throws MPIException {
        return addStruct(struct, 1);
    }

    /** Adds an array of {@code length} nested structs; returns its offset. */
    public final int addStruct(Struct struct, int length) throws MPIException {
        if (struct == null) {
            throw new MPIException(MPI.ERR_ARG, "Struct.addStruct: the struct is null");
        }
        if (struct == this) {
            throw new MPIException(MPI.ERR_ARG, "Struct.addStruct: a struct cannot contain itself");
        }
        return addField(null, struct, struct.getExtent(), length);
    }

    /** Adds a field of datatype {@code type}; returns its offset. */
    public final int addData(Datatype type) throws MPIException {
        return addData(type, 1);
    }

    /** Adds an array of {@code length} elements of datatype {@code type}; returns its offset. */
    public final int addData(Datatype type, int length) throws MPIException {
        if (type == null || type.isNull()) {
            throw new MPIException(MPI.ERR_TYPE, "Struct.addData: the datatype is null");
        }
        return addField(type, null, Math.toIntExact(type.extentBytes()), length);
    }

    private int addField(Datatype type, int typeExtent, int length) {
        return addField(type, null, typeExtent, length);
    }

    private int addField(Datatype type, Struct nested, int typeExtent, int length) {
        checkOpen();
        if (length < 0) {
            throw new IllegalArgumentException("negative field length " + length);
        }
        int offset = position;
        fields.add(new Field(type, nested, offset, length));
        position = Math.addExact(offset, Math.multiplyExact(typeExtent, length));
        extent = Math.max(extent, position);
        return offset;
    }

    private void checkOpen() {
        if (sealed) {
            throw new IllegalStateException("the struct layout is already in use; declare fields in the constructor");
        }
    }

    private static int checkedOffset(int index, int size, int capacity, String call) throws MPIException {
        long offset = (long) index * size;
        if (index < 0 || offset + size > capacity) {
            throw new MPIException(MPI.ERR_BUFFER,
                    call + ": struct " + index + " of " + size + " bytes is outside a buffer of " + capacity
                            + " bytes");
        }
        return (int) offset;
    }

    /**
     * Accessor for one struct inside a buffer. A {@link Struct} subclass declares its own {@code Data} subclass
     * (an inner class) with typed getters and setters built on the protected methods here; field offsets are the
     * values returned by the {@code add*} methods and indices count elements of an array field.
     */
    public abstract class Data {
        /** For subclasses: an accessor of one structure in a buffer, created by {@code Struct.newData()}. */
        public Data() {}

        private ByteBuffer buffer;
        private int offset;

        final void attach(ByteBuffer buffer, int offset) {
            this.buffer = buffer;
            this.offset = offset;
        }

        /** The buffer holding this struct (the whole buffer, not a slice). */
        public final ByteBuffer getBuffer() {
            return buffer;
        }

        protected final byte getByte(int field) {
            return buffer.get(offset + field);
        }

        protected final byte getByte(int field, int index) {
            return buffer.get(offset + field + index);
        }

        protected final void putByte(int field, byte v) {
            buffer.put(offset + field, v);
        }

        protected final void putByte(int field, int index, byte v) {
            buffer.put(offset + field + index, v);
        }

        protected final char getChar(int field) {
            return buffer.getChar(offset + field);
        }

        protected final char getChar(int field, int index) {
            return buffer.getChar(offset + field + index * 2);
        }

        protected final void putChar(int field, char v) {
            buffer.putChar(offset + field, v);
        }

        protected final void putChar(int field, int index, char v) {
            buffer.putChar(offset + field + index * 2, v);
        }

        protected final short getShort(int field) {
            return buffer.getShort(offset + field);
        }

        protected final short getShort(int field, int index) {
            return buffer.getShort(offset + field + index * 2);
        }

        protected final void putShort(int field, short v) {
            buffer.putShort(offset + field, v);
        }

        protected final void putShort(int field, int index, short v) {
            buffer.putShort(offset + field + index * 2, v);
        }

        protected final int getInt(int field) {
            return buffer.getInt(offset + field);
        }

        protected final int getInt(int field, int index) {
            return buffer.getInt(offset + field + index * 4);
        }

        protected final void putInt(int field, int v) {
            buffer.putInt(offset + field, v);
        }

        protected final void putInt(int field, int index, int v) {
            buffer.putInt(offset + field + index * 4, v);
        }

        protected final long getLong(int field) {
            return buffer.getLong(offset + field);
        }

        protected final long getLong(int field, int index) {
            return buffer.getLong(offset + field + index * 8);
        }

        protected final void putLong(int field, long v) {
            buffer.putLong(offset + field, v);
        }

        protected final void putLong(int field, int index, long v) {
            buffer.putLong(offset + field + index * 8, v);
        }

        protected final float getFloat(int field) {
            return buffer.getFloat(offset + field);
        }

        protected final float getFloat(int field, int index) {
            return buffer.getFloat(offset + field + index * 4);
        }

        protected final void putFloat(int field, float v) {
            buffer.putFloat(offset + field, v);
        }

        protected final void putFloat(int field, int index, float v) {
            buffer.putFloat(offset + field + index * 4, v);
        }

        protected final double getDouble(int field) {
            return buffer.getDouble(offset + field);
        }

        protected final double getDouble(int field, int index) {
            return buffer.getDouble(offset + field + index * 8);
        }

        protected final void putDouble(int field, double v) {
            buffer.putDouble(offset + field, v);
        }

        protected final void putDouble(int field, int index, double v) {
            buffer.putDouble(offset + field + index * 8, v);
        }

        /** An accessor for the nested struct {@code struct} stored at byte offset {@code field}. */
        protected final <S extends Struct, D extends Struct.Data> D getData(S struct, int field) {
            return getData(struct, field, 0);
        }

        /** An accessor for element {@code index} of the nested struct array at byte offset {@code field}. */
        @SuppressWarnings("unchecked") // the caller names the nested struct's Data subclass
        protected final <S extends Struct, D extends Struct.Data> D getData(S struct, int field, int index) {
            Struct s = struct;
            s.sealed = true;
            Data d = s.newData();
            d.attach(buffer, offset + field + index * s.extent);
            return (D) d;
        }

        /**
         * A byte buffer starting at the field at byte offset {@code field} and running to the end of the
         * underlying buffer, in its byte order. {@code type} names the field's datatype.
         */
        protected final ByteBuffer getBuffer(Datatype type, int field) {
            int start = offset + field;
            return buffer.slice(start, buffer.capacity() - start).order(buffer.order());
        }

        /**
         * A byte buffer starting at element {@code index} of the array field of datatype {@code type} at byte
         * offset {@code field}, running to the end of the underlying buffer.
         */
        protected final ByteBuffer getBuffer(Datatype type, int field, int index) throws MPIException {
            if (type == null || type.isNull()) {
                throw new MPIException(MPI.ERR_TYPE, "Struct.Data.getBuffer: the datatype is null");
            }
            long start = offset + field + index * type.extentBytes();
            if (start < 0 || start > buffer.capacity()) {
                throw new MPIException(MPI.ERR_BUFFER, "Struct.Data.getBuffer: element " + index
                        + " lies outside the buffer");
            }
            return buffer.slice((int) start, buffer.capacity() - (int) start).order(buffer.order());
        }
    }
}
