package org.jmpi.arch;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.jmpi.shared.RankClassLoader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The layering rules of docs/architecture.md, checked on the compiled classes. */
class LayeringTest {
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("mpi", "org.jmpi");
    }

    @Test
    void internalsNeverCallUpIntoTheApi() {
        noClasses().that().resideInAPackage("org.jmpi..").and().resideOutsideOfPackages("org.jmpi.tools..",
                "org.jmpi.ft..")
                .should().dependOnClassesThat().resideInAPackage("mpi")
                .because("only package mpi validates arguments and throws MPIException (org.jmpi.tools, the built-in"
                        + " profiling tools, and org.jmpi.ft, fault tolerance above the API, use it as any program"
                        + " does)").check(classes);
    }

    @Test
    void faultToleranceSitsAboveTheApi() {
        noClasses().that().resideOutsideOfPackages("org.jmpi.ft..").and().resideInAnyPackage("org.jmpi..", "mpi")
                .should().dependOnClassesThat().resideInAPackage("org.jmpi.ft..")
                .because("org.jmpi.ft (checkpoint/restart) is called by programs; nothing below it calls up into it")
                .check(classes);
        // the checkpoint classes (ULFM, beside them, reaches into the runtime's failure detector)
        classes().that().haveNameMatching("org\\.jmpi\\.ft\\.(Checkpoint|StoredCheckpoint|CheckpointOptions|"
                + "CheckpointLayout|ItemType|PartFile|Generations|Coordination|Errors)(\\$.*)?")
                .should().onlyDependOnClassesThat(resideInAnyPackage("java..", "mpi", "org.jmpi.ft..")
                        .or(belongToAnyOf(org.jmpi.runtime.MpiError.class)))
                .because("checkpoints use package mpi's public API and the JDK only").check(classes);
    }

    @Test
    void transportsKnowNoMpiSemantics() {
        noClasses().that().resideInAPackage("org.jmpi.transport..").should().dependOnClassesThat()
                .resideInAnyPackage("org.jmpi.pt2pt..", "org.jmpi.datatype..", "org.jmpi.runtime..")
                .because("transports move bytes; matching, tags and datatypes live in pt2pt").check(classes);
    }

    @Test
    void sharedFabricDependsOnTheJdkOnly() {
        noClasses().that().resideInAPackage("org.jmpi.shared..").should().dependOnClassesThat()
                .resideOutsideOfPackages("java..", "org.jmpi.shared..")
                .because("org.jmpi.shared is loaded once by the parent loader and shared by every rank")
                .check(classes);
    }

    @Test
    void theMessagePathThatRanksShareUsesNothingOfARank() {
        DescribedPredicate<JavaClass> shared = DescribedPredicate.describe("shared by the ranks of a JVM",
                c -> RankClassLoader.sharedByRanks(c.getName()));
        DescribedPredicate<JavaClass> allowed = DescribedPredicate.describe("the JDK, org.jmpi.shared or shared",
                c -> {
                    JavaClass base = c.getBaseComponentType();
                    String n = base.getName();
                    return base.isPrimitive() || n.startsWith("java.") || n.startsWith("jdk.internal.")
                            || n.startsWith("org.jmpi.shared.") || RankClassLoader.sharedByRanks(n);
                });
        classes().that(shared).should().onlyDependOnClassesThat(allowed)
                .because("threads mode loads these classes once per JVM (RankClassLoader.sharedByRanks); a class"
                        + " they used that a rank loads for itself would be loaded a second time by the parent,"
                        + " outside every rank").check(classes);
        assertThat(classes.stream().filter(c -> shared.test(c)).count()).isGreaterThan(80);
    }

    @Test
    void datatypesDoNotDependOnMessaging() {
        noClasses().that().resideInAPackage("org.jmpi.datatype..").should().dependOnClassesThat()
                .resideInAnyPackage("org.jmpi.pt2pt..", "org.jmpi.transport..", "org.jmpi.bootstrap..")
                .check(classes);
    }

    @Test
    void collectivesUsePointToPointNotTransports() {
        noClasses().that().resideInAPackage("org.jmpi.coll..").should().dependOnClassesThat()
                .resideInAnyPackage("org.jmpi.transport..", "org.jmpi.bootstrap..")
                .because("collectives move data through the point-to-point engine on the collective context")
                .check(classes);
    }

    @Test
    void reductionsDoNotDependOnMessaging() {
        noClasses().that().resideInAPackage("org.jmpi.op..").should().dependOnClassesThat()
                .resideInAnyPackage("org.jmpi.pt2pt..", "org.jmpi.transport..", "org.jmpi.coll..",
                        "org.jmpi.bootstrap..", "org.jmpi.datatype..")
                .check(classes);
    }

    @Test
    void oneSidedCommunicationUsesPointToPointNotTransports() {
        noClasses().that().resideInAPackage("org.jmpi.rma..").should().dependOnClassesThat()
                .resideInAnyPackage("org.jmpi.transport..", "org.jmpi.comm..", "org.jmpi.topo..")
                .because("one-sided operations travel as active messages through the point-to-point engine on the"
                        + " window's private context").check(classes);
    }

    @Test
    void onlyTheApiAndTheRuntimeEntryUseOneSidedInternals() {
        noClasses().that().resideInAnyPackage("org.jmpi.pt2pt..", "org.jmpi.coll..", "org.jmpi.datatype..",
                "org.jmpi.op..", "org.jmpi.transport..", "org.jmpi.runtime..").should().dependOnClassesThat()
                .resideInAPackage("org.jmpi.rma..").because("rma sits beside the collectives, above pt2pt")
                .check(classes);
    }

    @Test
    void dynamicProcessesStayAboveTheMessagingLayers() {
        noClasses().that().resideOutsideOfPackages("org.jmpi.dpm..").and().resideInAPackage("org.jmpi..").should()
                .dependOnClassesThat().resideInAPackage("org.jmpi.dpm..")
                .because("org.jmpi.dpm is called by package mpi only; the layers below know nothing of other jobs")
                .check(classes);
        noClasses().that().resideInAPackage("org.jmpi.dpm..").should().dependOnClassesThat()
                .resideInAnyPackage("org.jmpi.coll..", "org.jmpi.op..", "org.jmpi.datatype..")
                .because("dynamic processes build on communicators (org.jmpi.comm), not on algorithms or data (the "
                        + "in-JVM fabric org.jmpi.shared is how threads-mode jobs are started and reach each other)")
                .check(classes);
    }

    @Test
    void fileIoUsesTheRuntimeNotTransports() {
        noClasses().that().resideInAPackage("org.jmpi.io..").should().dependOnClassesThat()
                .resideInAnyPackage("org.jmpi.transport..", "org.jmpi.bootstrap..", "org.jmpi.comm..",
                        "org.jmpi.topo..", "org.jmpi.op..")
                .because("MPI-IO moves data through collectives and the point-to-point engine, never a transport")
                .check(classes);
    }

    @Test
    void nothingBelowTheApiDependsOnFileIo() {
        noClasses().that().resideInAnyPackage("org.jmpi.runtime..", "org.jmpi.pt2pt..", "org.jmpi.coll..",
                "org.jmpi.datatype..", "org.jmpi.transport..", "org.jmpi.shared..").should().dependOnClassesThat()
                .resideInAPackage("org.jmpi.io..")
                .because("io sits beside coll, above pt2pt: calls never go up").check(classes);
    }

    @Test
    void theProfilingInterfaceSitsOnTopAndOnlyReadsTheRuntime() {
        noClasses().that().resideOutsideOfPackages("org.jmpi.profile..", "org.jmpi.tools..")
                .and().resideInAPackage("org.jmpi..")
                .should().dependOnClassesThat().resideInAPackage("org.jmpi.profile..")
                .because("only the rewritten classes of package mpi (at run time) and jmpirun call into it")
                .check(classes);
        noClasses().that().resideInAPackage("org.jmpi.profile..").should().dependOnClassesThat()
                .resideInAnyPackage("org.jmpi.pt2pt..", "org.jmpi.coll..", "org.jmpi.transport..", "org.jmpi.rma..",
                        "org.jmpi.io..", "org.jmpi.dpm..", "mpi..")
                .because("a tool sees calls, not the machinery under them").check(classes);
    }
}
