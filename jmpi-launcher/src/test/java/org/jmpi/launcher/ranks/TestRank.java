package org.jmpi.launcher.ranks;

import java.util.StringJoiner;
import java.util.concurrent.CountDownLatch;
import org.jmpi.bootstrap.pmi.Pmi1Bootstrap;

/**
 * A tiny rank program for the launcher's end-to-end tests. It talks PMI directly (the MPI runtime is not needed).
 * The first argument picks the behaviour:
 *
 * <ul>
 *   <li>{@code exchange}: put {@code card-<rank>}, fence, print every rank's card, finalize;
 *   <li>{@code exit3}: rank 1 exits 3 after init; the others block in a fence;
 *   <li>{@code abort7}: rank 1 sends abort 7, then blocks in a fence like the others;
 *   <li>{@code abort7exit1}: rank 1 sends abort 7, then exits 1;
 *   <li>{@code nofinalize}: the last rank exits 0 after init without finalize; the others block in a fence;
 *   <li>{@code hello}: print a line to stdout and one to stderr, finalize;
 *   <li>{@code props}: print system properties x and y and the variables FOO and PMI_FD, finalize;
 *   <li>{@code hang}: init, print {@code ready}, then wait forever;
 *   <li>{@code child}: every rank but 1 starts {@code sleep 600} and prints its pid; after a fence rank 1 exits 3 and
 *       the others block in a second fence;
 *   <li>{@code where}: like {@code exchange}, and prints its node id, local rank, {@code JMPI_TCP_HOST}, the mapping
 *       and its pid;
 *   <li>{@code notices}: opens the failure-notice channel; after a fence rank 1 exits 3; the others wait for the notice,
 *       print it, fence again without rank 1, and finalize;
 *   <li>{@code stdin}: rank 0 prints the first line of its standard input;
 *   <li>{@code port}: prints {@code port <PMI_PORT>}, then waits for ever;
 *   <li>{@code pidblock}: after a fence prints its pid; then rank 0 sleeps and the others block in a fence that cannot
 *       complete (for tests that kill something meanwhile).
 * </ul>
 */
public final class TestRank {
    private TestRank() {
    }

    public static void main(String[] args) throws Exception {
        Pmi1Bootstrap pmi = Pmi1Bootstrap.fromEnvironment(System.getenv());
        if (pmi == null) {
            System.err.println("no PMI_PORT: not started by jmpirun");
            System.exit(99);
        }
        int rank = pmi.rank();
        int size = pmi.size();
        int last = size - 1;
        switch (args[0]) {
            case "exchange" -> {
                pmi.put("card-" + rank, "hello-from-" + rank + "-of-" + size);
                pmi.fence();
                StringJoiner j = new StringJoiner(" ");
                for (int r = 0; r < size; r++) {
                    j.add(r + "=" + pmi.get("card-" + r));
                }
                System.out.println("rank " + rank + " env " + System.getenv("JMPI_RANK") + "/"
                        + System.getenv("JMPI_SIZE") + " local " + System.getenv("MPI_LOCALRANKID") + "/"
                        + System.getenv("MPI_LOCALNRANKS") + " job " + pmi.jobId().equals(System.getenv("JMPI_JOBID"))
                        + " sees " + j + " missing=" + pmi.get("nope") + " map=" + pmi.processMapping());
                pmi.fence();
                pmi.finalizeJob();
            }
            case "exit3" -> {
                if (rank == 1) {
                    System.exit(3);
                }
                pmi.fence();
                pmi.finalizeJob();
            }
            case "abort7" -> {
                if (rank == 1) {
                    pmi.abort(7, "rank 1 gave up");
                }
                pmi.fence();
                pmi.finalizeJob();
            }
            case "abort7exit1" -> {
                if (rank == 1) {
                    pmi.abort(7, "rank 1 gave up");
                    System.exit(1);
                }
                pmi.fence();
                pmi.finalizeJob();
            }
            case "nofinalize" -> {
                if (rank == last) {
                    System.exit(0);
                }
                pmi.fence();
                pmi.finalizeJob();
            }
            case "directives" -> {
                // the rank's JVM can take jmpi's compiler directives from inside (it got JitHints.ADD_OPENS)
                System.out.println("rank " + rank + " directives " + org.jmpi.runtime.JitHints.applyNow());
                pmi.finalizeJob();
            }
            case "hello" -> {
                System.out.println("hello from rank " + rank);
                System.err.println("warning from rank " + rank);
                pmi.finalizeJob();
            }
            case "props" -> {
                System.out.println("x=" + System.getProperty("x") + " y=" + System.getProperty("y") + " FOO="
                        + System.getenv("FOO") + " PMI_FD=" + System.getenv("PMI_FD"));
                pmi.finalizeJob();
            }
            case "hang" -> {
                System.out.println("ready");
                new CountDownLatch(1).await();
            }
            case "child" -> {
                if (rank != 1) {
                    Process child = new ProcessBuilder("sleep", "600").start();
                    System.out.println("child-pid " + child.pid());
                }
                pmi.fence(); // every child exists before rank 1 fails
                if (rank == 1) {
                    System.exit(3);
                }
                pmi.fence();
                pmi.finalizeJob();
            }
            case "where" -> {
                pmi.put("card-" + rank, "from-" + rank);
                pmi.fence();
                StringJoiner j = new StringJoiner(",");
                for (int r = 0; r < size; r++) {
                    j.add(pmi.get("card-" + r));
                }
                System.out.println("rank " + rank + " node " + System.getenv("JMPI_NODE_ID") + " local "
                        + System.getenv("JMPI_LOCAL_RANK") + "/" + System.getenv("JMPI_LOCAL_SIZE") + " tcp "
                        + System.getenv("JMPI_TCP_HOST") + " map " + pmi.processMapping() + " cards " + j + " app "
                        + System.getenv("JMPI_APPNUM") + " pid " + ProcessHandle.current().pid());
                pmi.fence();
                pmi.finalizeJob();
            }
            case "notices" -> {
                CountDownLatch heard = new CountDownLatch(1);
                String[] what = new String[1];
                AutoCloseable ch = Pmi1Bootstrap.openFailureNotices(System.getenv("PMI_PORT"), rank,
                        System.getenv("JMPI_SECRET"), (r, why) -> {
                            what[0] = r + ": " + why;
                            heard.countDown();
                        });
                pmi.fence();
                if (rank == 1) {
                    System.exit(3);
                }
                heard.await();
                System.out.println("rank " + rank + " heard " + what[0]);
                pmi.fence();
                pmi.finalizeJob();
                ch.close();
            }
            case "port" -> {
                System.out.println("port " + System.getenv("PMI_PORT"));
                new CountDownLatch(1).await();
            }
            case "stdin" -> {
                if (rank == 0) {
                    java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
                    System.out.println("rank 0 read " + in.readLine());
                }
                pmi.finalizeJob();
            }
            case "pidblock" -> {
                pmi.fence();
                System.out.println("rank " + rank + " pid " + ProcessHandle.current().pid());
                if (rank == 0) {
                    new CountDownLatch(1).await();
                }
                pmi.fence();
                pmi.finalizeJob();
            }
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
        pmi.close();
    }
}
