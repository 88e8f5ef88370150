package mpi;

import java.util.Map;
import org.jmpi.dpm.DynamicProcesses;
import org.jmpi.runtime.JmpiRuntime;

/**
 * Fills {@link MPI#INFO_ENV} at initialisation with the keys MPI defines for it (MPI-4.1, 11.2.1) that jmpi knows,
 * under every launcher: {@code command} (the main class the rank runs), {@code argv} (the program's arguments,
 * separated by spaces), {@code maxprocs} (the size of {@code MPI_COMM_WORLD}), {@code host} (the processor name),
 * {@code arch} (the JVM's {@code os.arch}), {@code wdir} (the working directory) and {@code thread_level} (the level
 * provided, e.g. {@code MPI_THREAD_MULTIPLE}); {@code soft} equal to {@code maxprocs}, as Open MPI sets it; and Open
 * MPI's own keys (4.1 and 5.0, ompi/info/info.c), which programs written for it read: {@code ompi_num_apps} (the number
 * of application contexts: the ':'-separated parts of the launch command, the commands of a spawnMultiple),
 * {@code ompi_first_rank} (the first world rank of each, space-separated) and {@code ompi_np} (the number of ranks of
 * each, space-separated); left out when the launcher does not say (see
 * {@link org.jmpi.dpm.DynamicProcesses#appSizes()}). Not set: {@code file} (Open MPI does not set it either),
 * {@code ompi_positioned_file_dir} (jmpi does not preposition files) and {@code mpi_initial_errhandler} (jmpi's
 * launchers have no option for it).
 */
final class InfoEnv {
    private InfoEnv() {}

    static void fill(Info env, String[] args, JmpiRuntime rt) {
        // written once by the initialising thread, before any other thread of the rank can use MPI
        Map<String, String> e = env.entries;
        e.clear();
        String command = mainClass();
        if (command != null) {
            e.put("command", command);
        }
        e.put("argv", args == null ? "" : String.join(" ", args));
        e.put("maxprocs", Integer.toString(rt.world().size()));
        e.put("soft", Integer.toString(rt.world().size()));
        e.put("host", JmpiRuntime.processorName());
        e.put("arch", System.getProperty("os.arch", ""));
        e.put("wdir", System.getProperty("user.dir", ""));
        e.put("thread_level", threadLevelName(rt.threadLevel()));
        int[] apps = DynamicProcesses.appSizes();
        if (apps != null) {
            StringBuilder first = new StringBuilder();
            StringBuilder np = new StringBuilder();
            for (int a = 0, r = 0; a < apps.length; r += apps[a], a++) {
                String sep = a == 0 ? "" : " ";
                first.append(sep).append(r);
                np.append(sep).append(apps[a]);
            }
            e.put("ompi_num_apps", Integer.toString(apps.length));
            e.put("ompi_first_rank", first.toString());
            e.put("ompi_np", np.toString());
        }
    }

    /** The class whose static {@code main} is the outermost on this thread's stack (the rank's program). */
    private static String mainClass() {
        String found = StackWalker.getInstance().walk(frames -> frames
                .filter(f -> f.getMethodName().equals("main") && !f.getClassName().startsWith("java."))
                .reduce((first, second) -> second).map(StackWalker.StackFrame::getClassName).orElse(null));
        if (found != null) {
            return found;
        }
        String cmd = System.getProperty("sun.java.command", "").trim();
        return cmd.isEmpty() ? null : cmd.split("\\s+")[0];
    }

    static String threadLevelName(int level) {
        return switch (level) {
            case MPI.THREAD_SINGLE -> "MPI_THREAD_SINGLE";
            case MPI.THREAD_FUNNELED -> "MPI_THREAD_FUNNELED";
            case MPI.THREAD_SERIALIZED -> "MPI_THREAD_SERIALIZED";
            default -> "MPI_THREAD_MULTIPLE";
        };
    }
}
