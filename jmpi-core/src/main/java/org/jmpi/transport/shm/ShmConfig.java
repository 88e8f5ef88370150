package org.jmpi.transport.shm;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The shared-memory transport's parameters, read in this one place ({@link #fromEnvironment()}) from system properties
 * ({@code jmpi.shm.*}) or, when a property is absent, the environment (upper case, dots as underscores:
 * {@code jmpi.shm.ring.bytes} is {@code JMPI_SHM_RING_BYTES}). Sizes accept the suffixes k, m, g (binary).
 *
 * @param directory where segment files are created ({@code jmpi.shm.dir}, default {@code /dev/shm}); it must be a
 *     memory file system for the transport to be fast
 * @param ringBytes data bytes of each inbound ring, a power of two from 16 KiB to 64 MiB, or {@link #AUTO_RING}
 *     ({@code jmpi.shm.ring.bytes}, default {@code auto}: 1 MiB while a rank's rings take at most 4 MiB, so up to 5
 *     ranks on the host, 512 KiB up to 9, else 256 KiB; see {@link #autoRing}). A segment holds one ring per other
 *     rank of the host; with many ranks per host the rings shrink so that a segment stays within
 *     {@code segmentBudget}, but never below 64 KiB
 * @param segmentBudget the most a rank's segment should take ({@code jmpi.shm.segment.budget}, default 16 MiB)
 * @param eagerLimit messages up to this many bytes go eagerly to a peer on this host ({@code jmpi.shm.eager.limit},
 *     default 256 KiB, but never more than a quarter of a ring: 256 KiB with the rings of up to 5 ranks, 128 KiB
 *     up to 9, 64 KiB with more); larger ones use rendezvous, which moves them with one copy when both buffers are
 *     native memory and the kernel allows {@code process_vm_readv}, else in chunks through the ring. A program's
 *     first message above the limit pays the first use of the rendezvous (its compilation): the higher the limit,
 *     the fewer programs reach it, and up to 256 KiB an eager message is as fast as the rendezvous warm
 * @param chunkBytes payload bytes of each data frame of a rendezvous through the ring ({@code jmpi.shm.chunk.bytes},
 *     default 64 KiB, at most a quarter of the ring); several chunks fit in a ring, so sender and receiver copy
 *     different chunks at the same time
 * @param singleCopy whether to use {@code process_vm_readv} when possible ({@code jmpi.shm.single.copy}, default
 *     true)
 * @param splitMin single-copy messages of at least this many bytes are copied by both processes at once, each one
 *     half ({@code jmpi.shm.split.min}, default 32 KiB; 0 turns splitting off)
 * @param streamLimit messages above the eager limit and up to this many bytes whose send buffer the receiver cannot
 *     read itself (Java arrays, packed datatypes, no single copy) go without a handshake, in pieces that the receiver
 *     copies into its buffer as they arrive
 *     ({@code jmpi.shm.stream.limit}, default 256 KiB; 0 turns it off)
 * @param addressMin a blocking send's eager message of at least this many bytes in native memory leaves its payload
 *     where it is, and the receiver copies it straight into its buffer with {@code process_vm_readv}: one copy
 *     instead of two through the ring; the send returns once it has been read ({@code jmpi.shm.address.min},
 *     default 8 KiB, at least 4 KiB; 0 turns it off; docs/transports.md has what decided the default on which host)
 */
public record ShmConfig(String directory, long ringBytes, long segmentBudget, long eagerLimit, long chunkBytes,
        boolean singleCopy, long splitMin, long streamLimit, long addressMin) {
    static final String DIRECTORY = "jmpi.shm.dir";
    static final String RING_BYTES = "jmpi.shm.ring.bytes";
    static final String SEGMENT_BUDGET = "jmpi.shm.segment.budget";
    static final String EAGER_LIMIT = "jmpi.shm.eager.limit";
    static final String CHUNK_BYTES = "jmpi.shm.chunk.bytes";
    static final String SINGLE_COPY = "jmpi.shm.single.copy";
    static final String SPLIT_MIN = "jmpi.shm.split.min";
    static final String STREAM_LIMIT = "jmpi.shm.stream.limit";
    static final String ADDRESS_MIN = "jmpi.shm.address.min";

    static final long MIN_RING = 16 << 10;
    static final long MAX_RING = 64 << 20;
    static final long MIN_SHRUNK_RING = 64 << 10;
    /** {@code jmpi.shm.ring.bytes=auto}, the default: the ring size is {@link #autoRing} of the host's ranks. */
    static final long AUTO_RING = 0;
    /** The largest and the smallest ring {@link #autoRing} gives. */
    private static final long AUTO_RING_MAX = 1 << 20;
    private static final long AUTO_RING_MIN = 256 << 10;
    /** The data of all a segment's rings that {@link #autoRing} keeps to while it can. */
    private static final long AUTO_RING_TOTAL = 4 << 20;

    /** Validates every field. */
    public ShmConfig {
        if (directory == null || directory.isBlank()) {
            throw new IllegalArgumentException(DIRECTORY + " must not be empty");
        }
        boolean power = ringBytes >= MIN_RING && ringBytes <= MAX_RING && Long.bitCount(ringBytes) == 1;
        if (ringBytes != AUTO_RING && !power) {
            throw new IllegalArgumentException(RING_BYTES + "=" + ringBytes + " must be auto or a power of two in ["
                    + MIN_RING + ", " + MAX_RING + "]");
        }
        check(SEGMENT_BUDGET, segmentBudget, 1 << 20, 1L << 40);
        check(EAGER_LIMIT, eagerLimit, 0, 1 << 30);
        check(CHUNK_BYTES, chunkBytes, 1024, 1 << 30);
        check(SPLIT_MIN, splitMin, 0, 1L << 40);
        check(STREAM_LIMIT, streamLimit, 0, 1 << 30);
        if (addressMin != 0) {
            check(ADDRESS_MIN, addressMin, 4096, 1 << 30);
        }
    }

    private static void check(String name, long v, long min, long max) {
        if (v < min || v > max) {
            throw new IllegalArgumentException(name + "=" + v + " is out of range [" + min + ", " + max + "]");
        }
    }

    public static ShmConfig defaults() {
        return new ShmConfig("/dev/shm", AUTO_RING, 16 << 20, 256 << 10, 64 << 10, true, 32 << 10, 256 << 10,
                8 << 10);
    }

    /** The configuration given by system properties and environment, on top of {@link #defaults()}. */
    public static ShmConfig fromEnvironment() {
        return from(System::getProperty, System::getenv);
    }

    /** The same as {@link #fromEnvironment()} with explicit lookups (for tests). */
    static ShmConfig from(UnaryOperator<String> properties, UnaryOperator<String> environment) {
        ShmConfig d = defaults();
        UnaryOperator<String> raw = name -> {
            String v = properties.apply(name);
            if (v == null) {
                v = environment.apply(name.toUpperCase(Locale.ROOT).replace('.', '_'));
            }
            return v == null || v.isBlank() ? null : v.trim();
        };
        String dir = raw.apply(DIRECTORY);
        String copy = raw.apply(SINGLE_COPY);
        boolean single = d.singleCopy;
        if (copy != null) {
            single = switch (copy.toLowerCase(Locale.ROOT)) {
                case "true", "yes", "on", "1" -> true;
                case "false", "no", "off", "0" -> false;
                default -> throw new IllegalArgumentException(SINGLE_COPY + "=" + copy + " is not true or false");
            };
        }
        return new ShmConfig(dir == null ? d.directory : dir,
                "auto".equalsIgnoreCase(raw.apply(RING_BYTES)) ? AUTO_RING : size(raw, RING_BYTES, d.ringBytes),
                size(raw, SEGMENT_BUDGET, d.segmentBudget),
                size(raw, EAGER_LIMIT, d.eagerLimit),
                size(raw, CHUNK_BYTES, d.chunkBytes),
                single,
                size(raw, SPLIT_MIN, d.splitMin),
                size(raw, STREAM_LIMIT, d.streamLimit),
                size(raw, ADDRESS_MIN, d.addressMin));
    }

    private static long size(UnaryOperator<String> raw, String name, long dflt) {
        String v = raw.apply(name);
        if (v == null) {
            return dflt;
        }
        String s = v.toLowerCase(Locale.ROOT);
        long mul = 1;
        char last = s.charAt(s.length() - 1);
        if (last == 'k' || last == 'm' || last == 'g') {
            mul = last == 'k' ? 1 << 10 : last == 'm' ? 1 << 20 : 1 << 30;
            s = s.substring(0, s.length() - 1);
        }
        try {
            return Math.multiplyExact(Long.parseLong(s.trim()), mul);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(name + "=" + v + " is not a size", e);
        }
    }

    /**
     * The ring data bytes to use for a host with {@code localRanks} ranks: {@link #autoRing} unless set, shrunk to fit
     * the segment budget.
     */
    long ringBytesFor(int localRanks) {
        long r = ringBytes == AUTO_RING ? autoRing(localRanks) : ringBytes;
        while (r > MIN_SHRUNK_RING && ShmLayout.segmentBytes(ShmLayout.rings(localRanks), r) > segmentBudget) {
            r >>= 1;
        }
        return r;
    }

    /**
     * The default ring size for a host with {@code localRanks} ranks: the largest power of two up to 1 MiB of which
     * a segment's rings (one per other rank) take at most 4 MiB, but at least 256 KiB. Rings of 1 MiB carry eager
     * messages of 256 KiB (a quarter of a ring), which a cold program then sends without the rendezvous: OMB-J's
     * latency at 128 KiB took 5.2 us against 15.3 with rings of 256 KiB and an eager limit of 64 KiB, bcast 4.4
     * against 20.0, allreduce at 256 KiB 25.8 against 45.2 (2 ranks, 2026-11-29). The cost is shared memory: a 2-rank job's segments take 2
     * MiB instead of 1 (rings of 256 KiB, one for the owner too, until 2026-11-29), 5 ranks 20 MiB instead of 6.25,
     * 9 ranks 36 MiB instead of 20, and from 10 ranks on a host less than before.
     */
    static long autoRing(int localRanks) {
        long r = AUTO_RING_MAX;
        while (r > AUTO_RING_MIN && ShmLayout.rings(localRanks) * r > AUTO_RING_TOTAL) {
            r >>= 1;
        }
        return r;
    }

    /** Every parameter with its value, for {@code --info}-style listings. */
    public Map<String, String> describe() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(DIRECTORY, directory);
        m.put(RING_BYTES, ringBytes == AUTO_RING ? "auto" : Long.toString(ringBytes));
        m.put(SEGMENT_BUDGET, Long.toString(segmentBudget));
        m.put(EAGER_LIMIT, Long.toString(eagerLimit));
        m.put(CHUNK_BYTES, Long.toString(chunkBytes));
        m.put(SINGLE_COPY, Boolean.toString(singleCopy));
        m.put(SPLIT_MIN, Long.toString(splitMin));
        m.put(STREAM_LIMIT, Long.toString(streamLimit));
        m.put(ADDRESS_MIN, Long.toString(addressMin));
        return m;
    }
}
