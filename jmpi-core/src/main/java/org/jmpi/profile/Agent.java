package org.jmpi.profile;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The Java agent in jmpi-core's jar ({@code -javaagent:jmpi-core.jar[=Tool,Tool]}): intercepts the MPI calls of
 * package {@code mpi} with {@link Instrumenter} as its classes load, for the tools named in the agent's argument or in
 * {@code jmpi.tools} / {@code JMPI_TOOLS} (see {@link Hooks}). jmpirun adds it to every rank's JVM when given
 * {@code --tool} or {@code --summary}.
 */
public final class Agent {
    private static final AtomicBoolean REPORTED = new AtomicBoolean();

    private Agent() {}

    @SuppressWarnings("exports") // called by the JVM for -javaagent, not by clients of the module
    public static void premain(String args, Instrumentation inst) {
        if (args != null && !args.isBlank() && System.getProperty("jmpi.tools") == null) {
            System.setProperty("jmpi.tools", args);
        }
        inst.addTransformer(new ClassFileTransformer() {
            @Override
            public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
                    ProtectionDomain domain, byte[] bytes) {
                if (className == null || !className.startsWith("mpi/")) {
                    return null;
                }
                try {
                    return Instrumenter.transform(className, bytes);
                } catch (RuntimeException | LinkageError e) {
                    if (REPORTED.compareAndSet(false, true)) {
                        System.err.println("jmpi: cannot intercept the calls of " + className + ": " + e
                                + " (that class runs without its tools)");
                    }
                    return null;
                }
            }
        });
    }
}
