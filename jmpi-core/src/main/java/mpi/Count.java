package mpi;

/** A mutable element count that may exceed the range of {@code int} (MPI_Count). */
@SuppressWarnings("rawtypes") // the Open MPI bindings declare the raw type; keeping it keeps their signatures
public final class Count implements Comparable {
    private long count;

    /** Creates a count holding {@code count}. */
    public Count(long count) {
        this.count = count;
    }

    /** The value. */
    public long getCount() {
        return count;
    }

    /** Replaces the value. */
    public void setCount(long count) {
        this.count = count;
    }

    /** True when {@code obj} is a {@code Count} with the same value. */
    @Override
    public boolean equals(Object obj) {
        return obj instanceof Count other && other.count == count;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(count);
    }

    /**
     * Compares by value.
     *
     * @throws ClassCastException when {@code obj} is not a {@code Count}
     */
    @Override
    public int compareTo(Object obj) {
        return Long.compare(count, ((Count) obj).count);
    }

    @Override
    public String toString() {
        return Long.toString(count);
    }
}
