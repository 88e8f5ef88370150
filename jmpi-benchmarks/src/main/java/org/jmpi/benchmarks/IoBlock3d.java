package org.jmpi.benchmarks;

import java.nio.DoubleBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import mpi.CartComm;
import mpi.Datatype;
import mpi.File;
import mpi.Info;
import mpi.MPI;
import mpi.MPIException;

/**
 * MPI-IO bandwidth on a block-distributed 3-D array: an N x N x N array of doubles in one file (row-major, z
 * fastest), the ranks on a process grid from {@code CartComm.createDims} reversed (the z dimension split first:
 * 1x1x2, 1x2x2), each owning one block, which is noncontiguous in the file (runs of N/pz doubles). Every rank
 * writes its block, then reads it back, through a file view, collectively ({@code writeAll}/{@code readAll}:
 * two-phase I/O) and independently ({@code write}/{@code read}: data sieving). The C twin is {@code src/main/c/mpi_io_block3d.c} (MPICH/ROMIO, same layout, same output).
 *
 * <p>Each figure is the aggregate bandwidth (array bytes over the slowest rank's time, MB/s = 10^6 B/s), median and
 * best of {@code --reps} repetitions; repetitions interleave the modes. The file is deleted at the end. The read
 * back is checked.
 *
 * <p>Options: {@code --dir DIR} (default /tmp), {@code --mib N} (array size, default 256), {@code --reps N}
 * (default 5), {@code --warmup N} (untimed repetitions first, default 3), {@code --sync} (include {@code File.sync}
 * in the write time), {@code --modes coll,indep}, {@code --array} (the block in a Java {@code double[]} instead of a
 * direct buffer).
 */
public final class IoBlock3d {
    private IoBlock3d() {}

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        String dir = "/tmp";
        long mib = 256;
        int reps = 5;
        int warmup = 3;
        boolean sync = false;
        boolean array = false;
        List<String> modes = List.of("coll", "indep");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--dir" -> dir = args[++i];
                case "--mib" -> mib = Long.parseLong(args[++i]);
                case "--reps" -> reps = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--sync" -> sync = true;
                case "--array" -> array = true;
                case "--modes" -> modes = Arrays.asList(args[++i].split(","));
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        int[] dims = new int[3];
        CartComm.createDims(size, dims);
        // split the fastest dimensions first, so that every block is noncontiguous in the file (2 ranks: 1x1x2)
        dims = new int[] {dims[2], dims[1], dims[0]};
        int n = (int) Math.cbrt(mib * (1 << 20) / 8.0);
        n -= n % 12;
        int[] block = {n / dims[0], n / dims[1], n / dims[2]};
        int[] coords = {rank / (dims[1] * dims[2]), (rank / dims[2]) % dims[1], rank % dims[2]};
        long offsetDoubles = ((long) coords[0] * block[0] * n + (long) coords[1] * block[1]) * n
                + (long) coords[2] * block[2];
        Datatype plane = Datatype.createVector(block[1], block[2], n, MPI.DOUBLE);
        Datatype cube = Datatype.createHVector(block[0], 1, n * n * 8, plane);
        cube.commit();
        int local = block[0] * block[1] * block[2];
        // the block in a direct buffer (default) or a Java double[] (--array), written from and read back into
        DoubleBuffer dataBuffer = array ? null : MPI.newDoubleBuffer(local);
        DoubleBuffer backBuffer = array ? null : MPI.newDoubleBuffer(local);
        double[] dataArray = array ? new double[local] : null;
        double[] backArray = array ? new double[local] : null;
        for (int i = 0; i < local; i++) {
            if (array) {
                dataArray[i] = rank * 1e9 + i;
            } else {
                dataBuffer.put(i, rank * 1e9 + i);
            }
        }
        Object data = array ? dataArray : dataBuffer;
        Object back = array ? backArray : backBuffer;
        long bytes = (long) n * n * n * 8;
        String file = Path.of(dir, "jmpi-io-block3d-" + ProcessHandle.current().pid() + ".dat").toString();
        long[] pathLen = {file.length()};
        MPI.COMM_WORLD.bcast(pathLen, 1, MPI.LONG, 0);
        byte[] name = file.getBytes();
        name = Arrays.copyOf(name, (int) pathLen[0]);
        MPI.COMM_WORLD.bcast(name, name.length, MPI.BYTE, 0);
        file = new String(name);
        if (rank == 0) {
            System.out.printf("# jmpi IoBlock3d: %d ranks (grid %dx%dx%d), array %d^3 doubles = %.1f MiB, blocks of"
                    + " %dx%dx%d, %s, %d reps%s, %s%n", size, dims[0], dims[1], dims[2], n, bytes / 1048576.0, block[0],
                    block[1], block[2], dir, reps, sync ? ", write includes sync" : "",
                    array ? "double[]" : "direct DoubleBuffer");
            System.out.printf("# after %d untimed repetitions%n", warmup);
            System.out.printf("# %-6s %-5s %12s %12s%n", "mode", "op", "median MB/s", "best MB/s");
        }
        List<double[]> times = new ArrayList<>();
        for (int m = 0; m < 2 * modes.size(); m++) {
            times.add(new double[reps]);
        }
        // untimed repetitions first: the JIT compiles the view walk, the sieve and two-phase paths during the first
        // ones (independent reads measured 6.5 GB/s median over 5 reps from a cold JVM, 9.4 over 15, best 13.8); the
        // C twin has nothing to warm up, and its timed repetitions are the same as these
        for (int r = -warmup; r < reps; r++) {
            for (int m = 0; m < modes.size(); m++) {
                boolean coll = modes.get(m).equals("coll");
                File f = new File(MPI.COMM_WORLD, file, MPI.MODE_CREATE | MPI.MODE_RDWR, new Info());
                f.setView(offsetDoubles * 8, MPI.DOUBLE, cube, "native");
                MPI.COMM_WORLD.barrier();
                double t0 = MPI.wtime();
                if (coll) {
                    f.writeAll(data, local, MPI.DOUBLE);
                } else {
                    f.write(data, local, MPI.DOUBLE);
                }
                if (sync) {
                    f.sync();
                }
                double tw = slowest(MPI.wtime() - t0);
                MPI.COMM_WORLD.barrier();
                f.seek(0, MPI.SEEK_SET);
                if (array) {
                    Arrays.fill(backArray, 0);
                } else {
                    backBuffer.clear();
                }
                t0 = MPI.wtime();
                if (coll) {
                    f.readAll(back, local, MPI.DOUBLE);
                } else {
                    f.read(back, local, MPI.DOUBLE);
                }
                double tr = slowest(MPI.wtime() - t0);
                f.close();
                boolean same = array
                        ? backArray[local - 1] == dataArray[local - 1] && backArray[0] == dataArray[0]
                        : backBuffer.get(local - 1) == dataBuffer.get(local - 1) && backBuffer.get(0) == dataBuffer.get(0);
                if (!same) {
                    throw new IllegalStateException("read back wrong data");
                }
                if (r >= 0) {
                    times.get(2 * m)[r] = tw;
                    times.get(2 * m + 1)[r] = tr;
                }
                MPI.COMM_WORLD.barrier();
                if (rank == 0) {
                    File.delete(file);
                }
            }
        }
        if (rank == 0) {
            for (int m = 0; m < modes.size(); m++) {
                for (int op = 0; op < 2; op++) {
                    double[] t = times.get(2 * m + op).clone();
                    Arrays.sort(t);
                    System.out.printf("  %-6s %-5s %12.1f %12.1f%n", modes.get(m), op == 0 ? "write" : "read",
                            bytes / t[t.length / 2] / 1e6, bytes / t[0] / 1e6);
                }
            }
        }
        cube.free();
        plane.free();
        MPI.Finalize();
    }

    private static double slowest(double t) throws MPIException {
        double[] v = {t};
        MPI.COMM_WORLD.allReduce(v, 1, MPI.DOUBLE, MPI.MAX);
        return v[0];
    }
}
