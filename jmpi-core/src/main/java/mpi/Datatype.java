package mpi;

/**
 * An MPI datatype: predefined ({@code MPI.INT}, ...) or derived. Counts, extents and lower bounds are in units
 * of the base Java type, except where a method says bytes.
 */
public final class Datatype implements Freeable, Cloneable {
    // Base kinds: the Java element type a datatype is built from.
    static final int KIND_NULL = 0;
    static final int KIND_BYTE = 1;
    static final int KIND_CHAR = 2;
    static final int KIND_SHORT = 3;
    static final int KIND_BOOLEAN = 4;
    static final int KIND_INT = 5;
    static final int KIND_LONG = 6;
    static final int KIND_FLOAT = 7;
    static final int KIND_DOUBLE = 8;
    static final int KIND_PACKED = 9;
    static final int KIND_FLOAT_COMPLEX = 10;
    static final int KIND_DOUBLE_COMPLEX = 11;
    static final int KIND_INT2 = 12;
    static final int KIND_SHORT_INT = 13;
    static final int KIND_LONG_INT = 14;
    static final int KIND_FLOAT_INT = 15;
    static final int KIND_DOUBLE_INT = 16;

    /** The MPI name, e.g. {@code MPI_INT}. */
    final String name;

    /** One of the {@code KIND_*} constants: the base Java type of the datatype. */
    final int baseKind;

    /** The size in bytes of one base element (the unit of counts, extents and offsets in this API). */
    final int baseSizeBytes;

    /** True once the datatype has been freed. */
    boolean freed;

    Datatype(String name, int baseKind, int baseSizeBytes) {
        this.name = name;
        this.baseKind = baseKind;
        this.baseSizeBytes = baseSizeBytes;
    }

    @NotImplemented
    public int getLb() throws MPIException {
        throw Unsupported.of("Datatype.getLb()");
    }

    @NotImplemented
    public int getExtent() throws MPIException {
        throw Unsupported.of("Datatype.getExtent()");
    }

    @NotImplemented
    public int getTrueLb() throws MPIException {
        throw Unsupported.of("Datatype.getTrueLb()");
    }

    @NotImplemented
    public int getTrueExtent() throws MPIException {
        throw Unsupported.of("Datatype.getTrueExtent()");
    }

    @NotImplemented
    public int getSize() throws MPIException {
        throw Unsupported.of("Datatype.getSize()");
    }

    @NotImplemented
    public void commit() throws MPIException {
        throw Unsupported.of("Datatype.commit()");
    }

    @NotImplemented
    public void free() throws MPIException {
        throw Unsupported.of("Datatype.free()");
    }

    public boolean isNull() {
        return baseKind == KIND_NULL || freed;
    }

    @NotImplemented
    public Datatype clone() {
        throw new UnsupportedOperationException("jmpi: Datatype.clone() is not implemented yet");
    }

    @NotImplemented
    public Datatype dup() throws MPIException {
        throw Unsupported.of("Datatype.dup()");
    }

    @NotImplemented
    public static Datatype createContiguous(int count, Datatype oldType) throws MPIException {
        throw Unsupported.of("Datatype.createContiguous(int, Datatype)");
    }

    @NotImplemented
    public static Datatype createVector(int count, int blockLength, int stride, Datatype oldType) throws MPIException {
        throw Unsupported.of("Datatype.createVector(int, int, int, Datatype)");
    }

    @NotImplemented
    public static Datatype createHVector(int count, int blockLength, int stride, Datatype oldType) throws MPIException {
        throw Unsupported.of("Datatype.createHVector(int, int, int, Datatype)");
    }

    @NotImplemented
    public static Datatype createIndexed(int[] blockLengths, int[] displacements, Datatype oldType) throws MPIException {
        throw Unsupported.of("Datatype.createIndexed(int[], int[], Datatype)");
    }

    @NotImplemented
    public static Datatype createHIndexed(int[] blockLengths, int[] displacements, Datatype oldType) throws MPIException {
        throw Unsupported.of("Datatype.createHIndexed(int[], int[], Datatype)");
    }

    @NotImplemented
    public static Datatype createStruct(int[] blockLengths, int[] displacements, Datatype[] types) throws MPIException {
        throw Unsupported.of("Datatype.createStruct(int[], int[], Datatype[])");
    }

    @NotImplemented
    public static Datatype createResized(Datatype oldType, int lb, int extent) throws MPIException {
        throw Unsupported.of("Datatype.createResized(Datatype, int, int)");
    }

    @NotImplemented
    public void setName(String name) throws MPIException {
        throw Unsupported.of("Datatype.setName(String)");
    }

    @NotImplemented
    public String getName() throws MPIException {
        throw Unsupported.of("Datatype.getName()");
    }

    @NotImplemented
    public static int createKeyval() throws MPIException {
        throw Unsupported.of("Datatype.createKeyval()");
    }

    @NotImplemented
    public static void freeKeyval(int keyval) throws MPIException {
        throw Unsupported.of("Datatype.freeKeyval(int)");
    }

    @NotImplemented
    public void setAttr(int keyval, Object value) throws MPIException {
        throw Unsupported.of("Datatype.setAttr(int, Object)");
    }

    @NotImplemented
    public Object getAttr(int keyval) throws MPIException {
        throw Unsupported.of("Datatype.getAttr(int)");
    }

    @NotImplemented
    public void deleteAttr(int keyval) throws MPIException {
        throw Unsupported.of("Datatype.deleteAttr(int)");
    }

    @Override
    public String toString() {
        return name;
    }
}
