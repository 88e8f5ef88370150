package mpi;

/** The version of the MPI standard that the library implements, as returned by {@link MPI#getVersion()}. */
public final class Version {
    private final int version;
    private final int subVersion;

    Version(int version, int subVersion) {
        this.version = version;
        this.subVersion = subVersion;
    }

    /** The major version, e.g. 3 for MPI-3.1. */
    public int getVersion() {
        return version;
    }

    /** The minor version, e.g. 1 for MPI-3.1. */
    public int getSubVersion() {
        return subVersion;
    }

    @Override
    public String toString() {
        return version + "." + subVersion;
    }
}
