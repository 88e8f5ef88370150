package mpi;

/** Handles with a {@code free()}, as in MPJ Express (package-private there too). */
interface Freeable {
    void free();
}
