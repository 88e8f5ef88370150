package mpi;

/**
 * Layout of the MINLOC/MAXLOC pair type {@link MPI#SHORT_INT}: a {@code short} value at byte 0 and an {@code int} index at
 * byte 4, 8 bytes per pair (the C layout). Use {@code MPI.shortInt.getData(buffer, i)} to read or write pair {@code i}.
 */
public final class ShortInt extends Struct {
    private final int value;
    private final int index;

    ShortInt() {
        value = addShort();
        setOffset(4);
        index = addInt();
        setOffset(8);
    }

    /** The pair's predefined datatype, {@link MPI#SHORT_INT}. */
    @Override
    Datatype predefinedType() {
        return MPI.SHORT_INT;
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
        public short getValue() {
            return getShort(value);
        }

        /** The index. */
        public int getIndex() {
            return getInt(index);
        }

        /** Stores the value. */
        public void putValue(short v) {
            putShort(value, v);
        }

        /** Stores the index. */
        public void putIndex(int v) {
            putInt(index, v);
        }
    }
}
