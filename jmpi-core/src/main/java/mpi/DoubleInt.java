package mpi;

/**
 * Layout of the MINLOC/MAXLOC pair type {@link MPI#DOUBLE_INT}: a {@code double} value at byte 0 and an {@code int} index at
 * byte 8, 16 bytes per pair (the C layout). Use {@code MPI.doubleInt.getData(buffer, i)} to read or write pair {@code i}.
 */
public final class DoubleInt extends Struct {
    private final int value;
    private final int index;

    DoubleInt() {
        value = addDouble();
        setOffset(8);
        index = addInt();
        setOffset(16);
    }

    /** The pair's predefined datatype, {@link MPI#DOUBLE_INT}. */
    @Override
    Datatype predefinedType() {
        return MPI.DOUBLE_INT;
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
        public double getValue() {
            return getDouble(value);
        }

        /** The index. */
        public int getIndex() {
            return getInt(index);
        }

        /** Stores the value. */
        public void putValue(double v) {
            putDouble(value, v);
        }

        /** Stores the index. */
        public void putIndex(int v) {
            putInt(index, v);
        }
    }
}
