package org.jmpi.bootstrap;

import java.util.Map;
import org.jmpi.bootstrap.pmi.Pmi1Bootstrap;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;
import org.jmpi.shared.RankClassLoader;

/**
 * Finds out how this rank was started and returns the matching {@link Bootstrap}, in this order: a thread of a
 * threads-mode job (the rank's class loader says so), PMI-1 over TCP ({@code PMI_PORT}/{@code PMI_ID}, our
 * jmpirun or {@code mpiexec.hydra -pmi-port}), a PMIx-only launcher (an error with advice), else a singleton.
 */
public final class BootstrapFactory {
    private BootstrapFactory() {}

    public static Bootstrap detect() {
        if (BootstrapFactory.class.getClassLoader() instanceof RankClassLoader loader) {
            return new ThreadsBootstrap(loader.job(), loader.rank());
        }
        Map<String, String> env = System.getenv();
        Bootstrap pmi = Pmi1Bootstrap.fromEnvironment(env);
        if (pmi != null) {
            return pmi;
        }
        if (env.containsKey("PMIX_RANK") || env.containsKey("OMPI_COMM_WORLD_SIZE")) {
            throw new MpiError(ErrorClass.ERR_OTHER, "this rank was started by a PMIx-only launcher (Open MPI's "
                    + "mpirun or srun --mpi=pmix), which a pure-Java rank cannot talk to. Use jmpirun, "
                    + "mpiexec.hydra or srun --mpi=pmi2.");
        }
        return new SingletonBootstrap();
    }
}
