package org.jmpi.launcher.pmi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jmpi.bootstrap.pmi.Pmi1Bootstrap;

/**
 * Load on jmpirun's PMI server and rendezvous server: N simulated ranks (threads, each with its own PMI-1 connection
 * over loopback, as a rank process has) do F rounds of put / fence / get concurrently, and the time of each fence (from
 * the last rank entering to every rank leaving, as rank 0 sees it after a local barrier) is printed.
 *
 * <pre>
 * ./mvnw -B -q test-compile -pl jmpi-launcher -am
 * java -cp jmpi-launcher/target/classes:jmpi-launcher/target/test-classes:jmpi-core/target/classes \
 *     org.jmpi.launcher.pmi.PmiFenceLoad [ranks=256] [fences=50] [keys per rank per fence=2] [pmi|kvs]
 * </pre>
 *
 * Prints one line per server kind: the ranks, fences, puts and gets, and the fence time (median, mean, max, in
 * microseconds). {@link PmiLoadTest} runs it small and checks every value read.
 */
public final class PmiFenceLoad {
    private PmiFenceLoad() {}

    /** What one run did. */
    record Result(String kind, int ranks, int fences, long puts, long gets, long[] fenceNanos) {
        String describe() {
            long[] t = fenceNanos.clone();
            Arrays.sort(t);
            double mean = Arrays.stream(t).average().orElse(0) / 1000;
            return String.format("%s: %d ranks, %d fences, %d puts, %d gets; fence median %.0f us, mean %.0f us, "
                    + "max %.0f us", kind, ranks, fences, puts, gets, t[t.length / 2] / 1000.0, mean,
                    t[t.length - 1] / 1000.0);
        }
    }

    public static void main(String[] args) throws Exception {
        int ranks = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        int fences = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        int keys = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        List<String> kinds = args.length > 3 ? List.of(args[3]) : List.of("pmi", "kvs");
        for (String kind : kinds) {
            System.out.println(run(kind, ranks, fences, keys).describe());
        }
    }

    /**
     * Runs the load once. Every get is checked: a wrong or missing value throws.
     *
     * @param kind {@code pmi} (a proxy's server for a job of {@code ranks}) or {@code kvs} (the rendezvous server)
     */
    static Result run(String kind, int ranks, int fences, int keys) throws Exception {
        String secret = "load-secret";
        PmiServer.Options o = kind.equals("kvs") ? PmiServer.options(0, "kvs_load").dynamicSize()
                : PmiServer.options(ranks, "kvs_load");
        try (PmiServer server = o.secret(secret).build()) {
            server.start();
            CyclicBarrier local = new CyclicBarrier(ranks);
            long[] fenceNanos = new long[fences];
            AtomicLong puts = new AtomicLong();
            AtomicLong gets = new AtomicLong();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>();
            for (int r = 0; r < ranks; r++) {
                int rank = r;
                threads.add(Thread.ofPlatform().name("load-rank-" + r).start(() -> {
                    try {
                        Pmi1Bootstrap pmi = kind.equals("kvs")
                                ? Pmi1Bootstrap.connectKvs(server.address(), rank, ranks, secret)
                                : connect(server.address(), rank, secret);
                        try {
                            for (int f = 0; f < fences; f++) {
                                for (int k = 0; k < keys; k++) {
                                    pmi.put("k" + rank + "-" + f + "-" + k, "v" + rank + "." + f + "." + k);
                                    puts.incrementAndGet();
                                }
                                local.await(); // every rank has put: time the fence from here
                                long t0 = System.nanoTime();
                                pmi.fence();
                                local.await();
                                if (rank == 0) {
                                    fenceNanos[f] = System.nanoTime() - t0;
                                }
                                for (int peer : new int[] {(rank + 1) % ranks, (rank + ranks / 2) % ranks}) {
                                    String key = "k" + peer + "-" + f + "-" + (keys - 1);
                                    String want = "v" + peer + "." + f + "." + (keys - 1);
                                    String got = pmi.get(key);
                                    gets.incrementAndGet();
                                    if (!want.equals(got)) {
                                        throw new AssertionError("rank " + rank + " read " + key + " = " + got
                                                + ", expected " + want);
                                    }
                                }
                            }
                            pmi.finalizeJob();
                        } finally {
                            pmi.close();
                        }
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                        local.reset(); // release the others: from their barriers here,
                        server.close(); // and from the server's
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            if (failure.get() != null) {
                throw new AssertionError("load run failed", failure.get());
            }
            return new Result(kind, ranks, fences, puts.get(), gets.get(), fenceNanos);
        }
    }

    /** A rank of a job served by a host proxy: PMI_PORT with the job secret, as jmpirun starts it. */
    private static Pmi1Bootstrap connect(String address, int rank, String secret) {
        return Pmi1Bootstrap.fromEnvironment(java.util.Map.of("PMI_PORT", address, "PMI_ID", Integer.toString(rank),
                Pmi1Bootstrap.SECRET_VARIABLE, secret));
    }
}
