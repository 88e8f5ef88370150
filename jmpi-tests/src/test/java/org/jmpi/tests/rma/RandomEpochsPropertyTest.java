package org.jmpi.tests.rma;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import mpi.Datatype;
import mpi.Group;
import mpi.Info;
import mpi.MPI;
import mpi.MPIException;
import mpi.Win;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * Random epochs of puts, gets and accumulates from every rank, checked against a sequential model of MPI's rules.
 * Every rank generates the same scenario from a shared seed with jqwik's arbitraries: epochs, each under one
 * synchronisation mode (fence, lockAll, an exclusive lock per target, post/start/complete/wait), each holding
 * operations whose target slots (contiguous or every second slot through a vector type) obey MPI's rules for one
 * epoch: a slot is written by one put, or updated by any number of accumulates (SUM commutes), or read by gets, never
 * two of those. The model applies the operations in plan order; after every epoch each rank compares its window with
 * the model, and every get must have seen the model's value from the epoch's start.
 */
class RandomEpochsPropertyTest {
    private static final int SLOTS = 48;

    /** One operation as generated: kind (0 put, 1 get, 2 accumulate), origin, target, first slot, length, stride. */
    record Op(int kind, int origin, int target, int slot, int length, int stride, int seed) {}

    static Arbitrary<Op> op(int size) {
        return Combinators.combine(Arbitraries.integers().between(0, 2), Arbitraries.integers().between(0, size - 1),
                        Arbitraries.integers().between(0, size - 1), Arbitraries.integers().between(0, SLOTS - 1),
                        Arbitraries.integers().between(1, 6), Arbitraries.integers().between(1, 2),
                        Arbitraries.integers().between(1, 1000))
                .as(Op::new);
    }

    @MpiTest(ranks = {1, 2, 3, 4, 8}, timeoutSeconds = 180)
    void randomEpochsMatchTheModel() throws MPIException {
        run(12);
    }

    @MpiTest(ranks = {3}, modes = Mode.PROCESSES, jvmArgs = WindowOperationsTest.TCP, timeoutSeconds = 180)
    void randomEpochsMatchTheModelOverTcp() throws MPIException {
        run(8);
    }

    private static void run(int epochs) throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        long[] seedBox = {System.nanoTime()};
        MPI.COMM_WORLD.bcast(seedBox, 1, MPI.LONG, 0);
        Random random = new Random(seedBox[0]);
        IntBuffer mem = MPI.newIntBuffer(SLOTS);
        Win win = new Win(mem, SLOTS, 1, new Info(), MPI.COMM_WORLD);
        int[][] model = new int[size][SLOTS];
        Datatype stride2 = Datatype.createVector(6, 1, 2, MPI.INT);
        stride2.commit();
        Group world = MPI.COMM_WORLD.getGroup();
        for (int epoch = 0; epoch < epochs; epoch++) {
            long seed = random.nextLong();
            List<Op> candidates;
            synchronized (net.jqwik.api.sessions.JqwikSession.class) {
                net.jqwik.api.sessions.JqwikSession.start();
                try {
                    candidates = op(size).list().ofMinSize(0).ofMaxSize(30).generator(1000).next(new Random(seed))
                            .value();
                } finally {
                    net.jqwik.api.sessions.JqwikSession.finish();
                }
            }
            List<Op> plan = legal(candidates, size);
            int mode = Math.floorMod((int) seed, 4);
            int[][] before = new int[size][];
            for (int t = 0; t < size; t++) {
                before[t] = model[t].clone();
            }
            openEpoch(win, mode, world, epoch == 0);
            List<IntBuffer> reads = new ArrayList<>();
            List<Op> readOps = new ArrayList<>();
            for (Op o : plan) {
                apply(model, o);
                if (o.origin() != rank) {
                    continue;
                }
                if (mode == 2) {
                    win.lock(MPI.LOCK_EXCLUSIVE, o.target(), 0);
                }
                IntBuffer buf = MPI.newIntBuffer(o.length());
                for (int i = 0; i < o.length(); i++) {
                    buf.put(i, value(o, i));
                }
                Datatype tt = o.stride() == 1 ? MPI.INT : stride2;
                int tcount = o.stride() == 1 ? o.length() : 1;
                if (o.stride() == 2) {
                    // a vector of 6 blocks: keep the plan's length at 6 for strided operations
                    assertThat(o.length()).isEqualTo(6);
                }
                switch (o.kind()) {
                    case 0 -> win.put(buf, o.length(), MPI.INT, o.target(), o.slot(), tcount, tt);
                    case 1 -> {
                        win.get(buf, o.length(), MPI.INT, o.target(), o.slot(), tcount, tt);
                        reads.add(buf);
                        readOps.add(o);
                    }
                    default -> win.accumulate(buf, o.length(), MPI.INT, o.target(), o.slot(), tcount, tt, MPI.SUM);
                }
                if (mode == 2) {
                    win.unlock(o.target());
                }
            }
            closeEpoch(win, mode, world);
            for (int k = 0; k < reads.size(); k++) {
                Op o = readOps.get(k);
                for (int i = 0; i < o.length(); i++) {
                    assertThat(reads.get(k).get(i)).as("epoch %d mode %d get %s element %d", epoch, mode, o, i)
                            .isEqualTo(before[o.target()][o.slot() + i * o.stride()]);
                }
            }
            for (int s = 0; s < SLOTS; s++) {
                assertThat(mem.get(s)).as("epoch %d mode %d slot %d", epoch, mode, s).isEqualTo(model[rank][s]);
            }
            MPI.COMM_WORLD.barrier(); // nobody starts the next epoch while another still checks its window
        }
        stride2.free();
        world.free();
        win.free();
    }

    /** Keeps the operations that obey the one-epoch rules given those before them; strided ones get 6 elements. */
    static List<Op> legal(List<Op> candidates, int size) {
        int[][] use = new int[size][SLOTS]; // 0 free, 1 put, 2 get, 3 accumulate
        List<Op> out = new ArrayList<>();
        for (Op c : candidates) {
            Op o = c.stride() == 2 ? new Op(c.kind(), c.origin(), c.target(), c.slot(), 6, 2, c.seed()) : c;
            int last = o.slot() + (o.length() - 1) * o.stride();
            if (last >= SLOTS) {
                continue;
            }
            int want = o.kind() == 0 ? 1 : o.kind() == 1 ? 2 : 3;
            boolean ok = true;
            for (int i = 0; i < o.length() && ok; i++) {
                int u = use[o.target()][o.slot() + i * o.stride()];
                ok = u == 0 || u == want && want != 1;
            }
            if (!ok) {
                continue;
            }
            for (int i = 0; i < o.length(); i++) {
                use[o.target()][o.slot() + i * o.stride()] = want;
            }
            out.add(o);
        }
        return out;
    }

    static int value(Op o, int i) {
        return o.seed() * 100 + i + o.origin() * 7;
    }

    static void apply(int[][] model, Op o) {
        for (int i = 0; i < o.length(); i++) {
            int s = o.slot() + i * o.stride();
            switch (o.kind()) {
                case 0 -> model[o.target()][s] = value(o, i);
                case 2 -> model[o.target()][s] += value(o, i);
                default -> { }
            }
        }
    }

    private static void openEpoch(Win win, int mode, Group world, boolean first) throws MPIException {
        switch (mode) {
            case 0 -> win.fence(first ? MPI.MODE_NOPRECEDE : 0);
            case 1 -> win.lockAll(0);
            case 2 -> { }
            default -> {
                win.post(world, 0);
                win.start(world, 0);
            }
        }
    }

    private static void closeEpoch(Win win, int mode, Group world) throws MPIException {
        switch (mode) {
            case 0 -> win.fence(MPI.MODE_NOSUCCEED);
            case 1 -> {
                win.unlockAll();
                MPI.COMM_WORLD.barrier();
            }
            case 2 -> MPI.COMM_WORLD.barrier();
            default -> {
                win.complete();
                win.waitFor();
            }
        }
    }
}
