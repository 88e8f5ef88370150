package org.jmpi.bootstrap;

import java.util.Map;
import org.jmpi.bootstrap.pmi.Pmi1Bootstrap;
import org.jmpi.bootstrap.pmi.Pmi2Bootstrap;
import org.jmpi.bootstrap.pmi.PmiException;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;
import org.jmpi.shared.RankClassLoader;

/**
 * Finds out how this rank was started and returns the matching {@link Bootstrap}. Detection order:
 *
 * <ol>
 *   <li>a thread of a threads-mode job (the rank's class loader says so);</li>
 *   <li>{@code PMI_FD}: Hydra's default, Slurm's {@code srun --mpi=pmi2}. PMI-2 framing under Slurm (when
 *       {@code PMI_JOBID} and {@code SLURM_JOB_ID} are set), PMI-1 otherwise; {@code JMPI_PMI=1} or {@code 2}
 *       forces one;</li>
 *   <li>{@code PMI_PORT} with {@code PMI_ID}: PMI-1 over TCP (jmpirun, {@code mpiexec.hydra -pmi-port});</li>
 *   <li>{@code JMPI_KVS=host:port}: env-only mode, for launchers that give no PMI (Open MPI's {@code mpirun},
 *       {@code srun --mpi=none}): rank and size from the launcher's variables (see {@link #envRankAndSize}), keys
 *       through jmpirun's rendezvous server;</li>
 *   <li>a PMIx-only launcher ({@code PMIX_RANK} or {@code OMPI_COMM_WORLD_SIZE} set, nothing above): an error that
 *       says which launchers work;</li>
 *   <li>nothing: a singleton (rank 0 of 1).</li>
 * </ol>
 *
 * Every process-manager bootstrap is wrapped in a {@link JobBootstrap} (job secret, locality, failure notices), and
 * {@link #detect()} arms the {@link Lifeline} for it: the rank ends when its launcher does.
 */
public final class BootstrapFactory {
    private BootstrapFactory() {}

    /** The message for a rank started by a launcher that only speaks PMIx. */
    public static final String PMIX_ONLY_MESSAGE = "this rank was started by a PMIx-only launcher (Open MPI's mpirun, "
            + "or srun --mpi=pmix), which a pure-Java rank cannot talk to. Launchers that work: jmpirun, "
            + "mpiexec.hydra (MPICH), srun --mpi=pmi2 (Slurm); or keep this launcher and give every rank jmpirun's "
            + "rendezvous server: jmpirun --kvs-server -- mpirun -x JMPI_KVS -x JMPI_SECRET ...";

    public static Bootstrap detect() {
        if (BootstrapFactory.class.getClassLoader() instanceof RankClassLoader loader) {
            return new ThreadsBootstrap(loader.job(), loader.rank());
        }
        Map<String, String> env = System.getenv();
        boolean managed = present(env, "PMI_FD") || present(env, "PMI_PORT") || present(env, "JMPI_KVS");
        if (managed) {
            Lifeline.watchParent(env); // first: the parent may die while we connect
        }
        try {
            Bootstrap b = fromEnvironment(env);
            if (managed) {
                Lifeline.name("rank " + b.rank());
                b.watchEnd(() -> Lifeline.launcherLost("the process manager closed its connection to this rank "
                        + "(the launcher is gone)"));
            }
            return b;
        } catch (PmiException | IllegalArgumentException | IllegalStateException e) {
            throw new MpiError(ErrorClass.ERR_OTHER, "cannot start: " + e.getMessage());
        }
    }

    /** {@link #detect()} for processes, with an explicit environment (for tests). */
    public static Bootstrap fromEnvironment(Map<String, String> env) {
        if (present(env, "PMI_FD")) {
            if (usePmi2(env)) {
                Pmi2Bootstrap p = Pmi2Bootstrap.fromEnvironment(env);
                return new JobBootstrap(p, p.processMapping(), env);
            }
            Pmi1Bootstrap p = Pmi1Bootstrap.fromEnvironment(env);
            return new JobBootstrap(p, p.processMapping(), env);
        }
        if (present(env, "PMI_PORT")) {
            Pmi1Bootstrap p = Pmi1Bootstrap.fromEnvironment(env);
            return new JobBootstrap(p, p.processMapping(), env);
        }
        if (present(env, "JMPI_KVS")) {
            int[] rs = envRankAndSize(env);
            if (rs == null) {
                throw new PmiException("JMPI_KVS is set, but no variable tells this rank its rank and the job size "
                        + "(JMPI_RANK/JMPI_SIZE, OMPI_COMM_WORLD_RANK/OMPI_COMM_WORLD_SIZE, SLURM_PROCID/SLURM_NTASKS, "
                        + "PMI_RANK/PMI_SIZE or PMIX_RANK with one of the sizes)");
            }
            Pmi1Bootstrap p = Pmi1Bootstrap.connectKvs(env.get("JMPI_KVS").trim(), rs[0], rs[1],
                    env.get(Pmi1Bootstrap.SECRET_VARIABLE));
            return new JobBootstrap(p, null, env);
        }
        if (present(env, "PMIX_RANK") || present(env, "OMPI_COMM_WORLD_SIZE")) {
            throw new PmiException(PMIX_ONLY_MESSAGE);
        }
        return new SingletonBootstrap();
    }

    /** PMI-2 when forced by {@code JMPI_PMI=2}, or by default under Slurm; PMI-1 otherwise. */
    static boolean usePmi2(Map<String, String> env) {
        String forced = env.get("JMPI_PMI");
        if (forced != null && !forced.isBlank()) {
            return switch (forced.trim()) {
                case "1" -> false;
                case "2" -> true;
                default -> throw new PmiException("JMPI_PMI must be 1 or 2, not '" + forced + "'");
            };
        }
        return present(env, "PMI_JOBID") && present(env, "SLURM_JOB_ID");
    }

    /**
     * Rank and size for env-only mode, from the first complete pair of: {@code JMPI_RANK}/{@code JMPI_SIZE},
     * {@code OMPI_COMM_WORLD_RANK}/{@code OMPI_COMM_WORLD_SIZE}, {@code SLURM_PROCID}/{@code SLURM_NTASKS},
     * {@code PMI_RANK}/{@code PMI_SIZE}, {@code PMIX_RANK} with {@code OMPI_COMM_WORLD_SIZE}, {@code SLURM_NTASKS}
     * or {@code JMPI_SIZE}. Null when none is complete.
     */
    static int[] envRankAndSize(Map<String, String> env) {
        String[][] pairs = {
            {"JMPI_RANK", "JMPI_SIZE"},
            {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
            {"SLURM_PROCID", "SLURM_NTASKS"},
            {"PMI_RANK", "PMI_SIZE"},
            {"PMIX_RANK", "OMPI_COMM_WORLD_SIZE"},
            {"PMIX_RANK", "SLURM_NTASKS"},
            {"PMIX_RANK", "JMPI_SIZE"},
        };
        for (String[] p : pairs) {
            if (present(env, p[0]) && present(env, p[1])) {
                int rank = number(env, p[0]);
                int size = number(env, p[1]);
                if (size < 1 || rank < 0 || rank >= size) {
                    throw new PmiException(p[0] + "=" + rank + " and " + p[1] + "=" + size + " do not make a rank");
                }
                return new int[] {rank, size};
            }
        }
        return null;
    }

    private static int number(Map<String, String> env, String name) {
        try {
            return Integer.parseInt(env.get(name).trim());
        } catch (NumberFormatException e) {
            throw new PmiException(name + " must be a number, not '" + env.get(name) + "'", e);
        }
    }

    private static boolean present(Map<String, String> env, String name) {
        String v = env.get(name);
        return v != null && !v.isBlank();
    }
}
