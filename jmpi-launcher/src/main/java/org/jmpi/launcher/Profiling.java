package org.jmpi.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.jmpi.profile.Instrumenter;
import org.jmpi.shared.RankClassLoader;

/**
 * jmpirun's {@code --tool CLASS} and {@code --summary}: the profiling interface ({@code org.jmpi.profile}) for the
 * job's ranks. Processes mode: every rank JVM gets {@code -javaagent:<jmpi-core.jar>} and {@code JMPI_TOOLS};
 * threads mode: the ranks' class loaders rewrite package {@code mpi} and {@code jmpi.tools} names the tools. The
 * summary tool writes one file per rank into a temporary directory; when the job ends the merged table (time in MPI
 * per rank, then per call name over all ranks) goes to standard error, as mpiP prints its report.
 *
 * <p>Threading: used by jmpirun's main thread only.
 */
final class Profiling {
    static final String SUMMARY_TOOL = "org.jmpi.profile.SummaryTool";
    static final String CHECK_TOOL = "org.jmpi.tools.CheckTool";
    static final String TRACE_TOOL = "org.jmpi.tools.TraceTool";
    private final List<String> tools;
    private final Path summaryDir;
    private final Path checkDir;
    private final Path traceDir;
    private final Path traceFile;
    /** Where {@code --summary-svg} writes the chart, or null. */
    Path summarySvg;

    private Profiling(List<String> tools, Path summaryDir, Path checkDir, Path traceDir, Path traceFile) {
        this.tools = tools;
        this.summaryDir = summaryDir;
        this.checkDir = checkDir;
        this.traceDir = traceDir;
        this.traceFile = traceFile;
    }

    /** For the flags given; null when none asks for anything. */
    static Profiling of(List<String> toolFlags, boolean summary) throws IOException {
        return of(toolFlags, summary, false, null);
    }

    /**
     * For the flags given ({@code --check} and {@code --trace FILE} too); null when none asks for anything.
     *
     * @throws IllegalArgumentException for a tool name that is not a class name, or a trace file that cannot be
     *     written (said before the job starts)
     */
    static Profiling of(List<String> toolFlags, boolean summary, boolean check, String trace) throws IOException {
        return of(toolFlags, summary, check, trace, List.of());
    }

    /** The same, with the tools the ranks' class path declares ({@link #declaredTools}) added. */
    static Profiling of(List<String> toolFlags, boolean summary, boolean check, String trace, List<Path> classPath)
            throws IOException {
        List<String> names = new ArrayList<>(declaredTools(classPath));
        for (String f : toolFlags) {
            for (String n : f.split(",")) {
                if (!n.isBlank() && !names.contains(n.strip())) {
                    names.add(n.strip());
                }
            }
        }
        if (summary) {
            names.add(SUMMARY_TOOL);
        }
        if (check) {
            names.add(CHECK_TOOL);
        }
        Path traceFile = null;
        if (trace != null) {
            traceFile = Path.of(trace).toAbsolutePath();
            try {
                Files.newOutputStream(traceFile).close(); // now, not after the job: a clear error before it starts
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException("--trace " + trace + ": cannot write the trace file there ("
                        + e + ")");
            }
            names.add(TRACE_TOOL);
        }
        if (names.isEmpty()) {
            return null;
        }
        for (String n : names) {
            if (!n.matches("[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)*")) {
                throw new IllegalArgumentException("--tool " + n + ": not a class name");
            }
        }
        Path dir = summary ? Files.createTempDirectory("jmpi-summary-") : null;
        Path checks = check ? Files.createTempDirectory("jmpi-check-") : null;
        Path traces = traceFile != null ? Files.createTempDirectory("jmpi-trace-") : null;
        return new Profiling(List.copyOf(names), dir, checks, traces, traceFile);
    }

    /** Where a tool library declares its tools, as a {@link java.util.ServiceLoader} provider file. */
    static final String SERVICE_FILE = "META-INF/services/org.jmpi.profile.MpiTool";

    /**
     * The tools a class path declares: the class names listed in {@value #SERVICE_FILE} of its directories and jars
     * (blank lines and {@code #} comments skipped), so that putting a tool library on the class path is enough. An
     * entry that cannot be read declares nothing.
     */
    static List<String> declaredTools(List<Path> classPath) {
        List<String> names = new ArrayList<>();
        for (Path p : classPath) {
            List<String> lines = List.of();
            try {
                if (Files.isDirectory(p)) {
                    Path f = p.resolve(SERVICE_FILE);
                    if (Files.isRegularFile(f)) {
                        lines = Files.readAllLines(f);
                    }
                } else if (Files.isRegularFile(p) && p.getFileName().toString().endsWith(".jar")) {
                    try (java.util.jar.JarFile j = new java.util.jar.JarFile(p.toFile(), false)) {
                        var e = j.getJarEntry(SERVICE_FILE);
                        if (e != null) {
                            lines = new String(j.getInputStream(e).readAllBytes(),
                                    java.nio.charset.StandardCharsets.UTF_8).lines().toList();
                        }
                    }
                }
            } catch (IOException | RuntimeException e) {
                continue;
            }
            for (String l : lines) {
                int hash = l.indexOf('#');
                String n = (hash >= 0 ? l.substring(0, hash) : l).strip();
                if (!n.isEmpty() && !names.contains(n)) {
                    names.add(n);
                }
            }
        }
        return names;
    }

    /**
     * Processes mode: the agent and the tools' names for every rank. {@code jar} is the jar of the ranks' jmpi, whose
     * manifest names the agent: jmpi-core.jar, or jmpi-mpj.jar for programs of the MPJ Express API (the same agent
     * and tools there intercept the Open MPI facade under its moved name, which the MPJ facade calls).
     */
    void apply(Launcher.Builder b, Path jar) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException("--tool and --summary need jmpi-core as a jar (this jmpi runs from "
                    + jar + ")");
        }
        b.jvmArgs("-javaagent:" + jar);
        b.env("JMPI_TOOLS", String.join(",", tools));
        if (summaryDir != null) {
            b.env("JMPI_SUMMARY_DIR", summaryDir.toString());
        }
        if (checkDir != null) {
            b.env("JMPI_CHECK_DIR", checkDir.toString());
        }
        if (traceDir != null) {
            b.env("JMPI_TRACE_DIR", traceDir.toString());
        }
    }

    /**
     * Threads mode: the ranks' class loaders intercept, the tools are named in this JVM's properties. With
     * {@code mpjJar} (programs of the MPJ Express API) the interception is that jar's own, which knows the Open MPI
     * facade under its moved name and calls that jar's hooks, as the ranks load them from it.
     */
    void applyThreads(Path mpjJar) throws IOException {
        System.setProperty("jmpi.tools", String.join(",", tools));
        if (summaryDir != null) {
            System.setProperty("jmpi.summary.dir", summaryDir.toString());
        }
        if (checkDir != null) {
            System.setProperty("jmpi.check.dir", checkDir.toString());
        }
        if (traceDir != null) {
            System.setProperty("jmpi.trace.dir", traceDir.toString());
        }
        RankClassLoader.transformMpiClasses(mpjJar == null ? Instrumenter::transform : movedInstrumenter(mpjJar));
    }

    /** {@code Instrumenter.transform} of the runtime inside {@code jar}, loaded apart from this JVM's own. */
    private static java.util.function.BiFunction<String, byte[], byte[]> movedInstrumenter(Path jar)
            throws IOException {
        var loader = new java.net.URLClassLoader("jmpi-mpj-instrumenter", new java.net.URL[] {jar.toUri().toURL()},
                ClassLoader.getPlatformClassLoader());
        java.lang.invoke.MethodHandle transform;
        try {
            transform = java.lang.invoke.MethodHandles.publicLookup().findStatic(
                    loader.loadClass(Instrumenter.class.getName()), "transform",
                    java.lang.invoke.MethodType.methodType(byte[].class, String.class, byte[].class));
        } catch (ReflectiveOperationException e) {
            throw new IOException("no profiling interface in " + jar + ": " + e, e);
        }
        return (name, bytes) -> {
            try {
                return (byte[]) transform.invokeExact(name, bytes);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        };
    }

    /** After the job: the summary (if asked for) on {@code err}; removes the temporary files. */
    void finish(PrintStream err) {
        if (summaryDir != null) {
            try {
                err.print(summary(summaryDir));
                if (summarySvg != null) {
                    Files.writeString(summarySvg, summarySvg(summaryDir));
                    err.println("jmpirun: summary chart in " + summarySvg);
                }
            } catch (IOException | RuntimeException e) {
                err.println("jmpirun: cannot read the summary: " + e);
            }
        }
        if (traceDir != null) {
            try {
                int flows = TraceMerge.merge(traceDir, traceFile);
                err.println("jmpirun: trace of the job in " + traceFile + " (" + flows + " messages drawn; open it in"
                        + " https://ui.perfetto.dev or chrome://tracing)");
            } catch (IOException | RuntimeException e) {
                err.println("jmpirun: cannot write the trace " + traceFile + ": " + e);
            }
        }
        delete(summaryDir);
        delete(checkDir);
        delete(traceDir);
    }

    private static void delete(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Files.deleteIfExists(p);
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // a temporary directory: left for the system to clean
        }
    }

    /** The lines of each non-empty per-rank file ({@code *.tsv}) in {@code dir}, in file name order. */
    static List<List<String>> rankFiles(Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(".tsv")).sorted().toList();
        }
        List<List<String>> out = new ArrayList<>();
        for (Path f : files) {
            List<String> lines = Files.readAllLines(f);
            if (!lines.isEmpty()) {
                out.add(lines);
            }
        }
        return out;
    }

    private static final String[] COLOURS = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
        "#b07aa1", "#9c755f"};

    /**
     * The summary as an SVG chart: a bar per rank as long as its time from MPI_Init to MPI_Finalize, split into the
     * time in each of the 7 calls with the most time over all ranks, in the other calls, and outside MPI.
     */
    static String summarySvg(Path dir) throws IOException {
        Map<Integer, Long> wall = new TreeMap<>();
        Map<Integer, Map<String, Long>> byRank = new TreeMap<>();
        Map<String, Long> total = new LinkedHashMap<>();
        for (List<String> lines : rankFiles(dir)) {
            String[] head = lines.get(0).split("\t");
            int rank = Integer.parseInt(head[1]);
            wall.put(rank, Long.parseLong(head[2]));
            Map<String, Long> m = byRank.computeIfAbsent(rank, k -> new LinkedHashMap<>());
            for (String l : lines.subList(1, lines.size())) {
                String[] c = l.split("\t");
                long t = Long.parseLong(c[2]);
                m.merge(c[0], t, Long::sum);
                total.merge(c[0], t, Long::sum);
            }
        }
        List<String> top = total.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(COLOURS.length - 1).map(Map.Entry::getKey).toList();
        long longest = wall.values().stream().mapToLong(Long::longValue).max().orElse(1);
        int left = 70;
        int width = 640;
        int row = 26;
        int height = 40 + row * wall.size() + 24 * ((top.size() + 2 + 2) / 3) + 20;
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" font-size=\"12\">%n", left + width + 20, height));
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" font-size=\"14\">Time in MPI per rank, "
                + "MPI_Init to MPI_Finalize (longest %.3f s)</text>%n", left, longest / 1e9));
        int y = 32;
        for (Map.Entry<Integer, Long> e : wall.entrySet()) {
            double x = left;
            double scale = (double) width / longest;
            sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">rank %d</text>%n",
                    left - 6, y + 15, e.getKey()));
            Map<String, Long> m = byRank.getOrDefault(e.getKey(), Map.of());
            long other = 0;
            long inMpi = 0;
            for (Map.Entry<String, Long> c : m.entrySet()) {
                inMpi += c.getValue();
                if (!top.contains(c.getKey())) {
                    other += c.getValue();
                }
            }
            for (int i = 0; i <= top.size(); i++) {
                long t = i < top.size() ? m.getOrDefault(top.get(i), 0L) : other;
                String name = i < top.size() ? top.get(i) : "other MPI calls";
                double w = t * scale;
                sb.append(String.format(Locale.ROOT, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"20\" "
                        + "fill=\"%s\"><title>rank %d %s %.3f ms</title></rect>%n", x, y, w,
                        i < top.size() ? COLOURS[i] : COLOURS[COLOURS.length - 1], e.getKey(),
                        xml(name), t / 1e6));
                x += w;
            }
            double rest = Math.max(0, e.getValue() - inMpi) * scale;
            sb.append(String.format(Locale.ROOT, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"20\" "
                    + "fill=\"#dddddd\"><title>rank %d outside MPI</title></rect>%n", x, y, rest, e.getKey()));
            y += row;
        }
        List<String> legend = new ArrayList<>(top);
        legend.add("other MPI calls");
        legend.add("outside MPI");
        y += 10;
        for (int i = 0; i < legend.size(); i++) {
            int lx = left + (i % 3) * 220;
            int ly = y + (i / 3) * 24;
            String colour = i < top.size() ? COLOURS[i] : i == top.size() ? COLOURS[COLOURS.length - 1] : "#dddddd";
            sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" "
                    + "fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>%n", lx, ly, colour, lx + 20, ly + 12,
                    xml(legend.get(i))));
        }
        sb.append("</svg>\n");
        return sb.toString();
    }

    /** {@code s} as SVG text (a call name is a Java identifier, but the text must be well-formed whatever it holds). */
    private static String xml(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** The report from the ranks' files in {@code dir}. */
    static String summary(Path dir) throws IOException {
        Map<Integer, long[]> ranks = new TreeMap<>(); // rank -> {wall, mpi}
        Map<String, long[]> byCall = new LinkedHashMap<>(); // name -> {calls, total, max}
        for (List<String> lines : rankFiles(dir)) {
            String[] head = lines.get(0).split("\t");
            int rank = Integer.parseInt(head[1]);
            long wall = Long.parseLong(head[2]);
            long mpi = 0;
            for (String l : lines.subList(1, lines.size())) {
                String[] c = l.split("\t");
                long calls = Long.parseLong(c[1]);
                long total = Long.parseLong(c[2]);
                long max = Long.parseLong(c[3]);
                mpi += total;
                long[] a = byCall.computeIfAbsent(c[0], k -> new long[3]);
                a[0] += calls;
                a[1] += total;
                a[2] = Math.max(a[2], max);
            }
            ranks.put(rank, new long[] {wall, mpi});
        }
        StringBuilder sb = new StringBuilder();
        sb.append("jmpirun: summary: time in MPI per rank (from the start of MPI_Init to the end of MPI_Finalize)\n");
        sb.append(String.format(Locale.ROOT, "  %5s %12s %12s %7s%n", "rank", "wall s", "MPI s", "MPI %"));
        long allMpi = 0;
        for (Map.Entry<Integer, long[]> e : ranks.entrySet()) {
            long[] v = e.getValue();
            allMpi += v[1];
            sb.append(String.format(Locale.ROOT, "  %5d %12.6f %12.6f %7.2f%n", e.getKey(), v[0] / 1e9, v[1] / 1e9,
                    v[0] == 0 ? 0.0 : 100.0 * v[1] / v[0]));
        }
        sb.append("jmpirun: summary: MPI calls of all ranks, by total time\n");
        sb.append(String.format(Locale.ROOT, "  %-28s %10s %14s %12s %12s %7s%n", "call", "calls", "total ms",
                "mean us", "max us", "% MPI"));
        List<Map.Entry<String, long[]>> sorted = new ArrayList<>(byCall.entrySet());
        sorted.sort(Comparator.comparingLong((Map.Entry<String, long[]> e) -> e.getValue()[1]).reversed());
        for (Map.Entry<String, long[]> e : sorted) {
            long[] v = e.getValue();
            sb.append(String.format(Locale.ROOT, "  %-28s %10d %14.3f %12.3f %12.3f %7.2f%n", e.getKey(), v[0],
                    v[1] / 1e6, v[0] == 0 ? 0.0 : v[1] / 1e3 / v[0], v[2] / 1e3,
                    allMpi == 0 ? 0.0 : 100.0 * v[1] / allMpi));
        }
        return sb.toString();
    }
}
