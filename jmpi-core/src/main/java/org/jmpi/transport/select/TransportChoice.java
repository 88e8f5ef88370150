package org.jmpi.transport.select;

import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * How a rank chooses its transports, read once from {@code jmpi.transport} / {@code JMPI_TRANSPORT} and
 * {@code jmpi.verbose} / {@code JMPI_VERBOSE}.
 *
 * @param mode {@code auto} (default): shared memory to ranks of this host, TCP to the others, TCP to local ranks too
 *     when shared memory cannot be set up (with a warning); {@code shm}: the same, but failing to set up shared
 *     memory is an error; {@code tcp}: TCP to everyone
 * @param verbose print, once per rank, which transport serves which peer (jmpirun {@code --verbose} sets it)
 */
public record TransportChoice(Mode mode, boolean verbose) {
    /** The values of {@code jmpi.transport}. */
    public enum Mode {
        AUTO,
        SHM,
        TCP
    }

    static final String TRANSPORT = "jmpi.transport";
    static final String VERBOSE = "jmpi.verbose";

    public static TransportChoice fromEnvironment() {
        return from(System::getProperty, System::getenv);
    }

    static TransportChoice from(UnaryOperator<String> properties, UnaryOperator<String> environment) {
        UnaryOperator<String> raw = name -> {
            String v = properties.apply(name);
            if (v == null) {
                v = environment.apply(name.toUpperCase(Locale.ROOT).replace('.', '_'));
            }
            return v == null || v.isBlank() ? null : v.trim().toLowerCase(Locale.ROOT);
        };
        String t = raw.apply(TRANSPORT);
        Mode mode = t == null ? Mode.AUTO : switch (t) {
            case "auto" -> Mode.AUTO;
            case "shm", "sm", "vader" -> Mode.SHM;
            case "tcp" -> Mode.TCP;
            default -> throw new IllegalArgumentException(TRANSPORT + "=" + t + " is not auto, shm or tcp");
        };
        String v = raw.apply(VERBOSE);
        boolean verbose = v != null && !v.equals("0") && !v.equals("false") && !v.equals("no") && !v.equals("off");
        return new TransportChoice(mode, verbose);
    }
}
