package org.jmpi.coll;

import java.util.EnumMap;
import java.util.Map;
import org.jmpi.runtime.Communicator;

/**
 * Chooses the algorithm of each collective call from the communicator size, the message size and whether the
 * operation commutes, following the thresholds of {@link CollConfig}. Every rank must choose the same algorithm, so
 * the choice depends only on values all ranks share.
 *
 * <p>An algorithm can be forced by a parameter ({@code jmpi.coll.<collective>.algorithm}) or, per rank and at run
 * time, by {@link #force} (tests use it to run every algorithm in turn). An algorithm that reorders operands is
 * never chosen for a non-commutative operation, forced or not.
 *
 * <p>Threading: one instance of this state per rank (statics of this class; each rank has its own class loader in
 * threads mode). The configuration is read once, under the class lock, and published through a volatile field;
 * forced algorithms live in a volatile, copy-on-write map, and what a call looks up in a table made from it and the
 * configuration (under the class lock, whenever either changes).
 */
public final class Tuning {
    private Tuning() {}

    private static volatile CollConfig config;
    private static volatile Map<Collective, Algorithm> overrides = new EnumMap<>(Collective.class);
    /**
     * By collective (ordinal): the algorithm {@link #force} forced, else the parameters, else null; null until the
     * parameters are read. One array load per call, where two map look-ups were.
     */
    private static volatile Algorithm[] forced;
    private static volatile Algorithm last;

    /** The parameters, read on first use. */
    public static CollConfig config() {
        CollConfig c = config;
        if (c == null) {
            synchronized (Tuning.class) {
                c = config;
                if (c == null) {
                    c = CollConfig.fromEnvironment();
                    forced = table(overrides, c); // before config: a reader that sees config sees this
                    config = c;
                }
            }
        }
        return c;
    }

    /**
     * Replaces this rank's parameters (every rank of a communicator must use the same), or, with null, reads them
     * again from the system properties and environment. For tests and tuning experiments.
     */
    public static synchronized void useConfig(CollConfig c) {
        CollConfig n = c != null ? c : CollConfig.fromEnvironment();
        forced = table(overrides, n);
        config = n;
    }

    /** What {@link #forced} holds for these forced algorithms and parameters. */
    private static Algorithm[] table(Map<Collective, Algorithm> overrides, CollConfig cfg) {
        Algorithm[] t = new Algorithm[Collective.values().length];
        for (Collective c : Collective.values()) {
            Algorithm a = overrides.get(c);
            t[c.ordinal()] = a != null ? a : cfg.forced().get(c);
        }
        return t;
    }

    /**
     * Forces {@code a} for every later call of its collective on this rank, or restores automatic selection for
     * {@code c} when {@code a} is null. Every rank of a communicator must force the same algorithms.
     */
    public static synchronized void force(Collective c, Algorithm a) {
        if (a != null && a.collective() != c) {
            throw new IllegalArgumentException(a + " is not an algorithm of " + c);
        }
        Map<Collective, Algorithm> m = new EnumMap<>(Collective.class);
        m.putAll(overrides);
        if (a == null) {
            m.remove(c);
        } else {
            m.put(c, a);
        }
        overrides = m;
        forced = table(m, config());
    }

    /**
     * The algorithm for one call.
     *
     * @param p communicator size
     * @param bytes the size that the thresholds of {@code c} compare with (see {@link CollConfig})
     * @param commutative whether the reduction commutes (true for collectives without one)
     */
    public static Algorithm select(Collective c, int p, long bytes, boolean commutative) {
        return chosen(choose(c, p, bytes, commutative));
    }

    /**
     * {@code a}, noted as {@link #lastSelected}: stored only when it differs from the last one, as a volatile store is
     * a full fence on x86, which would wait on every call for the stores of the message written just before.
     */
    private static Algorithm chosen(Algorithm a) {
        if (last != a) {
            last = a;
        }
        return a;
    }

    /**
     * The algorithm for one call on {@code comm}: as {@link #select(Collective, int, long, boolean)}, except that on
     * a communicator spanning hosts ({@link Hosts#spans}) a barrier, and a bcast, reduce, allreduce or allgather of at
     * least {@link CollConfig#hierarchical()} bytes, take the collective's hierarchical algorithm (none when that
     * parameter is off) unless another is forced: for a reduction only when the operation commutes, for an allgather
     * only when each host's ranks are consecutive, and for a bcast or reduce whose flat algorithm is the binomial
     * tree only when that tree, from {@code root}, would send between hosts more often than once per host but the
     * root's ({@link Hosts#treeCrossings}: from rank 0 over hosts of consecutive ranks it does not, and it keeps the
     * path without a schedule). An allreduce on 2 ranks of one host: see {@link #twoRanksOr}.
     *
     * @param root the root of a bcast or reduce, else ignored
     */
    public static Algorithm select(Collective c, Communicator comm, long bytes, boolean commutative, int root) {
        int p = comm.size();
        Algorithm flat = choose(c, p, bytes, commutative);
        if (p == 2) {
            return chosen(flat == Algorithm.ALLREDUCE_RABENSEIFNER ? twoRanksOr(flat, comm, bytes) : flat);
        }
        return chosen(p > 2 && commutative ? hierarchicalOr(flat, c, comm, bytes, root) : flat);
    }

    /**
     * {@link #select}'s choice for an allreduce on 2 ranks for which the thresholds chose Rabenseifner's algorithm:
     * recursive doubling up to {@link Collective#TWO_RANKS_SHORT} when both ranks are on one host and no algorithm is
     * forced; else {@code flat}.
     */
    private static Algorithm twoRanksOr(Algorithm flat, Communicator comm, long bytes) {
        if (bytes <= Collective.TWO_RANKS_SHORT && forced[Collective.ALLREDUCE.ordinal()] == null
                && Hosts.of(comm).oneHost()) {
            return Algorithm.ALLREDUCE_RECURSIVE_DOUBLING;
        }
        return flat;
    }

    /** {@link #select}'s hierarchical algorithm for a call on more than two ranks, where it applies; else {@code flat}. */
    private static Algorithm hierarchicalOr(Algorithm flat, Collective c, Communicator comm, long bytes, int root) {
        long min = config().hierarchical();
        min = c == Collective.BARRIER && min != Long.MAX_VALUE ? 0 : min;
        if (bytes >= min && forced[c.ordinal()] == null) {
            Algorithm h = switch (c) {
                case BARRIER -> Algorithm.BARRIER_HIERARCHICAL;
                case BCAST -> Algorithm.BCAST_HIERARCHICAL;
                case REDUCE -> Algorithm.REDUCE_HIERARCHICAL;
                case ALLREDUCE -> Algorithm.ALLREDUCE_HIERARCHICAL;
                case ALLGATHER -> Algorithm.ALLGATHER_HIERARCHICAL;
                default -> null;
            };
            Hosts hosts = h == null ? null : Hosts.of(comm);
            if (hosts != null && hosts.spans() && (c != Collective.ALLGATHER || hosts.contiguous)
                    && (flat != Algorithm.BCAST_BINOMIAL && flat != Algorithm.REDUCE_BINOMIAL
                    || hosts.treeCrossings(root) > hosts.groups.length - 1)) {
                return h;
            }
        }
        return flat;
    }

    /**
     * The algorithm for one part of a hierarchical collective, among {@code p} ranks: as {@link #select}, without a
     * forced hierarchical algorithm (that is the one being built) and without recording it as {@link #lastSelected}.
     */
    static Algorithm flat(Collective c, int p, long bytes, boolean commutative) {
        Algorithm a = choose(c, p, bytes, commutative);
        return a.hierarchical() ? choose(c, p, bytes, commutative, false) : a;
    }

    /** The algorithm this rank chose last (diagnostics and tests). */
    public static Algorithm lastSelected() {
        return last;
    }

    /**
     * Fewest ranks for which a long bcast takes scatter + allgather (MPICH's default too): below, the binomial tree's
     * two or three whole-message steps (each a single copy between processes of a host) cost less than the scatter's
     * and the allgather's many smaller ones. 4 ranks on 2 cores, OMB-J, 256 KiB / 512 KiB / 1 MiB (ungated, 2026-11-28):
     * binomial 58 / 85 / 204 us, scatter + allgather 162 / 362 / 405 (Open MPI Java 56 / 122 / 360).
     */
    static final int BCAST_LONG_MIN_RANKS = 8;

    private static Algorithm choose(Collective c, int p, long bytes, boolean commutative) {
        return choose(c, p, bytes, commutative, true);
    }

    private static Algorithm choose(Collective c, int p, long bytes, boolean commutative, boolean forcing) {
        CollConfig cfg = config();
        Algorithm f = forced[c.ordinal()]; // set once config() has returned
        if (forcing && f != null && (commutative || f.orderPreserving())) {
            return f;
        }
        return c.automatic(cfg, p, bytes, commutative);
    }
}
