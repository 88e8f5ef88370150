package org.jmpi.coll;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;

/**
 * The tuning parameters of the collectives, read in this one place from system properties ({@code jmpi.coll.*}) or,
 * when a property is absent, from the environment ({@code JMPI_COLL_*}: dots become underscores, upper case).
 * Sizes accept the suffixes {@code k}, {@code m}, {@code g} (binary units). docs/tuning.md describes each one and how
 * the defaults were measured.
 *
 * @param forced algorithms forced by {@code jmpi.coll.<collective>.algorithm}; absent means automatic selection
 * @param bcastLong messages of at least this many bytes are broadcast by scatter + allgather (8 ranks or more)
 * @param bcastPipeline messages of at least this many bytes are broadcast by the segmented pipeline (takes
 *     precedence over {@code bcastLong})
 * @param bcastSegment segment size of the pipelined broadcast, in bytes
 * @param gatherShort gathers and scatters of fewer total bytes use the binomial tree, larger ones the linear algorithm
 * @param allgatherShort allgathers of fewer total bytes use Bruck's algorithm (recursive doubling for a power of two
 *     ranks); larger ones the ring
 * @param alltoallShort all-to-alls with smaller blocks (bytes per rank pair) use Bruck's algorithm
 * @param alltoallMedium all-to-alls with smaller blocks (and at least {@code alltoallShort}) post every message at
 *     once; larger ones go pairwise
 * @param allreduceShort allreduces of fewer bytes use recursive doubling (2 ranks of one host: up to
 *     {@link Collective#TWO_RANKS_SHORT} whatever this)
 * @param allreduceLong allreduces of at least this many bytes on more than 2 ranks use the ring; in between (and on
 *     2 ranks), Rabenseifner's algorithm
 * @param allreduceSegment segment size of the ring allreduce's reduce-scatter steps, in bytes
 * @param reduceLong reductions of at least this many bytes use Rabenseifner's algorithm (commutative operations)
 * @param reduceScatterLong reduce-scatters of at least this many (total) bytes use the ring, smaller ones recursive
 *     halving (commutative operations)
 * @param hierarchical on a communicator whose ranks are on more than one host, with more than one on some host,
 *     bcasts, reduces, allreduces and allgathers of at least this many bytes (the size the collective's own
 *     thresholds compare with), and barriers, use the hierarchical algorithms ({@link Hierarchical}); {@code off}
 *     (or {@link Long#MAX_VALUE}) never
 * @param pace every this many collective calls on a communicator, the small messages of a rooted collective (bcast,
 *     reduce, gather, scatter without a schedule) are sent paced, so that a sender stays at most two such paces ahead
 *     of each rank it sends to (see {@link Immediate}); 0 never; {@link #AUTO_PACE} (the default): {@link #autoPace}
 *     of the communicator's size
 */
public record CollConfig(
        Map<Collective, Algorithm> forced,
        long bcastLong,
        long bcastPipeline,
        long bcastSegment,
        long gatherShort,
        long allgatherShort,
        long alltoallShort,
        long alltoallMedium,
        long allreduceShort,
        long allreduceLong,
        long allreduceSegment,
        long reduceLong,
        long reduceScatterLong,
        long pace,
        long hierarchical) {

    /**
     * The smallest pace {@link #autoPace} gives: 128 calls. A rank then holds at most about 256 unexpected messages per
     * rank sending to it in a loop of rooted collectives, which for the 8 children of a 256-rank binomial root stays
     * inside the engine's pool of 2,048 unexpected entries; the paced message costs its receiver one small answer.
     */
    public static final long MIN_AUTO_PACE = 128;

    /** {@code jmpi.coll.pace=auto}, the default: the pace is {@link #autoPace} of the communicator's size. */
    public static final long AUTO_PACE = -1;

    /**
     * The pace on a communicator of {@code size} ranks when {@code jmpi.coll.pace} is {@code auto}: as long as two
     * paces of every other rank take at most three quarters of the engine's pool of 2,048 unexpected entries (768
     * calls at 2 ranks, 384 at 3; with 512 at 3 ranks the root of a loop of 4-byte reduces overflowed the pool and
     * allocated 21 bytes per call), at least {@link #MIN_AUTO_PACE}. The further a sender may run ahead, the less a
     * root that receives more slowly than its children send (a program's first calls, compiled late) holds them back:
     * a cold OMB-J bcast at 2 ranks took 1.57 times Open MPI Java's time with this pace against 1.92 with 128
     * (direct buffers, geometric mean of 21 sizes, 4 gated rounds, 2026-11-27; 1.30 without pacing, which bounds
     * nothing but the flow window). On Java arrays it was no faster (1.33 against 1.29, 6 rounds: 1-16 B and 8-32 KiB
     * faster, 128 B-1 KiB slower), and on both the first size above the eager limit, 128 KiB, was slower the further
     * the root had run ahead (the cause is not known). Measured and not taken (2026-12-04, 6 gated rounds against this
     * pace): a pace by message size, 3,072 calls for 1-64 bytes at 2 ranks down to 768 from 512 bytes (two paces'
     * ring records within 768 KiB), with a pool of 8,192 entries: 1-64 B took 0.56-0.87 of the time, but 512 B 1.64,
     * 8-32 KiB 1.28-1.51, and ungated runs of 4 B sometimes 0.85 us against 0.2-0.3. As without pacing, the waits
     * for a receiver's first compilations moved to other sizes (bcast geometric mean 0.95).
     */
    public static long autoPace(int size) {
        return Math.max(MIN_AUTO_PACE, 768 / Math.max(1, size - 1));
    }

    /**
     * The default of {@code hierarchical}: 64 KiB. 2 hosts x 2 ranks (network namespaces on the 2-core machine, Java
     * arrays, 3 passes of 100-1,000 calls after a barrier, the last pass; ungated, 2026-11-30), hierarchical against
     * flat: allreduce 8 B 84 against 62 us, 8 KiB 106 against 86, 64 KiB 237 against 233, 1 MiB 1,405 against 2,712;
     * allgather 8 KiB 132 against 95, 64 KiB 174 against 212, 1 MiB 3,016 against 3,134; bcast from rank 0 the same
     * messages either way (the binomial tree already sends once between the hosts). Below it the flat algorithms keep
     * their allocation-free path ({@link Immediate}); the extra step on each host costs more than the network
     * messages it saves.
     */
    public static final long HIERARCHICAL_MIN = 64 * 1024;

    /** The defaults, measured on the project's 2-core development machine (docs/tuning.md). */
    public static CollConfig defaults() {
        // allreduce.short 32 KiB (16 KiB until 2026-11-24): a 2-rank allreduce of 16 KiB took 6.6-8.3 us with
        // Rabenseifner's two rounds of 8 KiB halves and 3.5-3.7 us with one exchange (docs/tuning.md)
        return new CollConfig(Map.of(), 256 * 1024, 1L << 62, 128 * 1024, 16 * 1024, 64 * 1024, 256, 32 * 1024,
                32 * 1024, 1 << 20, 256 * 1024, 512 * 1024, 512 * 1024, AUTO_PACE,
                HIERARCHICAL_MIN);
    }

    /** Reads every parameter; unset ones keep their defaults. */
    public static CollConfig fromEnvironment() {
        return from(org.jmpi.runtime.Config::raw);
    }

    /**
     * Every parameter from {@code values} (a parameter's name to its text, null when it is not set: then the
     * default), checked as {@link #fromEnvironment} checks them.
     *
     * @throws MpiError ERR_ARG naming the parameter whose value is not valid
     */
    public static CollConfig from(Function<String, String> values) {
        CollConfig d = defaults();
        Map<Collective, Algorithm> forced = new EnumMap<>(Collective.class);
        for (Collective c : Collective.values()) {
            String property = "jmpi.coll." + c.key() + ".algorithm";
            String v = values.apply(property);
            if (v == null || v.isBlank() || v.trim().equalsIgnoreCase("auto")) {
                continue;
            }
            Algorithm a = Algorithm.find(c, v);
            if (a == null) {
                StringBuilder known = new StringBuilder("auto");
                for (Algorithm x : Algorithm.of(c)) {
                    known.append(", ").append(x.key());
                }
                throw new MpiError(ErrorClass.ERR_ARG, "parameter " + property + "=" + v + " names no algorithm of "
                        + c.key() + " (known: " + known + ")");
            }
            forced.put(c, a);
        }
        return new CollConfig(Map.copyOf(forced),
                size(values, "jmpi.coll.bcast.long", d.bcastLong),
                size(values, "jmpi.coll.bcast.pipeline", d.bcastPipeline),
                Math.max(1, size(values, "jmpi.coll.bcast.segment", d.bcastSegment)),
                size(values, "jmpi.coll.gather.short", d.gatherShort),
                size(values, "jmpi.coll.allgather.short", d.allgatherShort),
                size(values, "jmpi.coll.alltoall.short", d.alltoallShort),
                size(values, "jmpi.coll.alltoall.medium", d.alltoallMedium),
                size(values, "jmpi.coll.allreduce.short", d.allreduceShort),
                size(values, "jmpi.coll.allreduce.long", d.allreduceLong),
                Math.max(1, size(values, "jmpi.coll.allreduce.segment", d.allreduceSegment)),
                size(values, "jmpi.coll.reduce.long", d.reduceLong),
                size(values, "jmpi.coll.reduce_scatter.long", d.reduceScatterLong),
                pace(values),
                hierarchical(values, d.hierarchical));
    }

    /** Every parameter with its value, for {@code jmpirun --info}. */
    public Map<String, String> describe() {
        Map<String, String> m = new LinkedHashMap<>();
        for (Collective c : Collective.values()) {
            Algorithm a = forced.get(c);
            m.put("jmpi.coll." + c.key() + ".algorithm", a == null ? "auto" : a.key());
        }
        m.put("jmpi.coll.bcast.long", Long.toString(bcastLong));
        m.put("jmpi.coll.bcast.pipeline", Long.toString(bcastPipeline));
        m.put("jmpi.coll.bcast.segment", Long.toString(bcastSegment));
        m.put("jmpi.coll.gather.short", Long.toString(gatherShort));
        m.put("jmpi.coll.allgather.short", Long.toString(allgatherShort));
        m.put("jmpi.coll.alltoall.short", Long.toString(alltoallShort));
        m.put("jmpi.coll.alltoall.medium", Long.toString(alltoallMedium));
        m.put("jmpi.coll.allreduce.short", Long.toString(allreduceShort));
        m.put("jmpi.coll.allreduce.long", Long.toString(allreduceLong));
        m.put("jmpi.coll.allreduce.segment", Long.toString(allreduceSegment));
        m.put("jmpi.coll.reduce.long", Long.toString(reduceLong));
        m.put("jmpi.coll.reduce_scatter.long", Long.toString(reduceScatterLong));
        m.put("jmpi.coll.pace", pace == AUTO_PACE ? "auto" : Long.toString(pace));
        m.put("jmpi.coll.hierarchical", hierarchical == Long.MAX_VALUE ? "off" : Long.toString(hierarchical));
        return m;
    }

    /** {@code jmpi.coll.hierarchical}: {@code off} is {@link Long#MAX_VALUE}, else a size. */
    private static long hierarchical(Function<String, String> values, long dflt) {
        String v = values.apply("jmpi.coll.hierarchical");
        return v != null && v.trim().equalsIgnoreCase("off") ? Long.MAX_VALUE
                : size(values, "jmpi.coll.hierarchical", dflt);
    }

    /** {@code jmpi.coll.pace}: {@code auto} (or unset) is {@link #AUTO_PACE}, else a number of calls. */
    private static long pace(Function<String, String> values) {
        String v = values.apply("jmpi.coll.pace");
        return v == null || v.isBlank() || v.trim().equalsIgnoreCase("auto") ? AUTO_PACE
                : size(values, "jmpi.coll.pace", AUTO_PACE);
    }

    private static long size(Function<String, String> values, String property, long dflt) {
        String v = values.apply(property);
        if (v == null || v.isBlank()) {
            return dflt;
        }
        String s = v.trim().toLowerCase(Locale.ROOT);
        long mul = 1;
        char last = s.charAt(s.length() - 1);
        if (last == 'k' || last == 'm' || last == 'g') {
            mul = last == 'k' ? 1L << 10 : last == 'm' ? 1L << 20 : 1L << 30;
            s = s.substring(0, s.length() - 1);
        }
        try {
            long x = Math.multiplyExact(Long.parseLong(s.trim()), mul);
            if (x < 0) {
                throw new NumberFormatException();
            }
            return x;
        } catch (NumberFormatException | ArithmeticException e) {
            throw new MpiError(ErrorClass.ERR_ARG, "parameter " + property + "=" + v
                    + " is not a size (a non-negative number of bytes, optionally with k, m or g)");
        }
    }
}
