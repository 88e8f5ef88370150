package org.jmpi.launcher.ranks;

import mpi.MPI;
import mpi.Request;
import mpi.Status;

/**
 * Messages received by {@code iRecv} and completed by every completion call of {@code Request}, for the trace's
 * tests: for each call in {@link #CALLS}, in that order, every rank posts receives from the previous rank (one for
 * the calls on one request, two for those on an array; the second from {@code ANY_SOURCE} with {@code ANY_TAG}, so
 * that the trace must take the source and tag from what arrived), sends as many messages to the next rank, and
 * completes its receives with that call only (the test forms in a loop until they are done).
 */
public final class TraceCompletionsRank {
    /** The completion calls, as the profiling interface names them. */
    public static final String[] CALLS = {"waitFor", "waitStatus", "test", "testStatus", "waitAll", "waitAllStatus",
        "waitAny", "waitAnyStatus", "waitSome", "waitSomeStatus", "testAll", "testAllStatus", "testAny",
        "testAnyStatus", "testSome", "testSomeStatus"};

    private TraceCompletionsRank() {}

    /** Messages each rank receives with {@code call}. */
    public static int messages(String call) {
        return call.equals("waitFor") || call.equals("waitStatus") || call.equals("test")
                || call.equals("testStatus") ? 1 : 2;
    }

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        for (int k = 0; k < CALLS.length; k++) {
            String call = CALLS[k];
            int n = messages(call);
            Request[] rs = new Request[n];
            for (int i = 0; i < n; i++) {
                rs[i] = i == 0 ? MPI.COMM_WORLD.iRecv(new int[1], 1, MPI.INT, prev, 100 + k)
                        : MPI.COMM_WORLD.iRecv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            }
            MPI.COMM_WORLD.barrier(); // every receive is posted before any message of this round is sent
            for (int i = 0; i < n; i++) {
                MPI.COMM_WORLD.send(new int[] {i}, 1, MPI.INT, next, 100 + k);
            }
            complete(call, rs);
            MPI.COMM_WORLD.barrier();
        }
        System.out.println("rank " + rank + " completed every receive");
        MPI.Finalize();
    }

    private static void complete(String call, Request[] rs) throws Exception {
        switch (call) {
            case "waitFor" -> rs[0].waitFor();
            case "waitStatus" -> rs[0].waitStatus();
            case "test" -> {
                while (!rs[0].test()) {
                    Thread.onSpinWait();
                }
            }
            case "testStatus" -> {
                while (rs[0].testStatus() == null) {
                    Thread.onSpinWait();
                }
            }
            case "waitAll" -> Request.waitAll(rs);
            case "waitAllStatus" -> Request.waitAllStatus(rs);
            case "testAll" -> {
                while (!Request.testAll(rs)) {
                    Thread.onSpinWait();
                }
            }
            case "testAllStatus" -> {
                while (Request.testAllStatus(rs) == null) {
                    Thread.onSpinWait();
                }
            }
            default -> {
                // the Any and Some forms: until every request is done
                while (!allNull(rs)) {
                    switch (call) {
                        case "waitAny" -> Request.waitAny(rs);
                        case "waitAnyStatus" -> Request.waitAnyStatus(rs);
                        case "waitSome" -> Request.waitSome(rs);
                        case "waitSomeStatus" -> Request.waitSomeStatus(rs);
                        case "testAny" -> Request.testAny(rs);
                        case "testAnyStatus" -> {
                            Status ignored = Request.testAnyStatus(rs);
                        }
                        case "testSome" -> Request.testSome(rs);
                        case "testSomeStatus" -> Request.testSomeStatus(rs);
                        default -> throw new IllegalArgumentException(call);
                    }
                }
            }
        }
    }

    private static boolean allNull(Request[] rs) {
        for (Request r : rs) {
            if (!r.isNull()) {
                return false;
            }
        }
        return true;
    }
}
