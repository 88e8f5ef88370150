package org.jmpi.benchmarks.cold;

import java.nio.LongBuffer;
import java.util.Arrays;
import mpi.MPI;
import mpi.MPIException;

/**
 * Sample sort (regular sampling) of 64-bit keys, as a textbook writes it. Each rank holds a block of the TOTAL keys
 * (the first {@code TOTAL % size} ranks one more), made by a splitmix64 generator from the key's global index and the
 * repetition, so the global key set does not depend on the rank count. Each repetition: sort locally, take
 * {@code size} regularly spaced samples, {@code allGather} them, sort them and pick {@code size - 1} splitters, count
 * the keys for each destination, {@code allToAll} the counts, {@code allToAllv} the keys (in direct buffers: Open
 * MPI's Java bindings mishandle arrays there) and sort what arrived. Then the result is verified (each rank sorted,
 * the ranks in order, no key lost: one {@code allGather} of count/first/last/sorted per rank) and a checksum
 * {@code sum(key * (globalIndex + 1)) mod 2^64} is {@code reduce}d to rank 0.
 *
 * <p>Usage: {@code SampleSort [TOTAL [REPS]]}, default TOTAL = 4,000,000 and REPS = 5; needs TOTAL &ge; number of
 * ranks. Rank 0 prints {@code RESULT samplesort seconds=<s> check=<c>}, c being the sum over the repetitions of the
 * checksums as an unsigned decimal (exactly the same at every rank count and in every MPI), or {@code unsorted} if a
 * verification failed. The C twin is {@code src/main/c/cold/sample_sort.c}.
 */
public final class SampleSort {
    private SampleSort() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        long total = args.length > 0 ? Long.parseLong(args[0]) : 4_000_000L;
        int reps = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        if (total < size) {
            throw new IllegalArgumentException("SampleSort needs TOTAL >= number of ranks");
        }
        int mine = (int) (total / size + (rank < total % size ? 1 : 0));
        long first = rank * (total / size) + Math.min(rank, total % size); // global index of my first key

        long checksum = 0;
        boolean ok = true;
        MPI.COMM_WORLD.barrier();
        double t0 = MPI.wtime();
        for (int rep = 0; rep < reps; rep++) {
            long[] keys = new long[mine];
            for (int i = 0; i < mine; i++) {
                keys[i] = splitmix64(rep * total + first + i);
            }
            long[] sorted = sort(keys, rank, size);

            // verification and checksum: count, first key, last key, locally sorted? of every rank
            long[] info = new long[4];
            info[0] = sorted.length;
            info[1] = sorted.length > 0 ? sorted[0] : 0;
            info[2] = sorted.length > 0 ? sorted[sorted.length - 1] : 0;
            info[3] = 1;
            for (int i = 1; i < sorted.length; i++) {
                if (sorted[i - 1] > sorted[i]) {
                    info[3] = 0;
                }
            }
            long[] all = new long[4 * size];
            MPI.COMM_WORLD.allGather(info, 4, MPI.LONG, all, 4, MPI.LONG);
            long offset = 0; // global index of my first sorted key
            long count = 0;
            boolean haveLast = false;
            long last = 0;
            for (int r = 0; r < size; r++) {
                if (r < rank) {
                    offset += all[4 * r];
                }
                count += all[4 * r];
                ok &= all[4 * r + 3] == 1;
                if (all[4 * r] > 0) {
                    ok &= !haveLast || last <= all[4 * r + 1];
                    haveLast = true;
                    last = all[4 * r + 2];
                }
            }
            ok &= count == total;
            long[] sum = {0};
            for (int i = 0; i < sorted.length; i++) {
                sum[0] += sorted[i] * (offset + i + 1);
            }
            long[] globalSum = new long[1];
            MPI.COMM_WORLD.reduce(sum, globalSum, 1, MPI.LONG, MPI.SUM, 0);
            checksum += globalSum[0];
        }
        double seconds = MPI.wtime() - t0;

        if (rank == 0) {
            String check = ok ? Long.toUnsignedString(checksum) : "unsorted";
            System.out.printf("RESULT samplesort seconds=%.6e check=%s%n", seconds, check);
        }
        MPI.Finalize();
    }

    /** Sorts the keys across all ranks; returns my part of the global order. */
    static long[] sort(long[] keys, int rank, int size) throws MPIException {
        Arrays.sort(keys);

        // regular samples, gathered everywhere, and the splitters chosen from them
        long[] samples = new long[size];
        for (int i = 0; i < size; i++) {
            samples[i] = keys[(int) ((long) i * keys.length / size)];
        }
        long[] allSamples = new long[size * size];
        MPI.COMM_WORLD.allGather(samples, size, MPI.LONG, allSamples, size, MPI.LONG);
        Arrays.sort(allSamples);
        long[] splitters = new long[size - 1];
        for (int k = 1; k < size; k++) {
            splitters[k - 1] = allSamples[k * size + size / 2 - 1];
        }

        // keys <= splitters[d] (and > splitters[d-1]) go to rank d; the keys are sorted, so walk them once
        int[] sendCounts = new int[size];
        int dest = 0;
        for (int i = 0; i < keys.length; i++) {
            while (dest < size - 1 && keys[i] > splitters[dest]) {
                dest++;
            }
            sendCounts[dest]++;
        }
        int[] recvCounts = new int[size];
        MPI.COMM_WORLD.allToAll(sendCounts, 1, MPI.INT, recvCounts, 1, MPI.INT);

        int[] sendDispls = new int[size];
        int[] recvDispls = new int[size];
        for (int r = 1; r < size; r++) {
            sendDispls[r] = sendDispls[r - 1] + sendCounts[r - 1];
            recvDispls[r] = recvDispls[r - 1] + recvCounts[r - 1];
        }
        // the keys travel in direct buffers: Open MPI's Java bindings (4.1) mis-size their temporary copy of a
        // Java array in the v-collectives (displacement times count of the last block), a direct buffer they pass on
        long[] result = new long[recvDispls[size - 1] + recvCounts[size - 1]];
        LongBuffer sendBuf = MPI.newLongBuffer(keys.length);
        LongBuffer recvBuf = MPI.newLongBuffer(result.length);
        sendBuf.put(0, keys);
        MPI.COMM_WORLD.allToAllv(sendBuf, sendCounts, sendDispls, MPI.LONG, recvBuf, recvCounts, recvDispls, MPI.LONG);
        recvBuf.get(0, result);
        Arrays.sort(result);
        return result;
    }

    /** The (x+1)-th output of a splitmix64 generator started from state 0. */
    static long splitmix64(long x) {
        long z = (x + 1) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
