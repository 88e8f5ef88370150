package org.jmpi.junit;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * Runs a {@link RankTask} on one rank: loads the test class through the rank's class loader, makes a fresh
 * instance, wraps the body in {@code MPI.Init}/{@code MPI.Finalize} (reflectively, through the same loader) and
 * invokes it. Shared by threads mode (one call per rank thread) and {@link RankMain} (one call per rank JVM).
 * Exceptions of the body are rethrown as they are (not wrapped in {@link InvocationTargetException}).
 */
final class RankInvoker {
    private RankInvoker() {}

    /**
     * Runs the task on one rank. {@code rank} is this rank's number, or -1 when only MPI knows it (a rank JVM
     * started without a rank in its environment): then it is asked for after {@code MPI.Init}.
     */
    static void run(ClassLoader loader, RankTask task, int size, Mode mode, int rank) throws Throwable {
        Class<?> testClass = Class.forName(task.testClass(), true, loader);
        if (testClass.getClassLoader() != loader && loader != ClassLoader.getSystemClassLoader()) {
            throw new IllegalStateException("test class " + task.testClass() + " was loaded by "
                    + testClass.getClassLoader() + ", not by the rank's own loader: it is not on the rank class path "
                    + "(java.class.path), so its statics and MPI would be shared between ranks");
        }
        Class<?> declaring = Class.forName(task.declaringClass(), false, loader);
        Method method;
        if (task.takesContext()) {
            method = declaring.getDeclaredMethod(task.method(), MpiTestContext.class);
        } else {
            method = declaring.getDeclaredMethod(task.method());
        }
        method.setAccessible(true);

        Class<?> mpi = null;
        if (task.init()) {
            mpi = Class.forName("mpi.MPI", true, loader);
            try {
                mpi.getMethod("Init", String[].class).invoke(null, (Object) new String[0]);
            } catch (InvocationTargetException e) {
                throw new IllegalStateException("MPI.Init failed on rank " + rank + ": " + e.getCause(),
                        e.getCause());
            }
            if (rank < 0) {
                rank = worldRank(loader);
            }
        }
        MpiTestContext context = new MpiTestContext(Math.max(rank, 0), size, mode);
        Object instance = Modifier.isStatic(method.getModifiers()) ? null : newInstance(testClass);
        try {
            if (task.takesContext()) {
                method.invoke(instance, context);
            } else {
                method.invoke(instance);
            }
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
        if (mpi != null) {
            try {
                boolean initialized = (Boolean) mpi.getMethod("isInitialized").invoke(null);
                boolean finalized = (Boolean) mpi.getMethod("isFinalized").invoke(null);
                if (initialized && !finalized) {
                    mpi.getMethod("Finalize").invoke(null);
                }
            } catch (InvocationTargetException e) {
                throw new IllegalStateException("MPI.Finalize failed on rank " + rank + ": " + e.getCause(),
                        e.getCause());
            }
        }
    }

    /** {@code MPI.COMM_WORLD.getRank()} through the given loader, or -1 when MPI cannot tell. */
    static int worldRank(ClassLoader loader) {
        try {
            Class<?> mpi = Class.forName("mpi.MPI", true, loader);
            Object world = mpi.getField("COMM_WORLD").get(null);
            return world == null ? -1 : (Integer) world.getClass().getMethod("getRank").invoke(world);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return -1;
        }
    }

    /** A fresh instance through the no-argument constructor; an inner ({@code @Nested}) class gets a fresh outer. */
    static Object newInstance(Class<?> c) throws Throwable {
        try {
            if (c.isMemberClass() && !Modifier.isStatic(c.getModifiers())) {
                Class<?> outerClass = c.getEnclosingClass();
                Object outer = newInstance(outerClass);
                Constructor<?> k = c.getDeclaredConstructor(outerClass);
                k.setAccessible(true);
                return k.newInstance(outer);
            }
            Constructor<?> k = c.getDeclaredConstructor();
            k.setAccessible(true);
            return k.newInstance();
        } catch (InvocationTargetException e) {
            throw e.getCause();
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException("@MpiTest needs a no-argument constructor in " + c.getName(), e);
        }
    }
}
