/**
 * The cold benchmark suite: mini-applications written the way textbook MPI codes are written (as a scientist would
 * write them, not tuned for any MPI), each one short run of its own JVMs that prints one line {@code RESULT <name>
 * seconds=<s> check=<v>} on rank 0, with a C twin under {@code src/main/c/cold/} computing the same thing for MPICH,
 * so the check values can be compared across implementations. These programs import only {@code mpi.*} and
 * {@code java.*} and keep to the long-standing core of the API, so that the same sources compile unchanged against
 * Open MPI's Java bindings as well as against jmpi.
 */
package org.jmpi.benchmarks.cold;
