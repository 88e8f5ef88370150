package org.jmpi.shared;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * Finds and calls a program's {@code main} the way the {@code java} launcher of JDK 25 does (JEP 512), so that
 * {@code jmpirun --threads} runs whatever {@code java Main} runs: the class need not be public, nor the method
 * (any access but private); a {@code static main(String[])} is preferred, then a {@code static main()}, then an
 * instance {@code main(String[])} or {@code main()} on an object made with the class's no-argument constructor.
 * Inherited methods count. When there is none, the message is the {@code java} launcher's.
 *
 * <p>Threading: stateless.
 */
public final class MainMethod {
    private final Method method;
    private final boolean takesArgs;

    private MainMethod(Method method) {
        this.method = method;
        this.takesArgs = method.getParameterCount() == 1;
    }

    /** Thrown when the class has no usable main method or cannot be loaded; the message is what java prints. */
    public static final class NotFound extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotFound(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * The main method of class {@code name} as seen by {@code loader}.
     *
     * @throws NotFound when the class cannot be loaded or has no main method
     */
    public static MainMethod of(String name, ClassLoader loader) {
        Class<?> c;
        try {
            c = Class.forName(name, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new NotFound("Error: Could not find or load main class " + name + "\nCaused by: " + e, e);
        }
        Method best = null;
        int bestRank = Integer.MAX_VALUE;
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            for (Method m : k.getDeclaredMethods()) {
                int rank = rank(m);
                if (rank < bestRank && !overridden(m, c, k)) {
                    best = m;
                    bestRank = rank;
                }
            }
        }
        if (best == null) {
            throw new NotFound("Error: Main method not found in class " + name + ", please define the main method as:\n"
                    + "   public static void main(String[] args)\n"
                    + "or a JavaFX application class must extend javafx.application.Application", null);
        }
        best.setAccessible(true);
        return new MainMethod(best);
    }

    /** 0-3 in the launcher's order of preference, or MAX_VALUE when {@code m} is no main method. */
    private static int rank(Method m) {
        int mod = m.getModifiers();
        if (!m.getName().equals("main") || Modifier.isPrivate(mod) || m.getReturnType() != void.class) {
            return Integer.MAX_VALUE;
        }
        boolean args = m.getParameterCount() == 1 && m.getParameterTypes()[0] == String[].class;
        boolean none = m.getParameterCount() == 0;
        if (!args && !none) {
            return Integer.MAX_VALUE;
        }
        return (Modifier.isStatic(mod) ? 0 : 2) + (args ? 0 : 1);
    }

    /** True when a subclass between {@code c} and {@code declaring} already declares the same signature. */
    private static boolean overridden(Method m, Class<?> c, Class<?> declaring) {
        for (Class<?> k = c; k != declaring; k = k.getSuperclass()) {
            try {
                k.getDeclaredMethod(m.getName(), m.getParameterTypes());
                return true;
            } catch (NoSuchMethodException e) {
                // not here
            }
        }
        return false;
    }

    /** Calls the method with {@code args}; the program's own exception comes out as the cause. */
    public void invoke(String[] args) throws InvocationTargetException, ReflectiveOperationException {
        Object target = null;
        Class<?> c = method.getDeclaringClass();
        if (!Modifier.isStatic(method.getModifiers())) {
            Constructor<?> k;
            try {
                k = c.getDeclaredConstructor();
            } catch (NoSuchMethodException e) {
                throw new NotFound("Error: the class " + c.getName() + " has an instance main method but no "
                        + "non-private zero-argument constructor", e);
            }
            k.setAccessible(true);
            target = k.newInstance();
        }
        if (takesArgs) {
            method.invoke(target, (Object) args);
        } else {
            method.invoke(target);
        }
    }
}
