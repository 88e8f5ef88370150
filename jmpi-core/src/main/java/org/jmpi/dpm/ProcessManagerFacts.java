package org.jmpi.dpm;

import org.jmpi.bootstrap.pmi.Pmi1Bootstrap;
import org.jmpi.runtime.JmpiRuntime;

/**
 * What the process manager says of this process's place among jobs, when jmpirun's environment does not say it:
 * the application number and the universe size, asked once of mpiexec.hydra over PMI-1 ({@code get_appnum},
 * {@code get_universe_size}) and remembered for the runtime. Hydra numbers the commands of a spawnMultiple from 0
 * in the job it spawns, so children it started learn their {@code MPI.APPNUM} here.
 *
 * <p>Threading: the answers are computed at most a few times (racing callers ask the same server the same thing)
 * and published through a volatile record.
 */
final class ProcessManagerFacts {
    private ProcessManagerFacts() {}

    /** The answers for one runtime; -1 where the process manager does not know. */
    private record Facts(JmpiRuntime runtime, int appnum, int universe) {}

    private static volatile Facts facts;

    private static Facts of(JmpiRuntime rt) {
        Facts f = facts;
        if (f == null || f.runtime() != rt) {
            Pmi1Bootstrap hydra = Spawner.hydra(rt);
            try {
                f = hydra == null ? new Facts(rt, -1, -1) : new Facts(rt, hydra.appnum(), hydra.universeSize());
            } catch (RuntimeException e) { // PmiException: the connection broke; the job is ending
                return new Facts(rt, -1, -1);
            }
            facts = f;
        }
        return f;
    }

    /** The application number the process manager gives this process, or -1. */
    static int appnum(JmpiRuntime rt) {
        return of(rt).appnum();
    }

    /** The universe size the process manager gives, or -1. */
    static int universeSize(JmpiRuntime rt) {
        return of(rt).universe();
    }
}
