package org.jmpi.dpm;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.jmpi.bootstrap.JobBootstrap;
import org.jmpi.bootstrap.pmi.Pmi1Bootstrap;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;

/**
 * MPI_Comm_spawn / MPI_Comm_spawn_multiple. The root starts the children as a job of their own with jmpirun (the
 * same launcher whatever started the parents: jmpirun, mpiexec.hydra, Slurm or nothing), one application context per
 * command, so the children share one {@code MPI_COMM_WORLD} and {@code MPI.APPNUM} is the command's index. The
 * children find the parents through a port the root opened for this spawn ({@code JMPI_PARENT_PORT}): their
 * {@code MPI.Init} connects their world to it, the parents accept, and both sides get the intercommunicator
 * ({@link PortConnection}).
 *
 * <p>The launcher is a child process of the root; its standard output and error are the root's (so the parents'
 * launcher forwards the children's output), its standard input a pipe that the root holds: when the root dies, the
 * launcher sees the end of that pipe and ends the children's job ({@code JMPI_SPAWN_WATCH_STDIN}). At
 * {@code MPI_Finalize} the root waits for its launchers to end, as mpirun waits for spawned jobs.
 *
 * <p>When the launcher ends before its children connected (a program that does not exist or cannot start, a class
 * that is not found), the spawn fails with ERR_SPAWN and every entry of {@code errcodes} is ERR_SPAWN; nothing of it
 * is left running.
 *
 * <p>Threading: {@code launchers} is copy-on-write; a spawn runs in the calling thread.
 */
final class Spawner {
    static final Pattern CLASS_NAME = Pattern.compile("[A-Za-z_$][\\w$]*(\\.[A-Za-z_$][\\w$]*)*");

    /** One command of a spawn: what to run, its arguments, how many, and its Info hints. */
    record Command(String command, String[] argv, int maxprocs, Map<String, String> info) {}

    private final DynamicProcesses dp;
    private final List<Process> launchers = new CopyOnWriteArrayList<>();

    Spawner(DynamicProcesses dp) {
        this.dp = dp;
    }

    int running() {
        launchers.removeIf(p -> !p.isAlive());
        return launchers.size();
    }

    /** The root's part: validates, starts the launcher, accepts the children. Returns the intercommunicator. */
    Communicator spawn(List<Command> commands, Communicator comm, int root) {
        if (comm.rank() != root) {
            return PortConnection.accept(dp, null, null, comm, root, () -> false);
        }
        Pmi1Bootstrap hydra = processManagerSpawn(dp.runtime());
        if (hydra != null) {
            return spawnThroughProcessManager(hydra, commands, comm, root);
        }
        OpenPort port = null;
        Process launcher = null;
        MpiError early = null;
        try {
            List<String> cmdline = commandLine(commands);
            String card = dp.table().describe(dp.runtime().rank()).card();
            port = OpenPort.open(bareHost(card));
            ProcessBuilder pb = new ProcessBuilder(cmdline);
            Map<String, String> env = pb.environment();
            launcherEnvironment(env, dp.runtime().bootstrap().listenHost() != null);
            env.put("JMPI_PARENT_PORT", port.name().format());
            env.put("JMPI_SPAWN_WATCH_STDIN", "1");
            pb.redirectOutput(ProcessBuilder.Redirect.INHERIT);
            pb.redirectError(ProcessBuilder.Redirect.INHERIT);
            pb.redirectInput(ProcessBuilder.Redirect.PIPE);
            try {
                launcher = pb.start();
                launchers.add(launcher);
                Process started = launcher;
                // the pipe to its standard input is held open only to tell it when this process dies
                launcher.onExit().thenRun(() -> {
                    closeQuietly(started.getOutputStream());
                    launchers.remove(started);
                });
            } catch (IOException e) {
                throw new MpiError(ErrorClass.ERR_SPAWN, "cannot start jmpirun (" + cmdline.get(0) + "): "
                        + e.getMessage(), e);
            }
        } catch (MpiError e) {
            early = e;
        }
        Process l = launcher;
        return PortConnection.acceptChildren(dp, port, early, comm, root, () -> !l.isAlive(), () -> end(l));
    }

    /** What the parents' launcher set for this rank alone; the children's jmpirun sets its own. */
    private static final List<String> PER_RANK = List.of("JMPI_RANK", "JMPI_SIZE", "JMPI_JOBID", "JMPI_LOCAL_RANK",
            "JMPI_LOCAL_SIZE", "JMPI_NODE_ID", "JMPI_APPNUM", "JMPI_APP_SIZES", "MPI_LOCALRANKID", "MPI_LOCALNRANKS",
            "JMPI_SECRET");

    /**
     * The environment of the children's jmpirun, from this rank's: without what the parents' launcher set for this
     * rank alone; and where the children listen. When the parents' job spans hosts (its ranks listen on addresses
     * other hosts reach), the children must too, wherever jmpirun puts them, or parents on other hosts could not
     * reach them: an address of this host ({@code JMPI_TCP_HOST} as the parents' launcher set it for this host) is
     * replaced by {@code *} (every interface, published as the host's first non-loopback address), which the
     * children's jmpirun gives to children on every host; an interface name, which names the right address on every
     * host, is kept.
     */
    static void launcherEnvironment(Map<String, String> env, boolean parentsSpanHosts) {
        env.keySet().removeIf(k -> PER_RANK.contains(k) || k.startsWith("PMI_"));
        String tcpHost = env.get("JMPI_TCP_HOST");
        if (parentsSpanHosts && (tcpHost == null || isAddressLiteral(tcpHost.trim()))) {
            env.put("JMPI_TCP_HOST", "*");
        }
    }

    /** Whether {@code host} is an IPv4 or IPv6 address written out (not an interface or host name, not {@code *}). */
    static boolean isAddressLiteral(String host) {
        return host.matches("\\d{1,3}(\\.\\d{1,3}){3}") || host.indexOf(':') >= 0; // names hold no ':'
    }

    /** Key of the parents' port in the children's key-value space when the process manager spawned them. */
    static final String PARENT_PORT_KEY = "jmpi-parent-port";

    /**
     * The PMI-1 client to spawn through when the process manager can spawn (mpiexec.hydra: a PMI-1 connection, not
     * jmpirun's, not Slurm's), else null; {@code jmpi.spawn} / {@code JMPI_SPAWN} = {@code launcher} or {@code pmi}
     * forces the choice.
     */
    static Pmi1Bootstrap processManagerSpawn(JmpiRuntime rt) {
        String forced = System.getProperty("jmpi.spawn", System.getenv("JMPI_SPAWN"));
        Pmi1Bootstrap client = pmi1Client(rt);
        if ("launcher".equals(forced) || client == null) {
            return null;
        }
        if ("pmi".equals(forced)) {
            return client;
        }
        return hydra(rt);
    }

    private static Pmi1Bootstrap pmi1Client(JmpiRuntime rt) {
        return rt.bootstrap() instanceof JobBootstrap jb && jb.client() instanceof Pmi1Bootstrap p ? p : null;
    }

    /** The PMI-1 client when the process manager is mpiexec.hydra (not jmpirun, not Slurm), else null. */
    static Pmi1Bootstrap hydra(JmpiRuntime rt) {
        boolean hydra = System.getenv("JMPI_JOBID") == null && System.getenv("SLURM_JOB_ID") == null
                && System.getenv("JMPI_KVS") == null;
        return hydra ? pmi1Client(rt) : null;
    }

    /**
     * Spawn by the process manager (Hydra's PMI-1 {@code spawn}): it places, starts, forwards and ends the children;
     * they read the port from their key-value space ({@link #PARENT_PORT_KEY}) and connect. A child that never
     * connects fails the spawn after {@code jmpi.dpm.timeout}.
     */
    private Communicator spawnThroughProcessManager(Pmi1Bootstrap pm, List<Command> commands, Communicator comm,
            int root) {
        OpenPort port = null;
        MpiError early = null;
        try {
            port = OpenPort.open(bareHost(dp.table().describe(dp.runtime().rank()).card()));
            List<Pmi1Bootstrap.SpawnCommand> cmds = new ArrayList<>();
            for (Command c : commands) {
                List<String> args = new ArrayList<>();
                String program = resolve(c.command(), c.info().get("path"));
                if (program == null) {
                    if (!CLASS_NAME.matcher(c.command()).matches()) {
                        throw new MpiError(ErrorClass.ERR_SPAWN, "'" + c.command() + "' is neither an executable "
                                + "(on the PATH or Info path) nor a Java class name");
                    }
                    program = javaExecutable();
                    args.addAll(List.of("--enable-native-access=ALL-UNNAMED", "-cp",
                            absoluteClassPath(System.getProperty("java.class.path")), c.command()));
                }
                args.addAll(List.of(c.argv()));
                Map<String, String> info = new java.util.LinkedHashMap<>(c.info());
                info.keySet().removeAll(List.of("soft", "arch", "file"));
                cmds.add(new Pmi1Bootstrap.SpawnCommand(program, args, c.maxprocs(), info));
            }
            pm.spawn(cmds, Map.of(PARENT_PORT_KEY, port.name().format()));
        } catch (MpiError e) {
            early = e;
        } catch (RuntimeException e) { // PmiException
            early = new MpiError(ErrorClass.ERR_SPAWN, e.getMessage(), e);
        }
        long deadline = System.nanoTime() + PortConnection.connectTimeoutMillis() * 1_000_000L;
        // Hydra ends the children it started; a child that never connects is found only by the deadline
        return PortConnection.acceptChildren(dp, port, early, comm, root, () -> System.nanoTime() > deadline,
                () -> {});
    }

    /** Ends a launcher and everything it started (SIGTERM, then SIGKILL after 2 s). */
    private void end(Process launcher) {
        launcher.descendants().forEach(ProcessHandle::destroy);
        launcher.destroy();
        try {
            if (!launcher.waitFor(2, TimeUnit.SECONDS)) {
                launcher.descendants().forEach(ProcessHandle::destroyForcibly);
                launcher.destroyForcibly();
                launcher.waitFor(2, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        launchers.remove(launcher);
    }

    /**
     * MPI_Finalize at the root: waits for the children's jobs to end (they finalize on their own), driving this
     * rank's progress meanwhile, as a blocking call does (what it sent before may still be on its way).
     */
    void awaitLaunchers() {
        Runnable progress = PortConnection.progressOf(dp);
        for (Process p : launchers) {
            try {
                while (!p.waitFor(Wire.SLICE_MILLIS, TimeUnit.MILLISECONDS)) {
                    progress.run();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        launchers.clear();
    }

    /**
     * How many processes to start for {@code maxprocs} and Info {@code soft} (a list of counts and ranges,
     * {@code "1,2,4:8"} or {@code "2:16:2"}), within {@code universe} (0: no limit): without soft, maxprocs (above
     * the universe: ERR_SPAWN); with soft, the largest allowed count within maxprocs and the universe.
     *
     * @throws MpiError ERR_ARG when maxprocs is below 1 or soft is malformed; ERR_SPAWN when no count fits
     */
    static int count(int maxprocs, String soft, int universe) {
        if (maxprocs < 1) {
            throw new MpiError(ErrorClass.ERR_ARG, "maxprocs " + maxprocs + " is below 1");
        }
        int limit = universe > 0 ? Math.min(maxprocs, universe) : maxprocs;
        if (soft == null) {
            if (limit < maxprocs) {
                throw new MpiError(ErrorClass.ERR_SPAWN, "maxprocs " + maxprocs + " is above the universe size "
                        + universe + " (give Info soft to accept fewer)");
            }
            return maxprocs;
        }
        int best = 0;
        try {
            for (String part : soft.split(",")) {
                String[] f = part.trim().split(":");
                int a = Integer.parseInt(f[0].trim());
                int b = f.length > 1 ? Integer.parseInt(f[1].trim()) : a;
                int step = f.length > 2 ? Integer.parseInt(f[2].trim()) : 1;
                if (f.length > 3 || step < 1 || a < 0) {
                    throw new NumberFormatException(part);
                }
                for (int v = a; v <= b && v <= limit; v += step) {
                    best = Math.max(best, v);
                }
            }
        } catch (NumberFormatException e) {
            throw new MpiError(ErrorClass.ERR_ARG, "Info soft=" + soft + " is not a list of counts and a:b[:step] "
                    + "ranges");
        }
        if (best < 1) {
            throw new MpiError(ErrorClass.ERR_SPAWN, "no count allowed by soft=" + soft + " is at most " + limit);
        }
        return best;
    }

    // ============================================================================================ command line

    /** {@code java -cp <launcher> org.jmpi.launcher.JmpiRun [flags] -n N ... : -n M ...}. */
    static List<String> commandLine(List<Command> commands) {
        List<String> cl = new ArrayList<>();
        cl.add(javaExecutable());
        cl.add("--enable-native-access=ALL-UNNAMED");
        cl.add("-XX:TieredStopAtLevel=1");
        cl.add("-XX:+UseSerialGC");
        cl.add("-cp");
        cl.add(launcherClassPath());
        cl.add("org.jmpi.launcher.JmpiRun");
        cl.add("--no-stdin");
        String hosts = null;
        String hostfile = null;
        for (Command c : commands) {
            String h = c.info().get("host");
            if (h != null) {
                if (hosts != null && !hosts.equals(h)) {
                    throw new MpiError(ErrorClass.ERR_SPAWN, "the commands of one spawn name different hosts ("
                            + hosts + ", " + h + "); jmpi places one spawn with one host list");
                }
                hosts = h;
            }
            String f = c.info().get("file");
            if (f != null) {
                hostfile = f;
            }
        }
        if (hosts != null && hostfile != null) {
            throw new MpiError(ErrorClass.ERR_SPAWN, "Info keys host and file exclude each other");
        }
        if (hosts != null) {
            cl.add("-H");
            cl.add(hosts);
        } else if (hostfile != null) {
            if (!Files.isReadable(Path.of(hostfile))) {
                throw new MpiError(ErrorClass.ERR_SPAWN, "Info file=" + hostfile + ": no such hostfile");
            }
            cl.add("-f");
            cl.add(hostfile);
        } else if (System.getenv("JMPI_HOSTS") != null) {
            // the parents' jmpirun host list (with slots): children fill its slots from the first host on, as the
            // parents did, oversubscribing when the parents hold them (jmpirun's default)
            cl.add("-H");
            cl.add(System.getenv("JMPI_HOSTS"));
        }
        if (System.getenv("JMPI_SPAWN_LAUNCHER") != null) {
            cl.add("--launcher"); // the parents' launch agent (ssh, rsh, slurm, fork)
            cl.add(System.getenv("JMPI_SPAWN_LAUNCHER"));
        }
        if (System.getenv("JMPI_SPAWN_LAUNCHER_EXEC") != null) {
            cl.add("--launcher-exec");
            cl.add(System.getenv("JMPI_SPAWN_LAUNCHER_EXEC"));
        }
        for (int i = 0; i < commands.size(); i++) {
            Command c = commands.get(i);
            if (i > 0) {
                cl.add(":");
            }
            cl.add("-n");
            cl.add(Integer.toString(c.maxprocs()));
            String arch = c.info().get("arch");
            if (arch != null && !arch.equals(System.getProperty("os.arch"))) {
                throw new MpiError(ErrorClass.ERR_SPAWN, "Info arch=" + arch + ": jmpi runs children on this "
                        + "architecture only (" + System.getProperty("os.arch") + ")");
            }
            String wdir = c.info().get("wdir");
            if (wdir != null) {
                if (!Files.isDirectory(Path.of(wdir))) {
                    throw new MpiError(ErrorClass.ERR_SPAWN, "Info wdir=" + wdir + ": no such directory");
                }
                cl.add("--wdir");
                cl.add(wdir);
            }
            String program = resolve(c.command(), c.info().get("path"));
            if (program == null) {
                if (!CLASS_NAME.matcher(c.command()).matches()) {
                    throw new MpiError(ErrorClass.ERR_SPAWN, "'" + c.command() + "' is neither an executable "
                            + "(on the PATH or Info path) nor a Java class name");
                }
                cl.add("-cp");
                cl.add(absoluteClassPath(System.getProperty("java.class.path")));
                cl.add(c.command());
            } else {
                cl.add("--exec");
                cl.add(program);
            }
            for (String a : c.argv()) {
                if (a.equals(":")) {
                    throw new MpiError(ErrorClass.ERR_SPAWN, "an argument ':' cannot be passed (jmpirun takes it "
                            + "for the next application context)");
                }
                cl.add(a);
            }
        }
        return cl;
    }

    /**
     * The executable {@code command} names: itself when it holds a '/' (relative to the working directory), else
     * the first match in Info {@code path} (colon-separated directories) and then the {@code PATH}; null when none
     * (then it may be a Java class name). {@code java} stays {@code java} (jmpirun runs it as the whole command).
     */
    static String resolve(String command, String path) {
        if (command.equals("java")) {
            return javaExecutable();
        }
        if (command.contains("/")) {
            return command;
        }
        List<String> dirs = new ArrayList<>();
        if (path != null) {
            dirs.addAll(List.of(path.split(":")));
        }
        String env = System.getenv("PATH");
        if (env != null) {
            dirs.addAll(List.of(env.split(":")));
        }
        for (String d : dirs) {
            if (d.isEmpty()) {
                continue;
            }
            File f = new File(d, command);
            if (f.isFile() && f.canExecute()) {
                return f.getPath();
            }
        }
        return null;
    }

    /** A class path with every entry absolute, so that children started in another directory (wdir) find it. */
    static String absoluteClassPath(String cp) {
        List<String> out = new ArrayList<>();
        for (String e : cp.split(File.pathSeparator)) {
            out.add(e.isEmpty() ? e : Path.of(e).toAbsolutePath().toString());
        }
        return String.join(File.pathSeparator, out);
    }

    static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * Where jmpirun's classes are: {@code jmpi.launcher.classpath} ({@code JMPI_LAUNCHER_CLASSPATH}); else the jars
     * of the distribution whose {@code lib/jmpi-core.jar} this rank runs; else this rank's class path when it holds
     * the launcher (tests).
     */
    static String launcherClassPath() {
        String given = System.getProperty("jmpi.launcher.classpath", System.getenv("JMPI_LAUNCHER_CLASSPATH"));
        if (given != null && !given.isBlank()) {
            return given;
        }
        try {
            // the class path's jar, not a class cache's record of where it was when the cache was made
            Path core = org.jmpi.shared.CodeLocation.of(JmpiRuntime.class);
            Path lib = core.getParent();
            if (lib != null && Files.isRegularFile(lib.resolve("jmpi-launcher.jar"))) {
                return lib.resolve("jmpi-launcher.jar") + File.pathSeparator + core + File.pathSeparator
                        + lib.resolve("picocli.jar");
            }
        } catch (IllegalStateException | SecurityException e) {
            // try the class path
        }
        if (ClassLoader.getSystemClassLoader().getResource("org/jmpi/launcher/JmpiRun.class") != null) {
            return System.getProperty("java.class.path");
        }
        throw new MpiError(ErrorClass.ERR_SPAWN, "cannot find jmpirun's classes to start the children: run from "
                + "the jmpi distribution or set JMPI_LAUNCHER_CLASSPATH");
    }

    private static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            // closed anyway
        }
    }

    static String bareHost(String card) {
        String host = card.substring(0, card.lastIndexOf(':'));
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }
}
