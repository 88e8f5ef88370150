package org.jmpi.runtime;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The runtime's tuning parameters, read in this one place from system properties ({@code jmpi.*}) or, when a
 * property is absent, from the environment ({@code JMPI_*}, dots become underscores, upper case). Validated once;
 * passed down as values.
 *
 * @param eagerLimit messages up to this many bytes are sent eagerly (copied at the receiver if unexpected);
 *     larger ones use rendezvous
 * @param chunkBytes size of the data frames of a rendezvous transfer over a transport
 * @param spinIterations polling iterations before a waiting thread starts to yield (256, a few microseconds)
 * @param yieldIterations polls, each after a yield, before a waiting thread blocks (100,000: about a tenth of a second
 *     when nothing else runs; see {@link Progress})
 * @param flowWindow bytes of eager messages (plus a fixed overhead each) a sender may have outstanding at one
 *     receiver over a transport before it waits for the receiver to consume some (credit-based flow control)
 * @param unexpectedLimit in threads mode, bytes of unexpected eager messages a rank copies and keeps before it
 *     keeps further ones by reference, so that their senders wait until they are received
 */
public record Config(long eagerLimit, long chunkBytes, int spinIterations, int yieldIterations, long flowWindow,
        long unexpectedLimit) {
    public static Config fromEnvironment() {
        return new Config(
                longParam("jmpi.eager.limit", 64 * 1024, 0, 1L << 30),
                longParam("jmpi.chunk.bytes", 1 << 20, 4096, 1L << 30),
                (int) longParam("jmpi.spin.iterations", 256, 0, Integer.MAX_VALUE),
                (int) longParam("jmpi.yield.iterations", 100_000, 0, Integer.MAX_VALUE),
                longParam("jmpi.flow.window", 4L << 20, 256 * 1024, 1L << 40),
                longParam("jmpi.unexpected.limit", 64L << 20, 0, 1L << 40));
    }

    /** Defaults, for tests. */
    public static Config defaults() {
        return new Config(64 * 1024, 1 << 20, 256, 100_000, 4L << 20, 64L << 20);
    }

    /** Every parameter with its value, for {@code jmpirun --info}. */
    public Map<String, String> describe() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("jmpi.eager.limit", Long.toString(eagerLimit));
        m.put("jmpi.chunk.bytes", Long.toString(chunkBytes));
        m.put("jmpi.spin.iterations", Integer.toString(spinIterations));
        m.put("jmpi.yield.iterations", Integer.toString(yieldIterations));
        m.put("jmpi.flow.window", Long.toString(flowWindow));
        m.put("jmpi.unexpected.limit", Long.toString(unexpectedLimit));
        return m;
    }

    /** How parameter {@code property} is set: its system property, else its {@code JMPI_*} variable, else null. */
    public static String raw(String property) {
        String v = System.getProperty(property);
        if (v == null) {
            v = System.getenv(property.toUpperCase(java.util.Locale.ROOT).replace('.', '_'));
        }
        return v;
    }

    /** {@code jmpi.copy.native.min}: copies of at least this many bytes use memmove once it is linked; 0 never. */
    public static long copyNativeMin() {
        return longParam("jmpi.copy.native.min", org.jmpi.shared.FastCopy.DEFAULT_NATIVE_MIN, 0, 1L << 40);
    }

    /**
     * A size parameter ({@code jmpi.*} property, else its {@code JMPI_*} variable, else {@code dflt}), checked to lie in
     * {@code [min, max]}.
     *
     * @throws MpiError ERR_ARG naming the parameter when it is not a size or out of range
     */
    public static long longParam(String property, long dflt, long min, long max) {
        String v = raw(property);
        if (v == null || v.isBlank()) {
            return dflt;
        }
        long x;
        try {
            x = parseSize(v.trim());
        } catch (NumberFormatException e) {
            throw new MpiError(ErrorClass.ERR_ARG, "parameter " + property + "=" + v + " is not a number");
        }
        if (x < min || x > max) {
            throw new MpiError(ErrorClass.ERR_ARG,
                    "parameter " + property + "=" + v + " is out of range [" + min + ", " + max + "]");
        }
        return x;
    }

    /** Parses "65536", "64k", "1m", "2g" (binary units). */
    static long parseSize(String v) {
        String s = v.toLowerCase(java.util.Locale.ROOT);
        long mul = 1;
        char last = s.charAt(s.length() - 1);
        if (last == 'k' || last == 'm' || last == 'g') {
            mul = last == 'k' ? 1024 : last == 'm' ? 1024 * 1024 : 1024L * 1024 * 1024;
            s = s.substring(0, s.length() - 1);
        }
        return Math.multiplyExact(Long.parseLong(s), mul);
    }
}
