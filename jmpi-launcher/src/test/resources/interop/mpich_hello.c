#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
    int rank, size, sum, token = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && size > 1) { token = 42; MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD); }
    else if (rank == 1) MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("C/MPICH rank %d/%d allreduce=%d token=%d\n", rank, size, sum, token);
    MPI_Finalize();
    return 0;
}
