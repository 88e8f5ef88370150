package org.jmpi.shared;

import java.lang.invoke.MethodHandle;

/**
 * {@code membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)}: makes every running thread of this process execute a full
 * memory barrier before the call returns. It lets a thread that runs a path many times (the owner of a
 * {@link BiasedLock}) do without a barrier of its own, while a thread that runs the other side rarely (a revoker) pays
 * for both: about a microsecond with no other thread of the process running, some 50 us on the project's virtual
 * machine when one runs on the other core (the inter-processor interrupt).
 *
 * <p>The process must register once before it may call it. Registration goes through the one system-call downcall
 * ({@link Syscall}) and is made by whoever links that downcall in the background (the shared-memory transport's
 * system calls): nothing here links anything, so until then {@link #privateReady()} is false and callers keep their
 * own barriers.
 *
 * <p>Threading: the handle is published through a volatile field once registration succeeded.
 */
public final class Membarrier {
    private Membarrier() {}

    private static final long CMD_QUERY = 0;
    private static final long CMD_PRIVATE_EXPEDITED = 1 << 3;
    private static final long CMD_REGISTER_PRIVATE_EXPEDITED = 1 << 4;

    private static volatile MethodHandle registered;

    /**
     * Registers this process for private expedited barriers, calling the kernel through {@code syscall} (the
     * downcall of {@link Syscall#handle()}); once registered, later calls return true at once.
     *
     * @return whether {@link #privateBarrier()} may be used from now on
     */
    public static synchronized boolean registerPrivate(MethodHandle syscall) {
        if (registered != null) {
            return true;
        }
        if (syscall == null || Syscall.MEMBARRIER < 0) {
            return false;
        }
        try {
            long offered = (long) syscall.invokeExact(Syscall.MEMBARRIER, CMD_QUERY, 0L, 0L, 0L, 0L, 0L);
            long both = CMD_PRIVATE_EXPEDITED | CMD_REGISTER_PRIVATE_EXPEDITED;
            if (offered < 0 || (offered & both) != both) {
                return false;
            }
            long r = (long) syscall.invokeExact(Syscall.MEMBARRIER, CMD_REGISTER_PRIVATE_EXPEDITED, 0L, 0L, 0L, 0L,
                    0L);
            long tried = (long) syscall.invokeExact(Syscall.MEMBARRIER, CMD_PRIVATE_EXPEDITED, 0L, 0L, 0L, 0L, 0L);
            if (r == 0 && tried == 0) {
                registered = syscall;
                return true;
            }
        } catch (Throwable t) {
            // no such call, or refused: callers keep their barriers
        }
        return false;
    }

    /** Whether this process is registered, so that {@link #privateBarrier()} works. */
    public static boolean privateReady() {
        return registered != null;
    }

    /**
     * Returns once every thread of this process that runs now has executed a full memory barrier (the others pass one
     * when they are scheduled again).
     *
     * @return false if not registered or the kernel refused this time
     */
    public static boolean privateBarrier() {
        MethodHandle h = registered;
        if (h == null) {
            return false;
        }
        try {
            return (long) h.invokeExact(Syscall.MEMBARRIER, CMD_PRIVATE_EXPEDITED, 0L, 0L, 0L, 0L, 0L) == 0;
        } catch (Throwable t) {
            return false;
        }
    }
}
