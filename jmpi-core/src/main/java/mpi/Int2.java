package mpi;

/**
 * Layout of the MINLOC/MAXLOC pair type {@link MPI#INT2}: a {@code int} value at byte 0 and an {@code int} index at
 * byte 4, 8 bytes per pair (the C layout). Use {@code MPI.int2.getData(buffer, i)} to read or write pair {@code i}.
 */
public final class Int2 extends Struct {
    private final int value;
    private final int index;

    Int2() {
        value = addInt();
        setOffset(4);
        index = addInt();
        setOffset(8);
    }

    /** The pair's predefined datatype, {@link MPI#INT2}. */
    @Override
    Datatype predefinedType() {
        return MPI.INT2;
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
        public int getValue() {
            return getInt(value);
        }

        /** The index. */
        public int getIndex() {
            return getInt(index);
        }

        /** Stores the value. */
        public void putValue(int v) {
            putInt(value, v);
        }

        /** Stores the index. */
        public void putIndex(int v) {
            putInt(index, v);
        }
    }
}
