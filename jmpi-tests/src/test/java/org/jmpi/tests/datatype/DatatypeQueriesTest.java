package org.jmpi.tests.datatype;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import org.jmpi.junit.MpiTest;

/** Bounds and sizes in base-type units, names, duplicates and attributes of datatypes. */
class DatatypeQueriesTest {

    private static void bounds(Datatype t, int lb, int extent, int trueLb, int trueExtent, int size)
            throws MPIException {
        assertThat(t.getLb()).as("lb of %s", t).isEqualTo(lb);
        assertThat(t.getExtent()).as("extent of %s", t).isEqualTo(extent);
        assertThat(t.getTrueLb()).as("true lb of %s", t).isEqualTo(trueLb);
        assertThat(t.getTrueExtent()).as("true extent of %s", t).isEqualTo(trueExtent);
        assertThat(t.getSize()).as("size of %s", t).isEqualTo(size);
    }

    @MpiTest(ranks = 1, timeoutSeconds = 30)
    void boundsAreInUnitsOfTheBaseType() throws MPIException {
        bounds(MPI.INT, 0, 1, 0, 1, 1);
        bounds(MPI.DOUBLE_COMPLEX, 0, 2, 0, 2, 2);
        bounds(MPI.SHORT_INT, 0, 8, 0, 8, 6);
        bounds(Datatype.createContiguous(4, MPI.LONG), 0, 4, 0, 4, 4);
        bounds(Datatype.createVector(3, 2, 4, MPI.INT), 0, 10, 0, 10, 6);
        // byte stride: entries at 0, -8 and -16 bytes
        bounds(Datatype.createHVector(3, 1, -8, MPI.INT), -4, 5, -4, 5, 3);
        bounds(Datatype.createIndexed(new int[] {2, 1}, new int[] {3, 0}, MPI.SHORT), 0, 5, 0, 5, 3);
        bounds(Datatype.createHIndexed(new int[] {1}, new int[] {16}, MPI.DOUBLE), 2, 1, 2, 1, 1);
        bounds(Datatype.createResized(MPI.INT, -1, 3), -1, 3, 0, 1, 1);
        // a struct is byte-based: an int at 4, two doubles at 16
        bounds(Datatype.createStruct(new int[] {1, 2}, new int[] {4, 16}, new Datatype[] {MPI.INT, MPI.DOUBLE}), 4,
                28, 4, 28, 20);
        // a resized type inside a vector keeps its spacing
        Datatype spaced = Datatype.createResized(MPI.FLOAT, 0, 3);
        bounds(Datatype.createContiguous(2, spaced), 0, 6, 0, 4, 2);
        // empty types
        bounds(Datatype.createVector(0, 5, 2, MPI.INT), 0, 0, 0, 0, 0);
        assertThat(Datatype.createContiguous(2, MPI.INT).isNull()).isFalse();
        assertThat(MPI.DATATYPE_NULL.isNull()).isTrue();
    }

    @MpiTest(ranks = 1, timeoutSeconds = 30)
    void namesDuplicatesAndAttributes() throws MPIException {
        assertThat(MPI.INT.getName()).isEqualTo("MPI_INT");
        Datatype v = Datatype.createVector(2, 1, 3, MPI.INT);
        assertThat(v.getName()).isEmpty();
        v.setName("every third");
        assertThat(v.getName()).isEqualTo("every third");
        v.commit();

        int key = Datatype.createKeyval();
        int other = Datatype.createKeyval();
        assertThat(other).isNotEqualTo(key);
        assertThat(v.getAttr(key)).isNull();
        List<String> value = List.of("a", "b");
        v.setAttr(key, value);
        Object got = v.getAttr(key);
        assertThat(got).isEqualTo(value);

        Datatype d = v.dup();
        assertThat(d).isNotSameAs(v);
        assertThat(d.getName()).isEqualTo("every third");
        assertThat(d.getExtent()).isEqualTo(v.getExtent());
        assertThat(d.getAttr(key)).isEqualTo(value);
        // the duplicate is committed like its original and usable at once
        int[] in = {1, 2, 3, 4};
        int[] out = new int[4];
        MPI.COMM_WORLD.sendRecv(in, 1, d, 0, 1, out, 1, d, 0, 1);
        assertThat(out).containsExactly(1, 0, 0, 4);

        d.deleteAttr(key);
        assertThat(d.getAttr(key)).isNull();
        assertThat(v.getAttr(key)).isEqualTo(value);
        Datatype c = v.clone();
        assertThat(c.getSize()).isEqualTo(2);
        Datatype intCopy = MPI.INT.dup();
        assertThat(intCopy.getName()).isEqualTo("MPI_INT");
        intCopy.free();
        assertThat(intCopy.isNull()).isTrue();
        Datatype.freeKeyval(key);
        Datatype.freeKeyval(other);
        c.free();
        d.free();
        v.free();
        assertThat(v.isNull()).isTrue();
    }
}
