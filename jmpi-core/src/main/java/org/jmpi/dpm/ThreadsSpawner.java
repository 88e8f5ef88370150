package org.jmpi.dpm;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;
import org.jmpi.shared.JobAbortedError;
import org.jmpi.shared.MainMethod;
import org.jmpi.shared.RankClassLoader;
import org.jmpi.shared.ThreadsJob;

/**
 * MPI_Comm_spawn / MPI_Comm_spawn_multiple in threads mode: the children are a threads-mode job of their own in this
 * JVM ({@link ThreadsJob}), each child a thread with a class loader of its own, as the ranks of the parents' job are.
 * They get their own {@code MPI_COMM_WORLD}; the job's key-value space is seeded with the parents' port
 * ({@link Spawner#PARENT_PORT_KEY}, which their {@code MPI.Init} connects to, as children started by jmpirun do with
 * {@code JMPI_PARENT_PORT}), each rank's application number ({@link #APPNUM_KEY_PREFIX}) and the sizes of the
 * application contexts ({@link #APP_SIZES_KEY}). Once connected, the two
 * jobs' ranks hand messages to each other's engines directly ({@link Links.InJvm}).
 *
 * <p>Commands: a Java main class name (run with the class path of the spawning rank), or {@code java} with a class
 * path option ({@code -cp}, {@code -classpath}, {@code --class-path}), then the main class and its arguments. Other
 * programs cannot be threads: they fail the spawn with ERR_SPAWN, as do JVM options (a thread cannot have JVM options
 * of its own) and an Info {@code wdir} other than the current directory (the JVM has one working directory). Info
 * {@code host}, {@code file} and {@code path} are placement hints, ignored: every child runs in this JVM.
 *
 * <p>Life: the children's job is tied to the parents' ({@link ThreadsJob#endWith}): it is ended when the parents' job
 * aborts or ends; the spawning root's {@code MPI_Finalize} waits for it, as it waits for a child jmpirun in
 * processes mode. A child whose main throws aborts the children's job (the exception is printed); the parents'
 * operations on the intercommunicator then fail with ERR_PROC_FAILED.
 *
 * <p>Threading: {@code jobs} is copy-on-write; a spawn runs in the calling thread.
 */
final class ThreadsSpawner {
    /** Key of a child's application number in its job's key-value space (followed by its rank). */
    static final String APPNUM_KEY_PREFIX = "jmpi-appnum-";
    /** Key of the sizes of the children's application contexts, in rank order, separated by spaces. */
    static final String APP_SIZES_KEY = "jmpi-app-sizes";

    /** What one command runs: the main class, its arguments, how many, and the class path of its loaders. */
    record Plan(String mainClass, String[] argv, int count, URL[] classPath) {}

    private final DynamicProcesses dp;
    private final List<ThreadsJob> jobs = new CopyOnWriteArrayList<>();

    ThreadsSpawner(DynamicProcesses dp) {
        this.dp = dp;
    }

    /** Children's jobs still running. */
    int running() {
        jobs.removeIf(j -> j.ranksRunning() == 0);
        return jobs.size();
    }

    /** The root's part: checks the commands, starts the children, accepts them. Returns the intercommunicator. */
    Communicator spawn(List<Spawner.Command> commands, Communicator comm, int root) {
        if (comm.rank() != root) {
            return PortConnection.accept(dp, null, null, comm, root, () -> false);
        }
        OpenPort port = null;
        ThreadsJob children = null;
        MpiError early = null;
        try {
            RankClassLoader mine = rankLoader();
            List<Plan> plans = new ArrayList<>();
            for (Spawner.Command c : commands) {
                plans.add(plan(c, mine));
            }
            port = OpenPort.open(dp.table().portHost());
            children = start(plans, mine, port.name().format());
        } catch (MpiError e) {
            early = e;
        }
        ThreadsJob started = children;
        // children that end (or abort) before their root connected will never connect: the spawn fails
        return PortConnection.acceptChildren(dp, port, early, comm, root,
                () -> started.aborted() || started.ranksRunning() < started.size(), () -> {
                    started.end(1, "the spawn that started it failed");
                    try {
                        // children blocked in MPI end at once; a main that computes without MPI cannot be stopped
                        started.awaitCompletion(5, TimeUnit.SECONDS);
                    } catch (InterruptedException ie) {
                        Thread.currentThread().interrupt();
                    }
                });
    }

    /** MPI_Finalize at the root: waits for the children's jobs to end (they finalize on their own). */
    void awaitJobs() {
        if (jobs.isEmpty()) {
            return; // nothing spawned (and in processes mode never anything)
        }
        ThreadsJob own = rankLoader().job();
        for (ThreadsJob j : jobs) {
            try {
                while (!j.awaitCompletion(100, TimeUnit.MILLISECONDS)) {
                    if (own.aborted()) {
                        return; // the abort ends the children too (endWith)
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        jobs.clear();
    }

    private static RankClassLoader rankLoader() {
        if (ThreadsSpawner.class.getClassLoader() instanceof RankClassLoader l) {
            return l;
        }
        throw new MpiError(ErrorClass.ERR_INTERN, "threads mode without a rank class loader");
    }

    /** Starts the children's job: one rank per process of each command, in command order. */
    private ThreadsJob start(List<Plan> plans, RankClassLoader mine, String portName) {
        int size = 0;
        for (Plan p : plans) {
            size += p.count();
        }
        Plan[] ofRank = new Plan[size];
        Map<String, String> seed = new HashMap<>();
        seed.put(Spawner.PARENT_PORT_KEY, portName);
        StringBuilder sizes = new StringBuilder();
        for (Plan p : plans) {
            sizes.append(sizes.isEmpty() ? "" : " ").append(p.count());
        }
        seed.put(APP_SIZES_KEY, sizes.toString());
        int r = 0;
        for (int app = 0; app < plans.size(); app++) {
            for (int i = 0; i < plans.get(app).count(); i++, r++) {
                ofRank[r] = plans.get(app);
                seed.put(APPNUM_KEY_PREFIX + r, Integer.toString(app));
            }
        }
        ThreadsJob job = ThreadsJob.start(size, rank -> ofRank[rank].classPath(), mine.getParent(), seed,
                (rank, loader) -> runChild(ofRank[rank], rank, loader));
        running(); // forgets the jobs that ended: each holds its ranks' engines and class loaders
        jobs.add(job);
        mine.job().endWith(job);
        return job;
    }

    /** A child's thread: its main, with what it throws printed as the java launcher would. */
    private static void runChild(Plan plan, int rank, ClassLoader loader) throws Throwable {
        try {
            MainMethod.of(plan.mainClass(), loader).invoke(plan.argv().clone());
        } catch (MainMethod.NotFound e) {
            System.err.println(e.getMessage());
            throw e;
        } catch (InvocationTargetException e) {
            Throwable t = e.getCause();
            if (!(t instanceof JobAbortedError)) {
                System.err.println("jmpi: spawned rank " + rank + " (" + plan.mainClass() + ") ended with an "
                        + "exception:");
                t.printStackTrace();
            }
            throw t;
        }
    }

    // ============================================================================================ commands

    /** What {@code c} runs as threads, or ERR_SPAWN when it cannot run as threads of this JVM. */
    static Plan plan(Spawner.Command c, RankClassLoader mine) {
        checkInfo(c.info());
        String command = c.command();
        String[] argv = c.argv();
        URL[] classPath = mine.getURLs();
        String main;
        if (command.equals("java") || command.endsWith(File.separator + "java")) {
            int i = 0;
            for (; i < argv.length && argv[i].startsWith("-"); i++) {
                String o = argv[i];
                if (o.equals("-cp") || o.equals("-classpath") || o.equals("--class-path")) {
                    if (i + 1 == argv.length) {
                        throw new MpiError(ErrorClass.ERR_SPAWN, "java " + o + " without a class path");
                    }
                    classPath = urls(argv[++i]);
                } else if (o.startsWith("--class-path=")) {
                    classPath = urls(o.substring("--class-path=".length()));
                } else if (!o.startsWith("--enable-native-access=")) {
                    throw new MpiError(ErrorClass.ERR_SPAWN, "java option " + o + " cannot be given to a spawned "
                            + "child in threads mode (children are threads of this JVM and share its options); only "
                            + "-cp/-classpath/--class-path are taken");
                }
            }
            if (i == argv.length) {
                throw new MpiError(ErrorClass.ERR_SPAWN, "java without a main class");
            }
            main = argv[i];
            argv = java.util.Arrays.copyOfRange(argv, i + 1, argv.length);
        } else {
            main = command;
        }
        if (!Spawner.CLASS_NAME.matcher(main).matches()) {
            throw new MpiError(ErrorClass.ERR_SPAWN, "'" + command + "' cannot be spawned in threads mode: children "
                    + "are threads of this JVM, so the command must be a Java main class name or java [-cp PATH] "
                    + "CLASS (run the job as processes to spawn other programs)");
        }
        if (!findable(main, classPath, mine.getParent())) {
            throw new MpiError(ErrorClass.ERR_SPAWN, "class " + main + " is not on the class path of the children ("
                    + "threads mode runs Java main classes only)");
        }
        return new Plan(main, argv, c.maxprocs(), classPath);
    }

    /** The reserved Info keys threads can honour: {@code arch}, and {@code wdir} naming the current directory. */
    private static void checkInfo(Map<String, String> info) {
        String arch = info.get("arch");
        if (arch != null && !arch.equals(System.getProperty("os.arch"))) {
            throw new MpiError(ErrorClass.ERR_SPAWN, "Info arch=" + arch + ": jmpi runs children on this "
                    + "architecture only (" + System.getProperty("os.arch") + ")");
        }
        String wdir = info.get("wdir");
        if (wdir != null) {
            Path w = Path.of(wdir);
            if (!Files.isDirectory(w)) {
                throw new MpiError(ErrorClass.ERR_SPAWN, "Info wdir=" + wdir + ": no such directory");
            }
            try {
                if (!Files.isSameFile(w, Path.of(""))) {
                    throw new MpiError(ErrorClass.ERR_SPAWN, "Info wdir=" + wdir + ": children in threads mode run "
                            + "in the JVM's working directory (" + Path.of("").toAbsolutePath() + ")");
                }
            } catch (IOException e) {
                throw new MpiError(ErrorClass.ERR_SPAWN, "Info wdir=" + wdir + ": " + e.getMessage(), e);
            }
        }
    }

    /** A class path as java takes it (entries separated by the path separator; {@code dir/*}: the jars in dir). */
    static URL[] urls(String classPath) {
        List<URL> out = new ArrayList<>();
        try {
            for (String e : classPath.split(File.pathSeparator)) {
                if (e.isEmpty()) {
                    continue;
                }
                if (e.equals("*") || e.endsWith(File.separator + "*")) {
                    Path d = Path.of(e.substring(0, e.length() - 1)).toAbsolutePath();
                    try (var jars = Files.list(d)) {
                        for (Path j : jars.filter(p -> p.toString().endsWith(".jar") || p.toString().endsWith(".JAR"))
                                .sorted().toList()) {
                            out.add(j.toUri().toURL());
                        }
                    } catch (IOException ex) {
                        // java skips a wildcard directory it cannot read
                    }
                } else {
                    out.add(Path.of(e).toAbsolutePath().toUri().toURL());
                }
            }
        } catch (MalformedURLException | java.nio.file.InvalidPathException e) {
            throw new MpiError(ErrorClass.ERR_SPAWN, "class path '" + classPath + "': " + e.getMessage(), e);
        }
        return out.toArray(URL[]::new);
    }

    /** Whether the class file of {@code className} is on {@code classPath} or visible to {@code parent}. */
    private static boolean findable(String className, URL[] classPath, ClassLoader parent) {
        String resource = className.replace('.', '/') + ".class";
        try (URLClassLoader probe = new URLClassLoader(classPath, null)) {
            if (probe.findResource(resource) != null) {
                return true;
            }
        } catch (IOException e) {
            // closing a loader that only looked
        }
        return parent != null && parent.getResource(resource) != null;
    }
}
