package org.jmpi.junit;

import java.util.List;
import java.util.SortedMap;

/**
 * How one invocation ended, whatever the mode.
 *
 * @param size the number of ranks
 * @param failures the ranks that failed on their own (not merely ended by the job's abort), by rank
 * @param assumptionFailures ranks that ended with a failed assumption ({@code TestAbortedException}), by rank
 * @param abortedRanks ranks that ended only because the job was aborted after another rank's failure
 * @param abortMessage the job's abort message, or null
 * @param stillRunning ranks that had not ended when the extension gave up on them
 * @param timedOut whether the hard timeout was reached
 * @param timeoutSeconds the timeout that applied
 * @param stackDumps stacks of the ranks still running (threads mode; processes mode puts them in the output)
 * @param output the ranks' captured output, each line prefixed with its rank, or "" (threads mode)
 */
record Outcome(
        int size,
        SortedMap<Integer, RankFailure> failures,
        SortedMap<Integer, String> assumptionFailures,
        List<Integer> abortedRanks,
        String abortMessage,
        List<Integer> stillRunning,
        boolean timedOut,
        double timeoutSeconds,
        String stackDumps,
        String output) {

    boolean passed() {
        return failures.isEmpty() && assumptionFailures.isEmpty() && abortedRanks.isEmpty() && stillRunning.isEmpty()
                && !timedOut && abortMessage == null;
    }
}
