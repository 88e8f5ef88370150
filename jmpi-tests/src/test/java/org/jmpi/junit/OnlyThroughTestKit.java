package org.jmpi.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Marks a test class that exists to be run by {@link SelfTestSupport} (through the engine test kit) and must stay
 * disabled when Surefire or an IDE picks it up on its own, because it fails on purpose.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ExtendWith(OnlyThroughTestKit.Condition.class)
@interface OnlyThroughTestKit {
    /** Configuration parameter that {@link SelfTestSupport} sets. */
    String PARAMETER = "jmpi.junit.selftest";

    final class Condition implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            return context.getConfigurationParameter(PARAMETER).isPresent()
                    ? ConditionEvaluationResult.enabled("run by the engine test kit")
                    : ConditionEvaluationResult.disabled("fails on purpose; run only through SelfTestSupport");
        }
    }
}
