package mpi;

import org.jmpi.datatype.BaseKind;
import org.jmpi.datatype.TypeDescriptor;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;

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

    /** The layout, in bytes, used by the runtime. */
    final TypeDescriptor desc;

    /** True once committed (predefined types are born committed). */
    boolean committed;

    /** True for the predefined types, which cannot be freed. */
    final boolean predefined;

    /** A user-set name, or null for the default. */
    String userName;

    Datatype(String name, int baseKind, int baseSizeBytes) {
        this.name = name;
        this.baseKind = baseKind;
        this.baseSizeBytes = baseSizeBytes;
        this.desc = predefinedLayout(baseKind);
        this.committed = true;
        this.predefined = true;
    }

    /** A derived datatype over {@code desc}; starts uncommitted. */
    Datatype(String name, int baseKind, int baseSizeBytes, TypeDescriptor desc) {
        this.name = name;
        this.baseKind = baseKind;
        this.baseSizeBytes = baseSizeBytes;
        this.desc = desc;
        this.predefined = false;
    }

    private static TypeDescriptor predefinedLayout(int kind) {
        return switch (kind) {
            case KIND_NULL -> new TypeDescriptor(BaseKind.BYTE, new long[0], new long[0], 0, 0);
            case KIND_BYTE, KIND_PACKED -> TypeDescriptor.primitive(BaseKind.BYTE);
            case KIND_CHAR -> TypeDescriptor.primitive(BaseKind.CHAR);
            case KIND_SHORT -> TypeDescriptor.primitive(BaseKind.SHORT);
            case KIND_BOOLEAN -> TypeDescriptor.primitive(BaseKind.BOOLEAN);
            case KIND_INT -> TypeDescriptor.primitive(BaseKind.INT);
            case KIND_LONG -> TypeDescriptor.primitive(BaseKind.LONG);
            case KIND_FLOAT -> TypeDescriptor.primitive(BaseKind.FLOAT);
            case KIND_DOUBLE -> TypeDescriptor.primitive(BaseKind.DOUBLE);
            case KIND_FLOAT_COMPLEX -> new TypeDescriptor(BaseKind.FLOAT, new long[] {0}, new long[] {8}, 0, 8);
            case KIND_DOUBLE_COMPLEX -> new TypeDescriptor(BaseKind.DOUBLE, new long[] {0}, new long[] {16}, 0, 16);
            case KIND_INT2 -> new TypeDescriptor(BaseKind.INT, new long[] {0}, new long[] {8}, 0, 8);
            // pairs of a value and an int index, laid out as the C structs (value, then the int, aligned)
            case KIND_SHORT_INT -> new TypeDescriptor(BaseKind.BYTE, new long[] {0, 4}, new long[] {2, 4}, 0, 8);
            case KIND_LONG_INT -> new TypeDescriptor(BaseKind.BYTE, new long[] {0, 8}, new long[] {8, 4}, 0, 16);
            case KIND_FLOAT_INT -> new TypeDescriptor(BaseKind.BYTE, new long[] {0, 4}, new long[] {4, 4}, 0, 8);
            case KIND_DOUBLE_INT -> new TypeDescriptor(BaseKind.BYTE, new long[] {0, 8}, new long[] {8, 4}, 0, 16);
            default -> throw new IllegalArgumentException("unknown datatype kind " + kind);
        };
    }

    private void checkUsable() {
        if (isNull()) {
            throw new MpiError(ErrorClass.ERR_TYPE, "invalid datatype (null or freed)");
        }
    }

    private int units(long bytes) {
        return (int) (bytes / desc.base().bytes);
    }

    public int getLb() throws MPIException {
        try {
            checkUsable();
            return units(desc.lb());
        } catch (MpiError e) {
            throw Errors.raise("MPI_Type_get_extent", e);
        }
    }

    public int getExtent() throws MPIException {
        try {
            checkUsable();
            return units(desc.extent());
        } catch (MpiError e) {
            throw Errors.raise("MPI_Type_get_extent", e);
        }
    }

    public int getTrueLb() throws MPIException {
        try {
            checkUsable();
            return units(desc.trueLb());
        } catch (MpiError e) {
            throw Errors.raise("MPI_Type_get_true_extent", e);
        }
    }

    public int getTrueExtent() throws MPIException {
        try {
            checkUsable();
            return units(desc.trueExtent());
        } catch (MpiError e) {
            throw Errors.raise("MPI_Type_get_true_extent", e);
        }
    }

    public int getSize() throws MPIException {
        try {
            checkUsable();
            return units(desc.size());
        } catch (MpiError e) {
            throw Errors.raise("MPI_Type_size", e);
        }
    }

    public void commit() throws MPIException {
        try {
            checkUsable();
            committed = true;
        } catch (MpiError e) {
            throw Errors.raise("MPI_Type_commit", e);
        }
    }

    public void free() throws MPIException {
        try {
            checkUsable();
            if (predefined) {
                throw new MpiError(ErrorClass.ERR_TYPE, "cannot free the predefined datatype " + name);
            }
            freed = true;
        } catch (MpiError e) {
            throw Errors.raise("MPI_Type_free", e);
        }
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

    public void setName(String name) throws MPIException {
        try {
            checkUsable();
            if (name == null) {
                throw new MpiError(ErrorClass.ERR_ARG, "null name");
            }
            userName = name.length() > MPI.MAX_OBJECT_NAME - 1 ? name.substring(0, MPI.MAX_OBJECT_NAME - 1) : name;
        } catch (MpiError e) {
            throw Errors.raise("MPI_Type_set_name", e);
        }
    }

    public String getName() throws MPIException {
        try {
            checkUsable();
            return userName != null ? userName : predefined ? name : "";
        } catch (MpiError e) {
            throw Errors.raise("MPI_Type_get_name", e);
        }
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
