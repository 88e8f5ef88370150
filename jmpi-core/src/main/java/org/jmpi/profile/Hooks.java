package org.jmpi.profile;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jmpi.runtime.JmpiRuntime;

/**
 * What the intercepted methods of package {@code mpi} call (see {@link Instrumenter}): {@link #before} as they
 * start, {@link #after} or {@link #failed} as they end. Dispatches the outermost call of each thread to the tools
 * named by {@code jmpi.tools} (system property) or {@code JMPI_TOOLS} (environment): comma-separated class names,
 * loaded by this class's loader (the rank's, in threads mode).
 *
 * <p>Threading: any thread; the nesting depth is per thread, the tools are fixed at class initialisation.
 */
public final class Hooks {
    private static final List<Slot> TOOLS = load();
    private static final ThreadLocal<int[]> DEPTH = ThreadLocal.withInitial(() -> new int[1]);

    private Hooks() {}

    private record Slot(MpiTool tool, AtomicBoolean failed) {
        void before(MpiCall c) {
            if (!failed.get()) {
                try {
                    tool.before(c);
                } catch (org.jmpi.shared.JobAbortedError e) {
                    throw e; // the tool ended the job (MPI_Abort in threads mode): not a failure of the tool
                } catch (RuntimeException | Error e) {
                    disable("before(" + c.name() + ")", e);
                }
            }
        }

        void after(MpiCall c) {
            if (!failed.get()) {
                try {
                    tool.after(c);
                } catch (org.jmpi.shared.JobAbortedError e) {
                    throw e;
                } catch (RuntimeException | Error e) {
                    disable("after(" + c.name() + ")", e);
                }
            }
        }

        private void disable(String where, Throwable e) {
            if (failed.compareAndSet(false, true)) {
                System.err.println("jmpi: tool " + tool.getClass().getName() + " failed in " + where + ": " + e
                        + "; it is not called again, the program goes on");
            }
        }
    }

    /** The tools' class names, from {@code jmpi.tools} or {@code JMPI_TOOLS}; empty when none. */
    static List<String> toolNames() {
        String v = System.getProperty("jmpi.tools");
        if (v == null) {
            v = System.getenv("JMPI_TOOLS");
        }
        List<String> names = new ArrayList<>();
        if (v != null) {
            for (String n : v.split(",")) {
                if (!n.isBlank()) {
                    names.add(n.strip());
                }
            }
        }
        return names;
    }

    private static List<Slot> load() {
        List<Slot> slots = new ArrayList<>();
        for (String name : toolNames()) {
            try {
                Class<?> c = Class.forName(name, true, Hooks.class.getClassLoader());
                Object o = c.getConstructor().newInstance();
                if (!(o instanceof MpiTool t)) {
                    System.err.println("jmpi: tool " + name + " does not implement " + MpiTool.class.getName()
                            + "; ignored");
                    continue;
                }
                slots.add(new Slot(t, new AtomicBoolean()));
            } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                System.err.println("jmpi: cannot load tool " + name + ": " + e + "; the program runs without it");
            }
        }
        return List.copyOf(slots);
    }

    /** A call starts; returns what {@link #after} and {@link #failed} need (null for a nested call). */
    public static Object before(String name, Object target, Object[] args) {
        int[] depth = DEPTH.get();
        if (depth[0]++ > 0 || TOOLS.isEmpty()) {
            return null;
        }
        MpiCall c = new MpiCall(name, target, args, rank(), System.nanoTime());
        for (Slot s : TOOLS) {
            s.before(c);
        }
        return c;
    }

    /** The call that {@code token} stands for returned {@code result}. */
    public static void after(Object token, Object result) {
        int[] depth = DEPTH.get();
        try {
            if (token instanceof MpiCall c) {
                c.end(System.nanoTime(), result, null);
                for (Slot s : TOOLS) {
                    s.after(c); // still at depth 1: the tools' own MPI calls are not reported
                }
            }
        } finally {
            depth[0]--;
        }
    }

    /** The call that {@code token} stands for threw {@code failure} (which the caller then rethrows). */
    public static void failed(Object token, Throwable failure) {
        int[] depth = DEPTH.get();
        try {
            if (token instanceof MpiCall c) {
                c.end(System.nanoTime(), null, failure);
                for (Slot s : TOOLS) {
                    s.after(c);
                }
            }
        } finally {
            depth[0]--;
        }
    }

    private static int rank() {
        try {
            JmpiRuntime rt = JmpiRuntime.current();
            return rt == null ? -1 : rt.rank();
        } catch (RuntimeException e) {
            return -1;
        }
    }
}
