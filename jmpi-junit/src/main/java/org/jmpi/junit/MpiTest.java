package org.jmpi.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test method on several MPI ranks: once per (mode, rank count) pair, each run shown by JUnit as one
 * invocation named like {@code [threads, 4 ranks]}.
 *
 * <pre>{@code
 * import mpi.MPI;
 * import org.jmpi.junit.Mode;
 * import org.jmpi.junit.MpiTest;
 *
 * class RingTest {
 *     @MpiTest(ranks = {1, 2, 3, 4, 8})
 *     void everyRankSeesTheWorld() throws Exception {
 *         int rank = MPI.COMM_WORLD.getRank();
 *         int size = MPI.COMM_WORLD.getSize();
 *         assertThat(rank).isBetween(0, size - 1);
 *     }
 *
 *     @MpiTest(ranks = 4, modes = Mode.THREADS, init = false, timeoutSeconds = 10)
 *     void noMpiNeeded(MpiTestContext ctx) {
 *         assertThat(ctx.size()).isEqualTo(4);
 *     }
 * }
 * }</pre>
 *
 * <h2>What happens in one invocation</h2>
 * <ol>
 *   <li>The ranks are started: in {@link Mode#THREADS} as threads of the test JVM, each with a child-first
 *       {@code org.jmpi.shared.RankClassLoader} of its own; in {@link Mode#PROCESSES} as one JVM per rank through
 *       {@code org.jmpi.launcher.Launcher}, each running {@link RankMain}.</li>
 *   <li>On every rank the test class is loaded <em>through that rank's loader</em>, a fresh instance is made with
 *       its no-argument constructor (an enclosing instance first for {@code @Nested} classes), and, with
 *       {@link #init()}, {@code MPI.Init(new String[0])} is called; then the method runs; then, if it returned
 *       normally and MPI is initialised and not yet finalised, {@code MPI.Finalize()}. So the body sees its own
 *       rank's {@code MPI.COMM_WORLD} and its own copy of every static of the test class.</li>
 *   <li>The extension waits for all ranks, at most {@link #timeoutSeconds()}. When ranks fail, one
 *       {@code org.opentest4j.AssertionFailedError} is thrown whose message lists every failing rank (rank number
 *       first) with its exception; each rank's exception is attached as a suppressed {@link RankFailure} whose cause
 *       is the original exception (threads mode) or whose message holds the rank's printed stack trace (processes
 *       mode). After the first failure the job is aborted: in threads mode ranks blocked in MPI are woken and the
 *       others get a few seconds to end; in processes mode the launcher ends the other JVMs (SIGTERM, then SIGKILL).
 *       Ranks that ended only because of that abort are listed as such, not as failures. A rank that calls
 *       {@code MPI.Abort} fails the invocation with the abort's message; in processes mode so does a rank JVM that
 *       exits without an exception (say {@code System.exit}), or after {@code MPI.Init} without
 *       {@code MPI.Finalize}. An assumption ({@code Assumptions.assumeTrue}) that fails on ranks, with no rank
 *       failing otherwise, skips the invocation.</li>
 *   <li>On timeout, every rank's stack is dumped (threads: the rank threads' stacks; processes: {@code kill -3},
 *       which makes each JVM print a full thread dump), the job is aborted (threads are interrupted; processes are
 *       killed) and the invocation fails with the dumps in the message.</li>
 * </ol>
 *
 * <h2>Rules for the test body</h2>
 * <ul>
 *   <li>The method may take no parameter or one of type {@link MpiTestContext} (rank, size, mode).</li>
 *   <li>{@code @BeforeEach}/{@code @AfterEach} methods and other JUnit callbacks run once, in JUnit's thread, on
 *       the instance JUnit made, not on the ranks. Per-rank set-up belongs in the body.</li>
 *   <li>In threads mode a rank stuck in a busy loop outside MPI cannot be stopped (Java has no thread kill); it is
 *       interrupted and left running as a daemon thread. Bodies should block in MPI or in interruptible calls.</li>
 *   <li>In processes mode each rank's stdout and stderr are captured; they are shown, each line prefixed with
 *       {@code [rank]}, only when the invocation fails (the last few thousand lines). In threads mode ranks print
 *       straight to the test JVM's streams.</li>
 * </ul>
 *
 * <h2>Class paths</h2>
 * Rank loaders (threads) and rank JVMs (processes) get the test JVM's {@code java.class.path}. Under Maven Surefire
 * set {@code <useManifestOnlyJar>false</useManifestOnlyJar>} so that it holds every entry (a manifest-only jar also
 * works, because class loaders follow a jar's {@code Class-Path}, but it hides what is on the path). In threads
 * mode the jar or directory holding jmpi-junit itself is left out of the rank class path, so that
 * {@code org.jmpi.junit} types (such as {@link MpiTestContext}) are shared between JUnit and the ranks; the test
 * class must be on the rest of it (it is an error otherwise, since the ranks would share its statics). In processes
 * mode the rank JVMs get the whole of it ({@code -cp}), and the launcher appends jmpi-core's location if missing.
 *
 * <h2>Settings</h2>
 * JUnit configuration parameters (a {@code -D} system property, or an entry in {@code junit-platform.properties}):
 * <ul>
 *   <li>{@code jmpi.junit.modes}: comma-separated list ({@code threads}, {@code processes}); invocations of other
 *       modes are not run (for quick local runs). A test none of whose modes is allowed shows as skipped.</li>
 *   <li>{@code jmpi.junit.timeoutFactor}: multiplies every {@link #timeoutSeconds()} (for slow machines).</li>
 *   <li>{@code jmpi.junit.classCache}: {@code false} starts rank JVMs without a class cache. Otherwise, on JDK 25
 *       and later, the first processes-mode invocation runs a short two-rank training job that makes a JDK class
 *       cache ({@code -XX:AOTCache}) of the class path's jars, and every rank JVM after it starts with that cache,
 *       in about half the CPU time, with the jars first on its class path and directories after them. Not when an
 *       option of the rank JVMs rules a cache out (another cache, agents, module options and the like).</li>
 * </ul>
 * In processes mode, every {@code jmpi.*} system property of the test JVM (but {@code jmpi.junit.*}) is passed on to
 * the rank JVMs, and so are {@code -ea} when assertions are on and the options in {@link #jvmArgs()}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@TestTemplate
@ExtendWith(MpiTestExtension.class)
public @interface MpiTest {
    /** The rank counts to run with, each at least 1. */
    int[] ranks() default {1, 2, 3, 4};

    /** The ways to start ranks; every rank count runs in every mode. */
    Mode[] modes() default {Mode.THREADS, Mode.PROCESSES};

    /** Hard limit on one invocation (all ranks, including MPI start-up and shut-down), in seconds. */
    long timeoutSeconds() default 60;

    /** Whether to call {@code MPI.Init} before the body and {@code MPI.Finalize} after it on every rank. */
    boolean init() default true;

    /** Extra JVM options for the rank JVMs in processes mode (ignored in threads mode). */
    String[] jvmArgs() default {};

    /**
     * In processes mode, how many hosts the ranks are placed on: names of this machine ({@code localhost},
     * {@code 127.0.0.2}, {@code 127.0.0.3}, ...) that the launcher counts as different hosts, so the job's node map
     * has that many nodes and the ranks talk through shared memory on one and TCP between them, as on separate
     * machines. Consecutive ranks share a host (the first hosts take one more when they do not divide evenly), or
     * with {@link #roundRobin()} rank {@code r} is on host {@code r mod hosts}. Ignored in threads mode (one JVM is
     * one host).
     */
    int hosts() default 1;

    /** With {@link #hosts()}, ranks dealt to the hosts in turn instead of in runs. */
    boolean roundRobin() default false;
}
