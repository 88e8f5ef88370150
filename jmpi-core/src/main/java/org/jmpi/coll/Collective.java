package org.jmpi.coll;

import java.util.Locale;

/** The collective operations that have a choice of algorithms; {@link #key()} names them in parameters. */
public enum Collective {
    BARRIER {
        @Override
        Algorithm automatic(CollConfig cfg, int p, long bytes, boolean commutative) {
            return Algorithm.BARRIER_DISSEMINATION;
        }
    },
    BCAST {
        @Override
        Algorithm automatic(CollConfig cfg, int p, long bytes, boolean commutative) {
            return bytes >= cfg.bcastPipeline() ? Algorithm.BCAST_PIPELINE
                    : bytes >= cfg.bcastLong() && p >= Tuning.BCAST_LONG_MIN_RANKS ? Algorithm.BCAST_SCATTER_ALLGATHER
                    : Algorithm.BCAST_BINOMIAL;
        }
    },
    GATHER {
        @Override
        Algorithm automatic(CollConfig cfg, int p, long bytes, boolean commutative) {
            return bytes < cfg.gatherShort() ? Algorithm.GATHER_BINOMIAL : Algorithm.GATHER_LINEAR;
        }
    },
    GATHERV {
        @Override
        Algorithm automatic(CollConfig cfg, int p, long bytes, boolean commutative) {
            return Algorithm.GATHERV_LINEAR;
        }
    },
    SCATTER {
        @Override
        Algorithm automatic(CollConfig cfg, int p, long bytes, boolean commutative) {
            return bytes < cfg.gatherShort() ? Algorithm.SCATTER_BINOMIAL : Algorithm.SCATTER_LINEAR;
        }
    },
    SCATTERV {
        @Override
        Algorithm automatic(CollConfig cfg, int p, long bytes, boolean commutative) {
            return Algorithm.SCATTERV_LINEAR;
        }
    },
    ALLGATHER {
        @Override
        Algorithm automatic(CollConfig cfg, int p, long bytes, boolean commutative) {
            return bytes >= cfg.allgatherShort() ? Algorithm.ALLGATHER_RING
                    : Integer.bitCount(p) == 1 ? Algorithm.ALLGATHER_RECURSIVE_DOUBLING
                    : Algorithm.ALLGATHER_BRUCK;
        }
    },
    ALLGATHERV {
        @Override
        Algorithm automatic(CollConfig cfg, int p, long bytes, boolean commutative) {
            return bytes >= cfg.allgatherShort() ? Algorithm.ALLGATHERV_RING : Algorithm.ALLGATHERV_BRUCK;
        }
    },
    ALLTOALL {
        @Override
        Algorithm automatic(CollConfig cfg, int p, long bytes, boolean commutative) {
            return bytes < cfg.alltoallShort() && p > 2 ? Algorithm.ALLTOALL_BRUCK
                    : bytes < cfg.alltoallMedium() ? Algorithm.ALLTOALL_LINEAR : Algorithm.ALLTOALL_PAIRWISE;
        }
    },
    ALLTOALLV {
        @Override
        Algorithm automatic(CollConfig cfg, int p, long bytes, boolean commutative) {
            return Algorithm.ALLTOALLV_LINEAR;
        }
    },
    ALLTOALLW {
        @Override
        Algorithm automatic(CollConfig cfg, int p, long bytes, boolean commutative) {
            return Algorithm.ALLTOALLW_LINEAR;
        }
    },
    REDUCE {
        @Override
        Algorithm automatic(CollConfig cfg, int p, long bytes, boolean commutative) {
            return commutative && bytes >= cfg.reduceLong() && p > 2 ? Algorithm.REDUCE_RABENSEIFNER
                    : Algorithm.REDUCE_BINOMIAL;
        }
    },
    ALLREDUCE {
        @Override
        Algorithm automatic(CollConfig cfg, int p, long bytes, boolean commutative) {
            // on 2 ranks the ring's steps are Rabenseifner's in smaller pieces: 2 ranks, direct buffers, 300 calls
            // (2026-12-01, ungated, 2 runs): 1 MiB 281-312 us against 301-342, 4 MiB 893-970 against 1,005-1,119
            return !commutative || bytes < cfg.allreduceShort() || p == 1 ? Algorithm.ALLREDUCE_RECURSIVE_DOUBLING
                    : bytes >= cfg.allreduceLong() && p > 2 ? Algorithm.ALLREDUCE_RING
                    : Algorithm.ALLREDUCE_RABENSEIFNER;
        }
    },
    REDUCE_SCATTER {
        @Override
        Algorithm automatic(CollConfig cfg, int p, long bytes, boolean commutative) {
            return !commutative ? Algorithm.REDUCE_SCATTER_REDUCE_SCATTERV
                    : bytes >= cfg.reduceScatterLong() ? Algorithm.REDUCE_SCATTER_RING
                    : Algorithm.REDUCE_SCATTER_RECURSIVE_HALVING;
        }
    },
    REDUCE_SCATTER_BLOCK {
        @Override
        Algorithm automatic(CollConfig cfg, int p, long bytes, boolean commutative) {
            return !commutative ? Algorithm.REDUCE_SCATTER_BLOCK_REDUCE_SCATTERV
                    : bytes >= cfg.reduceScatterLong() ? Algorithm.REDUCE_SCATTER_BLOCK_RING
                    : Algorithm.REDUCE_SCATTER_BLOCK_RECURSIVE_HALVING;
        }
    },
    SCAN {
        @Override
        Algorithm automatic(CollConfig cfg, int p, long bytes, boolean commutative) {
            return Algorithm.SCAN_RECURSIVE_DOUBLING;
        }
    },
    EXSCAN {
        @Override
        Algorithm automatic(CollConfig cfg, int p, long bytes, boolean commutative) {
            return Algorithm.EXSCAN_RECURSIVE_DOUBLING;
        }
    };

    /**
     * Largest allreduce (bytes of one rank's data) that 2 ranks of one host do by recursive doubling whatever
     * {@code jmpi.coll.allreduce.short} ({@link Tuning#select(Collective, Communicator, long, boolean, int)}): one
     * exchange of the whole vector instead of Rabenseifner's two of halves (the same bytes, one round less, twice the
     * combining), and it runs without a schedule ({@link Immediate}), in the code a program's small allreduces have
     * compiled already. OMB-J's cold allreduce on 2 ranks, direct buffers (2026-12-01, ungated, 2 runs each): 32 KiB
     * 8.8-9.2 us against 21.0-21.9, 64 KiB 15.7-16.9 against 41.5-45.9, 128 KiB 30.0-30.7 against 44.0-44.5, 256 KiB
     * 63.9-65.2 against 72.3-73.2; at 512 KiB Rabenseifner is faster (135-139 against 182). Not between hosts, where
     * the lane takes at most 64 KiB: 128 KiB took 131-226 us so against Rabenseifner's 50-67 (2 namespace hosts, gated,
     * 2026-12-01).
     */
    static final long TWO_RANKS_SHORT = 256 << 10;

    /**
     * The algorithm {@link Tuning} takes for a call when none is forced, by the thresholds of {@code cfg}, for {@code p}
     * ranks, the size its thresholds compare with, and whether the reduction commutes. Each collective's own method,
     * so that the JIT compiles the rule of the collectives a program calls and not a switch over all of them (one
     * switch was 517 bytes of bytecode that C1 compiled whole inside a program's first loop of small allreduces).
     */
    abstract Algorithm automatic(CollConfig cfg, int p, long bytes, boolean commutative);

    /** The name in parameters: {@code reduce_scatter_block} in {@code jmpi.coll.reduce_scatter_block.algorithm}. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}
