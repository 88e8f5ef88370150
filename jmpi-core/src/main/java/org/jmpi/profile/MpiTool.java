package org.jmpi.profile;

/**
 * A profiling tool: sees every MPI call a rank makes through package {@code mpi}, before and after, with its
 * arguments and its result or exception; the role of MPI's profiling interface (PMPI) for Java. A tool is a public
 * class with a public no-argument constructor, named to jmpirun ({@code --tool org.example.MyTool}, or
 * {@code JMPI_TOOLS}) and on the ranks' class path; jmpirun then has the ranks' calls intercepted (see
 * {@link Instrumenter}); without a tool nothing is intercepted and nothing costs anything.
 *
 * <p>One instance per rank (per JVM in processes mode, per rank's class loader in threads mode), created when the
 * rank's first MPI class is loaded. Only the outermost call of a thread is reported: MPI calls that jmpi makes
 * inside another (a {@code Comm.recv} inside {@code Comm.sendRecv}, say) are not, as a PMPI tool does not see the
 * library's internal calls. Calls come from every thread that makes them, concurrently; the methods must be thread
 * safe. A tool that throws is reported once on standard error and not called again; the program goes on.
 */
public interface MpiTool {
    /** Before {@code call} runs: its name, target and arguments are known, its result is not. */
    default void before(MpiCall call) {}

    /** After {@code call} returned or threw ({@link MpiCall#failure()}); its duration is known. */
    default void after(MpiCall call) {}
}
