package org.jmpi.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Fault injection for checkpoint/restart (and, with {@code --mode ulfm}, for ULFM: {@code
 * org.jmpi.examples.JacobiUlfm} under {@code jmpirun --continue-on-failure}, finishing on the survivors; the counts
 * then say recoveries where they say restarts): runs {@code org.jmpi.examples.Jacobi} N times under
 * {@code jmpirun --restart-on-failure K -ckpoint-prefix DIR}, SIGKILLs one random rank of each run, at a random time
 * or while a checkpoint is being written (the ranks then get {@code JMPI_CKPT_WRITE_DELAY_MILLIS}, which holds each
 * part and manifest under its temporary name a while; the driver lets 0 to 9 checkpoint writes pass and kills as soon
 * as it sees the next one's temporary files: a part's, or in a third of these runs the manifest's, when every part is
 * complete), and counts what
 * happened. Each run must end with exactly the checksum of an uninterrupted run, within a hard time limit, leaving no
 * process and no shared-memory file behind. It prints one line per run and the counts:
 *
 * <pre>
 * checkpoint faults: runs 100, kills 100 (61 at a random time, 39 during a checkpoint write), restarts 100,
 *   right answers 100, wrong answers 0, failed runs 0, hangs 0, partial generations passed over 37,
 *   leftover processes 0, leftover /dev/shm files 0
 * </pre>
 *
 * <p>Usage: {@code CheckpointFaults --jmpirun "CMD" [--runs 100] [--ranks 4] [--restarts 3] [--size 256]
 * [--iterations 20000] [--checkpoint-every 200] [--during-write 0.4] [--write-delay-ms 300] [--hosts H:2,...]
 * [--launcher-exec AGENT] [--cp CLASSPATH] [--work DIR] [--seed S] [--timeout SEC] [--quiet true] [--mode restart|ulfm]}. {@code CMD} is the jmpirun
 * command (split at spaces), e.g. {@code jmpi-dist/target/jmpi/bin/jmpirun}. The checkpoint directory is made under
 * {@code --work} (default a temporary directory), which every host must share. This is a process harness: it uses the
 * JDK only, no MPI. Exit code 0 when every run gave the right answer and nothing hung or was left over.
 */
public final class CheckpointFaults {
    private CheckpointFaults() {}

    /**
     * The settings of a series of runs; {@link #of} reads them from option names without their dashes ("runs",
     * "write-delay-ms", ...).
     */
    public record Settings(List<String> jmpirun, int runs, int ranks, int restarts, int size, long iterations,
            long checkpointEvery, double duringWrite, long writeDelayMillis, String hosts, String launcherExec,
            String classPath, Path work, long seed, long timeoutSeconds, boolean verbose, boolean ulfm) {

        /** The settings given, the defaults for the others. */
        public static Settings of(Map<String, String> o) {
            Set<String> known = Set.of("jmpirun", "runs", "ranks", "restarts", "size", "iterations",
                    "checkpoint-every", "during-write", "write-delay-ms", "hosts", "launcher-exec", "cp", "work",
                    "seed", "timeout", "quiet", "mode");
            for (String k : o.keySet()) {
                if (!known.contains(k)) {
                    throw new IllegalArgumentException("unknown option --" + k);
                }
            }
            return new Settings(List.of(o.getOrDefault("jmpirun", "jmpirun").trim().split("\\s+")),
                    Integer.parseInt(o.getOrDefault("runs", "100")), Integer.parseInt(o.getOrDefault("ranks", "4")),
                    Integer.parseInt(o.getOrDefault("restarts", "3")), Integer.parseInt(o.getOrDefault("size", "256")),
                    Long.parseLong(o.getOrDefault("iterations", "20000")),
                    Long.parseLong(o.getOrDefault("checkpoint-every", "200")),
                    Double.parseDouble(o.getOrDefault("during-write", "0.4")),
                    Long.parseLong(o.getOrDefault("write-delay-ms", "300")), o.get("hosts"), o.get("launcher-exec"),
                    o.get("cp"), o.containsKey("work") ? Path.of(o.get("work")) : null,
                    Long.parseLong(o.getOrDefault("seed", Long.toString(System.nanoTime()))),
                    Long.parseLong(o.getOrDefault("timeout", "0")), !o.containsKey("quiet"), ulfm(o));
        }

        private static boolean ulfm(Map<String, String> o) {
            String m = o.getOrDefault("mode", "restart");
            if (!m.equals("restart") && !m.equals("ulfm")) {
                throw new IllegalArgumentException("--mode is restart or ulfm, not " + m);
            }
            return m.equals("ulfm");
        }
    }

    /** What a series of runs gave. */
    public record Counts(int runs, int kills, int killsDuringWrite, int restarts, int rightAnswers, int wrongAnswers,
            int failedRuns, int hangs, int partialGenerationsSkipped, int leftoverProcesses, int leftoverShmFiles) {

        /** Whether every run gave the right answer and nothing hung or was left over. */
        public boolean clean() {
            return rightAnswers == runs && hangs == 0 && leftoverProcesses == 0 && leftoverShmFiles == 0;
        }

        @Override
        public String toString() {
            return "runs " + runs + ", kills " + kills + " (" + (kills - killsDuringWrite) + " at a random time, "
                    + killsDuringWrite + " during a checkpoint write), restarts " + restarts + ", right answers "
                    + rightAnswers + ", wrong answers " + wrongAnswers + ", failed runs " + failedRuns + ", hangs "
                    + hangs + ", partial generations passed over " + partialGenerationsSkipped
                    + ", leftover processes " + leftoverProcesses + ", leftover /dev/shm files " + leftoverShmFiles;
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        Settings s;
        try {
            for (int i = 0; i < args.length; i += 2) {
                if (!args[i].startsWith("--") || i + 1 == args.length) {
                    throw new IllegalArgumentException("expected --option value, not " + args[i]);
                }
                options.put(args[i].substring(2), args[i + 1]);
            }
            s = Settings.of(options);
        } catch (IllegalArgumentException e) {
            System.err.println("CheckpointFaults: " + e.getMessage() + "\nusage: CheckpointFaults --jmpirun CMD "
                    + "[--runs N] [--ranks N] [--restarts K] ... (see the class documentation)");
            System.exit(2);
            return;
        }
        Counts c = run(s);
        System.out.println(s.ulfm() ? "ulfm faults: " + c.toString().replace("restarts", "recoveries")
                : "checkpoint faults: " + c);
        System.exit(c.clean() ? 0 : 1);
    }

    private static final Pattern CHECKSUM = Pattern.compile("Jacobi(?:Ulfm)?: checksum (\\S+)");

    /** Output and exit of one jmpirun run. */
    private record Outcome(int exitCode, String output, boolean hung, long processesSeenMillis) {}

    /** Runs the series and returns the counts (each run reported on standard output when verbose). */
    public static Counts run(Settings s) throws IOException, InterruptedException {
        Path work = s.work() != null ? Files.createDirectories(s.work())
                : Files.createTempDirectory("jmpi-checkpoint-faults");
        Random random = new Random(s.seed());
        long limit = s.timeoutSeconds() > 0 ? s.timeoutSeconds() : 600;
        // the answer of an uninterrupted run, without checkpoints
        Plan reference = new Plan(true, false, 0);
        Outcome ref = launch(s, work, null, reference, limit, random);
        leftovers(reference.marker);
        String expected = checksum(ref.output());
        if (ref.exitCode() != 0 || expected == null) {
            throw new IllegalStateException("the uninterrupted run failed (exit " + ref.exitCode() + "):\n"
                    + ref.output());
        }
        long computeMillis = Math.max(200, ref.processesSeenMillis());
        long perRunLimit = s.timeoutSeconds() > 0 ? s.timeoutSeconds()
                : Math.max(120, 8 * (computeMillis / 1000 + 5));
        if (s.verbose()) {
            System.out.println("reference: checksum " + expected + " (seed " + s.seed() + ")");
        }
        int kills = 0;
        int duringWrite = 0;
        int restarts = 0;
        int right = 0;
        int wrong = 0;
        int failed = 0;
        int hangs = 0;
        int skipped = 0;
        int leftoverProcesses = 0;
        int leftoverShm = 0;
        for (int i = 1; i <= s.runs(); i++) {
            Path ckpt = Files.createDirectories(work.resolve("run-" + i));
            Path shm = Files.createDirectories(Path.of("/dev/shm", "jmpi-faults-" + ProcessHandle.current().pid()
                    + "-" + i));
            boolean inWrite = random.nextDouble() < s.duringWrite();
            Plan kill = new Plan(false, inWrite, (long) (random.nextDouble() * computeMillis));
            kill.writesToSkip = random.nextInt((int) Math.max(1, Math.min(10, s.iterations() / s.checkpointEvery())));
            kill.manifestOnly = random.nextInt(3) == 0;
            Outcome o = launch(s, ckpt, shm, kill, perRunLimit, random);
            String sum = checksum(o.output());
            int r = s.ulfm() ? recoveries(o.output()) : count(o.output(), "restart \\d+ of \\d+");
            Matcher from = Pattern.compile("restart \\d+ of \\d+, (from .*)").matcher(o.output());
            String restartedFrom = from.find() ? ", restarted " + from.group(1).replace(" in " + ckpt, "") : "";
            int p = count(o.output(), "skipping generation");
            String got;
            if (o.hung()) {
                hangs++;
                got = "HUNG";
            } else if (o.exitCode() != 0 && !(s.ulfm() && kill.killed && o.exitCode() == 137)) {
                // (with ULFM the job's exit code is the killed rank's, 137, while the survivors finish)
                failed++;
                got = "FAILED (exit " + o.exitCode() + ")";
            } else if (expected.equals(sum)) {
                right++;
                got = "right";
            } else {
                wrong++;
                got = "WRONG (" + sum + ")";
            }
            if (kill.killed) {
                kills++;
                if (kill.duringWrite) {
                    duringWrite++;
                }
            }
            restarts += r;
            skipped += p;
            int procs = leftovers(kill.marker);
            int files = shmFiles(shm);
            leftoverProcesses += procs;
            leftoverShm += files;
            deleteTree(shm);
            deleteTree(ckpt);
            if (s.verbose()) {
                System.out.println(String.format(Locale.ROOT, "run %d: %s%s; %s; " + (s.ulfm() ? "recoveries"
                        : "restarts") + " %d, partial generations "
                        + "passed over %d, leftover processes %d, /dev/shm files %d", i, kill.describe(), restartedFrom,
                        got, r, p, procs, files));
                if (!got.equals("right")) {
                    System.out.println(o.output().indent(4));
                }
            }
        }
        if (s.work() == null) {
            deleteTree(work);
        }
        return new Counts(s.runs(), kills, duringWrite, restarts, right, wrong, failed, hangs, skipped,
                leftoverProcesses, leftoverShm);
    }

    /**
     * One run's plan and what came of it: kill one random rank {@code killAfterMillis} after the ranks appear, or
     * (during a write) as soon as a temporary checkpoint file appears; or (reference run) kill nothing and use no
     * checkpoints.
     */
    private static final class Plan {
        final String marker = "jmpi.faults.run=" + UUID.randomUUID();
        final boolean reference;
        final boolean duringWrite;
        final long killAfterMillis;
        /** During a write: how many checkpoint writes to let pass first (a later one is killed). */
        int writesToSkip;
        /** During a write: wait for the manifest's temporary file (the parts are complete then), not a part's. */
        boolean manifestOnly;
        final Set<String> writesSeen = new java.util.HashSet<>();
        boolean killed;
        int rank = -1;
        long atMillis;
        String file = "";

        Plan(boolean reference, boolean duringWrite, long killAfterMillis) {
            this.reference = reference;
            this.duringWrite = duringWrite;
            this.killAfterMillis = killAfterMillis;
        }

        String describe() {
            if (!killed) {
                return "not killed (the run ended first)";
            }
            return "killed rank " + rank + (duringWrite ? " while " + file + " was being written"
                    : " " + atMillis + " ms after its ranks started");
        }
    }

    /** Runs jmpirun once as {@code plan} says. */
    private static Outcome launch(Settings s, Path ckpt, Path shm, Plan plan, long limitSeconds, Random random)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(s.jmpirun());
        cmd.add("--no-stdin");
        cmd.addAll(List.of("-n", Integer.toString(s.ranks())));
        if (s.hosts() != null) {
            cmd.addAll(List.of("-H", s.hosts()));
        }
        if (s.launcherExec() != null) {
            cmd.addAll(List.of("--launcher-exec", s.launcherExec()));
        }
        if (s.classPath() != null) {
            cmd.addAll(List.of("-cp", s.classPath()));
        }
        cmd.addAll(List.of("--jvm-arg", "-D" + plan.marker));
        if (shm != null) {
            cmd.addAll(List.of("-x", "JMPI_SHM_DIR=" + shm));
        }
        if (!plan.reference && s.ulfm()) {
            cmd.add("--continue-on-failure");
            if (plan.duringWrite) {
                cmd.addAll(List.of("-x", "JMPI_CKPT_WRITE_DELAY_MILLIS=" + s.writeDelayMillis()));
            }
        } else if (!plan.reference) {
            cmd.addAll(List.of("--restart-on-failure", Integer.toString(s.restarts()), "-ckpoint-prefix",
                    ckpt.toString()));
            if (plan.duringWrite) {
                cmd.addAll(List.of("-x", "JMPI_CKPT_WRITE_DELAY_MILLIS=" + s.writeDelayMillis()));
            }
        }
        if (!plan.reference && s.ulfm()) {
            cmd.addAll(List.of("org.jmpi.examples.JacobiUlfm", "--checkpoint-dir", ckpt.toString()));
        } else {
            cmd.add("org.jmpi.examples.Jacobi");
        }
        cmd.addAll(List.of("--size", Integer.toString(s.size()), "--iterations", Long.toString(s.iterations()),
                "--checkpoint-every", Long.toString(s.checkpointEvery())));
        Path log = Files.createTempFile("jmpi-faults", ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(limitSeconds);
        long ranksSeen = -1;
        boolean hung = false;
        while (p.isAlive()) {
            long now = System.nanoTime();
            if (now > deadline) {
                hung = true;
                break;
            }
            if (ranksSeen < 0 && ranks(plan.marker).size() >= s.ranks()) {
                ranksSeen = now;
            }
            if (!plan.reference && !plan.killed && ranksSeen >= 0) {
                String tmp = plan.duringWrite ? temporaryFile(ckpt, plan.manifestOnly) : null;
                if (tmp != null) {
                    // the generation being written (the directory part of the name): let the first few pass
                    String generation = tmp.substring(0, Math.max(0, tmp.indexOf('/')));
                    if (plan.writesSeen.size() < plan.writesToSkip || plan.writesSeen.contains(generation)) {
                        plan.writesSeen.add(generation);
                        tmp = null;
                    }
                }
                boolean due = plan.duringWrite ? tmp != null
                        : now - ranksSeen >= TimeUnit.MILLISECONDS.toNanos(plan.killAfterMillis);
                List<ProcessHandle> rs = due ? ranks(plan.marker) : List.of();
                if (!rs.isEmpty()) {
                    ProcessHandle victim = rs.get(random.nextInt(rs.size()));
                    int rank = rankOf(victim);
                    if (victim.destroyForcibly()) {
                        plan.killed = true;
                        plan.rank = rank;
                        plan.file = tmp == null ? "" : tmp;
                        plan.atMillis = TimeUnit.NANOSECONDS.toMillis(now - ranksSeen);
                    }
                }
            }
            p.waitFor(plan.duringWrite ? 5 : 20, TimeUnit.MILLISECONDS);
        }
        if (hung) {
            dumpThreads(p, plan.marker);
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            ranks(plan.marker).forEach(ProcessHandle::destroyForcibly);
            p.waitFor(10, TimeUnit.SECONDS);
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        Files.deleteIfExists(log);
        long seen = ranksSeen < 0 ? 0 : TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - ranksSeen);
        return new Outcome(hung ? -1 : p.exitValue(), output, hung, seen);
    }

    /**
     * Before a hung run is killed: the threads of jmpirun, its proxies and the ranks ({@code jcmd PID Thread.print}),
     * into a file under the temporary directory whose name is printed, so that a hang can be diagnosed afterwards.
     */
    private static void dumpThreads(Process jmpirun, String marker) {
        try {
            Path file = Files.createTempFile("jmpi-faults-hang-", ".txt");
            Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
            java.util.LinkedHashSet<ProcessHandle> all = new java.util.LinkedHashSet<>();
            all.add(jmpirun.toHandle());
            jmpirun.descendants().forEach(all::add);
            all.addAll(withMarker(marker));
            for (ProcessHandle h : all) {
                String cmd = h.info().commandLine().orElse("?");
                Files.writeString(file, "\n==== pid " + h.pid() + ": " + cmd + "\n", StandardCharsets.UTF_8,
                        java.nio.file.StandardOpenOption.APPEND);
                if (cmd.contains("java")) {
                    Process d = new ProcessBuilder(jcmd.toString(), Long.toString(h.pid()), "Thread.print")
                            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(file.toFile()))
                            .start();
                    if (!d.waitFor(30, TimeUnit.SECONDS)) {
                        d.destroyForcibly();
                    }
                }
            }
            System.out.println("hung run: thread dumps in " + file);
        } catch (IOException | RuntimeException e) {
            System.out.println("hung run: no thread dumps: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The rank processes of one run, on any host of this kernel: JVMs given {@code -D<marker>} as an option of their
     * own (jmpirun, which passes it on with {@code --jvm-arg}, is not one).
     */
    private static List<ProcessHandle> ranks(String marker) {
        String option = "-D" + marker;
        try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
            return all.filter(h -> {
                List<String> args = arguments(h);
                return args.contains(option) && !args.contains("--jvm-arg");
            }).toList();
        }
    }

    private static List<ProcessHandle> withMarker(String marker) {
        try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
            return all.filter(h -> arguments(h).stream().anyMatch(a -> a.contains(marker))).toList();
        }
    }

    /**
     * A process's whole command line, from {@code /proc/PID/cmdline}; empty when it cannot be read (gone, or
     * another user's). Not {@code ProcessHandle.Info}: on Linux the JDK reads only the first 4,096 bytes, and past
     * them gives no arguments at all and a cut command line; a rank's JVM options and class path are longer than that
     * under the test harness (the JIT hints added some 700 bytes, and the runs stopped finding their ranks).
     */
    private static List<String> arguments(ProcessHandle h) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(h.pid()), "cmdline"));
            return List.of(new String(raw, StandardCharsets.UTF_8).split("\0"));
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /** The rank a process was started as ({@code JMPI_RANK} in its environment), or -1 when it cannot be read. */
    private static int rankOf(ProcessHandle h) {
        try {
            String env = Files.readString(Path.of("/proc", Long.toString(h.pid()), "environ"),
                    StandardCharsets.ISO_8859_1);
            for (String v : env.split("\0")) {
                if (v.startsWith("JMPI_RANK=")) {
                    return Integer.parseInt(v.substring(10));
                }
            }
        } catch (IOException | NumberFormatException e) {
            // gone, or not ours to read
        }
        return -1;
    }

    /** A temporary checkpoint file (a part or manifest being written; only a manifest) under {@code ckpt}, or null. */
    private static String temporaryFile(Path ckpt, boolean manifestOnly) {
        try (Stream<Path> s = Files.walk(ckpt, 2)) {
            Optional<Path> t = s.filter(f -> manifestOnly ? f.getFileName().toString().equals("manifest.tmp")
                    : f.getFileName().toString().endsWith(".tmp")).findFirst();
            return t.map(f -> ckpt.relativize(f).toString()).orElse(null);
        } catch (IOException | UncheckedIOException e) {
            return null; // a directory removed while listed: look again
        }
    }

    /** Processes of a run (anything with the marker in its command line) still alive 5 s after jmpirun ended. */
    private static int leftovers(String marker) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        List<ProcessHandle> left = withMarker(marker);
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(100);
            left = withMarker(marker);
        }
        left.forEach(ProcessHandle::destroyForcibly);
        return left.size();
    }

    private static int shmFiles(Path shm) throws IOException {
        try (Stream<Path> s = Files.list(shm)) {
            return (int) s.count();
        }
    }

    private static String checksum(String output) {
        String found = null;
        Matcher m = CHECKSUM.matcher(output);
        while (m.find()) {
            found = m.group(1);
        }
        return found;
    }

    /** ULFM runs: the recoveries JacobiUlfm reports ("after N recoveries"). */
    private static int recoveries(String output) {
        Matcher m = Pattern.compile("after (\\d+) recover").matcher(output);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    private static int count(String output, String regex) {
        Matcher m = Pattern.compile(regex).matcher(output);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        }
    }
}
