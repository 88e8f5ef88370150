package org.jmpi.topo;

import java.util.ArrayList;
import java.util.List;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;

/**
 * MPI_Dims_create: fills the zero entries of {@code dims} so that the product of all entries is {@code nnodes} and
 * the filled entries are as close to each other as possible, in non-increasing order.
 *
 * <p>Idea: factor {@code nnodes / (product of the fixed entries)} into primes and hand the primes, largest first, to
 * the free dimension with the smallest product so far; then sort the free dimensions in non-increasing order. Cost:
 * {@code O(sqrt(n) + f * k)} for {@code f} prime factors and {@code k} free dimensions.
 *
 * <p>Threading: stateless.
 */
public final class Dims {
    private Dims() {}

    public static void create(int nnodes, int[] dims) {
        if (dims == null) {
            throw new MpiError(ErrorClass.ERR_ARG, "dims must not be null");
        }
        if (nnodes < 0) {
            throw new MpiError(ErrorClass.ERR_ARG, "invalid number of nodes " + nnodes);
        }
        long fixed = 1;
        int free = 0;
        for (int d : dims) {
            if (d < 0) {
                throw new MpiError(ErrorClass.ERR_DIMS, "invalid dimension " + d + " (dimensions must be >= 0)");
            }
            if (d == 0) {
                free++;
            } else {
                fixed *= d;
            }
        }
        if (nnodes == 0 ? fixed != 1 && free == 0 : nnodes % fixed != 0) {
            throw new MpiError(ErrorClass.ERR_DIMS, "the fixed dimensions (product " + fixed + ") do not divide "
                    + nnodes);
        }
        if (free == 0) {
            if (fixed != nnodes) {
                throw new MpiError(ErrorClass.ERR_DIMS, "the dimensions multiply to " + fixed + ", not " + nnodes);
            }
            return;
        }
        long rest = nnodes / fixed;
        List<Integer> primes = new ArrayList<>();
        long n = rest;
        for (int p = 2; (long) p * p <= n; p++) {
            while (n % p == 0) {
                primes.add(p);
                n /= p;
            }
        }
        if (n > 1) {
            primes.add((int) n);
        }
        int[] f = new int[free];
        java.util.Arrays.fill(f, 1);
        for (int i = primes.size() - 1; i >= 0; i--) {
            int best = 0;
            for (int j = 1; j < free; j++) {
                if (f[j] < f[best]) {
                    best = j;
                }
            }
            f[best] *= primes.get(i);
        }
        java.util.Arrays.sort(f);
        for (int i = 0, j = free - 1; i < dims.length; i++) {
            if (dims[i] == 0) {
                dims[i] = f[j--];
            }
        }
    }
}
