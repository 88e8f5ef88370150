package org.jmpi.ft;

import java.math.BigDecimal;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.function.UnaryOperator;
import mpi.MPI;
import mpi.MPIException;

/**
 * The settings of a {@link Checkpoint}. Immutable: every setter returns a changed copy.
 *
 * <pre>{@code
 * Checkpoint c = Checkpoint.open(MPI.COMM_WORLD, CheckpointOptions.of(Path.of("/shared/run1"))
 *         .interval(Duration.ofMinutes(10)).keep(3));
 * }</pre>
 *
 * <p>{@link Checkpoint#open(mpi.Comm)} takes them from {@link #fromEnvironment()}, which is where {@code jmpirun}'s
 * flags arrive. Every rank must open with the same settings (checked: {@code MPI.ERR_NOT_SAME} otherwise).
 */
public final class CheckpointOptions {
    /** Generations kept when nothing else is said. */
    public static final int DEFAULT_KEEP = 2;

    static final String PREFIX = "jmpi.ckpt.prefix";
    static final String INTERVAL = "jmpi.ckpt.interval";
    static final String NUM = "jmpi.ckpt.num";
    static final String KEEP = "jmpi.ckpt.keep";
    static final String WRITE_DELAY = "jmpi.ckpt.write.delay.millis";
    static final String AFTER = "jmpi.ckpt.after";

    private final Path prefix;
    private final Duration interval;
    private final long restartGeneration;
    private final int keep;
    private final boolean allowRankCountChange;
    private final long writeDelayMillis;
    private final long restoreAfter;

    private CheckpointOptions(Path prefix, Duration interval, long restartGeneration, int keep,
            boolean allowRankCountChange, long writeDelayMillis, long restoreAfter) {
        this.prefix = prefix;
        this.interval = interval;
        this.restartGeneration = restartGeneration;
        this.keep = keep;
        this.allowRankCountChange = allowRankCountChange;
        this.writeDelayMillis = writeDelayMillis;
        this.restoreAfter = restoreAfter;
    }

    /** Checkpointing off: {@code checkpoint()} writes nothing and {@code restore()} finds nothing. */
    public static CheckpointOptions disabled() {
        return new CheckpointOptions(null, Duration.ZERO, -1, DEFAULT_KEEP, false, 0, -1);
    }

    /** Checkpoints in directory {@code prefix} (which must exist), at every {@code checkpoint()} call, 2 kept. */
    public static CheckpointOptions of(Path prefix) {
        if (prefix == null) {
            throw new IllegalArgumentException("the checkpoint directory must not be null (use disabled())");
        }
        return disabled().prefix(prefix);
    }

    /**
     * The settings {@code jmpirun} passes to ranks, each from a system property or, when that is absent, from the
     * environment variable of the same name in upper case with underscores:
     *
     * <ul>
     *   <li>{@code jmpi.ckpt.prefix} ({@code JMPI_CKPT_PREFIX}): the checkpoint directory; absent or empty:
     *       checkpointing is off;
     *   <li>{@code jmpi.ckpt.interval} ({@code JMPI_CKPT_INTERVAL}): seconds (a decimal number) between checkpoints;
     *       0 or absent: every {@code checkpoint()} call writes one;
     *   <li>{@code jmpi.ckpt.num} ({@code JMPI_CKPT_NUM}): the generation {@code restore()} loads; absent: the newest
     *       complete one;
     *   <li>{@code jmpi.ckpt.keep} ({@code JMPI_CKPT_KEEP}): complete generations kept, default
     *       {@value #DEFAULT_KEEP};
     *   <li>{@code jmpi.ckpt.write.delay.millis} ({@code JMPI_CKPT_WRITE_DELAY_MILLIS}): for fault-injection tests
     *       only, a pause while each part and the manifest are being written (before their rename), default 0.
     * </ul>
     *
     * @throws MPIException {@code MPI.ERR_ARG} when a value is malformed
     */
    public static CheckpointOptions fromEnvironment() throws MPIException {
        return from(System::getProperty, System::getenv);
    }

    /** {@link #fromEnvironment()} over the given lookups (for tests). */
    static CheckpointOptions from(UnaryOperator<String> properties, UnaryOperator<String> environment)
            throws MPIException {
        CheckpointOptions o = disabled();
        String p = raw(PREFIX, properties, environment);
        if (p != null && !p.isBlank()) {
            try {
                o = o.prefix(Path.of(p.trim()));
            } catch (InvalidPathException e) {
                throw Errors.of(MPI.ERR_ARG, name(PREFIX, properties) + "=" + p + " is not a path");
            }
        }
        String i = raw(INTERVAL, properties, environment);
        if (i != null && !i.isBlank()) {
            try {
                BigDecimal seconds = new BigDecimal(i.trim());
                if (seconds.signum() < 0 || seconds.compareTo(BigDecimal.valueOf(1_000_000_000L)) > 0) {
                    throw new NumberFormatException();
                }
                o = o.interval(Duration.ofNanos(seconds.movePointRight(9).longValue()));
            } catch (NumberFormatException | ArithmeticException e) {
                throw Errors.of(MPI.ERR_ARG, name(INTERVAL, properties) + "=" + i
                        + " is not a number of seconds (0 or more)");
            }
        }
        long n = longValue(NUM, properties, environment, 0, Long.MAX_VALUE, -1);
        o = o.restartGeneration(n);
        o = o.keep((int) longValue(KEEP, properties, environment, 1, 1_000_000, DEFAULT_KEEP));
        long delay = longValue(WRITE_DELAY, properties, environment, 0, 600_000, 0);
        long after = longValue(AFTER, properties, environment, -1, Long.MAX_VALUE, -1);
        return new CheckpointOptions(o.prefix, o.interval, o.restartGeneration, o.keep, o.allowRankCountChange,
                delay, after);
    }

    private static String raw(String property, UnaryOperator<String> properties, UnaryOperator<String> environment) {
        String v = properties.apply(property);
        return v != null ? v : environment.apply(envName(property));
    }

    private static String envName(String property) {
        return property.toUpperCase(Locale.ROOT).replace('.', '_');
    }

    /** The name under which a value was found, for messages. */
    private static String name(String property, UnaryOperator<String> properties) {
        return properties.apply(property) != null ? property : envName(property);
    }

    private static long longValue(String property, UnaryOperator<String> properties,
            UnaryOperator<String> environment, long min, long max, long dflt) throws MPIException {
        String v = raw(property, properties, environment);
        if (v == null || v.isBlank()) {
            return dflt;
        }
        try {
            long x = Long.parseLong(v.trim());
            if (x < min || x > max) {
                throw new NumberFormatException();
            }
            return x;
        } catch (NumberFormatException e) {
            throw Errors.of(MPI.ERR_ARG, name(property, properties) + "=" + v + " is not a whole number in ["
                    + min + ", " + max + "]");
        }
    }

    /** The checkpoint directory (made absolute); null when checkpointing is off. */
    public Path prefix() {
        return prefix;
    }

    /** A copy with checkpoints in {@code dir}, which must exist when the checkpoint is opened; null turns them off. */
    public CheckpointOptions prefix(Path dir) {
        return new CheckpointOptions(dir == null ? null : dir.toAbsolutePath().normalize(), interval,
                restartGeneration, keep, allowRankCountChange, writeDelayMillis, restoreAfter);
    }

    /** Whether checkpointing is on (a directory is set). */
    public boolean enabled() {
        return prefix != null;
    }

    /** The least time between two checkpoints written by {@link Checkpoint#checkpoint()}; zero: every call. */
    public Duration interval() {
        return interval;
    }

    /** A copy with that interval (zero or more). */
    public CheckpointOptions interval(Duration every) {
        if (every == null || every.isNegative()) {
            throw new IllegalArgumentException("the checkpoint interval must be zero or more, not " + every);
        }
        return new CheckpointOptions(prefix, every, restartGeneration, keep, allowRankCountChange, writeDelayMillis,
                restoreAfter);
    }

    /** The generation {@link Checkpoint#restore()} loads, or -1 for the newest complete one. */
    public long restartGeneration() {
        return restartGeneration;
    }

    /** A copy that restores generation {@code n} (0 or more), or the newest complete one for -1. */
    public CheckpointOptions restartGeneration(long n) {
        if (n < -1) {
            throw new IllegalArgumentException("a generation is 0 or more (or -1 for the newest), not " + n);
        }
        return new CheckpointOptions(prefix, interval, n, keep, allowRankCountChange, writeDelayMillis, restoreAfter);
    }

    /** How many complete generations are kept; older ones are removed once a newer one is complete. */
    public int keep() {
        return keep;
    }

    /** A copy that keeps {@code k} (at least 1) complete generations. */
    public CheckpointOptions keep(int k) {
        if (k < 1) {
            throw new IllegalArgumentException("at least one generation must be kept, not " + k);
        }
        return new CheckpointOptions(prefix, interval, restartGeneration, k, allowRankCountChange, writeDelayMillis,
                restoreAfter);
    }

    /**
     * Whether {@link Checkpoint#restore()} accepts a checkpoint written by another number of ranks: it then loads
     * nothing into the registered items, returns false, and {@link Checkpoint#stored()} gives the checkpoint, from
     * which the program reads what its new partition needs. Default false: such a restore is an error.
     */
    public boolean allowRankCountChange() {
        return allowRankCountChange;
    }

    /** A copy with that choice. */
    public CheckpointOptions allowRankCountChange(boolean allow) {
        return new CheckpointOptions(prefix, interval, restartGeneration, keep, allow, writeDelayMillis,
                restoreAfter);
    }

    /**
     * The newest generation of a job that finished ({@code jmpi.ckpt.after}, {@code JMPI_CKPT_AFTER}, set by jmpirun
     * when it starts a job afresh in a directory whose checkpoints are those of a finished job): {@code restore()}
     * loads only newer ones. -1: any.
     */
    long restoreAfter() {
        return restoreAfter;
    }

    /** The fault-injection pause while parts and manifests are written (milliseconds). */
    long writeDelayMillis() {
        return writeDelayMillis;
    }

    /** The settings every rank must share, as one line (compared across ranks at open). */
    String canonical() {
        return (prefix == null ? "off" : prefix.toString()) + "|" + interval.toNanos() + "|" + restartGeneration + "|"
                + keep + "|" + allowRankCountChange + "|" + restoreAfter;
    }

    @Override
    public String toString() {
        return prefix == null ? "checkpointing off"
                : "checkpoints in " + prefix + ", interval " + interval.toMillis() / 1000.0 + " s, keep " + keep
                        + (restartGeneration >= 0 ? ", restore generation " + restartGeneration : "")
                        + (allowRankCountChange ? ", rank count may change" : "");
    }
}
