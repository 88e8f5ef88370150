package org.jmpi.transport.shm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;

/**
 * The few Linux system calls the shared-memory transport needs and the JDK does not offer, called through
 * {@code java.lang.foreign} (no JNI): {@code futex} (sleep on and wake a word of shared memory), {@code
 * process_vm_readv} (read another process's memory: the single-copy path) and {@code open} + {@code posix_fallocate}
 * (create a segment file with mode 0600 and reserve its pages, so that a full {@code /dev/shm} shows at creation
 * rather than as a SIGBUS later).
 *
 * <p>Every call degrades: when the symbol is missing (not Linux, not glibc-compatible) or the linker refuses,
 * {@link #FUTEX}, {@link #PROCESS_VM} and {@link #FILES} say so and callers take their fallback (park with back-off;
 * two copies; plain {@code java.nio} file creation).
 *
 * <p>Threading: stateless; per-thread scratch memory for the {@code iovec} and {@code timespec} arguments lives in
 * {@link ThreadLocal}s.
 */
@SuppressWarnings("restricted")
final class LinuxCalls {
    private LinuxCalls() {}

    private static final long SYS_FUTEX = 202; // x86_64; set per architecture below
    private static final int FUTEX_WAIT = 0;
    private static final int FUTEX_WAKE = 1;
    static final int EPERM = 1;
    static final int ESRCH = 3;
    static final int EINTR = 4;
    static final int EFAULT = 14;
    static final int EEXIST = 17;
    static final int ENOSYS = 38;
    private static final int O_RDWR = 2;
    private static final int O_CREAT = 0100;
    private static final int O_EXCL = 0200;
    private static final int O_CLOEXEC = 02000000;

    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private static final long futexNumber;
    private static final MethodHandle SYSCALL_FUTEX;
    private static final MethodHandle PROCESS_VM_READV;
    private static final MethodHandle OPEN;
    private static final MethodHandle FALLOCATE;
    private static final MethodHandle CLOSE;

    /** Whether {@link #futexWait} and {@link #futexWake} work. */
    static final boolean FUTEX;
    /** Whether {@link #processVmRead} can be called at all (the kernel may still refuse per peer). */
    static final boolean PROCESS_VM;
    /** Whether {@link #createFile} works. */
    static final boolean FILES;

    static {
        String os = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        long nr = arch.equals("amd64") || arch.equals("x86_64") ? SYS_FUTEX
                : arch.equals("aarch64") || arch.equals("riscv64") ? 98 : -1;
        futexNumber = nr;
        MethodHandle futex = null;
        MethodHandle readv = null;
        MethodHandle open = null;
        MethodHandle fallocate = null;
        MethodHandle close = null;
        if (os.contains("linux")) {
            try {
                Linker linker = Linker.nativeLinker();
                SymbolLookup libc = linker.defaultLookup();
                Linker.Option errno = Linker.Option.captureCallState("errno");
                if (nr > 0) {
                    // long syscall(long number, ...): futex(uaddr, op, val, timeout, uaddr2, val3)
                    futex = libc.find("syscall").map(s -> linker.downcallHandle(s,
                            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS,
                                    JAVA_INT),
                            errno, Linker.Option.firstVariadicArg(1))).orElse(null);
                }
                readv = libc.find("process_vm_readv").map(s -> linker.downcallHandle(s,
                        FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG),
                        errno)).orElse(null);
                open = libc.find("open").map(s -> linker.downcallHandle(s,
                        FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), errno,
                        Linker.Option.firstVariadicArg(2))).orElse(null);
                fallocate = libc.find("posix_fallocate").map(s -> linker.downcallHandle(s,
                        FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG))).orElse(null);
                close = libc.find("close").map(s -> linker.downcallHandle(s,
                        FunctionDescriptor.of(JAVA_INT, JAVA_INT))).orElse(null);
            } catch (RuntimeException | LinkageError e) {
                futex = null;
                readv = null;
                open = null;
            }
        }
        SYSCALL_FUTEX = futex;
        PROCESS_VM_READV = readv;
        OPEN = open;
        FALLOCATE = fallocate;
        CLOSE = close;
        FUTEX = futex != null;
        PROCESS_VM = readv != null;
        FILES = open != null && fallocate != null && close != null;
    }

    /** Per-thread scratch: errno state, two iovecs (32 bytes), a timespec (16 bytes). */
    private static final class Scratch {
        final MemorySegment state;
        final MemorySegment iovecs;
        final MemorySegment timespec;

        Scratch() {
            Arena arena = Arena.ofAuto();
            state = arena.allocate(CALL_STATE);
            iovecs = arena.allocate(32, 8);
            timespec = arena.allocate(16, 8);
        }

        int errno() {
            return (int) ERRNO.get(state, 0L);
        }
    }

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    /**
     * Sleeps while the int at {@code word} equals {@code expected}, at most {@code timeoutNanos} (a non-shared futex
     * wait: the word may be in memory shared between processes). Returns at once when the word differs; may return
     * spuriously.
     */
    static void futexWait(MemorySegment word, int expected, long timeoutNanos) {
        Scratch s = SCRATCH.get();
        s.timespec.set(JAVA_LONG, 0, timeoutNanos / 1_000_000_000L);
        s.timespec.set(JAVA_LONG, 8, timeoutNanos % 1_000_000_000L);
        try {
            long r = (long) SYSCALL_FUTEX.invokeExact(s.state, futexNumber, word, FUTEX_WAIT, expected, s.timespec,
                    MemorySegment.NULL, 0);
            if (r < 0 && s.errno() == ENOSYS) {
                throw new IllegalStateException("futex is not available");
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Wakes at most {@code count} threads (in any process) sleeping on the int at {@code word}. */
    static void futexWake(MemorySegment word, int count) {
        Scratch s = SCRATCH.get();
        try {
            long r = (long) SYSCALL_FUTEX.invokeExact(s.state, futexNumber, word, FUTEX_WAKE, count,
                    MemorySegment.NULL, MemorySegment.NULL, 0);
            assert r >= 0 || s.errno() != ENOSYS;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * Copies {@code into.byteSize()} bytes from {@code remoteAddress} in process {@code pid} into {@code into} (native
     * memory), looping over partial transfers.
     *
     * @return 0 on success, else the errno of the failed call (EPERM, ESRCH, EFAULT, ENOSYS, ...)
     */
    static int processVmRead(int pid, long remoteAddress, MemorySegment into) {
        Scratch s = SCRATCH.get();
        MemorySegment iov = s.iovecs;
        long done = 0;
        long total = into.byteSize();
        try {
            while (done < total) {
                long n = total - done;
                iov.set(JAVA_LONG, 0, into.address() + done);
                iov.set(JAVA_LONG, 8, n);
                iov.set(JAVA_LONG, 16, remoteAddress + done);
                iov.set(JAVA_LONG, 24, n);
                long r = (long) PROCESS_VM_READV.invokeExact(s.state, pid, iov, 1L, iov.asSlice(16, 16), 1L, 0L);
                if (r < 0) {
                    int e = s.errno();
                    if (e == EINTR) {
                        continue;
                    }
                    return e == 0 ? EFAULT : e;
                }
                if (r == 0) {
                    return EFAULT;
                }
                done += r;
            }
            return 0;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * Creates {@code path} exclusively with mode 0600 (less the umask) and reserves {@code size} bytes of storage.
     *
     * @return 0 on success, else the errno of the failed step (EEXIST when the file exists, ENOSPC when the file
     *     system is full); on failure after creation the file is removed by the caller
     */
    static int createFile(String path, long size) {
        Scratch s = SCRATCH.get();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cpath = arena.allocateFrom(path, StandardCharsets.UTF_8);
            int fd = (int) OPEN.invokeExact(s.state, cpath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
            if (fd < 0) {
                return s.errno();
            }
            int r = (int) FALLOCATE.invokeExact(fd, 0L, size);
            int c = (int) CLOSE.invokeExact(fd);
            return r != 0 ? r : c != 0 ? EFAULT : 0;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
