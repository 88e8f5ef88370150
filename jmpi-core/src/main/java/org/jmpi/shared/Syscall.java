package org.jmpi.shared;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;

/**
 * The C library's generic system call entry, {@code long syscall(long number, ...)}, as one downcall with six
 * {@code long} arguments: every Linux system call jmpi makes through it (the shared-memory transport's {@code futex}
 * and {@code process_vm_readv}/{@code writev}, the rank's {@code prctl(PR_SET_PDEATHSIG)})
 * shares one downcall stub. Pointers are passed as their addresses ({@code MemorySegment.address()}).
 *
 * <p>Why one stub: the JDK generates the code of each downcall when it is linked, spinning some fifteen classes
 * through its class-file library, 30-40 ms of CPU time in a rank's first second. A call linked later, such as the
 * parent-death signal armed a second after start-up, took that time from whatever the program was doing then, and
 * each further downcall linked during {@code MPI_Init} took it from the ranks' start. With one entry for every system
 * call, the first call pays for the link and the others find it ready; the parent-death signal waits for the transport
 * to link it ({@link #awaitLinked}) and links it itself only ten seconds after start-up.
 *
 * <p>The arguments are 64-bit on purpose: {@code syscall} reads each of its variadic arguments as a {@code long},
 * and a caller that passed an {@code int} would leave the upper half of the register undefined.
 *
 * <p>Threading: linked once per JVM, by the first caller of {@link #handle()} (class initialisation makes the link
 * happen once); immutable afterwards. In threads mode this class is loaded once for all ranks.
 */
@SuppressWarnings("restricted")
public final class Syscall {
    private Syscall() {}

    /** The architecture's number of {@code futex}, or -1 where jmpi does not know it. */
    public static final long FUTEX = number(202, 98);
    /** The architecture's number of {@code prctl}, or -1 where jmpi does not know it. */
    public static final long PRCTL = number(157, 167);
    /** The architecture's number of {@code process_vm_readv}, or -1 where jmpi does not know it. */
    public static final long PROCESS_VM_READV = number(310, 270);
    /** The architecture's number of {@code process_vm_writev}, or -1 where jmpi does not know it. */
    public static final long PROCESS_VM_WRITEV = number(311, 271);

    /**
     * The downcall {@code (long number, long a1, long a2, long a3, long a4, long a5, long a6) -> long}, linked on the
     * first call; null when it cannot be (not Linux, no such symbol, native access refused). Arguments a call does
     * not use are 0. The result is the C library's: -1 on failure, with {@code errno} not captured.
     */
    public static MethodHandle handle() {
        return Holder.HANDLE;
    }

    /** Opened when {@link Holder} has linked (or failed to link) the downcall. */
    private static final java.util.concurrent.CountDownLatch LINKED = new java.util.concurrent.CountDownLatch(1);

    /**
     * Waits until some caller has linked {@link #handle()} (so that a call to it costs nothing more), at most
     * {@code nanos}; does not link it. Returns whether it is linked.
     */
    public static boolean awaitLinked(long nanos) throws InterruptedException {
        return LINKED.await(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    private static long number(long x86, long generic) {
        if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            return -1;
        }
        String arch = System.getProperty("os.arch", "");
        return arch.equals("amd64") || arch.equals("x86_64") ? x86
                : arch.equals("aarch64") || arch.equals("riscv64") ? generic : -1;
    }

    private static final class Holder {
        static final MethodHandle HANDLE = link();

        static {
            LINKED.countDown();
        }

        private static MethodHandle link() {
            if (FUTEX < 0) {
                return null; // not Linux on an architecture whose numbers are known
            }
            try {
                Linker linker = Linker.nativeLinker();
                return linker.defaultLookup().find("syscall").map(s -> linker.downcallHandle(s,
                        FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG,
                                JAVA_LONG, JAVA_LONG),
                        Linker.Option.firstVariadicArg(1))).orElse(null);
            } catch (RuntimeException | LinkageError e) {
                return null; // no native access (--enable-native-access refused, no linker)
            }
        }
    }
}
