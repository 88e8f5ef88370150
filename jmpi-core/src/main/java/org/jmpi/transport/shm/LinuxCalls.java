package org.jmpi.transport.shm;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.jmpi.shared.Syscall;

/**
 * The Linux system calls the shared-memory transport wants and the JDK does not offer, called through
 * {@code java.lang.foreign} (no JNI): {@code futex} (sleep on a word of shared memory, and wake a process sleeping on
 * one) and {@code process_vm_readv} / {@code process_vm_writev} (read or write another process's memory: the
 * single-copy path). All of them go through one downcall, the C library's {@code syscall} ({@link Syscall}): each
 * downcall of its own would cost its link again.
 *
 * <p><b>Linked as MPI_Init ends.</b> Linking a downcall costs some 40-100 ms of CPU (the JDK generates its code). The
 * shared-memory transport calls {@link #prepare()} at the end of the rank's start, in the rank's own thread, so that
 * the program's first phase does not share the processors with it. (Until 2026-11-29 a daemon thread linked while
 * MPI_Init returned; it was still at work in the program's first tens of milliseconds: a 2-D Jacobi's first
 * iteration took 8-19 ms instead of 1-4, its run 0.264 s instead of 0.233, while the jobs' whole times were the same
 * either way.) {@link #get()} answers null on a rank that has not linked (no other rank on its host); callers then
 * take their fallback (park with back-off; two copies).
 * When the downcall cannot be made (not Linux, an architecture whose numbers jmpi does not know, native access
 * refused), {@link Calls#futex} and {@link Calls#processVm} say so for good.
 *
 * <p>Threading: {@code calls} is published through a volatile field; {@link Calls} is immutable; scratch memory for
 * the {@code iovec} arguments is per thread ({@code FirstThreadLocal}); a futex sleep's timeout in the caller's memory.
 */
final class LinuxCalls {
    private LinuxCalls() {}

    /** What {@link Calls#processVmRead} and {@link Calls#processVmWrite} answer when the kernel refused. */
    static final int FAILED = -1;
    private static final long FUTEX_WAIT = 0;
    private static final long FUTEX_WAKE = 1;

    private static volatile Calls calls;

    /** Links the calls in the calling thread unless some caller has; returns them. */
    static Calls prepare() {
        Calls c = calls;
        if (c == null) {
            c = Calls.link();
            calls = c;
        }
        return c;
    }

    /** The linked calls, or null before {@link #prepare()}. */
    static Calls get() {
        return calls;
    }

    /** The downcall, or the knowledge that the calls are unavailable. */
    static final class Calls {
        /** Whether {@link #futexWait} and {@link #futexWake} work. */
        final boolean futex;
        /** Whether {@link #processVmRead} can be called at all (the kernel may still refuse per peer). */
        final boolean processVm;
        /**
         * The downcall, a constant: C1 then compiles {@code invokeExact} through it into its caller's code, the JDK's
         * invoker, stub and checks inlined. (Held in an instance field it was not a constant: the first 64 KiB
         * messages a cold program sends by address compiled some ten of the JDK's methods of the call with full
         * profiling, each a stall of up to a millisecond for both ranks on their cores, and C1's code for the call
         * called them: OMB-J's cold latency at 64 KiB, 6 gated rounds, 8.8 us against 12.7.)
         */
        private static final MethodHandle SYSCALL = Syscall.handle();
        /**
         * The iovecs of {@link #transfer}, per thread: in a field for the thread that links (the rank's own, which
         * makes the calls in most programs), so that a program's first messages sent by address do not also make the
         * JIT compile the JDK's thread-local look-up (three methods through tier 3, called rather than inlined by C1).
         */
        private final org.jmpi.shared.FirstThreadLocal<Scratch> scratch =
                new org.jmpi.shared.FirstThreadLocal<>(Scratch::new);

        /**
         * Calls through a method handle after which the JDK customizes its lambda form (the default of
         * {@code java.lang.invoke.MethodHandle.CUSTOMIZE_THRESHOLD}, a byte).
         */
        static final int CUSTOMIZED_AFTER = 127;

        private Calls() {
            this.futex = SYSCALL != null && Syscall.FUTEX > 0;
            this.processVm = SYSCALL != null && Syscall.PROCESS_VM_READV > 0 && Syscall.PROCESS_VM_WRITEV > 0;
        }

        static Calls link() {
            // futex(uaddr, op, val, timeout, uaddr2, val3) and process_vm_readv/writev(pid, local iovec, count,
            // remote iovec, count, flags). No errno is captured: every outcome of a wait (woken, EAGAIN, ETIMEDOUT,
            // EINTR) means "look again", and a failed process_vm call means "two copies for this peer" whatever the
            // reason (a capturing call would also slice its state segment on every call, an object that escape
            // analysis keeps when C2 does not inline the call into its caller: 2-3 per 4-byte allreduce were
            // measured on a rank that sleeps between messages, 3 ranks on 2 cores)
            Calls c = new Calls();
            if (c.futex) {
                // The first call through the handle generates its invoker (2-3 ms of bytecode generation, measured
                // alone on a core), and the JDK customizes the handle's lambda form for it on the call after its
                // CUSTOMIZE_THRESHOLD-th (127) from code that does not see the handle as a constant (the interpreter's;
                // and C1's too before SYSCALL was a constant): two more classes spun, a stall of 1 ms under -Xint and
                // 4-5 ms in a cold ping-pong of 128 KiB, where it came at the 62nd round trip (two system calls each;
                // 2026-11-29).
                // Both are made here, as MPI_Init ends, with wakes of nobody, not in the program's first rendezvous
                // or sleeps, where two ranks wait for each other. And this thread's iovec scratch, whose first
                // look-up would otherwise come inside the program's loop.
                MemorySegment nobody = Arena.ofAuto().allocate(8, 8);
                for (int i = 0; i <= CUSTOMIZED_AFTER; i++) {
                    c.futexWake(nobody, 0);
                }
                c.scratch.get();
            }
            return c;
        }

        /** Per-thread scratch: two iovecs (32 bytes). */
        private static final class Scratch {
            final MemorySegment iovecs;
            /** {@link #iovecs} as words (a buffer's access costs the interpreter and C1 less than a segment's). */
            final java.nio.LongBuffer words;
            /** The address of the second iovec of {@link #iovecs} (the remote one). */
            final long remoteIovec;

            Scratch() {
                Arena arena = Arena.ofAuto();
                iovecs = arena.allocate(32, 8);
                words = ShmLayout.words(iovecs);
                remoteIovec = iovecs.address() + 16;
            }
        }

        /**
         * Sleeps while the int at {@code word} equals {@code expected}, at most {@code timeoutNanos} (a shared futex
         * wait: the word may be in memory shared between processes). Returns at once when the word differs; may
         * return spuriously. {@code timespec}: 16 bytes of native memory of the caller's, for the timeout (not a
         * thread-local: the first look-up of one on a thread, after C2 compiled {@code ThreadLocal.get} without a
         * miss, throws that compiled code away, and a rank's first futex sleep comes late, in a timed loop).
         */
        void futexWait(MemorySegment word, int expected, long timeoutNanos, MemorySegment timespec) {
            timespec.set(JAVA_LONG, 0, timeoutNanos / 1_000_000_000L);
            timespec.set(JAVA_LONG, 8, timeoutNanos % 1_000_000_000L);
            try {
                long ignored = (long) SYSCALL.invokeExact(Syscall.FUTEX, word.address(), FUTEX_WAIT,
                        (long) expected, timespec.address(), 0L, 0L);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }

        /** Wakes at most {@code count} threads (in any process) sleeping on the int at {@code word}. */
        void futexWake(MemorySegment word, int count) {
            try {
                long ignored = (long) SYSCALL.invokeExact(Syscall.FUTEX, word.address(), FUTEX_WAKE,
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
         * @return 0 on success, else {@link #FAILED} (the kernel refused: EPERM, ESRCH, EFAULT, ENOSYS, ...)
         */
        int processVmRead(int pid, long remoteAddress, MemorySegment into) {
            return transfer(Syscall.PROCESS_VM_READV, pid, remoteAddress, into.address(), into.byteSize());
        }

        /** {@link #processVmRead} into {@code bytes} bytes at {@code localAddress} (native memory of this process). */
        int processVmRead(int pid, long remoteAddress, long localAddress, long bytes) {
            return transfer(Syscall.PROCESS_VM_READV, pid, remoteAddress, localAddress, bytes);
        }

        /**
         * Copies {@code from} (native memory) to {@code remoteAddress} in process {@code pid}, looping over partial
         * transfers.
         *
         * @return 0 on success, else {@link #FAILED}
         */
        int processVmWrite(int pid, MemorySegment from, long remoteAddress) {
            return transfer(Syscall.PROCESS_VM_WRITEV, pid, remoteAddress, from.address(), from.byteSize());
        }

        /**
         * process_vm_readv or _writev: local iovec = {@code total} bytes at {@code local}, remote iovec = as many at
         * {@code remoteAddress}.
         */
        private int transfer(long number, int pid, long remoteAddress, long local, long total) {
            Scratch s = scratch.get();
            java.nio.LongBuffer iov = s.words;
            long done = 0;
            try {
                while (done < total) {
                    long n = total - done;
                    iov.put(0, local + done);
                    iov.put(1, n);
                    iov.put(2, remoteAddress + done);
                    iov.put(3, n);
                    long r = (long) SYSCALL.invokeExact(number, (long) pid, s.iovecs.address(), 1L, s.remoteIovec, 1L,
                            0L);
                    if (r <= 0) {
                        return FAILED; // refused (-1), or nothing copied, which would loop for ever
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
