package mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The purely local group operations, over groups built from world-rank lists. */
class GroupTest {
    /** World ranks 10..14, caller is world rank 12. */
    private static Group five() {
        return new Group(new int[] {10, 11, 12, 13, 14}, 12);
    }

    private static void assertErrorClass(InfoTest.ThrowingCall call, int errorClass) {
        assertThatThrownBy(call::run)
                .isInstanceOf(MPIException.class)
                .satisfies(e -> assertThat(((MPIException) e).getErrorClass()).isEqualTo(errorClass));
    }

    @Test
    void constructorCopiesAndKeepsTheCallersRank() {
        int[] ranks = {3, 1};
        Group g = new Group(ranks, 1);
        ranks[0] = 99;
        assertThat(g.worldRanks()).containsExactly(3, 1);
        assertThat(g.myWorldRank()).isEqualTo(1);
        assertThat(g.isNull()).isFalse();
    }

    @Test
    void inclAndExcl() throws MPIException {
        Group g = five();
        assertThat(g.incl(new int[] {4, 0, 2}).worldRanks()).containsExactly(14, 10, 12);
        assertThat(g.incl(new int[0]).worldRanks()).isEmpty();
        assertThat(g.excl(new int[] {4, 0}).worldRanks()).containsExactly(11, 12, 13);
        assertThat(g.excl(new int[0]).worldRanks()).containsExactly(10, 11, 12, 13, 14);
        assertThat(g.incl(new int[] {1}).myWorldRank()).isEqualTo(12);

        assertErrorClass(() -> g.incl(new int[] {5}), MPI.ERR_RANK);
        assertErrorClass(() -> g.incl(new int[] {-1}), MPI.ERR_RANK);
        assertErrorClass(() -> g.incl(new int[] {1, 1}), MPI.ERR_RANK);
        assertErrorClass(() -> g.excl(new int[] {2, 2}), MPI.ERR_RANK);
        assertErrorClass(() -> g.excl(new int[] {MPI.PROC_NULL}), MPI.ERR_RANK);
        assertErrorClass(() -> g.incl(null), MPI.ERR_ARG);
        assertErrorClass(() -> g.excl(null), MPI.ERR_ARG);
    }

    @Test
    void ranges() throws MPIException {
        Group g = new Group(new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 0);
        assertThat(g.rangeIncl(new int[][] {{0, 9, 3}}).worldRanks()).containsExactly(0, 3, 6, 9);
        assertThat(g.rangeIncl(new int[][] {{8, 1, -3}, {0, 0, 1}}).worldRanks()).containsExactly(8, 5, 2, 0);
        assertThat(g.rangeIncl(new int[][] {{1, 8, 4}}).worldRanks()).containsExactly(1, 5);
        assertThat(g.rangeIncl(new int[0][]).worldRanks()).isEmpty();
        assertThat(g.rangeExcl(new int[][] {{0, 9, 2}}).worldRanks()).containsExactly(1, 3, 5, 7, 9);
        assertThat(g.rangeExcl(new int[][] {{9, 0, -1}}).worldRanks()).isEmpty();

        assertErrorClass(() -> g.rangeIncl(new int[][] {{0, 5, 0}}), MPI.ERR_ARG);
        assertErrorClass(() -> g.rangeIncl(new int[][] {{5, 0, 1}}), MPI.ERR_ARG);
        assertErrorClass(() -> g.rangeIncl(new int[][] {{0, 5, -1}}), MPI.ERR_ARG);
        assertErrorClass(() -> g.rangeIncl(new int[][] {{0, 5}}), MPI.ERR_ARG);
        assertErrorClass(() -> g.rangeIncl(new int[][] {null}), MPI.ERR_ARG);
        assertErrorClass(() -> g.rangeIncl(null), MPI.ERR_ARG);
        assertErrorClass(() -> g.rangeExcl(null), MPI.ERR_ARG);
        assertErrorClass(() -> g.rangeIncl(new int[][] {{0, 10, 1}}), MPI.ERR_RANK);
        assertErrorClass(() -> g.rangeIncl(new int[][] {{-1, 3, 1}}), MPI.ERR_RANK);
        assertErrorClass(() -> g.rangeIncl(new int[][] {{0, 4, 2}, {4, 6, 1}}), MPI.ERR_RANK);
        assertErrorClass(() -> g.rangeExcl(new int[][] {{0, 4, 1}, {2, 2, 1}}), MPI.ERR_RANK);
        assertErrorClass(
                () -> g.rangeIncl(new int[][] {{0, Integer.MAX_VALUE, Integer.MAX_VALUE}}), MPI.ERR_RANK);
    }

    @Test
    void setOperationsKeepMpiOrder() throws MPIException {
        Group a = new Group(new int[] {5, 1, 3}, 1);
        Group b = new Group(new int[] {3, 4, 5, 6}, 1);
        assertThat(Group.union(a, b).worldRanks()).containsExactly(5, 1, 3, 4, 6);
        assertThat(Group.union(b, a).worldRanks()).containsExactly(3, 4, 5, 6, 1);
        assertThat(Group.intersection(a, b).worldRanks()).containsExactly(5, 3);
        assertThat(Group.intersection(b, a).worldRanks()).containsExactly(3, 5);
        assertThat(Group.difference(a, b).worldRanks()).containsExactly(1);
        assertThat(Group.difference(b, a).worldRanks()).containsExactly(4, 6);
        assertThat(Group.union(a, MPI.GROUP_EMPTY).worldRanks()).containsExactly(5, 1, 3);
        assertThat(Group.intersection(a, MPI.GROUP_EMPTY).worldRanks()).isEmpty();
    }

    @Test
    void translateRanks() throws MPIException {
        Group a = new Group(new int[] {5, 1, 3}, 1);
        Group b = new Group(new int[] {3, 4, 5, 6}, 1);
        assertThat(Group.translateRanks(a, new int[] {0, 1, 2, MPI.PROC_NULL, 0}, b))
                .containsExactly(2, MPI.UNDEFINED, 0, MPI.PROC_NULL, 2);
        assertThat(Group.translateRanks(a, new int[0], b)).isEmpty();
        assertErrorClass(() -> Group.translateRanks(a, new int[] {3}, b), MPI.ERR_RANK);
        assertErrorClass(() -> Group.translateRanks(a, null, b), MPI.ERR_ARG);
        assertErrorClass(() -> Group.translateRanks(null, new int[0], b), MPI.ERR_GROUP);
    }

    @Test
    void compare() throws MPIException {
        Group a = new Group(new int[] {1, 2, 3}, 1);
        assertThat(Group.compare(a, a)).isEqualTo(MPI.IDENT);
        assertThat(Group.compare(a, new Group(new int[] {1, 2, 3}, 2))).isEqualTo(MPI.IDENT);
        assertThat(Group.compare(a, new Group(new int[] {3, 1, 2}, 1))).isEqualTo(MPI.SIMILAR);
        assertThat(Group.compare(a, new Group(new int[] {1, 2, 4}, 1))).isEqualTo(MPI.UNEQUAL);
        assertThat(Group.compare(a, new Group(new int[] {1, 2}, 1))).isEqualTo(MPI.UNEQUAL);
        assertThat(Group.compare(MPI.GROUP_EMPTY, new Group(new int[0], 0))).isEqualTo(MPI.IDENT);
    }

    @Test
    void freedGroupsAreRejected() throws MPIException {
        Group g = five();
        Group other = five();
        g.free();
        assertThat(g.isNull()).isTrue();
        assertErrorClass(g::free, MPI.ERR_GROUP);
        assertErrorClass(() -> g.incl(new int[0]), MPI.ERR_GROUP);
        assertErrorClass(() -> g.excl(new int[0]), MPI.ERR_GROUP);
        assertErrorClass(() -> g.rangeIncl(new int[0][]), MPI.ERR_GROUP);
        assertErrorClass(() -> g.rangeExcl(new int[0][]), MPI.ERR_GROUP);
        assertErrorClass(() -> Group.union(g, other), MPI.ERR_GROUP);
        assertErrorClass(() -> Group.intersection(other, g), MPI.ERR_GROUP);
        assertErrorClass(() -> Group.difference(g, other), MPI.ERR_GROUP);
        assertErrorClass(() -> Group.compare(other, g), MPI.ERR_GROUP);
        assertErrorClass(() -> Group.translateRanks(other, new int[] {0}, g), MPI.ERR_GROUP);
        assertErrorClass(() -> Group.compare(null, other), MPI.ERR_GROUP);
    }

    @Test
    void groupEmptyIsPredefinedAndSurvivesFree() throws MPIException {
        assertThat(MPI.GROUP_EMPTY.isNull()).isFalse();
        assertThat(MPI.GROUP_EMPTY.worldRanks()).isEmpty();
        MPI.GROUP_EMPTY.free();
        assertThat(MPI.GROUP_EMPTY.isNull()).isFalse();
        Group derived = MPI.GROUP_EMPTY.incl(new int[0]);
        derived.free();
        assertThat(derived.isNull()).isTrue();
    }
}
