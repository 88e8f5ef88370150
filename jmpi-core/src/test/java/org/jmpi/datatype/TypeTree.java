package org.jmpi.datatype;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A datatype construction, as a tree of MPI type constructors. {@link #build()} makes it with {@link TypeDescriptor}
 * (the code under test); {@link #ref()} makes it with {@link RefType} (the reference). Vector and indexed strides
 * and displacements are in extents of the child, as in MPI; the H-forms, struct and resize use bytes.
 */
sealed interface TypeTree {
    TypeDescriptor build();

    RefType ref();

    BaseKind base();

    /** Number of type-map entries of one element (computed without building it), saturated. */
    long entries();

    private static long mul(long a, long b) {
        return a == 0 || b == 0 ? 0 : a > Long.MAX_VALUE / 4 / b ? Long.MAX_VALUE / 4 : a * b;
    }

    record Prim(BaseKind kind) implements TypeTree {
        public TypeDescriptor build() {
            return TypeDescriptor.primitive(kind);
        }

        public RefType ref() {
            return RefType.primitive(kind);
        }

        public BaseKind base() {
            return kind;
        }

        public long entries() {
            return 1;
        }

        @Override
        public String toString() {
            return kind.name();
        }
    }

    record Contig(int count, TypeTree child) implements TypeTree {
        public long entries() {
            return mul(count, child.entries());
        }

        public TypeDescriptor build() {
            return TypeDescriptor.contiguous(count, child.build());
        }

        public RefType ref() {
            RefType c = child.ref();
            return copies(child.base(), c, count, 1, c.extent(), c.extent());
        }

        public BaseKind base() {
            return child.base();
        }
    }

    record Vector(int count, int blockLength, int stride, TypeTree child) implements TypeTree {
        public long entries() {
            return mul(mul(count, blockLength), child.entries());
        }

        public TypeDescriptor build() {
            return TypeDescriptor.hvector(count, blockLength, stride * child.ref().extent(), child.build());
        }

        public RefType ref() {
            RefType c = child.ref();
            return copies(child.base(), c, count, blockLength, stride * c.extent(), c.extent());
        }

        public BaseKind base() {
            return child.base();
        }
    }

    record HVector(int count, int blockLength, int strideBytes, TypeTree child) implements TypeTree {
        public long entries() {
            return mul(mul(count, blockLength), child.entries());
        }

        public TypeDescriptor build() {
            return TypeDescriptor.hvector(count, blockLength, strideBytes, child.build());
        }

        public RefType ref() {
            RefType c = child.ref();
            return copies(child.base(), c, count, blockLength, strideBytes, c.extent());
        }

        public BaseKind base() {
            return child.base();
        }
    }

    record Indexed(int[] blockLengths, int[] displacements, boolean bytes, TypeTree child) implements TypeTree {
        public long entries() {
            return mul(Arrays.stream(blockLengths).asLongStream().sum(), child.entries());
        }

        public TypeDescriptor build() {
            long unit = bytes ? 1 : child.ref().extent();
            long[] d = new long[displacements.length];
            for (int i = 0; i < d.length; i++) {
                d[i] = displacements[i] * unit;
            }
            return TypeDescriptor.hindexed(Arrays.stream(blockLengths).asLongStream().toArray(), d, child.build());
        }

        public RefType ref() {
            RefType c = child.ref();
            long unit = bytes ? 1 : c.extent();
            List<RefType> types = new ArrayList<>();
            List<Long> disps = new ArrayList<>();
            for (int i = 0; i < blockLengths.length; i++) {
                for (int j = 0; j < blockLengths[i]; j++) {
                    types.add(c);
                    disps.add(displacements[i] * unit + j * c.extent());
                }
            }
            return RefType.ofCopies(child.base(), types, disps);
        }

        public BaseKind base() {
            return child.base();
        }

        @Override
        public String toString() {
            return (bytes ? "HIndexed" : "Indexed") + "[" + Arrays.toString(blockLengths) + " at "
                    + Arrays.toString(displacements) + " of " + child + "]";
        }
    }

    record Struct(int[] blockLengths, int[] displacements, List<TypeTree> children) implements TypeTree {
        public long entries() {
            long n = 0;
            for (int i = 0; i < blockLengths.length; i++) {
                n = Math.min(Long.MAX_VALUE / 4, n + mul(blockLengths[i], children.get(i).entries()));
            }
            return n;
        }

        public TypeDescriptor build() {
            TypeDescriptor[] t = new TypeDescriptor[children.size()];
            for (int i = 0; i < t.length; i++) {
                t[i] = children.get(i).build();
            }
            return TypeDescriptor.struct(Arrays.stream(blockLengths).asLongStream().toArray(),
                    Arrays.stream(displacements).asLongStream().toArray(), t);
        }

        public RefType ref() {
            List<RefType> types = new ArrayList<>();
            List<Long> disps = new ArrayList<>();
            for (int i = 0; i < blockLengths.length; i++) {
                RefType c = children.get(i).ref();
                for (int j = 0; j < blockLengths[i]; j++) {
                    types.add(c);
                    disps.add(displacements[i] + j * c.extent());
                }
            }
            return RefType.ofCopies(BaseKind.BYTE, types, disps);
        }

        public BaseKind base() {
            return BaseKind.BYTE;
        }

        @Override
        public String toString() {
            return "Struct[" + Arrays.toString(blockLengths) + " at " + Arrays.toString(displacements) + " of "
                    + children + "]";
        }
    }

    record Resized(int lbBytes, int extentBytes, TypeTree child) implements TypeTree {
        public long entries() {
            return child.entries();
        }

        public TypeDescriptor build() {
            return TypeDescriptor.resized(child.build(), lbBytes, extentBytes);
        }

        public RefType ref() {
            RefType c = child.ref();
            return new RefType(c.base(), c.entries(), (long) lbBytes, (long) lbBytes + extentBytes);
        }

        public BaseKind base() {
            return child.base();
        }
    }

    /** {@code count} blocks {@code stride} bytes apart, each of {@code blockLength} copies {@code step} apart. */
    private static RefType copies(BaseKind base, RefType c, int count, int blockLength, long stride, long step) {
        List<RefType> types = new ArrayList<>();
        List<Long> disps = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            for (int j = 0; j < blockLength; j++) {
                types.add(c);
                disps.add(i * stride + j * step);
            }
        }
        return RefType.ofCopies(base, types, disps);
    }
}
