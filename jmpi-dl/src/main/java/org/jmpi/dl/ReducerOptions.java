package org.jmpi.dl;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Settings of a {@link GradientReducer}. {@link #defaults()} are the values below; {@link #fromEnvironment()} reads
 * the {@code JMPI_DL_*} variables over them (the way a launcher passes settings to every rank).
 *
 * <table>
 *   <caption>Options, environment variables and defaults</caption>
 *   <tr><th>option</th><th>variable</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>fusionBytes</td><td>JMPI_DL_FUSION_THRESHOLD</td><td>64m</td><td>largest fused buffer (bytes; k, m, g
 *       suffixes); 0 turns fusion off (one all-reduce per tensor)</td></tr>
 *   <tr><td>cycleTime</td><td>JMPI_DL_CYCLE_TIME</td><td>0.025 (ms)</td><td>the batching window: a
 *       submission starts a negotiation cycle this long after it was made, so that tensors submitted in quick
 *       succession share the cycle and the fused buffer (longer: more fusion, more latency; Horovod's cycle time);
 *       a decimal number of milliseconds</td></tr>
 *   <tr><td>compression</td><td>JMPI_DL_COMPRESSION</td><td>none</td><td>none, fp16, bf16 (the default for tensors
 *       submitted without one)</td></tr>
 *   <tr><td>errorFeedback</td><td>JMPI_DL_ERROR_FEEDBACK</td><td>true</td><td>carry 16-bit rounding errors into the
 *       next step (compressed tensors only)</td></tr>
 *   <tr><td>algorithm</td><td>JMPI_DL_ALGORITHM</td><td>auto</td><td>auto, mpi, ordered, hierarchical
 *       ({@link Algorithm})</td></tr>
 *   <tr><td>ranksPerHost</td><td>JMPI_DL_RANKS_PER_HOST</td><td>0</td><td>0: hosts as MPI sees them; k: treat each
 *       k consecutive ranks as one host (hierarchical all-reduce)</td></tr>
 *   <tr><td>stallWarning</td><td>JMPI_DL_STALL_WARNING</td><td>60 (s)</td><td>warn about a tensor submitted by some
 *       ranks but not all for this long, naming the missing ranks; 0 turns it off</td></tr>
 *   <tr><td>stallShutdown</td><td>JMPI_DL_STALL_SHUTDOWN</td><td>0 (s)</td><td>fail such a tensor's futures after
 *       this long; 0: wait for ever (with warnings)</td></tr>
 *   <tr><td>timeline</td><td>JMPI_DL_TIMELINE</td><td>none</td><td>write a Chrome/Perfetto trace of every tensor's
 *       phases to this file (rank 0; a {@code {rank}} in the name makes every rank write its own)</td></tr>
 * </table>
 */
public final class ReducerOptions {
    private final long fusionBytes;
    private final Duration cycleTime;
    private final Compression compression;
    private final boolean errorFeedback;
    private final Algorithm algorithm;
    private final int ranksPerHost;
    private final Duration stallWarning;
    private final Duration stallShutdown;
    private final Path timeline;
    private final Consumer<String> warnings;

    private ReducerOptions(Builder b) {
        fusionBytes = b.fusionBytes;
        cycleTime = b.cycleTime;
        compression = b.compression;
        errorFeedback = b.errorFeedback;
        algorithm = b.algorithm;
        ranksPerHost = b.ranksPerHost;
        stallWarning = b.stallWarning;
        stallShutdown = b.stallShutdown;
        timeline = b.timeline;
        warnings = b.warnings;
    }

    /** The defaults of the table above. */
    public static ReducerOptions defaults() {
        return new Builder().build();
    }

    /** The defaults, overridden by the {@code JMPI_DL_*} environment variables. */
    public static ReducerOptions fromEnvironment() {
        return builder().environment(System.getenv()).build();
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.fusionBytes = fusionBytes;
        b.cycleTime = cycleTime;
        b.compression = compression;
        b.errorFeedback = errorFeedback;
        b.algorithm = algorithm;
        b.ranksPerHost = ranksPerHost;
        b.stallWarning = stallWarning;
        b.stallShutdown = stallShutdown;
        b.timeline = timeline;
        b.warnings = warnings;
        return b;
    }

    public long fusionBytes() {
        return fusionBytes;
    }

    public Duration cycleTime() {
        return cycleTime;
    }

    public Compression compression() {
        return compression;
    }

    public boolean errorFeedback() {
        return errorFeedback;
    }

    public Algorithm algorithm() {
        return algorithm;
    }

    public int ranksPerHost() {
        return ranksPerHost;
    }

    public Duration stallWarning() {
        return stallWarning;
    }

    public Duration stallShutdown() {
        return stallShutdown;
    }

    /** The timeline file, or null. */
    public Path timeline() {
        return timeline;
    }

    /** Where stall warnings go (default: standard error, one line each). */
    public Consumer<String> warnings() {
        return warnings;
    }

    @Override
    public String toString() {
        return "fusionBytes=" + fusionBytes + " cycleTime=" + cycleTime.toNanos() / 1e6 + "ms compression="
                + compression + " errorFeedback=" + errorFeedback + " algorithm=" + algorithm + " ranksPerHost="
                + ranksPerHost + " stallWarning=" + stallWarning.toSeconds() + "s stallShutdown="
                + stallShutdown.toSeconds() + "s timeline=" + timeline;
    }

    /** Builds {@link ReducerOptions}; every setter checks its argument. */
    public static final class Builder {
        private long fusionBytes = 64L << 20;
        private Duration cycleTime = Duration.ofNanos(25_000);
        private Compression compression = Compression.NONE;
        private boolean errorFeedback = true;
        private Algorithm algorithm = Algorithm.AUTO;
        private int ranksPerHost;
        private Duration stallWarning = Duration.ofSeconds(60);
        private Duration stallShutdown = Duration.ZERO;
        private Path timeline;
        private Consumer<String> warnings = System.err::println;

        private Builder() {}

        /** Largest fused buffer in bytes (at most 1 GiB); 0: no fusion. */
        public Builder fusionBytes(long bytes) {
            if (bytes < 0 || bytes > (1L << 30)) {
                throw new IllegalArgumentException("fusionBytes must be in [0, 1 GiB], got " + bytes);
            }
            fusionBytes = bytes;
            return this;
        }

        /** The batching window after a submission, at least 1 microsecond and at most 10 seconds. */
        public Builder cycleTime(Duration d) {
            Objects.requireNonNull(d, "cycleTime");
            if (d.toNanos() < 1_000 || d.compareTo(Duration.ofSeconds(10)) > 0) {
                throw new IllegalArgumentException("cycleTime must be in [1 us, 10 s], got " + d);
            }
            cycleTime = d;
            return this;
        }

        public Builder compression(Compression c) {
            compression = Objects.requireNonNull(c, "compression");
            return this;
        }

        public Builder errorFeedback(boolean on) {
            errorFeedback = on;
            return this;
        }

        public Builder algorithm(Algorithm a) {
            algorithm = Objects.requireNonNull(a, "algorithm");
            return this;
        }

        /** 0: hosts as MPI sees them; k &gt; 0: each k consecutive ranks form one host. */
        public Builder ranksPerHost(int k) {
            if (k < 0) {
                throw new IllegalArgumentException("ranksPerHost must be >= 0, got " + k);
            }
            ranksPerHost = k;
            return this;
        }

        /** Stall warning period; zero turns warnings off. */
        public Builder stallWarning(Duration d) {
            stallWarning = nonNegative(d, "stallWarning");
            return this;
        }

        /** Stall time after which a tensor's futures fail; zero: never. */
        public Builder stallShutdown(Duration d) {
            stallShutdown = nonNegative(d, "stallShutdown");
            return this;
        }

        /** Timeline file, or null for none. */
        public Builder timeline(Path file) {
            timeline = file;
            return this;
        }

        /** Sink for stall warnings. */
        public Builder warnings(Consumer<String> sink) {
            warnings = Objects.requireNonNull(sink, "warnings");
            return this;
        }

        /** Applies the {@code JMPI_DL_*} entries of {@code env}; a bad value names its variable. */
        public Builder environment(Map<String, String> env) {
            String v;
            if ((v = env.get("JMPI_DL_FUSION_THRESHOLD")) != null) {
                long b = parse("JMPI_DL_FUSION_THRESHOLD", v, Builder::parseBytes);
                check("JMPI_DL_FUSION_THRESHOLD", v, () -> fusionBytes(b));
            }
            if ((v = env.get("JMPI_DL_CYCLE_TIME")) != null) {
                double ms = parse("JMPI_DL_CYCLE_TIME", v, Double::parseDouble);
                check("JMPI_DL_CYCLE_TIME", v, () -> cycleTime(Duration.ofNanos(Math.round(ms * 1e6))));
            }
            if ((v = env.get("JMPI_DL_COMPRESSION")) != null) {
                compression(parse("JMPI_DL_COMPRESSION", v,
                        s -> Compression.valueOf(s.trim().toUpperCase(Locale.ROOT))));
            }
            if ((v = env.get("JMPI_DL_ERROR_FEEDBACK")) != null) {
                errorFeedback(parse("JMPI_DL_ERROR_FEEDBACK", v, Builder::parseBoolean));
            }
            if ((v = env.get("JMPI_DL_ALGORITHM")) != null) {
                algorithm(parse("JMPI_DL_ALGORITHM", v, s -> Algorithm.valueOf(s.trim().toUpperCase(Locale.ROOT))));
            }
            if ((v = env.get("JMPI_DL_RANKS_PER_HOST")) != null) {
                int k = parse("JMPI_DL_RANKS_PER_HOST", v, s -> Integer.parseInt(s.trim()));
                check("JMPI_DL_RANKS_PER_HOST", v, () -> ranksPerHost(k));
            }
            if ((v = env.get("JMPI_DL_STALL_WARNING")) != null) {
                double s = parse("JMPI_DL_STALL_WARNING", v, Double::parseDouble);
                check("JMPI_DL_STALL_WARNING", v, () -> stallWarning(Duration.ofMillis(Math.round(s * 1000))));
            }
            if ((v = env.get("JMPI_DL_STALL_SHUTDOWN")) != null) {
                double s = parse("JMPI_DL_STALL_SHUTDOWN", v, Double::parseDouble);
                check("JMPI_DL_STALL_SHUTDOWN", v, () -> stallShutdown(Duration.ofMillis(Math.round(s * 1000))));
            }
            if ((v = env.get("JMPI_DL_TIMELINE")) != null && !v.isBlank()) {
                timeline(Path.of(v));
            }
            return this;
        }

        public ReducerOptions build() {
            return new ReducerOptions(this);
        }

        private static Duration nonNegative(Duration d, String what) {
            Objects.requireNonNull(d, what);
            if (d.isNegative()) {
                throw new IllegalArgumentException(what + " must not be negative, got " + d);
            }
            return d;
        }

        static long parseBytes(String s) {
            String t = s.trim().toLowerCase(Locale.ROOT);
            long unit = 1;
            if (t.endsWith("k")) {
                unit = 1L << 10;
            } else if (t.endsWith("m")) {
                unit = 1L << 20;
            } else if (t.endsWith("g")) {
                unit = 1L << 30;
            }
            if (unit != 1) {
                t = t.substring(0, t.length() - 1);
            }
            return Math.multiplyExact(Long.parseLong(t.trim()), unit);
        }

        static boolean parseBoolean(String s) {
            return switch (s.trim().toLowerCase(Locale.ROOT)) {
                case "1", "true", "yes", "on" -> true;
                case "0", "false", "no", "off" -> false;
                default -> throw new IllegalArgumentException("not a boolean");
            };
        }

        private interface Parser<T> {
            T parse(String s);
        }

        private static <T> T parse(String var, String value, Parser<T> p) {
            try {
                T t = p.parse(value);
                if (t instanceof Double d && (d.isNaN() || d.isInfinite())) {
                    throw new IllegalArgumentException("not finite");
                }
                return t;
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(var + "=" + value + ": " + describe(e), e);
            }
        }

        private static <T> T check(String var, String value, java.util.function.Supplier<T> apply) {
            try {
                return apply.get();
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(var + "=" + value + ": " + describe(e), e);
            }
        }

        private static void check(String var, String value, Runnable apply) {
            check(var, value, () -> {
                apply.run();
                return null;
            });
        }

        private static String describe(RuntimeException e) {
            return e instanceof NumberFormatException ? "not a number" : e.getMessage();
        }
    }
}
