package org.jmpi.junit;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;
import org.junit.platform.commons.support.AnnotationSupport;
import org.opentest4j.TestAbortedException;

/**
 * The extension behind {@link MpiTest}: provides one invocation per (mode, rank count) and replaces each
 * invocation's call of the test method by a multi-rank run. Registered by the annotation; not meant to be
 * registered by hand.
 */
public final class MpiTestExtension implements TestTemplateInvocationContextProvider {
    /**
     * Comma-separated modes to run ({@code threads}, {@code processes}); unset means every declared mode. A JUnit
     * configuration parameter: a system property or an entry of {@code junit-platform.properties}.
     */
    public static final String MODES_PROPERTY = "jmpi.junit.modes";
    /** Factor applied to every {@link MpiTest#timeoutSeconds()}; a JUnit configuration parameter like the above. */
    public static final String TIMEOUT_FACTOR_PROPERTY = "jmpi.junit.timeoutFactor";

    @Override
    public boolean supportsTestTemplate(ExtensionContext context) {
        return context.getTestMethod().map(m -> AnnotationSupport.isAnnotated(m, MpiTest.class)).orElse(false);
    }

    @Override
    public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
        Method method = context.getRequiredTestMethod();
        MpiTest a = AnnotationSupport.findAnnotation(method, MpiTest.class).orElseThrow();
        if (a.ranks().length == 0 || a.modes().length == 0) {
            throw new ExtensionConfigurationException("@MpiTest on " + method.getName() + " needs ranks and modes");
        }
        for (int n : a.ranks()) {
            if (n < 1) {
                throw new ExtensionConfigurationException("@MpiTest on " + method.getName() + ": rank count " + n);
            }
        }
        if (a.timeoutSeconds() <= 0) {
            throw new ExtensionConfigurationException("@MpiTest on " + method.getName() + ": timeoutSeconds "
                    + a.timeoutSeconds());
        }
        long timeoutNanos = (long) (TimeUnit.SECONDS.toNanos(a.timeoutSeconds())
                * timeoutFactor(context.getConfigurationParameter(TIMEOUT_FACTOR_PROPERTY).orElse(null)));
        String modesFilter = context.getConfigurationParameter(MODES_PROPERTY).orElse(null);
        Set<Mode> allowed = allowedModes(modesFilter);
        List<TestTemplateInvocationContext> out = new ArrayList<>();
        for (Mode mode : new LinkedHashSet<>(Arrays.asList(a.modes()))) {
            if (!allowed.contains(mode)) {
                continue;
            }
            for (int n : Arrays.stream(a.ranks()).distinct().toArray()) {
                out.add(new Invocation(mode, n, timeoutNanos, a, null));
            }
        }
        if (out.isEmpty()) {
            out.add(new Invocation(a.modes()[0], a.ranks()[0], timeoutNanos, a,
                    "none of the modes " + Arrays.toString(a.modes()) + " is allowed by " + MODES_PROPERTY + "="
                            + modesFilter));
        }
        return out.stream();
    }

    static Set<Mode> allowedModes(String p) {
        if (p == null || p.isBlank()) {
            return EnumSet.allOf(Mode.class);
        }
        Set<Mode> modes = EnumSet.noneOf(Mode.class);
        for (String s : p.split(",")) {
            if (!s.isBlank()) {
                try {
                    modes.add(Mode.valueOf(s.strip().toUpperCase(Locale.ROOT)));
                } catch (IllegalArgumentException e) {
                    throw new ExtensionConfigurationException(MODES_PROPERTY + ": unknown mode '" + s.strip()
                            + "' (threads, processes)");
                }
            }
        }
        return modes;
    }

    static double timeoutFactor(String p) {
        if (p == null || p.isBlank()) {
            return 1.0;
        }
        double f;
        try {
            f = Double.parseDouble(p.strip());
        } catch (NumberFormatException e) {
            f = Double.NaN;
        }
        if (!(f > 0) || Double.isInfinite(f)) {
            throw new ExtensionConfigurationException(TIMEOUT_FACTOR_PROPERTY + " must be positive, not " + p);
        }
        return f;
    }

    /** One (mode, rank count) invocation; also its own interceptor and {@link MpiTestContext} resolver. */
    private static final class Invocation
            implements TestTemplateInvocationContext, InvocationInterceptor, ParameterResolver {
        private final Mode mode;
        private final int ranks;
        private final long timeoutNanos;
        private final MpiTest settings;
        private final String skipReason;

        Invocation(Mode mode, int ranks, long timeoutNanos, MpiTest settings, String skipReason) {
            this.mode = mode;
            this.ranks = ranks;
            this.timeoutNanos = timeoutNanos;
            this.settings = settings;
            this.skipReason = skipReason;
        }

        @Override
        public String getDisplayName(int invocationIndex) {
            return skipReason != null ? "[skipped]" : displayName();
        }

        private String displayName() {
            return "[" + mode.label() + ", " + ranks + (ranks == 1 ? " rank]" : " ranks]");
        }

        @Override
        public List<Extension> getAdditionalExtensions() {
            return List.of(this);
        }

        @Override
        public boolean supportsParameter(ParameterContext pc, ExtensionContext ec) {
            return pc.getParameter().getType() == MpiTestContext.class;
        }

        @Override
        public Object resolveParameter(ParameterContext pc, ExtensionContext ec) {
            // Only satisfies JUnit's resolution; every rank gets a context of its own.
            return new MpiTestContext(0, ranks, mode);
        }

        @Override
        public void interceptTestTemplateMethod(InvocationInterceptor.Invocation<Void> invocation,
                ReflectiveInvocationContext<Method> invocationContext, ExtensionContext extensionContext)
                throws Throwable {
            invocation.skip();
            if (skipReason != null) {
                throw new TestAbortedException(skipReason);
            }
            Class<?> testClass = extensionContext.getRequiredTestClass();
            RankTask task = RankTask.of(testClass, invocationContext.getExecutable(), settings.init());
            Outcome outcome = switch (mode) {
                case THREADS -> ThreadsRunner.run(task, ranks, timeoutNanos, testClass.getClassLoader());
                case PROCESSES -> ProcessesRunner.run(task, ranks, timeoutNanos, List.of(settings.jvmArgs()),
                        settings.hosts(), settings.roundRobin());
            };
            Throwable error = FailureReport.of(outcome, displayName());
            if (error != null) {
                throw error;
            }
        }
    }
}
