package org.jmpi.shared;

import java.util.function.Supplier;

/**
 * A thread-local value that the first thread to ask for it finds in a field: in most MPI programs one thread per rank
 * makes every call. A {@link ThreadLocal}'s look-up is a hash probe through three JDK methods, which C1 (which compiles
 * jmpi's runtime) calls rather than inlines, and which the JIT then compiles on their own through tier 3 and C2 in the
 * program's first second; here the first thread's look-up is two loads and a compare, inlined. Other threads get a
 * {@link ThreadLocal}'s value, made by the same supplier.
 *
 * <p>The first thread keeps its value as long as this object lives (as a {@code ThreadLocal} keeps it as long as the
 * thread lives): for per-rank scratch owned by a rank's runtime or its classes, not for values of short-lived
 * threads. In threads mode, where ranks share the classes of the layers below {@code mpi} and their statics, one
 * rank's thread has the field and the others the {@code ThreadLocal}. Threading: any thread; the first thread is chosen
 * once, under the object's monitor.
 */
public final class FirstThreadLocal<T> {
    /** The first thread and its value (immutable, published through a volatile field). */
    private static final class Owned<T> {
        final Thread thread;
        final T value;

        Owned(Thread thread, T value) {
            this.thread = thread;
            this.value = value;
        }
    }

    private final Supplier<? extends T> initial;
    private final ThreadLocal<T> others;
    private volatile Owned<T> owned;

    public FirstThreadLocal(Supplier<? extends T> initial) {
        this.initial = initial;
        this.others = ThreadLocal.withInitial(initial);
    }

    /** This thread's value, made on its first call. */
    public T get() {
        Owned<T> o = owned;
        if (o != null && o.thread == Thread.currentThread()) {
            return o.value;
        }
        return getOther();
    }

    private T getOther() {
        if (owned == null) {
            synchronized (this) {
                if (owned == null) {
                    Owned<T> o = new Owned<>(Thread.currentThread(), initial.get());
                    owned = o;
                    return o.value;
                }
            }
        }
        return others.get();
    }
}
