package org.jmpi.dl.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** jmpi-dl sits on the public API: it never reaches into jmpi's internals, and its model code needs no MPI. */
class DlLayeringTest {
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.jmpi.dl");
    }

    @Test
    void onlyTheJdkAndThePublicApi() {
        noClasses().that().resideInAPackage("org.jmpi.dl..").should().dependOnClassesThat()
                .resideOutsideOfPackages("java..", "mpi", "org.jmpi.dl..")
                .because("jmpi-dl depends on jmpi-core's public API only (package mpi), like any user program")
                .check(classes);
    }

    @Test
    void modelAndDataNeedNoMpi() {
        noClasses().that().resideInAnyPackage("org.jmpi.dl.nn..", "org.jmpi.dl.data..").should()
                .dependOnClassesThat().resideInAnyPackage("mpi", "org.jmpi.dl", "org.jmpi.dl.ps..")
                .because("the MLP and the data reader are plain Java, usable without MPI").check(classes);
    }

    @Test
    void theReducerDoesNotDependOnTheExamplesOrTheModel() {
        noClasses().that().resideInAPackage("org.jmpi.dl").should().dependOnClassesThat()
                .resideInAnyPackage("org.jmpi.dl.nn..", "org.jmpi.dl.data..", "org.jmpi.dl.examples..",
                        "org.jmpi.dl.ps..")
                .because("the reducer works on any float tensors").check(classes);
    }
}
