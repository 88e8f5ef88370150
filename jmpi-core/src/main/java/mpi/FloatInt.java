package mpi;

/**
 * Layout of the MINLOC/MAXLOC pair type {@link MPI#FLOAT_INT}: a {@code float} value at byte 0 and an {@code int} index at
 * byte 4, 8 bytes per pair (the C layout). Use {@code MPI.floatInt.getData(buffer, i)} to read or write pair {@code i}.
 */
public final class FloatInt extends Struct {
    private final int value;
    private final int index;

    FloatInt() {
        value = addFloat();
        setOffset(4);
        index = addInt();
        setOffset(8);
    }

    /** The pair's predefined datatype, {@link MPI#FLOAT_INT}. */
    @Override
    Datatype predefinedType() {
        return MPI.FLOAT_INT;
    }

    /** Creates an accessor object for one pair. */
    @Override
    protected Data newData() {
        return new Data();
    }

    /** Accessor for one pair. */
    public final class Data extends Struct.Data {
        /** Created by {@code newData()}. */
        public Data() {}

        /** The value. */
        public float getValue() {
            return getFloat(value);
        }

        /** The index. */
        public int getIndex() {
            return getInt(index);
        }

        /** Stores the value. */
        public void putValue(float v) {
            putFloat(value, v);
        }

        /** Stores the index. */
        public void putIndex(int v) {
            putInt(index, v);
        }
    }
}
