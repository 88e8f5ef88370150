package org.jmpi.arch;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noCodeUnits;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.attribute.CodeAttribute;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The budget of the point-to-point lane (docs/transports.md, "The lane"): the methods a small blocking message runs
 * through stay small enough for the JIT to compile early and inline whole (at most {@value #MAX_BYTECODE} bytes of
 * bytecode each, HotSpot's {@code FreqInlineSize}), and they never reach the machinery of the general path (frame
 * headers, header copies, thread-locals, the transport's queued send, requests).
 */
class LaneBudgetTest {
    static final int MAX_BYTECODE = 325;

    /** The lane's methods, by class. */
    static final Map<String, Set<String>> LANE = Map.of(
            "mpi.Comm", Set.of("send", "recv", "receive", "sendRecv", "startBlockingSend", "startSend",
                    "receiveNowOutOfLine", "sendNowOutOfLine"),
            "org.jmpi.pt2pt.Engine", Set.of("sendNow", "receiveNow", "takeNow", "awaitFrame", "laneTo"),
            "org.jmpi.transport.shm.ShmTransport", Set.of("sendShort", "takeShort", "passOne", "pollOthers",
                    "afterRecords", "arrived"),
            "org.jmpi.transport.shm.OutboundRing", Set.of("writeShortLocked", "publish", "reserve"),
            "org.jmpi.transport.shm.InboundRing", Set.of("takeShort", "publishHead", "ready"),
            "org.jmpi.transport.tcp.TcpTransport", Set.of("sendShort", "takeShort", "arrived", "passOne",
                    "pollOthers", "inbound"),
            "org.jmpi.transport.tcp.TcpConnection", Set.of("laneSend", "laneTake", "laneFrame", "laneArrived",
                    "deliverBuffered", "readOnce"));

    /**
     * What C1 (which compiles jmpi's runtime) inlines: methods of at most this many bytes of bytecode
     * ({@code C1MaxInlineSize}).
     */
    static final int C1_INLINE_BYTECODE = 35;

    /**
     * The ring's wrap handling, which the lane's methods above call every few hundred messages: inlined into them, so
     * compiled with them at their first compilation. As methods of their own they reached the compile threshold only
     * after tens of thousands of messages, and were compiled in the foreground in the middle of a timed loop.
     */
    static final Map<String, Set<String>> INLINED = Map.of(
            "org.jmpi.transport.shm.OutboundRing", Set.of("earlyWrap", "drained", "refreshedHead"),
            "org.jmpi.transport.shm.InboundRing", Set.of("skipWrap", "skipped", "consume", "publishHead"));

    @Test
    void everyLaneMethodIsSmall() throws IOException {
        assertThat(largerThan(LANE, MAX_BYTECODE)).as("lane methods over %d bytes of bytecode", MAX_BYTECODE)
                .isEmpty();
    }

    @Test
    void theRingsWrapHandlingInlinesIntoTheLane() throws IOException {
        assertThat(largerThan(INLINED, C1_INLINE_BYTECODE)).as("wrap methods over %d bytes of bytecode",
                C1_INLINE_BYTECODE).isEmpty();
    }

    /** The methods of {@code methods} (every one of which must exist) whose bytecode is longer than {@code max}. */
    private static List<String> largerThan(Map<String, Set<String>> methods, int max) throws IOException {
        List<String> tooLarge = new ArrayList<>();
        int seen = 0;
        for (var e : methods.entrySet()) {
            ClassModel model;
            try (InputStream in = LaneBudgetTest.class.getResourceAsStream(
                    "/" + e.getKey().replace('.', '/') + ".class")) {
                assertThat(in).as("class file of %s", e.getKey()).isNotNull();
                model = ClassFile.of().parse(in.readAllBytes());
            }
            for (MethodModel m : model.methods()) {
                String name = m.methodName().stringValue();
                if (!e.getValue().contains(name)) {
                    continue;
                }
                seen++;
                int length = m.findAttribute(java.lang.classfile.Attributes.code()).map(CodeAttribute::codeLength)
                        .orElse(0);
                if (length > max) {
                    tooLarge.add(e.getKey() + "." + name + m.methodType().stringValue() + ": " + length + " bytes");
                }
            }
        }
        assertThat(seen).as("methods found").isGreaterThanOrEqualTo(
                methods.values().stream().mapToInt(Set::size).sum());
        return tooLarge;
    }

    @Test
    void theLaneStaysOffTheGeneralPath() {
        JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("mpi", "org.jmpi.pt2pt", "org.jmpi.transport");
        var forbidden = assignableTo(ThreadLocal.class).or(belongToAnyOf(org.jmpi.transport.FrameLayout.class,
                org.jmpi.transport.HeaderCopies.class, org.jmpi.pt2pt.SendRequest.class,
                org.jmpi.pt2pt.RecvRequest.class));
        noCodeUnits().that().areDeclaredInClassesThat().haveNameMatching(
                "org\\.jmpi\\.pt2pt\\.Engine|org\\.jmpi\\.transport\\.shm\\.(ShmTransport|OutboundRing|InboundRing)"
                        + "|org\\.jmpi\\.transport\\.tcp\\.(TcpTransport|TcpConnection)")
                .and().haveNameMatching("sendNow|receiveNow|takeNow|awaitFrame|sendShort|takeShort|arrived|writeShortLocked"
                        + "|laneSend|laneTake|laneArrived")
                .should(new ArchCondition<JavaCodeUnit>("not use frame headers, header copies, requests or thread-locals") {
                    @Override
                    public void check(JavaCodeUnit unit, ConditionEvents events) {
                        for (JavaAccess<?> a : unit.getAccessesFromSelf()) {
                            if (forbidden.test(a.getTargetOwner())) {
                                events.add(SimpleConditionEvent.violated(a, a.getDescription()));
                            }
                        }
                    }
                })
                .because("the lane writes the envelope from locals and needs no header, request or thread-local")
                .check(classes);
    }
}
