package org.jmpi.runtime;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Whether the JVM's JIT compiler threads are at work, so that a thread waiting for a message can leave its core to
 * them ({@link Progress}: it yields instead of spinning while they are).
 *
 * <p>Why: in a program's first second the JIT compiles jmpi's message path, and on a host with as many cores as
 * ranks the compiler threads then compete with ranks that spin for each other's messages. A spinning rank keeps its
 * core until the scheduler takes it away, so the compilations take longer, and a rank whose partner was taken off its
 * core spins for the rest of that scheduler slice (milliseconds, where a message takes a microsecond). A rank that
 * yields while a compiler thread has work lets it run, and gets the core back when that thread waits for more work or
 * its slice ends. Once the compiler threads have been idle for {@link #QUIET_NANOS}, watching ends for good and
 * waiting threads spin as before (later compilations, of a program's next phase, run in the background as they always
 * did).
 *
 * <p>How: on Linux, each thread's {@code /proc/self/task/TID/schedstat} has the time it has run and the time it has
 * waited for a core. The compiler threads are those named {@code C1 CompilerThre...} and {@code C2 CompilerThre...}
 * when the watch starts (threads the JVM adds later, on hosts with more cores, are not watched). One thread at a time
 * reads them, at most every {@link #CHECK_NANOS}, into a buffer allocated once; busy means that either counter of
 * any of them grew since the last read. Where there is no such file, nothing is watched and {@link #busy} is false.
 *
 * <p>Threading: {@link #busy} is called by any waiting thread; the reads are serialized by a try-lock (a thread that
 * does not get it uses the last answer). {@code jmpi.jit.yield=0} turns the watch off.
 */
final class JitWatch {
    /** How often the counters are read while threads wait. */
    static final long CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** How long the compiler threads must be idle, in the reads of waiting threads, before the watch ends. */
    static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private static final Object LOCK = new Object();
    private static JitWatch instance;
    private static boolean opened;

    private final FileChannel[] counters;
    private final long[] last;
    private final long checkNanos;
    private final long quietNanos;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(128);
    private final ReentrantLock reading = new ReentrantLock();
    private volatile boolean ended;
    private volatile boolean busy;
    private volatile long nextCheck;
    /** Whether the last read found the compiler threads idle, and since when (the read that first found them so). */
    private boolean quiet;
    private long quietSince;

    private JitWatch(FileChannel[] counters, long checkNanos, long quietNanos) {
        this.counters = counters;
        this.checkNanos = checkNanos;
        this.quietNanos = quietNanos;
        this.last = new long[counters.length];
        for (int i = 0; i < counters.length; i++) {
            last[i] = read(i);
        }
        this.nextCheck = System.nanoTime() + checkNanos;
        this.busy = true; // the JIT is at work when a program starts
    }

    /** The JVM's watch (made on first use), or null: turned off, not Linux, or no compiler thread found. */
    static JitWatch instance() {
        synchronized (LOCK) {
            if (!opened && !"0".equals(Config.raw("jmpi.jit.yield"))) {
                opened = true; // once per JVM: the ranks of threads mode share it
                instance = open(Path.of("/proc/self/task"), CHECK_NANOS, QUIET_NANOS);
            }
            return instance;
        }
    }

    /**
     * A watch on the compiler threads listed under {@code tasks} (a {@code /proc/PID/task}) that reads their counters
     * at most every {@code checkNanos} and ends once they were idle for {@code quietNanos}; or null.
     */
    static JitWatch open(Path tasks, long checkNanos, long quietNanos) {
        List<FileChannel> found = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(tasks)) {
            for (Path task : dir) {
                String name;
                try {
                    name = Files.readString(task.resolve("comm")).trim();
                } catch (IOException e) {
                    continue; // the thread ended meanwhile
                }
                if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
                    try {
                        found.add(FileChannel.open(task.resolve("schedstat"), StandardOpenOption.READ));
                    } catch (IOException e) {
                        // no schedstat (a kernel without scheduler statistics): not watched
                    }
                }
            }
        } catch (IOException | UnsupportedOperationException | java.nio.file.DirectoryIteratorException e) {
            // not Linux, or the listing failed: watch nothing
            for (FileChannel c : found) {
                try {
                    c.close();
                } catch (IOException ignored) {
                    // nothing to do
                }
            }
            return null;
        }
        if (found.isEmpty()) {
            return null;
        }
        JitWatch w = new JitWatch(found.toArray(FileChannel[]::new), checkNanos, quietNanos);
        for (long v : w.last) {
            if (v < 0) {
                w.end();
                return null;
            }
        }
        return w;
    }

    /** Whether a compiler thread ran or waited for a core since the previous read (reads at most every 1 ms). */
    boolean busy() {
        if (ended) {
            return false;
        }
        long now = System.nanoTime();
        if (now - nextCheck < 0 || !reading.tryLock()) {
            return busy;
        }
        try {
            if (ended) {
                return false;
            }
            boolean grew = false;
            for (int i = 0; i < counters.length; i++) {
                long v = read(i);
                if (v < 0) {
                    end();
                    return false;
                }
                if (v != last[i]) {
                    grew = true;
                    last[i] = v;
                }
            }
            if (grew) {
                quiet = false;
            } else if (!quiet) {
                quiet = true;
                quietSince = now;
            } else if (now - quietSince >= quietNanos) {
                end();
                return false;
            }
            busy = grew;
            nextCheck = now + checkNanos;
            return grew;
        } finally {
            reading.unlock();
        }
    }

    /** Whether watching has ended (the compiler threads were quiet, or their counters could not be read). */
    boolean ended() {
        return ended;
    }

    private void end() {
        ended = true;
        busy = false;
        for (FileChannel c : counters) {
            try {
                c.close();
            } catch (IOException e) {
                // nothing to do
            }
        }
    }

    /** Run time plus wait time of compiler thread {@code i}, in nanoseconds, or -1 if it cannot be read. */
    private long read(int i) {
        buffer.clear();
        try {
            int n = counters[i].read(buffer, 0);
            if (n <= 0) {
                return -1;
            }
        } catch (IOException e) {
            return -1;
        }
        long sum = 0;
        long field = 0;
        int fields = 0;
        boolean inNumber = false;
        for (int p = 0; p < buffer.position() && fields < 2; p++) {
            byte b = buffer.get(p);
            if (b >= '0' && b <= '9') {
                field = field * 10 + (b - '0');
                inNumber = true;
            } else if (inNumber) {
                sum += field;
                field = 0;
                inNumber = false;
                fields++;
            }
        }
        return fields == 2 ? sum : -1;
    }
}
