package org.jmpi.examples;

import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * A token travels around the ring of ranks a number of times (argument 1, default 10); each pass, rank 0
 * decrements it. Every rank prints how many times it saw the token.
 */
public final class Ring {
    private Ring() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int laps = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int next = (rank + 1) % size;
        int prev = (rank + size - 1) % size;
        int[] token = new int[1];
        int seen = 0;
        if (rank == 0) {
            token[0] = laps;
            MPI.COMM_WORLD.send(token, 1, MPI.INT, next, 201);
        }
        while (true) {
            Status s = MPI.COMM_WORLD.recv(token, 1, MPI.INT, prev, 201);
            if (s.getSource() != prev) {
                throw new IllegalStateException("token from " + s.getSource() + ", expected " + prev);
            }
            seen++;
            if (rank == 0) {
                token[0]--;
            }
            if (token[0] == 0 && rank == 0) {
                // the last lap ends here; tell the others to stop
                MPI.COMM_WORLD.send(token, 1, MPI.INT, next, 201);
                MPI.COMM_WORLD.recv(token, 1, MPI.INT, prev, 201);
                break;
            }
            MPI.COMM_WORLD.send(token, 1, MPI.INT, next, 201);
            if (token[0] == 0) {
                break;
            }
        }
        System.out.println("rank " + rank + " saw the token " + seen + " times");
        MPI.Finalize();
    }
}
