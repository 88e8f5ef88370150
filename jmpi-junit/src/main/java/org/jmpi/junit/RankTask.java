package org.jmpi.junit;

import java.lang.reflect.Method;
import java.util.List;

/**
 * What every rank of one invocation runs, by name only (so it can be resolved through any class loader and passed
 * to a rank JVM on its command line).
 *
 * @param testClass the test class whose fresh instance the method runs on (may be a subclass of the declarer)
 * @param declaringClass the class declaring the method
 * @param method the method name
 * @param takesContext whether the method's single parameter is a {@link MpiTestContext}
 * @param init whether to call {@code MPI.Init} / {@code MPI.Finalize} around the body
 */
record RankTask(String testClass, String declaringClass, String method, boolean takesContext, boolean init) {

    static RankTask of(Class<?> testClass, Method method, boolean init) {
        Class<?>[] p = method.getParameterTypes();
        boolean takesContext = p.length == 1 && p[0] == MpiTestContext.class;
        if (p.length > 1 || (p.length == 1 && !takesContext)) {
            throw new IllegalArgumentException("@MpiTest method " + method.getName()
                    + " may take no parameter or one MpiTestContext, not " + List.of(p));
        }
        return new RankTask(testClass.getName(), method.getDeclaringClass().getName(), method.getName(),
                takesContext, init);
    }

    /** Command-line form, read back by {@link #fromArgs}. */
    List<String> toArgs() {
        return List.of(testClass, declaringClass, method, Boolean.toString(takesContext), Boolean.toString(init));
    }

    static RankTask fromArgs(String[] args, int from) {
        if (args.length < from + 5) {
            throw new IllegalArgumentException("expected <testClass> <declaringClass> <method> <takesContext> <init>");
        }
        return new RankTask(args[from], args[from + 1], args[from + 2], Boolean.parseBoolean(args[from + 3]),
                Boolean.parseBoolean(args[from + 4]));
    }
}
