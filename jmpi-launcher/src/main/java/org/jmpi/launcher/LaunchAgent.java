package org.jmpi.launcher;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How jmpirun starts its proxy on another host: the system {@code ssh} (default, so that {@code ssh_config},
 * {@code ~/.ssh/config} and the agent apply: mpi-operator's {@code Port 2222}, for instance), {@code rsh}, Slurm's
 * {@code srun} (one step per host, inside an allocation), or {@code fork} (every "host" on this machine, for tests).
 *
 * <p>The agent command and its extra arguments can be changed the ways Hydra and Open MPI allow:
 * {@code --launcher-exec} / {@code --launch-agent}, {@code HYDRA_LAUNCHER_EXEC}, {@code HYDRA_BOOTSTRAP_EXEC},
 * {@code I_MPI_HYDRA_BOOTSTRAP_EXEC}, {@code OMPI_MCA_plm_rsh_agent}, {@code PRTE_MCA_plm_ssh_agent}; extra
 * arguments from {@code HYDRA_LAUNCHER_EXTRA_ARGS}, {@code HYDRA_LAUNCH_EXTRA_ARGS},
 * {@code I_MPI_HYDRA_BOOTSTRAP_EXEC_EXTRA_ARGS}, {@code OMPI_MCA_plm_rsh_args}, {@code PRTE_MCA_plm_ssh_args} (for
 * example mpi-operator's {@code -o ConnectionAttempts=10}). Open MPI's agent lists ({@code "ssh : rsh"}) pick the
 * first one found on the {@code PATH}.
 *
 * <p>With the plain {@code ssh} command jmpirun adds {@code -x -T -o BatchMode=yes} (no X11, no terminal, never a
 * password prompt); a custom agent gets only the extra arguments, the host and the command.
 *
 * <p>Threading: immutable.
 *
 * @param kind ssh, rsh, slurm or fork
 * @param command the agent program and its own arguments (empty for fork)
 * @param extraArgs arguments added before the host
 */
public record LaunchAgent(Kind kind, List<String> command, List<String> extraArgs) {
    /** The launch mechanisms. */
    public enum Kind {
        SSH, RSH, SLURM, FORK;

        /** Parses {@code ssh}, {@code rsh}, {@code slurm}/{@code srun}, {@code fork}/{@code local}. */
        public static Kind parse(String s) {
            return switch (s.trim().toLowerCase(Locale.ROOT)) {
                case "ssh" -> SSH;
                case "rsh" -> RSH;
                case "slurm", "srun" -> SLURM;
                case "fork", "local" -> FORK;
                default -> throw new IllegalArgumentException("launcher '" + s + "' is not supported (use ssh, rsh, "
                        + "slurm or fork)");
            };
        }
    }

    public LaunchAgent {
        command = List.copyOf(command);
        extraArgs = List.copyOf(extraArgs);
    }

    /** Plain ssh. */
    public static LaunchAgent ssh() {
        return new LaunchAgent(Kind.SSH, List.of("ssh"), List.of());
    }

    /** Everything on this machine. */
    public static LaunchAgent fork() {
        return new LaunchAgent(Kind.FORK, List.of(), List.of());
    }

    /**
     * The agent the command line and environment ask for.
     *
     * @param kind {@code --launcher}, or null for the environment's choice (else ssh)
     * @param exec {@code --launcher-exec}, or null for the environment's choice
     * @param extra extra arguments from the command line ({@code --mca plm_rsh_args}), or null
     */
    public static LaunchAgent from(String kind, String exec, String extra, Map<String, String> env) {
        String k = kind != null ? kind : first(env, "HYDRA_LAUNCHER", "HYDRA_BOOTSTRAP", "I_MPI_HYDRA_BOOTSTRAP");
        Kind parsed = k == null ? Kind.SSH : Kind.parse(k);
        String e = exec != null ? exec : first(env, "HYDRA_LAUNCHER_EXEC", "HYDRA_BOOTSTRAP_EXEC",
                "I_MPI_HYDRA_BOOTSTRAP_EXEC", "OMPI_MCA_plm_rsh_agent", "PRTE_MCA_plm_ssh_agent");
        String x = extra != null ? extra : first(env, "HYDRA_LAUNCHER_EXTRA_ARGS", "HYDRA_LAUNCH_EXTRA_ARGS",
                "I_MPI_HYDRA_BOOTSTRAP_EXEC_EXTRA_ARGS", "OMPI_MCA_plm_rsh_args", "PRTE_MCA_plm_ssh_args");
        List<String> command;
        if (e != null) {
            command = pickAgent(e, env);
        } else {
            command = switch (parsed) {
                case SSH -> List.of("ssh");
                case RSH -> List.of("rsh");
                case SLURM -> List.of("srun");
                case FORK -> List.of();
            };
        }
        if (e != null && k == null) {
            String base = Path.of(command.get(0)).getFileName().toString();
            if (base.equals("srun")) {
                parsed = Kind.SLURM;
            } else if (base.equals("rsh")) {
                parsed = Kind.RSH;
            }
        }
        return new LaunchAgent(parsed, command, x == null ? List.of() : splitArgs(x));
    }

    /** {@code "ssh : rsh"} (Open MPI) picks the first program found; {@code "ssh -p 2222"} keeps its arguments. */
    private static List<String> pickAgent(String spec, Map<String, String> env) {
        String[] choices = spec.split(":");
        for (String c : choices) {
            List<String> words = splitArgs(c);
            if (!words.isEmpty() && (choices.length == 1 || onPath(words.get(0), env))) {
                return words;
            }
        }
        throw new IllegalArgumentException("none of the launch agents '" + spec + "' is on the PATH");
    }

    private static boolean onPath(String program, Map<String, String> env) {
        if (program.contains("/")) {
            return Files.isExecutable(Path.of(program));
        }
        String path = env.getOrDefault("PATH", "/usr/bin:/bin");
        for (String dir : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    /** Splits on white space, keeping single- or double-quoted parts together. */
    static List<String> splitArgs(String s) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        char quote = 0;
        boolean any = false;
        for (char c : s.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    cur.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                any = true;
            } else if (Character.isWhitespace(c)) {
                if (any || cur.length() > 0) {
                    out.add(cur.toString());
                    cur.setLength(0);
                    any = false;
                }
            } else {
                cur.append(c);
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException("unbalanced quote in '" + s + "'");
        }
        if (any || cur.length() > 0) {
            out.add(cur.toString());
        }
        return out;
    }

    private static String first(Map<String, String> env, String... names) {
        for (String n : names) {
            String v = env.get(n);
            if (v != null && !v.isBlank()) {
                return v.trim();
            }
        }
        return null;
    }

    /**
     * The command that starts {@code proxy} (program and arguments) on {@code host} in {@code workingDirectory}.
     */
    public List<String> commandFor(String host, List<String> proxy, String workingDirectory) {
        List<String> cmd = new ArrayList<>(command);
        switch (kind) {
            case SSH, RSH -> {
                if (kind == Kind.SSH && command.size() == 1 && Path.of(command.get(0)).getFileName().toString()
                        .equals("ssh")) {
                    cmd.addAll(List.of("-x", "-T", "-o", "BatchMode=yes"));
                }
                cmd.addAll(extraArgs);
                cmd.add(host);
                StringBuilder sh = new StringBuilder();
                if (workingDirectory != null) {
                    sh.append("cd ").append(quote(workingDirectory)).append(" 2>/dev/null; ");
                }
                sh.append("exec");
                for (String p : proxy) {
                    sh.append(' ').append(quote(p));
                }
                cmd.add(sh.toString());
            }
            case SLURM -> {
                cmd.addAll(List.of("--nodes=1", "--ntasks=1", "--nodelist=" + host, "--overlap", "--mpi=none",
                        "--input=all", "--unbuffered", "--quiet"));
                if (workingDirectory != null) {
                    cmd.add("--chdir=" + workingDirectory);
                }
                cmd.addAll(extraArgs);
                cmd.addAll(proxy);
            }
            case FORK -> throw new IllegalStateException("fork starts no agent");
        }
        return cmd;
    }

    /** Single-quotes a word for a POSIX shell. */
    static String quote(String s) {
        if (!s.isEmpty() && s.chars().allMatch(c -> Character.isLetterOrDigit(c) || "/._-=:,+@%".indexOf(c) >= 0)) {
            return s;
        }
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
