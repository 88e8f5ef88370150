package org.jmpi.shared;

import java.net.URL;
import java.net.URLClassLoader;

/**
 * The class loader of one rank in threads mode. MPI keeps its state in statics ({@code MPI.COMM_WORLD} and
 * friends), so every rank loads package {@code mpi}, the upper runtime (communicators, collectives, the runtime's
 * entry) and the user's classes through a loader of its own: child-first over the given class path. Taken from the
 * parent, so that the ranks share them: the JDK, {@code org.jmpi.shared} (the in-JVM fabric), test frameworks whose
 * types cross the rank boundary (JUnit, opentest4j, AssertJ, jqwik), and the message path under the runtime
 * ({@link #sharedByRanks}: the point-to-point engine, transports, datatypes, reduction kernels), which keeps no
 * rank's state in statics: its classes are loaded, profiled and compiled once per JVM instead of once per rank.
 *
 * <p>Threading: immutable after construction; class loading is parallel capable.
 */
public final class RankClassLoader extends URLClassLoader {
    static {
        registerAsParallelCapable();
    }

    private static final String[] PARENT_FIRST = {
        "java.", "javax.", "jdk.", "sun.", "com.sun.", "org.jmpi.shared.", "org.junit.", "org.opentest4j.",
        "org.apiguardian.", "org.assertj.", "net.jqwik.", "net.bytebuddy.", "picocli."
    };

    private final ThreadsJob job;
    private final int rank;

    /**
     * Whether the ranks share the parent's message path: the parent has it, in the unnamed module (on the module path
     * it would be closed to the ranks' classes), and this rank's class path has no other copy of it (a program that
     * brings a jmpi of its own keeps all of it, as before).
     */
    private final boolean sharesRuntime;

    public RankClassLoader(URL[] classPath, ClassLoader parent, ThreadsJob job, int rank) {
        super("jmpi-rank-" + rank, classPath, parent);
        this.job = job;
        this.rank = rank;
        this.sharesRuntime = sharesRuntime(parent);
    }

    private boolean sharesRuntime(ClassLoader parent) {
        String engine = "org/jmpi/pt2pt/Engine.class";
        URL mine = findResource(engine);
        URL theirs = parent.getResource(engine);
        if (theirs == null || (mine != null && !mine.toString().equals(theirs.toString()))) {
            return false;
        }
        try {
            return !Class.forName("org.jmpi.pt2pt.Engine", false, parent).getModule().isNamed();
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** The job this loader's rank belongs to. */
    public ThreadsJob job() {
        return job;
    }

    /** The world rank whose classes this loader holds. */
    public int rank() {
        return rank;
    }

    /**
     * Classes of the message path that the ranks of a JVM share (loaded by the parent when it has them on its class
     * path, as jmpirun's and the JUnit extension's have): they and everything they use keep no rank's state in
     * statics (checked by LayeringTest: they depend on the JDK and each other only). A package split between shared
     * and per-rank classes ({@code org.jmpi.runtime}, {@code org.jmpi.bootstrap}, {@code org.jmpi.pt2pt}) is two
     * run-time packages, so nothing there may use a package-private member across the split.
     */
    public static boolean sharedByRanks(String name) {
        if (name.startsWith("org.jmpi.pt2pt.")) {
            return !name.startsWith("org.jmpi.pt2pt.Partitioned");
        }
        if (name.startsWith("org.jmpi.transport.") || name.startsWith("org.jmpi.datatype.")
                || name.startsWith("org.jmpi.op.")) {
            return true;
        }
        int dollar = name.indexOf('$');
        String top = dollar < 0 ? name : name.substring(0, dollar);
        for (String c : SHARED_CLASSES) {
            if (top.equals(c)) {
                return true;
            }
        }
        return false;
    }

    private static final String[] SHARED_CLASSES = {
        "org.jmpi.runtime.Progress", "org.jmpi.runtime.RequestImpl", "org.jmpi.runtime.CompositeRequest",
        "org.jmpi.runtime.Config", "org.jmpi.runtime.MpiError", "org.jmpi.runtime.ErrorClass",
        "org.jmpi.bootstrap.Bootstrap", "org.jmpi.bootstrap.Agreement", "org.jmpi.bootstrap.Lifeline",
        "org.jmpi.bootstrap.ThreadsBootstrap"
    };

    /** Classes that must come from the rank's own class path: package mpi and the jmpi runtime. */
    private static boolean perRankOnly(String name) {
        return name.startsWith("mpi.") || (name.startsWith("org.jmpi.") && !name.startsWith("org.jmpi.junit.")
                && !name.startsWith("org.jmpi.launcher."));
    }

    private static boolean parentFirst(String name) {
        for (String p : PARENT_FIRST) {
            if (name.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (parentFirst(name) || (sharesRuntime && sharedByRanks(name))) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                try {
                    c = findClass(name);
                } catch (ClassNotFoundException e) {
                    if (perRankOnly(name)) {
                        // never share a rank's MPI state through the parent: that would mix ranks silently
                        throw e;
                    }
                    c = getParent().loadClass(name);
                }
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    /**
     * Rewrites the class files of package {@code mpi} as the rank loads them (internal name and bytes in, new bytes
     * or null out): the profiling interface's interception in threads mode, set by jmpirun before the ranks start
     * when a tool is requested (processes mode uses a Java agent instead). Null: classes load as built.
     */
    private static volatile java.util.function.BiFunction<String, byte[], byte[]> mpiTransformer;

    /** Sets (or, with null, clears) the rewriting of the facades' classes for ranks started afterwards. */
    public static void transformMpiClasses(java.util.function.BiFunction<String, byte[], byte[]> transformer) {
        mpiTransformer = transformer;
    }

    /**
     * Whether {@code name} is a class of an MPI facade: package {@code mpi}, or the Open MPI facade moved to
     * {@code org.jmpi.mpj.ompi} inside jmpi-mpj.jar, under which the MPJ Express API's facade runs.
     */
    private static boolean isFacade(String name) {
        int dot = name.lastIndexOf('.');
        String pkg = dot < 0 ? "" : name.substring(0, dot);
        return pkg.equals("mpi") || pkg.equals("org.jmpi.mpj.ompi");
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        java.util.function.BiFunction<String, byte[], byte[]> t = mpiTransformer;
        if (t != null && isFacade(name)) {
            String internal = name.replace('.', '/');
            URL u = findResource(internal + ".class");
            if (u != null) {
                byte[] bytes;
                try (java.io.InputStream in = u.openStream()) {
                    bytes = in.readAllBytes();
                } catch (java.io.IOException e) {
                    throw new ClassNotFoundException(name, e);
                }
                byte[] changed = t.apply(internal, bytes);
                if (changed != null) {
                    bytes = changed;
                }
                return defineClass(name, bytes, 0, bytes.length);
            }
        }
        return super.findClass(name);
    }

    @Override
    public URL getResource(String name) {
        URL u = findResource(name);
        return u != null ? u : super.getResource(name);
    }
}
