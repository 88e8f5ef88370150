package mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class InfoTest {
    private static void assertErrorClass(ThrowingCall call, int errorClass) {
        assertThatThrownBy(call::run)
                .isInstanceOf(MPIException.class)
                .satisfies(e -> assertThat(((MPIException) e).getErrorClass()).isEqualTo(errorClass));
    }

    @FunctionalInterface
    interface ThrowingCall {
        void run() throws Exception;
    }

    @Test
    void setGetDeleteAndOrder() throws MPIException {
        Info info = new Info();
        assertThat(info.isNull()).isFalse();
        assertThat(info.size()).isZero();
        info.set("b", "1");
        info.set("a", "2");
        info.set("b", "3"); // replacing keeps the position
        assertThat(info.size()).isEqualTo(2);
        assertThat(info.getKey(0)).isEqualTo("b");
        assertThat(info.getKey(1)).isEqualTo("a");
        assertThat(info.get("b")).isEqualTo("3");
        assertThat(info.get("missing")).isNull();
        info.delete("b");
        assertThat(info.size()).isEqualTo(1);
        assertThat(info.get("b")).isNull();
        assertThat(info.getKey(0)).isEqualTo("a");
    }

    @Test
    void keyAndValueLimits() throws MPIException {
        Info info = new Info();
        String longestKey = "k".repeat(MPI.MAX_INFO_KEY - 1);
        String longestValue = "v".repeat(MPI.MAX_INFO_VAL - 1);
        info.set(longestKey, longestValue);
        assertThat(info.get(longestKey)).isEqualTo(longestValue);

        assertErrorClass(() -> info.set("k".repeat(MPI.MAX_INFO_KEY), "v"), MPI.ERR_INFO_KEY);
        assertErrorClass(() -> info.set("", "v"), MPI.ERR_INFO_KEY);
        assertErrorClass(() -> info.set(null, "v"), MPI.ERR_INFO_KEY);
        assertErrorClass(() -> info.get(""), MPI.ERR_INFO_KEY);
        assertErrorClass(() -> info.get("k".repeat(MPI.MAX_INFO_KEY)), MPI.ERR_INFO_KEY);
        assertErrorClass(() -> info.delete(""), MPI.ERR_INFO_KEY);
        assertErrorClass(() -> info.set("k", "v".repeat(MPI.MAX_INFO_VAL)), MPI.ERR_INFO_VALUE);
        assertErrorClass(() -> info.set("k", ""), MPI.ERR_INFO_VALUE);
        assertErrorClass(() -> info.set("k", null), MPI.ERR_INFO_VALUE);
        assertThat(info.size()).isEqualTo(1);
    }

    @Test
    void missingKeysAndIndices() throws MPIException {
        Info info = new Info();
        info.set("x", "1");
        assertErrorClass(() -> info.delete("y"), MPI.ERR_INFO_NOKEY);
        assertErrorClass(() -> info.getKey(1), MPI.ERR_INFO_NOKEY);
        assertErrorClass(() -> info.getKey(-1), MPI.ERR_INFO_NOKEY);
    }

    @Test
    void dupAndCloneAreIndependentCopies() throws MPIException {
        Info info = new Info();
        info.set("x", "1");
        Info dup = info.dup();
        Info clone = info.clone();
        info.set("x", "2");
        info.set("y", "3");
        assertThat(dup.get("x")).isEqualTo("1");
        assertThat(clone.get("x")).isEqualTo("1");
        assertThat(dup.size()).isEqualTo(1);
        dup.set("z", "4");
        assertThat(info.get("z")).isNull();
    }

    @Test
    void freedInfoIsNullAndRejectsUse() throws MPIException {
        Info info = new Info();
        info.set("x", "1");
        info.free();
        assertThat(info.isNull()).isTrue();
        assertErrorClass(info::free, MPI.ERR_INFO);
        assertErrorClass(() -> info.get("x"), MPI.ERR_INFO);
        assertErrorClass(() -> info.set("x", "1"), MPI.ERR_INFO);
        assertErrorClass(info::size, MPI.ERR_INFO);
        assertErrorClass(info::dup, MPI.ERR_INFO);
        assertErrorClass(() -> info.getKey(0), MPI.ERR_INFO);
        assertThat(info.clone().isNull()).isTrue();
    }

    @Test
    void predefinedObjects() throws MPIException {
        assertThat(MPI.INFO_NULL.isNull()).isTrue();
        assertErrorClass(MPI.INFO_NULL::size, MPI.ERR_INFO);
        assertErrorClass(MPI.INFO_NULL::free, MPI.ERR_INFO);
        assertThat(MPI.INFO_ENV.isNull()).isFalse();
        assertErrorClass(() -> MPI.INFO_ENV.set("k", "v"), MPI.ERR_INFO);
        assertErrorClass(MPI.INFO_ENV::free, MPI.ERR_INFO);
        Info copy = MPI.INFO_ENV.dup();
        copy.set("k", "v");
        assertThat(copy.get("k")).isEqualTo("v");
        copy.free();
    }
}
