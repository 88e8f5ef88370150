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
import java.util.concurrent.atomic.AtomicBoolean;
import org.jmpi.shared.Syscall;

/**
 * The Linux system calls the shared-memory transport wants and the JDK does not offer, called through
 * {@code java.lang.foreign} (no JNI): {@code futex} (sleep on a word of shared memory, and wake a process sleeping on
 * one) and {@code process_vm_readv} / {@code process_vm_writev} (read or write another process's memory: the
 * single-copy path).
 *
 * <p><b>Linked in the background, on demand.</b> Linking the first downcall costs some 100 ms of CPU (the JDK
 * generates its stubs), too much for MPI_Init on a small machine where the start-up of every rank counts. So nothing
 * is linked until {@link #prepare()} is called, which links both calls in a daemon thread and returns at once;
 * {@link #get()} answers null until they are ready. Callers take their fallback meanwhile (park with back-off; two
 * copies). When a symbol is missing (not Linux, not glibc-compatible) or the linker refuses, {@link Calls#futex} or
 * {@link Calls#processVm} say so for good.
 *
 * <p>Threading: {@code calls} is published through a volatile field; {@link Calls} is immutable; per-thread scratch
 * memory for the {@code iovec} and {@code timespec} arguments lives in a {@link ThreadLocal}.
 */
@SuppressWarnings("restricted")
final class LinuxCalls {
    private LinuxCalls() {}

    static final int EINTR = 4;
    static final int EFAULT = 14;
    private static final long FUTEX_WAIT = 0;
    private static final long FUTEX_WAKE = 1;

    private static final AtomicBoolean STARTED = new AtomicBoolean();
    private static volatile Calls calls;

    /** Starts linking in a daemon thread, once; returns at once. */
    static void prepare() {
        if (STARTED.compareAndSet(false, true)) {
            Thread.ofPlatform().daemon().name("jmpi-link-syscalls").start(() -> calls = Calls.link());
        }
    }

    /** Links now, in the calling thread (tests); returns the calls. */
    static Calls prepareNow() {
        Calls c = calls;
        if (c == null) {
            STARTED.set(true);
            c = Calls.link();
            calls = c;
        }
        return c;
    }

    /** The linked calls, or null while they are not ready (see {@link #prepare()}). */
    static Calls get() {
        return calls;
    }

    /** The downcall handles, or the knowledge that a call is unavailable. */
    static final class Calls {
        private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
        private static final VarHandle ERRNO =
                CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

        /** Whether {@link #futexWait} and {@link #futexWake} work. */
        final boolean futex;
        /** Whether {@link #processVmRead} can be called at all (the kernel may still refuse per peer). */
        final boolean processVm;
        private final long futexNumber;
        private final MethodHandle syscallFutex;
        private final MethodHandle processVmReadv;
        private final MethodHandle processVmWritev;
        private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);

        private Calls(long futexNumber, MethodHandle futex, MethodHandle readv, MethodHandle writev) {
            this.futexNumber = futexNumber;
            this.syscallFutex = futex;
            this.processVmReadv = readv;
            this.processVmWritev = writev;
            this.futex = futex != null;
            this.processVm = readv != null && writev != null;
        }

        static Calls link() {
            String os = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT);
            long nr = Syscall.FUTEX;
            if (!os.contains("linux")) {
                return new Calls(nr, null, null, null);
            }
            MethodHandle futex = null;
            MethodHandle readv = null;
            MethodHandle writev = null;
            try {
                Linker linker = Linker.nativeLinker();
                SymbolLookup libc = linker.defaultLookup();
                Linker.Option errno = Linker.Option.captureCallState("errno");
                // futex(uaddr, op, val, timeout, uaddr2, val3) through syscall(), shared with the other system
                // calls jmpi makes (org.jmpi.shared.Syscall). No errno capture: every outcome of a wait (woken,
                // EAGAIN, ETIMEDOUT, EINTR) means "look again", and a capturing call slices its state segment on
                // every call, an object that escape analysis keeps when C2 does not inline the call into its
                // caller (measured: 2-3 per 4-byte allreduce on a rank that sleeps between messages, 3 ranks on
                // 2 cores)
                futex = nr > 0 ? Syscall.handle() : null;
                FunctionDescriptor vm =
                        FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG);
                readv = libc.find("process_vm_readv").map(s -> linker.downcallHandle(s, vm, errno)).orElse(null);
                writev = libc.find("process_vm_writev").map(s -> linker.downcallHandle(s, vm, errno)).orElse(null);
            } catch (RuntimeException | LinkageError e) {
                // no native access (--enable-native-access refused, no linker): fall back for good
            }
            return new Calls(nr, futex, readv, writev);
        }

        /** Per-thread scratch: errno state, two iovecs (32 bytes), a timespec (16 bytes). */
        private static final class Scratch {
            final MemorySegment state;
            final MemorySegment iovecs;
            /** The second iovec of {@link #iovecs} (the remote one), sliced once. */
            final MemorySegment remoteIovec;
            final MemorySegment timespec;

            Scratch() {
                Arena arena = Arena.ofAuto();
                state = arena.allocate(CALL_STATE);
                iovecs = arena.allocate(32, 8);
                remoteIovec = iovecs.asSlice(16, 16);
                timespec = arena.allocate(16, 8);
            }

            int errno() {
                return (int) ERRNO.get(state, 0L);
            }
        }

        /**
         * Sleeps while the int at {@code word} equals {@code expected}, at most {@code timeoutNanos} (a shared futex
         * wait: the word may be in memory shared between processes). Returns at once when the word differs; may
         * return spuriously.
         */
        void futexWait(MemorySegment word, int expected, long timeoutNanos) {
            Scratch s = scratch.get();
            s.timespec.set(JAVA_LONG, 0, timeoutNanos / 1_000_000_000L);
            s.timespec.set(JAVA_LONG, 8, timeoutNanos % 1_000_000_000L);
            try {
                long ignored = (long) syscallFutex.invokeExact(futexNumber, word.address(), FUTEX_WAIT,
                        (long) expected, s.timespec.address(), 0L, 0L);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }

        /** Wakes at most {@code count} threads (in any process) sleeping on the int at {@code word}. */
        void futexWake(MemorySegment word, int count) {
            try {
                long ignored = (long) syscallFutex.invokeExact(futexNumber, word.address(), FUTEX_WAKE,
                        (long) count, 0L, 0L, 0L);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }

        /**
         * Copies {@code into.byteSize()} bytes from {@code remoteAddress} in process {@code pid} into {@code into}
         * (native memory), looping over partial transfers.
         *
         * @return 0 on success, else the errno of the failed call (EPERM, ESRCH, EFAULT, ENOSYS, ...)
         */
        int processVmRead(int pid, long remoteAddress, MemorySegment into) {
            return transfer(processVmReadv, pid, remoteAddress, into);
        }

        /**
         * Copies {@code from} (native memory) to {@code remoteAddress} in process {@code pid}, looping over partial
         * transfers.
         *
         * @return 0 on success, else the errno of the failed call
         */
        int processVmWrite(int pid, MemorySegment from, long remoteAddress) {
            return transfer(processVmWritev, pid, remoteAddress, from);
        }

        /** process_vm_readv or _writev: local iovec = {@code local}, remote iovec = {@code remoteAddress}. */
        private int transfer(MethodHandle call, int pid, long remoteAddress, MemorySegment local) {
            MemorySegment into = local;
            Scratch s = scratch.get();
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
                    long r = (long) call.invokeExact(s.state, pid, iov, 1L, s.remoteIovec, 1L, 0L);
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
    }
}
