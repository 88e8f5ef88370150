/**
 * jmpi's MPI library: the {@code mpi} package (source-compatible with Open MPI's Java bindings) and the runtime under
 * it. On the class path, where most programs put it, this declaration is ignored and every package is as visible as
 * before. On the module path a program {@code requires org.jmpi.core} and sees only the packages meant for users:
 * <ul>
 *   <li>{@code mpi}: the MPI API;</li>
 *   <li>{@code org.jmpi.ft}: checkpoint/restart and the ULFM extensions;</li>
 *   <li>{@code org.jmpi.profile}: the profiling interface for tools ({@code MpiTool}; a tool class in a module of
 *       its own must be in a package that module exports).</li>
 * </ul>
 * The runtime's other packages are exported only to jmpi's own launcher and JUnit extension, which use them when
 * they are on the module path too.
 */
@SuppressWarnings("module") // the qualified exports name modules that are not built before this one
module org.jmpi.core {
    requires jdk.jfr;
    // only org.jmpi.profile.Agent, which runs when the jar is given to -javaagent (then from the class path)
    requires static java.instrument;

    exports mpi;
    exports org.jmpi.ft;
    exports org.jmpi.profile;

    exports org.jmpi.bootstrap to org.jmpi.launcher;
    exports org.jmpi.bootstrap.pmi to org.jmpi.launcher;
    exports org.jmpi.dpm to org.jmpi.launcher;
    exports org.jmpi.runtime to org.jmpi.launcher;
    exports org.jmpi.shared to org.jmpi.launcher, org.jmpi.junit;
    exports org.jmpi.tools to org.jmpi.launcher;
    exports org.jmpi.transport.shm to org.jmpi.launcher;
}
