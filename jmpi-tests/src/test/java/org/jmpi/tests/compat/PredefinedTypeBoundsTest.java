package org.jmpi.tests.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Struct;
import org.jmpi.junit.MpiTest;

/**
 * Issue 12, item 2: every predefined datatype answers getLb/getExtent/getTrueLb/getTrueExtent/getSize with the
 * values of Open MPI's Java bindings (in units of the type's base: the element for the Java primitive types and the
 * complex numbers, the byte for the MINLOC/MAXLOC pair types, which follow the C structs' layout).
 */
class PredefinedTypeBoundsTest {

    /** name, type, lb, extent, true lb, true extent, size. */
    private static Object[][] table() {
        return new Object[][] {
            {"BYTE", MPI.BYTE, 0, 1, 0, 1, 1},
            {"CHAR", MPI.CHAR, 0, 1, 0, 1, 1},
            {"SHORT", MPI.SHORT, 0, 1, 0, 1, 1},
            {"BOOLEAN", MPI.BOOLEAN, 0, 1, 0, 1, 1},
            {"INT", MPI.INT, 0, 1, 0, 1, 1},
            {"LONG", MPI.LONG, 0, 1, 0, 1, 1},
            {"FLOAT", MPI.FLOAT, 0, 1, 0, 1, 1},
            {"DOUBLE", MPI.DOUBLE, 0, 1, 0, 1, 1},
            {"PACKED", MPI.PACKED, 0, 1, 0, 1, 1},
            {"FLOAT_COMPLEX", MPI.FLOAT_COMPLEX, 0, 2, 0, 2, 2},
            {"DOUBLE_COMPLEX", MPI.DOUBLE_COMPLEX, 0, 2, 0, 2, 2},
            {"INT2", MPI.INT2, 0, 8, 0, 8, 8},
            {"SHORT_INT", MPI.SHORT_INT, 0, 8, 0, 8, 6},
            {"LONG_INT", MPI.LONG_INT, 0, 16, 0, 12, 12},
            {"FLOAT_INT", MPI.FLOAT_INT, 0, 8, 0, 8, 8},
            {"DOUBLE_INT", MPI.DOUBLE_INT, 0, 16, 0, 12, 12},
        };
    }

    @MpiTest(ranks = 1)
    void everyPredefinedTypeHasOpenMpisBounds() throws MPIException {
        for (Object[] row : table()) {
            Datatype t = (Datatype) row[1];
            String name = (String) row[0];
            assertThat(t.getLb()).as("lb of %s", name).isEqualTo(row[2]);
            assertThat(t.getExtent()).as("extent of %s", name).isEqualTo(row[3]);
            assertThat(t.getTrueLb()).as("true lb of %s", name).isEqualTo(row[4]);
            assertThat(t.getTrueExtent()).as("true extent of %s", name).isEqualTo(row[5]);
            assertThat(t.getSize()).as("size of %s", name).isEqualTo(row[6]);
        }
    }

    /** The pair structs have the extent of their types, so a buffer sized by one fits the other. */
    @MpiTest(ranks = 1)
    void pairStructsMatchTheirTypes() throws MPIException {
        Object[][] pairs = {{MPI.int2, MPI.INT2}, {MPI.shortInt, MPI.SHORT_INT}, {MPI.longInt, MPI.LONG_INT},
            {MPI.floatInt, MPI.FLOAT_INT}, {MPI.doubleInt, MPI.DOUBLE_INT}};
        for (Object[] p : pairs) {
            Struct s = (Struct) p[0];
            Datatype t = (Datatype) p[1];
            assertThat(s.getExtent()).as("extent of the struct for %s", t.getName()).isEqualTo(t.getExtent());
            assertThat(s.getType()).isSameAs(t);
            // a buffer sized by the type's extent holds one struct
            ByteBuffer one = MPI.newByteBuffer(t.getExtent() * 2);
            assertThat((Object) s.getData(one, 1)).isNotNull();
        }
    }
}
