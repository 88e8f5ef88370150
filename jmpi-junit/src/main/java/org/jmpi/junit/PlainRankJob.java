package org.jmpi.junit;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Rank JVMs started directly with {@link ProcessBuilder}, without a PMI server: each gets {@code JMPI_RANK} and
 * {@code JMPI_SIZE} in its environment. Enough for bodies that do not initialise MPI.
 *
 * <p>Threading: two daemon pump threads per rank feed {@link RankOutput}; the rest is used by the JUnit thread.
 */
final class PlainRankJob implements RankJob {
    private final List<Process> processes = new ArrayList<>();
    private final List<Thread> pumps = new ArrayList<>();

    PlainRankJob(int size, List<String> classPath, List<String> jvmArgs, String mainClass, List<String> args,
            RankOutput output) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        try {
            for (int r = 0; r < size; r++) {
                List<String> cmd = new ArrayList<>();
                cmd.add(java);
                cmd.addAll(jvmArgs);
                cmd.add("-cp");
                cmd.add(String.join(File.pathSeparator, classPath));
                cmd.add(mainClass);
                cmd.addAll(args);
                ProcessBuilder pb = new ProcessBuilder(cmd);
                pb.environment().put("JMPI_RANK", Integer.toString(r));
                pb.environment().put("JMPI_SIZE", Integer.toString(size));
                Process p = pb.start();
                p.getOutputStream().close();
                processes.add(p);
                pumps.add(pump(p.getInputStream(), r, false, output));
                pumps.add(pump(p.getErrorStream(), r, true, output));
            }
        } catch (IOException | RuntimeException e) {
            kill();
            throw e;
        }
    }

    private static Thread pump(InputStream in, int rank, boolean stderr, RankOutput output) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null;) {
                    output.line(rank, stderr, line);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, "jmpi-junit-rank-" + rank + (stderr ? "-err" : "-out"));
        t.setDaemon(true);
        t.start();
        return t;
    }

    @Override
    public List<Long> pids() {
        return processes.stream().map(Process::pid).toList();
    }

    @Override
    public boolean awaitExit(long time, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(time);
        for (Process p : processes) {
            long left = deadline - System.nanoTime();
            if (!p.waitFor(Math.max(left, 0), TimeUnit.NANOSECONDS)) {
                return false;
            }
        }
        // Exited: let the pumps read what is left in the pipes.
        for (Thread t : pumps) {
            t.join(Math.max(TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()), 1000));
        }
        return true;
    }

    @Override
    public Integer[] exitCodes() {
        Integer[] out = new Integer[processes.size()];
        for (int r = 0; r < out.length; r++) {
            Process p = processes.get(r);
            out[r] = p.isAlive() ? null : p.exitValue();
        }
        return out;
    }

    @Override
    public void kill() {
        for (Process p : processes) {
            p.destroyForcibly();
        }
        for (Process p : processes) {
            try {
                p.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        for (Thread t : pumps) {
            try {
                t.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
