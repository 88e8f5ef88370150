package org.jmpi.runtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * JVM options that keep C2 from inlining jmpi's out-of-line halves into the small API methods that call them, and
 * that start the JIT sooner on jmpi's message path; and compiler directives ({@link #directives()}) that keep jmpi's
 * runtime out of C2 altogether, which jmpirun's proxy gives every Java rank besides (and {@code MPI_Init} a JVM
 * that has none). Under the directives the first
 * kind matters less: C2 compiles none of the methods they concern.
 *
 * <p>Why: {@code Comm.recv} must return a new {@code Status}. When C2 inlines {@code recv} into the caller's loop and
 * the caller ignores the result (the usual case), escape analysis removes that allocation, and a ping-pong allocates
 * nothing per round trip. C2 inlines a callee only if the callee's own compiled code is small ("already compiled into
 * a big method", {@code InlineSmallCode}). {@code recv} is hot, so C2 compiles it on its own first, and then inlines
 * its hot helpers into it, which makes it big. HotSpot's {@code @DontInline} is honoured for the JDK's own classes
 * only; for others the same hint is a {@code CompileCommand}. The methods it names end in {@code OutOfLine}; each is
 * one call per API call, so not inlining it costs a call (nanoseconds), while the allocation it saves costs a young
 * collection every few million calls and a page fault per 4 KiB of young generation before the first one.
 *
 * <p>The same split keeps {@code iSend}, {@code iRecv}, {@code Request.waitFor} and {@code Request.test} small, so
 * that a {@code Request} the program starts, waits on and drops is not allocated either (64 bytes per iSend + iRecv +
 * waitFor round trip without the hints, about 4 with them).
 *
 * <p>The next four options make the JIT compile the methods of jmpi's message path (the runtime, point-to-point,
 * transports and copies) after 0.4 times the usual number of calls and loop
 * iterations (C1's and C2's thresholds alike: C2 after 2,000 calls instead of 5,000, or 6,000 calls and iterations
 * together instead of 15,000). A short program spends its first second in the JIT's warm-up. On a host with as many
 * cores as ranks, the compiler threads then take the cores from ranks that spin for each other's messages, and the C1
 * code with full profiling, which runs until C2 has compiled a method, is several times slower than C2's. Starting
 * sooner on these methods ends that phase sooner, without compiling more of the program's and the JDK's methods:
 * issue 16's plain ping-pong (200 + 200 round trips of 1 MiB on byte[], the program in the default package) took
 * 79-447 us per message (median 96) with the hints against 760-984 without, five runs each (2026-11-24; in a gated
 * sitting 5.3 times faster on byte[] and 6.9 times on double[]). Since the directives below keep these packages out
 * of C2, the scaling only moves C1's compilation of them earlier (after some 80 calls instead of 200): against the
 * same build without it (6 interleaved gated rounds, 2026-12-07), OMB-J latency took 0.93 of the time with it, bcast
 * 0.95, allreduce 0.99, the Jacobis 0.98, and the conjugate gradient 1.05, N-body 1.02, the 8-byte ping-pong after
 * a barrier 1.10 (the same methods are compiled, a little sooner), so it stays. Measured and not taken:
 * <ul>
 * <li>the same thresholds for every method (global {@code -XX:Tier4...} options): 1 MiB gained half as much, and
 * direct buffers got slower, because the JIT also compiled the JDK's methods that C2 inlines anyway;</li>
 * <li>scaling all of {@code org.jmpi}: a 4-byte allreduce timed right after the benchmark's warm-up took 1.1-2.1 us
 * against 0.6-1.2 (over 100,000 calls the two were equal: a longer transient, not slower code);</li>
 * <li>scaling by 0.2 or 0.1 (compiled before the profiles were complete; small messages got slower) or 0.6 (little
 * gain);</li>
 * <li>scaling the datatypes (until 2026-12-04): the few of their methods that every call runs (the look-up of a
 * buffer's view) reach the usual count in a program's first calls anyway, and the rest (making a view, once per
 * buffer, count and direction, and its checks) run a few times per message size, so that with the lower count
 * OMB-J's cold runs compiled them in the middle of some size's timed loop, on the rank's own core. Without it, 4
 * interleaved gated rounds against the same build with it: OMB-J latency 0.94 of the time, bcast, allreduce,
 * allgather and alltoall 0.98-1.01, conjugate gradient 0.87, the other mini-applications 0.97-1.03
 * (docs/benchmarks.md, "Where a cold loop's time goes").</li>
 * </ul>
 * The {@code mpi} facade is not scaled (it was until 2026-11-28): a pattern on package {@code mpi} matches a program's
 * own packages {@code mpi.*} too (OMB-J's {@code mpi.pt2pt}), and moved the compilation of the benchmark's own loop
 * into its first sizes. Without it, cold OMB-J latency, bcast, allgather and alltoall took 0.98, 1.01, 0.98 and 1.10
 * times as long (geometric means over the sizes, 3 gated rounds): the same, the transient moved back to where Open
 * MPI Java's run has its own.
 *
 * <p>Until 2026-12-04 three classes whose small methods every message calls a fixed number of times (the frame
 * header's and the shared-memory record's accessors, a receive's reset) compiled after 0.1 times the usual count,
 * because a program of 200 + 200 round trips of 1 MiB made too few calls for them to reach 0.4 times it before its
 * second half, where their C2 compilations (25-50 ms each) then fell. Since the directives below keep jmpi out of C2
 * that reason is gone, and the lower count only compiled the methods of those classes that the general path runs (a
 * receive's, the header's) in the first calls that used them, inside some OMB-J size's timed loop. Without it, 4
 * interleaved gated rounds against the same build with it: OMB-J latency 0.90 of the time, allreduce 0.95, allgather
 * 0.90, bcast 1.07, the 1 MiB ping-pong on direct buffers 0.71, the mini-applications 1.02-1.04 (docs/benchmarks.md,
 * "Where a cold loop's time goes").
 *
 * <p>Measured and taken out again: making the compilations of the message path's methods blocking
 * ({@code BackgroundCompilation} false for {@code mpi}, runtime, pt2pt, transport, datatype, shared, coll and op), so
 * that the thread that asks for one waits until the code is installed. It moved the JIT's work out of the timed half
 * of issue 16's plain ping-pong (8 B on double[] 2.02 -> 0.69 us, 1 MiB on direct buffers 627 -> 161 us), but it made
 * every job longer: a rank waits for each C2 compilation of its hot methods (the wait loop's own among them, tens of
 * milliseconds each), also for code that would never have paid its compilation back in a short run. The plain
 * program's own processes ran up to 0.3 s longer with it (4 % over a sitting's 60 runs), a 2-rank program of 80
 * small collectives ({@code ShortJob}) took 0.73-0.88 s instead of 0.36-0.54 s in its loop, and one collectives test
 * class 66-76 s instead of 42-44 (2026-11-25). Blocking C1 alone kept most of the gain at no cost, but only a
 * compiler directives file can say that; since 2026-12-04 the directives below do, for jmpi's packages, which C2 no
 * longer compiles at all ({@link #directives()}).
 *
 * <p>jmpirun's host proxy adds these options to every Java rank it starts. The distribution's scripts take the same
 * list from {@code lib/jit-hints.sh}, which a test keeps equal to {@link #JVM_OPTIONS}: {@code bin/jmpirun} for its
 * own JVM with {@code --threads}, and {@code bin/jmpi-java} for ranks that another launcher starts. A {@code java}
 * command assembled by hand adds them itself (docs/launching.md). Without them everything works as before, with the
 * Status allocated.
 */
public final class JitHints {
    private JitHints() {}

    /**
     * Lets {@link #applyInBackground()} reach the JVM's diagnostic commands ({@code jdk.management}'s internal
     * {@code DiagnosticCommandImpl}); without it that method does nothing.
     */
    static final String ADD_OPENS = "--add-opens=jdk.management/com.sun.management.internal=ALL-UNNAMED";

    /**
     * Lets C1 inline small methods whose operand stack and locals, beyond their arguments, take up to 10 slots
     * instead of the JDK 25 default of 5 (a {@code long} takes two, and the JVM adds one). jmpi's message path runs
     * on C1 (the directives below), and at 5 C1 called rather than inlined a good part of what one message runs
     * through, each call a few nanoseconds: the ring's envelope words ({@code ShmLayout.envelopeWord}, 13 bytes, six
     * calls a message), the ring's head update, {@code FastCopy.copy}, and the JDK's own small methods that jmpi's
     * C1 code calls: {@code AtomicInteger.compareAndSet} and {@code setRelease}, {@code AtomicLong.getAndAdd},
     * {@code Unsafe.getLongUnaligned}. Those JDK methods, called rather than inlined, were then hot enough on their
     * own for C2, in the program's first second. Measured 2026-11-30 (2 ranks on 2 cores, ungated, three runs
     * each): a ping-pong of 8 bytes on {@code byte[]} after 200,000 round trips 0.34 us one way against 0.37-0.40,
     * on direct buffers 0.32-0.38 against 0.37-0.38; a Jacobi 256^2 x 5,000 compiled 36-40 methods with C2 per rank
     * instead of 49-51, in the same C1 time. Cold, gated, against the same build without it (3 interleaved
     * rounds): OMB-J latency 0.95 of the time (geometric mean over sizes), on arrays 0.93, bandwidth 0.95, allreduce
     * 0.95, the barrier ping-pong of 8 bytes 0.89 on {@code byte[]}; the mini-applications 0.98-1.01 (6 rounds).
     */
    static final String C1_INLINE_STACK = "-XX:C1InlineStackLimit=10";

    /**
     * The options, first {@code quiet} (else each JVM prints the command it was given on its standard output). The
     * one on {@code jdk.internal.classfile} makes C1 and C2 wait ten times longer before they compile the JDK's
     * class-file library. The JDK uses that library when it generates classes at run time: 47-74 in a
     * rank's first second (method handle forms, and the code of each native downcall jmpi links at the end of
     * {@code MPI_Init}). About 200 of the library's methods were hot enough for C1 there, a fifth of a rank's
     * C1 compilations, for work that is over within that second. The last is C1's inlining of the message path
     * ({@code C1_INLINE_STACK}).
     */
    public static final List<String> JVM_OPTIONS = List.of("-XX:CompileCommand=quiet", ADD_OPENS,
            "-XX:CompileCommand=dontinline,mpi.*::*OutOfLine",
            scaled("org.jmpi.runtime"), scaled("org.jmpi.pt2pt"), scaled("org.jmpi.transport"),
            scaled("org.jmpi.shared"),
            "-XX:CompileCommand=CompileThresholdScaling,jdk.internal.classfile.*::*,10.0", C1_INLINE_STACK);

    private static String scaled(String pkg) {
        return "-XX:CompileCommand=CompileThresholdScaling," + pkg + ".*::*,0.4";
    }

    /**
     * The packages whose methods C2 neither compiles nor inlines ({@link #directives()}): jmpi's runtime, from the
     * {@code mpi} facade down to the transports; with the MPJ Express facade, also the Open MPI facade it calls, moved
     * to {@code org.jmpi.mpj.ompi}, which C2 compiled until 2026-11-28 (on its own this changed little: the cold
     * ping-pong of jmpi-benchmarks/scripts/mpj-facade.sh through the MPJ API took 1.29 times the Open MPI API's time
     * instead of 1.32, its Jacobi 256 1.40 instead of 1.64; the MPJ ranks' own class cache did the rest). The
     * reduction kernels ({@code org.jmpi.op}) are not among them: their loops over large buffers want C2's
     * vectorised code.
     *
     * <p>One JDK package is among them: {@code sun.nio.ch}, the socket channels' implementation, which TCP's message
     * path runs through on every read and write (the channel's locks, its blocking bookkeeping, the dispatcher's
     * native call). A syscall costs microseconds, C2's code for the wrapper around it saves nanoseconds, and C2's
     * compilations of it (about a dozen methods that inline the channel's locks) fell into the first iterations of a
     * job across hosts: 50-60 ms of C2 per rank in a cold Jacobi 256^2 x 5,000 on 2 hosts x 2 ranks, beside 17 ms of
     * C1 with full profiling, on cores its four ranks shared (LogCompilation, 2026-12-04). The ranks' class cache
     * records these methods as compiled by C1's final tier (lib/aot), so a rank compiles them once, as jmpi's own.
     */
    static final List<String> C1_PACKAGES = List.of("org.jmpi.runtime", "org.jmpi.pt2pt", "org.jmpi.transport",
            "org.jmpi.coll", "org.jmpi.datatype", "org.jmpi.shared", "org.jmpi.comm", "org.jmpi.topo", "org.jmpi.rma",
            "org.jmpi.bootstrap", "org.jmpi.mpj", "sun.nio.ch");

    /** The JVM's answer, and its note on standard output at start, when it has taken {@link #directives()}. */
    public static final String DIRECTIVES_NOTICE = "2 compiler directives added";

    /**
     * Compiler directives that keep jmpi's runtime out of C2 (on the rank's command line, {@link
     * #directiveOptions(boolean)}; else from {@code MPI_Init}, {@link #applyInBackground()}): its methods are compiled
     * by C1 only (first with profiling, then, once C2 would have taken them, without), and C2 does not inline them into
     * the program's own methods either. C2 then compiles the program, the JDK and the reduction kernels, some 0.1 s of
     * compiler time per rank instead of 1.0-1.5 s in an OSU latency run.
     *
     * <p>Why: on a host whose ranks fill the cores, C2's compilations of the message path (tens of milliseconds each,
     * every FFM access inlining some 30 methods) run on the cores the ranks spin on, in the program's first seconds,
     * and each new branch (a barrier, a larger message) threw compiled code away and started again; C1 compiles a
     * method in about a tenth of the time and does not speculate. Measured cold (fresh JVMs, 2 ranks on 2 cores,
     * 2026-11-26, ungated, two runs each): Jacobi 1024^2 x 500 0.80 -> 0.63 s, 256^2 x 5000 0.91 -> 0.48 s, conjugate
     * gradient 0.81 -> 0.65 s, N-body 1.07 -> 0.90 s; OMB-J's allreduce at 256 KiB-1 MiB 1.1 ms -> 0.25-0.46 ms.
     * In a gated sitting of the cold suite the same day every case was 1.05-5.6 times faster. The price: once everything
     * is compiled, small messages are slower than with C2's code (a warmed 8-byte ping-pong 0.39 against 0.12 us one
     * way, an 8-byte allreduce 0.88 against 0.29 us).
     *
     * <p>For a rank bound to a core ({@code foreground}) the same methods are compiled in the foreground ({@code
     * BackgroundCompilation: false}): the thread that made one hot waits for its compilation (a C1 compilation of a
     * method of the message path takes well under a millisecond of CPU) and goes on in the compiled code, instead of
     * running on in the interpreter while the compiler thread works beside it. A rank's compiler threads share its
     * core, and the scheduler gave a background compilation the core for a whole time slice (1-5 ms) at a time of its
     * choosing, often in the middle of an exchange whose partner then waited. Cold, 2 ranks on 2 cores, against
     * background compilation (three gated sittings of 3-6 interleaved rounds, 2026-12-04, two with the option given per
     * method from the command line): conjugate gradient 0.78, 0.81 and 0.90 of the time, Jacobi 256^2 x 5,000 1.04,
     * 0.92 and 0.98, Jacobi 1024^2 x 500 0.99 and 0.95, sample sort 0.94 and 1.06, N-body 0.97 and 1.10, the ping-pong
     * after a barrier 1.00 and 0.84 (0.94 on the geometric mean); OMB-J's geometric means over the sizes 0.91-1.11,
     * 1.01 over its cases (latency 1.07 and 1.04, allreduce 1.02 and 1.03). A short job of 80 small collectives took as
     * long (jmpi-benchmarks' shortjob-ab.sh). Not for ranks that are not bound (more ranks than cores, fewer, or
     * threads of one JVM): there a rank that waited for its compilation held up the others, and a compiler thread may
     * find a core of its own. On 2 emulated hosts x 2 ranks, 4 unbound ranks on 2 cores, foreground compilation took
     * 0.99-1.11 of the time (Jacobi 1024 1.10, sample sort 1.11; 6 gated rounds).
     *
     * <p>The {@code mpi} package is named by its classes' capital initials ({@code mpi/A*} to {@code mpi/Z*}), so that a
     * program's own package {@code mpi.something} (OMB-J's {@code mpi.pt2pt}) is not matched.
     */
    public static String directives() {
        return directives(false);
    }

    /** {@link #directives()}, with jmpi's methods compiled in the foreground when {@code foreground}. */
    public static String directives(boolean foreground) {
        List<String> patterns = new ArrayList<>();
        for (char initial = 'A'; initial <= 'Z'; initial++) {
            patterns.add("mpi/" + initial + "*.*");
        }
        for (String pkg : C1_PACKAGES) {
            patterns.add(pkg.replace('.', '/') + "/*.*");
        }
        StringBuilder match = new StringBuilder();
        StringBuilder inline = new StringBuilder();
        for (String p : patterns) {
            match.append(match.isEmpty() ? "" : ", ").append('"').append(p).append('"');
            inline.append(inline.isEmpty() ? "" : ", ").append("\"-").append(p).append('"');
        }
        return "[ { match: [" + match + "], " + (foreground ? "BackgroundCompilation: false, " : "")
                + "c2: { Exclude: true } },\n  { match: [\"*.*\"], c2: { inline: [" + inline + "] } } ]\n";
    }

    /**
     * The JVM options that give a rank {@link #directives()} from its command line, for a launcher that starts the
     * rank's JVM (jmpirun's host proxy): the JVM reads the file at start, at no cost to the rank, and says so in one
     * line ({@link #DIRECTIVES_NOTICE}) on its standard output, which the launcher drops; the property tells
     * {@link #applyInBackground()} that there is nothing left to do.
     *
     * @param foreground whether jmpi's methods compile in the foreground (for a rank bound to a core)
     * @throws IOException if the file cannot be written
     */
    public static List<String> directiveOptions(boolean foreground) throws IOException {
        return List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:CompilerDirectivesFile=" + directivesFile(foreground),
                "-D" + GIVEN + "=command line");
    }

    /** The system property that says this JVM has the directives (or is getting them). */
    static final String GIVEN = "jmpi.jit.directives";

    /**
     * {@link #directives()} in a file of the temporary directory named after its content's hash and length, written
     * if absent (a file of that name with other content is left alone and a file of this JVM's own is written).
     */
    static Path directivesFile() throws IOException {
        return directivesFile(false);
    }

    /** {@link #directivesFile()} of {@link #directives(boolean) directives(foreground)}. */
    static Path directivesFile(boolean foreground) throws IOException {
        String text = directives(foreground);
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        Path dir = Path.of(System.getProperty("java.io.tmpdir"));
        Path file = dir.resolve(String.format("jmpi-jit-%08x-%d.json", text.hashCode(), bytes.length));
        if (Files.isRegularFile(file) && java.util.Arrays.equals(Files.readAllBytes(file), bytes)) {
            return file;
        }
        Path tmp = Files.createTempFile(dir, "jmpi-jit-", ".json");
        try {
            Files.write(tmp, bytes);
            tmp.toFile().setReadable(true, false);
            if (Files.exists(file)) {
                Path own = tmp; // someone else's file under our name: keep ours apart (deleted at exit)
                own.toFile().deleteOnExit();
                tmp = null;
                return own;
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            tmp = null;
            return file;
        } finally {
            if (tmp != null) {
                Files.deleteIfExists(tmp);
            }
        }
    }

    /**
     * Gives this JVM {@link #directives()} from inside, once per JVM, in a daemon thread: for the JVMs whose command
     * line does not name them ({@link #directiveOptions(boolean)}), the one that runs the ranks of {@code jmpirun --threads}
     * and ranks that another launcher starts through {@code bin/jmpi-java}. Through the JVM's diagnostic command {@code Compiler.directives_add},
     * which answers to the caller instead of printing on standard output as the command-line flag does; it needs
     * {@link #ADD_OPENS} (part of {@link #JVM_OPTIONS}). Nothing happens with {@code JMPI_JIT_DIRECTIVES=0} or
     * {@code JMPI_JIT_HINTS=0}, or when the command cannot be reached. The directives go on top of any the JVM has
     * (a {@code -XX:CompilerDirectivesFile} of the user's: set {@code JMPI_JIT_DIRECTIVES=0} to keep only those). Costs
     * some 15-20 ms of CPU in that thread, while the rank starts.
     */
    public static void applyInBackground() {
        if ("0".equals(System.getenv("JMPI_JIT_DIRECTIVES")) || "0".equals(System.getenv("JMPI_JIT_HINTS"))
                || System.getProperties().putIfAbsent(GIVEN, "MPI_Init") != null) {
            return; // turned off, or given already (on the command line, or to an earlier rank of --threads)
        }
        Thread.ofPlatform().daemon().name("jmpi-jit-directives").start(JitHints::applyNow);
    }

    /** {@link #applyInBackground()}'s work, in the calling thread; true if the JVM took the directives. */
    public static boolean applyNow() {
        try {
            String command = "Compiler.directives_add " + directivesFile();
            // the provider's class initialiser loads the native library the diagnostic commands are in
            Class.forName("com.sun.management.internal.PlatformMBeanProviderImpl");
            Class<?> impl = Class.forName("com.sun.management.internal.DiagnosticCommandImpl");
            java.lang.reflect.Method get = impl.getDeclaredMethod("getDiagnosticCommandMBean");
            get.setAccessible(true);
            java.lang.reflect.Method execute = impl.getDeclaredMethod("executeDiagnosticCommand", String.class);
            execute.setAccessible(true);
            Object answer = execute.invoke(get.invoke(null), command);
            return DIRECTIVES_NOTICE.equals(String.valueOf(answer).strip());
        } catch (IOException | ReflectiveOperationException | RuntimeException | LinkageError e) {
            return false; // not reachable (no --add-opens, another JDK): the runtime stays on C2, as before
        }
    }
}
