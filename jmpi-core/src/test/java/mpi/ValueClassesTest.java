package mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The small value classes returned by the API. */
class ValueClassesTest {
    @Test
    @SuppressWarnings("unchecked") // Count implements the raw Comparable, as in Open MPI
    void count() {
        Count c = new Count(5_000_000_000L);
        assertThat(c.getCount()).isEqualTo(5_000_000_000L);
        c.setCount(7);
        assertThat(c.getCount()).isEqualTo(7);
        assertThat(c).isEqualTo(new Count(7)).hasSameHashCodeAs(new Count(7)).isNotEqualTo(new Count(8));
        assertThat(c.equals("7")).isFalse();
        assertThat(c.compareTo(new Count(8))).isNegative();
        assertThat(c.compareTo(new Count(7))).isZero();
        assertThat(new Count(9).compareTo(c)).isPositive();
        assertThat(new Count(Long.MIN_VALUE).compareTo(new Count(Long.MAX_VALUE))).isNegative();
        assertThatThrownBy(() -> c.compareTo("x")).isInstanceOf(ClassCastException.class);
    }

    @Test
    void version() {
        Version v = MPI.getVersion();
        assertThat(v.getVersion()).isEqualTo(3).isEqualTo(MPI.VERSION);
        assertThat(v.getSubVersion()).isEqualTo(1).isEqualTo(MPI.SUBVERSION);
        assertThat(MPI.getLibVersion()).startsWith("jmpi");
    }

    @Test
    void cartParms() {
        int[] dims = {2, 3};
        CartParms p = new CartParms(dims, new boolean[] {true, false}, new int[] {1, 2});
        dims[0] = 99; // copied
        assertThat(p.getDimCount()).isEqualTo(2);
        assertThat(p.getDim(0)).isEqualTo(2);
        assertThat(p.getDim(1)).isEqualTo(3);
        assertThat(p.getPeriod(0)).isTrue();
        assertThat(p.getPeriod(1)).isFalse();
        assertThat(p.getCoord(1)).isEqualTo(2);
        assertThatThrownBy(() -> p.getDim(2)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> new CartParms(new int[1], new boolean[2], new int[1]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shiftParms() {
        ShiftParms s = new ShiftParms(MPI.PROC_NULL, 3);
        assertThat(s.getRankSource()).isEqualTo(MPI.PROC_NULL);
        assertThat(s.getRankDest()).isEqualTo(3);
    }

    @Test
    void graphParms() {
        GraphParms g = new GraphParms(new int[] {1, 3, 4}, new int[] {1, 0, 2, 1});
        assertThat(g.getIndexCount()).isEqualTo(3);
        assertThat(g.getIndex(1)).isEqualTo(3);
        assertThat(g.getEdgeCount()).isEqualTo(4);
        assertThat(g.getEdge(2)).isEqualTo(2);
        assertThatThrownBy(() -> g.getEdge(4)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void distGraphNeighbors() {
        DistGraphNeighbors w = new DistGraphNeighbors(new int[] {1, 2}, new int[] {10, 20}, new int[] {3},
                new int[] {30});
        assertThat(w.isWeighted()).isTrue();
        assertThat(w.getInDegree()).isEqualTo(2);
        assertThat(w.getOutDegree()).isEqualTo(1);
        assertThat(w.getSource(1)).isEqualTo(2);
        assertThat(w.getSourceWeight(1)).isEqualTo(20);
        assertThat(w.getDestination(0)).isEqualTo(3);
        assertThat(w.getDestinationWeight(0)).isEqualTo(30);
        assertThatThrownBy(() -> w.getSource(2)).isInstanceOf(IndexOutOfBoundsException.class);

        DistGraphNeighbors u = new DistGraphNeighbors(new int[] {1}, null, new int[0], null);
        assertThat(u.isWeighted()).isFalse();
        assertThat(u.getOutDegree()).isZero();
        assertThatThrownBy(() -> u.getSourceWeight(0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void fileView() {
        FileView v = new FileView(64, MPI.INT, MPI.DOUBLE, "native");
        assertThat(v.getDisp()).isEqualTo(64);
        assertThat(v.getEType()).isSameAs(MPI.INT);
        assertThat(v.getFileType()).isSameAs(MPI.DOUBLE);
        assertThat(v.getDataRep()).isEqualTo("native");
    }
}
