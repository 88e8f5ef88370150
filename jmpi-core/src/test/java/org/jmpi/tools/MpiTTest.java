package org.jmpi.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import mpi.MPI;
import mpi.MPIException;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.jmpi.runtime.JmpiRuntime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The tools interface without MPI running: what it lists, control variables read and written as MPI_Init will read
 * them, and the errors of each misuse (the multi-rank behaviour is in jmpi-tests' MpiToolsTest).
 */
class MpiTTest {
    private final List<String> touched = new ArrayList<>();

    @BeforeEach
    void notRunning() {
        assumeThat(JmpiRuntime.current()).as("MPI runs in this JVM").isNull();
    }

    @AfterEach
    void restore() throws MPIException {
        touched.forEach(System::clearProperty);
        while (initialized()) {
            MpiT.finalizeTools();
        }
    }

    private static boolean initialized() {
        try {
            MpiT.categoryChanged();
            return true;
        } catch (MPIException e) {
            return false;
        }
    }

    @Test
    void nothingWorksBeforeInitAndAfterTheLastFinalize() throws MPIException {
        assertError(MpiT::cvarGetNum, MpiT.ERR_NOT_INITIALIZED);
        assertThat(MpiT.initThread(MPI.THREAD_SINGLE)).isEqualTo(MPI.THREAD_MULTIPLE);
        assertThat(MpiT.initThread(MPI.THREAD_MULTIPLE)).isEqualTo(MPI.THREAD_MULTIPLE);
        MpiT.CvarHandle h = MpiT.cvarHandleAlloc(MpiT.cvarGetIndex("jmpi.eager.limit"), null);
        MpiT.PvarSession s = MpiT.pvarSessionCreate();
        MpiT.finalizeTools();
        assertThat(h.readString()).as("one use of two ended: handles stay").isNotEmpty();
        MpiT.finalizeTools();
        assertError(MpiT::cvarGetNum, MpiT.ERR_NOT_INITIALIZED);
        assertError(MpiT::finalizeTools, MpiT.ERR_NOT_INITIALIZED);
        MpiT.initThread(MPI.THREAD_SINGLE);
        assertError(h::readString, MpiT.ERR_INVALID_HANDLE);
        assertError(s::free, MpiT.ERR_INVALID_SESSION);
    }

    @Test
    void everyParameterIsAControlVariableInOneCategory() throws MPIException {
        MpiT.initThread(MPI.THREAD_SINGLE);
        int n = MpiT.cvarGetNum();
        assertThat(n).isGreaterThan(40);
        Set<String> names = new HashSet<>();
        for (int i = 0; i < n; i++) {
            MpiT.CvarInfo info = MpiT.cvarGetInfo(i);
            assertThat(info.name()).startsWith("jmpi.");
            assertThat(names.add(info.name())).as("unique " + info.name()).isTrue();
            assertThat(MpiT.cvarGetIndex(info.name())).isEqualTo(i);
            assertThat(info.description()).isNotBlank();
            assertThat(info.bind()).isEqualTo(MpiT.BIND_NO_OBJECT);
            assertThat(info.scope()).isEqualTo(info.name().startsWith("jmpi.coll.") ? MpiT.SCOPE_ALL_EQ
                    : MpiT.SCOPE_LOCAL);
            assertThat(info.enumType() != null).isEqualTo(info.datatype() == MPI.INT);
            MpiT.CvarHandle h = MpiT.cvarHandleAlloc(i, null);
            assertThat(h.count()).isEqualTo(1);
            String text = h.readString();
            assertThat(text).as(info.name()).isNotNull();
            if (info.datatype() == MPI.CHAR) {
                assertError(h::read, MpiT.ERR_INVALID);
            } else if (info.enumType() != null) {
                assertThat(info.enumType().items().get((int) h.read())).isEqualTo(text);
            } else if (info.datatype() == MPI.LONG) {
                assertThat(h.read()).isEqualTo(text.equals("auto") ? MpiT.AUTO : Long.parseLong(text));
            }
            h.free();
            assertError(h::readString, MpiT.ERR_INVALID_HANDLE);
        }
        assertThat(names).contains("jmpi.eager.limit", "jmpi.coll.pace", "jmpi.coll.allreduce.algorithm",
                "jmpi.shm.ring.bytes", "jmpi.tcp.host", "jmpi.copy.native.min");
        List<Integer> cvars = new ArrayList<>();
        List<Integer> pvars = new ArrayList<>();
        for (int c = 0; c < MpiT.categoryGetNum(); c++) {
            MpiT.CategoryInfo info = MpiT.categoryGetInfo(c);
            assertThat(MpiT.categoryGetIndex(info.name())).isEqualTo(c);
            assertThat(MpiT.categoryGetCvars(c)).hasSize(info.numCvars());
            assertThat(MpiT.categoryGetPvars(c)).hasSize(info.numPvars());
            assertThat(MpiT.categoryGetCategories(c)).isEmpty();
            for (int i : MpiT.categoryGetCvars(c)) {
                cvars.add(i);
            }
            for (int i : MpiT.categoryGetPvars(c)) {
                pvars.add(i);
            }
        }
        assertThat(cvars).as("each control variable in exactly one category").hasSize(n)
                .containsExactlyInAnyOrderElementsOf(range(n));
        assertThat(pvars).as("each performance variable in exactly one category").hasSize(MpiT.pvarGetNum())
                .containsExactlyInAnyOrderElementsOf(range(MpiT.pvarGetNum()));
        assertThat(MpiT.categoryChanged()).isZero();
        for (int i = 0; i < MpiT.pvarGetNum(); i++) {
            MpiT.PvarInfo info = MpiT.pvarGetInfo(i);
            assertThat(MpiT.pvarGetIndex(info.name(), info.varClass())).isEqualTo(i);
            assertThat(info.enumType() != null).as(info.name()).isEqualTo(info.varClass() == MpiT.PVAR_CLASS_STATE);
            assertThat(info.datatype()).isEqualTo(info.enumType() != null ? MPI.INT : MPI.LONG);
            if (info.enumType() != null) {
                assertThat(info.enumType().items()).contains("none");
            }
        }
    }

    @Test
    void aWriteBeforeMpiStartsSetsWhatMpiInitReads() throws MPIException {
        MpiT.initThread(MPI.THREAD_SINGLE);
        touched.addAll(List.of("jmpi.coll.pace", "jmpi.coll.allreduce.algorithm", "jmpi.shm.single.copy",
                "jmpi.eager.limit"));
        MpiT.CvarHandle pace = MpiT.cvarHandleAlloc(MpiT.cvarGetIndex("jmpi.coll.pace"), null);
        assertThat(pace.read()).isEqualTo(MpiT.AUTO);
        assertThat(pace.readString()).isEqualTo("auto");
        pace.write(256);
        assertThat(System.getProperty("jmpi.coll.pace")).isEqualTo("256");
        assertThat(pace.read()).isEqualTo(256);
        assertThat(org.jmpi.coll.CollConfig.fromEnvironment().pace()).isEqualTo(256);
        assertError(() -> pace.write("many"), MpiT.ERR_INVALID);
        assertThat(System.getProperty("jmpi.coll.pace")).as("a refused value changes nothing").isEqualTo("256");
        pace.write(MpiT.AUTO);
        assertThat(org.jmpi.coll.CollConfig.fromEnvironment().pace()).isEqualTo(org.jmpi.coll.CollConfig.AUTO_PACE);

        MpiT.CvarHandle eager = MpiT.cvarHandleAlloc(MpiT.cvarGetIndex("jmpi.eager.limit"), null);
        eager.write("32k");
        assertThat(eager.read()).isEqualTo(32 * 1024);
        assertError(() -> eager.write(-1), MpiT.ERR_INVALID);
        assertThat(eager.read()).isEqualTo(32 * 1024);

        int a = MpiT.cvarGetIndex("jmpi.coll.allreduce.algorithm");
        MpiT.CvarInfo info = MpiT.cvarGetInfo(a);
        MpiT.CvarHandle algorithm = MpiT.cvarHandleAlloc(a, null);
        assertThat(algorithm.readString()).isEqualTo("auto");
        int ring = info.enumType().items().indexOf("ring");
        assertThat(ring).isPositive();
        algorithm.write(ring);
        assertThat(System.getProperty("jmpi.coll.allreduce.algorithm")).isEqualTo("ring");
        assertError(() -> algorithm.write(info.enumType().items().size()), MpiT.ERR_INVALID);
        assertError(() -> algorithm.write("fastest"), MpiT.ERR_INVALID);
        assertThat(algorithm.read()).isEqualTo(ring);

        MpiT.CvarHandle single = MpiT.cvarHandleAlloc(MpiT.cvarGetIndex("jmpi.shm.single.copy"), null);
        assertThat(MpiT.cvarGetInfo(MpiT.cvarGetIndex("jmpi.shm.single.copy")).datatype()).isEqualTo(MPI.BOOLEAN);
        assertThat(single.read()).isEqualTo(1);
        single.write(0);
        assertThat(single.readString()).isEqualTo("false");
        assertError(() -> single.write(2), MpiT.ERR_INVALID);
    }

    @Test
    void misuseGivesTheStandardsErrorClasses() throws MPIException {
        MpiT.initThread(MPI.THREAD_SINGLE);
        assertError(() -> MpiT.cvarGetInfo(-1), MpiT.ERR_INVALID_INDEX);
        assertError(() -> MpiT.cvarGetInfo(MpiT.cvarGetNum()), MpiT.ERR_INVALID_INDEX);
        assertError(() -> MpiT.pvarGetInfo(MpiT.pvarGetNum()), MpiT.ERR_INVALID_INDEX);
        assertError(() -> MpiT.categoryGetInfo(99), MpiT.ERR_INVALID_INDEX);
        assertError(() -> MpiT.cvarGetIndex("jmpi.no.such"), MpiT.ERR_INVALID_NAME);
        assertError(() -> MpiT.categoryGetIndex("jmpi.no.such"), MpiT.ERR_INVALID_NAME);
        int unexpected = MpiT.pvarGetIndex("jmpi.unexpected.messages", MpiT.PVAR_CLASS_LEVEL);
        assertError(() -> MpiT.pvarGetIndex("jmpi.unexpected.messages", MpiT.PVAR_CLASS_COUNTER),
                MpiT.ERR_INVALID_NAME);
        MpiT.PvarInfo info = MpiT.pvarGetInfo(unexpected);
        assertThat(info.continuous()).isTrue();
        assertThat(info.readOnly()).isTrue();
        MpiT.PvarInfo bytes = MpiT.pvarGetInfo(MpiT.pvarGetIndex("jmpi.bytes.sent", MpiT.PVAR_CLASS_COUNTER));
        assertThat(bytes.continuous()).isFalse();
        assertThat(bytes.readOnly()).isFalse();
        MpiT.PvarSession s = MpiT.pvarSessionCreate();
        assertError(() -> s.handleAlloc(unexpected, null), MpiT.ERR_INVALID);
        s.free();
        assertError(s::free, MpiT.ERR_INVALID_SESSION);
        assertError(() -> s.handleAlloc(unexpected, null), MpiT.ERR_INVALID_SESSION);
    }

    @Test
    void theListingNamesEveryVariable() throws MPIException {
        List<String> lines = MpiT.describe();
        assertError(MpiT::cvarGetNum, MpiT.ERR_NOT_INITIALIZED);
        MpiT.initThread(MPI.THREAD_SINGLE);
        for (int i = 0; i < MpiT.cvarGetNum(); i++) {
            String name = MpiT.cvarGetInfo(i).name();
            assertThat(lines).anySatisfy(l -> assertThat(l).startsWith(name + " = "));
        }
        for (int i = 0; i < MpiT.pvarGetNum(); i++) {
            String name = MpiT.pvarGetInfo(i).name();
            assertThat(lines).anySatisfy(l -> assertThat(l).startsWith(name + " "));
        }
        assertThat(lines).contains("jmpi.coll.pace = auto    "
                + MpiT.cvarGetInfo(MpiT.cvarGetIndex("jmpi.coll.pace")).description());
    }

    private static List<Integer> range(int n) {
        List<Integer> l = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            l.add(i);
        }
        return l;
    }

    private static void assertError(ThrowingCallable call, int errorClass) {
        assertThatThrownBy(call).isInstanceOf(MPIException.class)
                .satisfies(e -> assertThat(((MPIException) e).getErrorClass()).as(e.getMessage())
                        .isEqualTo(errorClass));
    }
}
