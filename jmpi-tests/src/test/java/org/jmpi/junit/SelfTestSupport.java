package org.jmpi.junit;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.List;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/** Runs an inner test class through the Jupiter engine and hands back what its invocations threw. */
final class SelfTestSupport {
    private SelfTestSupport() {}

    static EngineExecutionResults run(Class<?> testClass) {
        return EngineTestKit.engine("junit-jupiter")
                .configurationParameter(OnlyThroughTestKit.PARAMETER, "true")
                .configurationParameter(MpiTestExtension.MODES_PROPERTY, "threads,processes")
                .configurationParameter(MpiTestExtension.TIMEOUT_FACTOR_PROPERTY, "1")
                .selectors(selectClass(testClass))
                .execute();
    }

    /** The exceptions of every failed test (invocation), in the order they finished. */
    static List<Throwable> failures(EngineExecutionResults results) {
        return results.testEvents().failed().stream()
                .map(SelfTestSupport::throwable)
                .toList();
    }

    private static Throwable throwable(Event e) {
        return e.getPayload(org.junit.platform.engine.TestExecutionResult.class)
                .flatMap(org.junit.platform.engine.TestExecutionResult::getThrowable)
                .orElseThrow();
    }
}
