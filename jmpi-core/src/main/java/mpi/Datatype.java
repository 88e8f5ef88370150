package mpi;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jmpi.datatype.BaseKind;
import org.jmpi.datatype.Primitive;
import org.jmpi.datatype.TypeDescriptor;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;

/**
 * An MPI datatype: predefined ({@code MPI.INT}, ...) or derived. Counts, extents and lower bounds are in units
 * of the base Java type, except where a method says bytes: the stride of {@link #createHVector} and the
 * displacements of {@link #createHIndexed} and {@link #createStruct}.
 *
 * <p>A derived type keeps the base type of the type it is built from; {@link #createStruct} gives a byte-based type
 * (used with {@code byte[]} or a {@link java.nio.ByteBuffer}), whatever its fields. The layout is compiled at
 * construction into an {@link TypeDescriptor} (a plan of contiguous byte runs), which every operation uses.
 *
 * <p>Threading: the layout is immutable. The committed/freed flags and the name are plain fields, set by the thread
 * that owns the type (MPI leaves concurrent changes to one handle to the user); attributes live in a concurrent map,
 * and the keyval registry is shared by all threads of a rank.
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

    /** The MPI name, e.g. {@code MPI_INT}; for derived types a description used in error messages. */
    final String name;

    /**
     * One of the {@code KIND_*} constants: the predefined type this one is built from (for derived types, that of
     * the old type; {@link #KIND_BYTE} for structs).
     */
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

    /** Attribute values by keyval, serialised (as the Open MPI bindings store them). */
    private final Map<Integer, byte[]> attributes = new ConcurrentHashMap<>();

    /** Keyvals created by {@link #createKeyval()} and not yet freed. */
    private static final Set<Integer> KEYVALS = ConcurrentHashMap.newKeySet();

    private static final AtomicInteger NEXT_KEYVAL = new AtomicInteger(1);

    /**
     * A predefined datatype.
     *
     * @param baseSizeBytes the size of one element of the type (the unit of its base is taken from the layout)
     */
    Datatype(String name, int baseKind, int baseSizeBytes) {
        this.name = name;
        this.baseKind = baseKind;
        this.desc = predefinedLayout(baseKind);
        this.baseSizeBytes = desc.base().bytes;
        this.committed = true;
        this.predefined = true;
    }

    /** A derived datatype over {@code desc}; starts uncommitted. */
    Datatype(String name, int baseKind, int baseSizeBytes, TypeDescriptor desc) {
        this.name = name;
        this.baseKind = baseKind;
        this.baseSizeBytes = desc.base().bytes;
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
            case KIND_FLOAT_COMPLEX -> TypeDescriptor.predefined(BaseKind.FLOAT, Primitive.FLOAT_COMPLEX,
                    new long[] {0}, new long[] {8}, 8);
            case KIND_DOUBLE_COMPLEX -> TypeDescriptor.predefined(BaseKind.DOUBLE, Primitive.DOUBLE_COMPLEX,
                    new long[] {0}, new long[] {16}, 16);
            case KIND_INT2 -> TypeDescriptor.predefined(BaseKind.BYTE, Primitive.INT2, new long[] {0}, new long[] {8}, 8);
            // pairs of a value and an int index, laid out as the C structs (value, then the int, aligned)
            case KIND_SHORT_INT -> TypeDescriptor.predefined(BaseKind.BYTE, Primitive.SHORT_INT, new long[] {0, 4},
                    new long[] {2, 4}, 8);
            case KIND_LONG_INT -> TypeDescriptor.predefined(BaseKind.BYTE, Primitive.LONG_INT, new long[] {0, 8},
                    new long[] {8, 4}, 16);
            case KIND_FLOAT_INT -> TypeDescriptor.predefined(BaseKind.BYTE, Primitive.FLOAT_INT, new long[] {0, 4},
                    new long[] {4, 4}, 8);
            case KIND_DOUBLE_INT -> TypeDescriptor.predefined(BaseKind.BYTE, Primitive.DOUBLE_INT, new long[] {0, 8},
                    new long[] {8, 4}, 16);
            default -> throw new IllegalArgumentException("unknown datatype kind " + kind);
        };
    }

    /** A new derived datatype built from {@code old}, uncommitted. */
    private static Datatype derived(String what, int baseKind, TypeDescriptor desc) {
        return new Datatype("derived datatype (" + what + ")", baseKind, desc.base().bytes, desc);
    }

    /** The extent in bytes (for {@link Struct}). */
    long extentBytes() {
        return desc.extent();
    }

    private void checkUsable() {
        if (isNull()) {
            throw new MpiError(ErrorClass.ERR_TYPE, freed ? "the datatype has been freed" : "invalid datatype (null)");
        }
    }

    /** Bytes in base-type units, rounded down; MPI.UNDEFINED when the result does not fit in an int. */
    private int units(long bytes) {
        long u = Math.floorDiv(bytes, desc.base().bytes);
        return u == (int) u ? (int) u : MPI.UNDEFINED;
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
            JmpiRuntime.get();
            checkUsable();
            committed = true;
        } catch (MpiError e) {
            throw Errors.raise("MPI_Type_commit", e);
        }
    }

    public void free() throws MPIException {
        try {
            JmpiRuntime.get();
            checkUsable();
            if (predefined) {
                throw new MpiError(ErrorClass.ERR_TYPE, "cannot free the predefined datatype " + name);
            }
            freed = true;
            attributes.clear();
        } catch (MpiError e) {
            throw Errors.raise("MPI_Type_free", e);
        }
    }

    public boolean isNull() {
        return baseKind == KIND_NULL || freed;
    }

    /** The same as {@link #dup()}; an {@link MPIException} becomes an unchecked {@link IllegalStateException}. */
    @Override
    public Datatype clone() {
        try {
            return dup();
        } catch (MPIException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /**
     * A new datatype with the same layout, committed state, name and attributes ({@code MPI_Type_dup}). A duplicate
     * of a predefined type is a derived type: it can, and should, be freed.
     */
    public Datatype dup() throws MPIException {
        try {
            JmpiRuntime.get();
            checkUsable();
            Datatype d = new Datatype(predefined ? "duplicate of " + name : name, baseKind, baseSizeBytes, desc);
            d.committed = committed;
            d.userName = userName != null ? userName : predefined ? name : null;
            d.attributes.putAll(attributes);
            return d;
        } catch (MpiError e) {
            throw Errors.raise("MPI_Type_dup", e);
        }
    }

    /** Checks an old type given to a type constructor: it must be a valid (not null, not freed) datatype. */
    private static void checkOld(Datatype old) {
        JmpiRuntime.get();
        if (old == null || old.isNull()) {
            throw new MpiError(ErrorClass.ERR_TYPE, "invalid old datatype ("
                    + (old == null ? "null" : old.freed ? "freed" : "MPI.DATATYPE_NULL") + ")");
        }
    }

    private static void checkArrays(int[] blockLengths, int[] displacements, int n) {
        if (blockLengths == null || displacements == null) {
            throw new MpiError(ErrorClass.ERR_ARG, "null block lengths or displacements");
        }
        if (blockLengths.length != n || displacements.length != n) {
            throw new MpiError(ErrorClass.ERR_ARG, "block lengths (" + blockLengths.length + "), displacements ("
                    + displacements.length + ") and types (" + n + ") differ in number");
        }
    }

    private static long[] longs(int[] a, long unit) {
        long[] r = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            r[i] = a[i] * unit;
        }
        return r;
    }

    /** {@code count} copies of {@code oldType}, one after the other. */
    public static Datatype createContiguous(int count, Datatype oldType) throws MPIException {
        try {
            checkOld(oldType);
            return derived("contiguous", oldType.baseKind, TypeDescriptor.contiguous(count, oldType.desc));
        } catch (MpiError e) {
            throw Errors.raise("MPI_Type_contiguous", e);
        }
    }

    /**
     * {@code count} blocks of {@code blockLength} copies of {@code oldType}; block starts are {@code stride} extents
     * of {@code oldType} apart.
     */
    public static Datatype createVector(int count, int blockLength, int stride, Datatype oldType) throws MPIException {
        try {
            checkOld(oldType);
            return derived("vector", oldType.baseKind, TypeDescriptor.hvector(count, blockLength,
                    stride * oldType.desc.extent(), oldType.desc));
        } catch (MpiError e) {
            throw Errors.raise("MPI_Type_vector", e);
        }
    }

    /** Like {@link #createVector}, but the {@code stride} between block starts is in bytes. */
    public static Datatype createHVector(int count, int blockLength, int stride, Datatype oldType) throws MPIException {
        try {
            checkOld(oldType);
            return derived("hvector", oldType.baseKind,
                    TypeDescriptor.hvector(count, blockLength, stride, oldType.desc));
        } catch (MpiError e) {
            throw Errors.raise("MPI_Type_create_hvector", e);
        }
    }

    /**
     * Blocks of {@code blockLengths[i]} copies of {@code oldType} at {@code displacements[i]} extents of
     * {@code oldType}.
     */
    public static Datatype createIndexed(int[] blockLengths, int[] displacements, Datatype oldType) throws MPIException {
        try {
            checkOld(oldType);
            checkArrays(blockLengths, displacements, blockLengths == null ? 0 : blockLengths.length);
            return derived("indexed", oldType.baseKind, TypeDescriptor.hindexed(longs(blockLengths, 1),
                    longs(displacements, oldType.desc.extent()), oldType.desc));
        } catch (MpiError e) {
            throw Errors.raise("MPI_Type_indexed", e);
        }
    }

    /** Like {@link #createIndexed}, but the displacements are in bytes. */
    public static Datatype createHIndexed(int[] blockLengths, int[] displacements, Datatype oldType) throws MPIException {
        try {
            checkOld(oldType);
            checkArrays(blockLengths, displacements, blockLengths == null ? 0 : blockLengths.length);
            return derived("hindexed", oldType.baseKind,
                    TypeDescriptor.hindexed(longs(blockLengths, 1), longs(displacements, 1), oldType.desc));
        } catch (MpiError e) {
            throw Errors.raise("MPI_Type_create_hindexed", e);
        }
    }

    /**
     * Blocks of {@code blockLengths[i]} copies of {@code types[i]} at byte displacements {@code displacements[i]}.
     * The result is byte-based: use it with {@code byte[]} or a {@link java.nio.ByteBuffer}.
     */
    public static Datatype createStruct(int[] blockLengths, int[] displacements, Datatype[] types) throws MPIException {
        try {
            JmpiRuntime.get();
            if (types == null) {
                throw new MpiError(ErrorClass.ERR_ARG, "null types array");
            }
            checkArrays(blockLengths, displacements, types.length);
            TypeDescriptor[] descs = new TypeDescriptor[types.length];
            for (int i = 0; i < types.length; i++) {
                if (types[i] == null || types[i].isNull()) {
                    throw new MpiError(ErrorClass.ERR_TYPE, "types[" + i + "] is not a valid datatype ("
                            + (types[i] == null ? "null" : types[i].freed ? "freed" : "MPI.DATATYPE_NULL") + ")");
                }
                descs[i] = types[i].desc;
            }
            return derived("struct", KIND_BYTE,
                    TypeDescriptor.struct(longs(blockLengths, 1), longs(displacements, 1), descs));
        } catch (MpiError e) {
            throw Errors.raise("MPI_Type_create_struct", e);
        }
    }

    /**
     * {@code oldType} with lower bound {@code lb} and extent {@code extent}, both in units of its base type (bytes
     * for a struct type). Used to set the spacing of consecutive elements.
     */
    public static Datatype createResized(Datatype oldType, int lb, int extent) throws MPIException {
        try {
            checkOld(oldType);
            long unit = oldType.desc.base().bytes;
            return derived("resized", oldType.baseKind,
                    TypeDescriptor.resized(oldType.desc, lb * unit, extent * unit));
        } catch (MpiError e) {
            throw Errors.raise("MPI_Type_create_resized", e);
        }
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

    /** A new attribute key for datatypes. */
    public static int createKeyval() throws MPIException {
        try {
            JmpiRuntime.get();
            int k = NEXT_KEYVAL.getAndIncrement();
            KEYVALS.add(k);
            return k;
        } catch (MpiError e) {
            throw Errors.raise("MPI_Type_create_keyval", e);
        }
    }

    /** Frees a key; attributes already set with it stay readable until deleted. */
    public static void freeKeyval(int keyval) throws MPIException {
        try {
            JmpiRuntime.get();
            if (!KEYVALS.remove(keyval)) {
                throw new MpiError(ErrorClass.ERR_KEYVAL, "invalid datatype keyval " + keyval);
            }
        } catch (MpiError e) {
            throw Errors.raise("MPI_Type_free_keyval", e);
        }
    }

    /**
     * Attaches {@code value} under {@code keyval}. The value is stored serialised (it must be
     * {@link java.io.Serializable}), so {@link #getAttr} returns an equal copy, not the same object.
     */
    public void setAttr(int keyval, Object value) throws MPIException {
        try {
            JmpiRuntime.get();
            checkUsable();
            if (!KEYVALS.contains(keyval)) {
                throw new MpiError(ErrorClass.ERR_KEYVAL, "invalid datatype keyval " + keyval);
            }
            attributes.put(keyval, serialise(value));
        } catch (MpiError e) {
            throw Errors.raise("MPI_Type_set_attr", e);
        }
    }

    /** The value attached under {@code keyval} (a copy), or null when there is none. */
    public Object getAttr(int keyval) throws MPIException {
        try {
            JmpiRuntime.get();
            checkUsable();
            byte[] b = attributes.get(keyval);
            if (b == null) {
                if (!KEYVALS.contains(keyval)) {
                    throw new MpiError(ErrorClass.ERR_KEYVAL, "invalid datatype keyval " + keyval);
                }
                return null;
            }
            return deserialise(b);
        } catch (MpiError e) {
            throw Errors.raise("MPI_Type_get_attr", e);
        }
    }

    public void deleteAttr(int keyval) throws MPIException {
        try {
            JmpiRuntime.get();
            checkUsable();
            if (attributes.remove(keyval) == null && !KEYVALS.contains(keyval)) {
                throw new MpiError(ErrorClass.ERR_KEYVAL, "invalid datatype keyval " + keyval);
            }
        } catch (MpiError e) {
            throw Errors.raise("MPI_Type_delete_attr", e);
        }
    }

    private static byte[] serialise(Object value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (IOException e) {
            throw new MpiError(ErrorClass.ERR_ARG, "the attribute value cannot be serialised: " + e, e);
        }
        return bytes.toByteArray();
    }

    private static Object deserialise(byte[] b) {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(b))) {
            return in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new MpiError(ErrorClass.ERR_OTHER, "the attribute value cannot be read back: " + e, e);
        }
    }

    @Override
    public String toString() {
        return userName != null ? userName : name;
    }
}
