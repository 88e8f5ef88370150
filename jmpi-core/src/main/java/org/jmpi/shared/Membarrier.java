package org.jmpi.shared;

import java.lang.invoke.MethodHandle;

/**
 * The Linux {@code membarrier} system call, in its private expedited form: the call returns once every running thread
 * of this process has executed a full memory barrier; threads not running pass one when they are scheduled again. It
 * lets a thread that runs a path many times (the owner of a {@link BiasedLock}) do without a barrier of its own, while
 * the thread that runs the other side rarely (a revoker) pays for both: about a microsecond with nothing else
 * running, some 50 us on the project's virtual machine while another thread of the process runs on the other core
 * (the inter-processor interrupt).
 *
 * <p>A process must register once before it may use it. Registration goes through the one system-call
 * downcall ({@link Syscall}) and is made by whoever links that downcall in the background (the shared-memory
 * transport's system calls): nothing here links anything, so until then {@link #privateReady()} is
 * false and callers keep their own barriers.
 *
 * <p>Threading: the handle is published through a volatile field once its registration succeeded.
 */
public final class Membarrier {
    private Membarrier() {}

    private static final long CMD_QUERY = 0;
    private static final long CMD_PRIVATE_EXPEDITED = 1 << 3;
    private static final long CMD_REGISTER_PRIVATE_EXPEDITED = 1 << 4;

    private static volatile MethodHandle privateForm;
    /**
     * {@code privateForm != null}, as a flag of its own: {@link #privateReady()} is inlined into every compiled method
     * that takes a lock or completes a request, and a comparison there would be a branch of its own, never taken until
     * the registration and then thrown away with every one of those methods at once where C2 compiled them.
     */
    private static volatile boolean privateRegistered;

    /**
     * Registers this process for private expedited barriers, calling the kernel through {@code syscall} (the
     * downcall of {@link Syscall#handle()}); once registered, later calls return true at once.
     *
     * @return whether {@link #privateBarrier()} may be used from now on
     */
    public static synchronized boolean registerPrivate(MethodHandle syscall) {
        if (privateForm == null && register(syscall, CMD_PRIVATE_EXPEDITED, CMD_REGISTER_PRIVATE_EXPEDITED)) {
            privateForm = syscall;
            privateRegistered = true;
        }
        return privateForm != null;
    }

    /** Asks whether {@code command} is offered, registers with {@code registration}, and tries the command once. */
    private static boolean register(MethodHandle syscall, long command, long registration) {
        if (syscall == null || Syscall.MEMBARRIER < 0) {
            return false;
        }
        try {
            long offered = (long) syscall.invokeExact(Syscall.MEMBARRIER, CMD_QUERY, 0L, 0L, 0L, 0L, 0L);
            if (offered < 0 || (offered & (command | registration)) != (command | registration)) {
                return false;
            }
            long registered = (long) syscall.invokeExact(Syscall.MEMBARRIER, registration, 0L, 0L, 0L, 0L, 0L);
            return registered == 0 && call(syscall, command);
        } catch (Throwable t) {
            return false; // no such call, or refused (an old kernel, a seccomp filter): callers keep their barriers
        }
    }

    /** Whether this process is registered, so that {@link #privateBarrier()} works. */
    public static boolean privateReady() {
        return privateRegistered;
    }

    /**
     * Returns once every thread of this process that runs now has executed a full memory barrier.
     *
     * @return false if not registered or the kernel refused this time
     */
    public static boolean privateBarrier() {
        MethodHandle h = privateForm;
        return h != null && call(h, CMD_PRIVATE_EXPEDITED);
    }

    private static boolean call(MethodHandle syscall, long command) {
        try {
            return (long) syscall.invokeExact(Syscall.MEMBARRIER, command, 0L, 0L, 0L, 0L, 0L) == 0;
        } catch (Throwable t) {
            return false;
        }
    }
}
