package org.jmpi.junit;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * Turns an {@link Outcome} into the one exception an invocation ends with, or null when it passed: an
 * {@link AssertionFailedError} listing the failing ranks, or a {@link TestAbortedException} when ranks only failed
 * assumptions (the others ended normally or by the abort that followed).
 */
final class FailureReport {
    private FailureReport() {}

    static Throwable of(Outcome o, String displayName) {
        if (o.passed()) {
            return null;
        }
        if (o.failures().isEmpty() && !o.timedOut() && o.stillRunning().isEmpty()
                && !o.assumptionFailures().isEmpty()) {
            StringBuilder sb = new StringBuilder(displayName).append(" assumption failed");
            o.assumptionFailures().forEach((r, m) -> sb.append("\n  rank ").append(r).append(": ").append(m));
            return new TestAbortedException(sb.toString());
        }
        StringBuilder sb = new StringBuilder();
        sb.append(displayName).append(' ');
        int n = o.failures().size();
        if (o.timedOut()) {
            sb.append("timed out after ").append(formatSeconds(o.timeoutSeconds())).append(" s");
            if (n > 0) {
                sb.append("; ").append(n).append(" of ").append(o.size()).append(n == 1 ? " rank" : " ranks")
                        .append(" failed before");
            }
        } else if (n == 1) {
            sb.append("rank ").append(o.failures().firstKey()).append(" of ").append(o.size()).append(" failed");
        } else if (n > 1) {
            sb.append(n).append(" of ").append(o.size()).append(" ranks failed");
        } else if (o.abortMessage() != null) {
            sb.append("job aborted");
        } else {
            sb.append("ranks did not end");
        }
        sb.append(':');
        for (Map.Entry<Integer, RankFailure> e : o.failures().entrySet()) {
            sb.append("\n  rank ").append(e.getKey()).append(": ").append(summary(e.getValue()));
        }
        o.assumptionFailures().forEach((r, m) -> sb.append("\n  rank ").append(r).append(": assumption failed: ")
                .append(m));
        if (!o.abortedRanks().isEmpty()) {
            sb.append("\n  ").append(ranks(o.abortedRanks())).append(": ended by the job's abort");
        }
        if (o.abortMessage() != null) {
            sb.append("\n  abort: ").append(o.abortMessage());
        }
        if (!o.stillRunning().isEmpty()) {
            sb.append("\n  ").append(ranks(o.stillRunning())).append(": still running");
            if (!o.timedOut()) {
                sb.append(" a few seconds after the abort (left behind)");
            }
        }
        if (o.stackDumps() != null && !o.stackDumps().isEmpty()) {
            sb.append("\nStacks of the ranks still running:\n").append(o.stackDumps());
        }
        if (o.output() != null && !o.output().isEmpty()) {
            sb.append("\nOutput of the ranks:\n").append(o.output());
        }
        AssertionFailedError error = new AssertionFailedError(sb.toString().stripTrailing());
        for (RankFailure f : o.failures().values()) {
            error.addSuppressed(f);
        }
        return error;
    }

    private static String summary(RankFailure f) {
        Throwable cause = f.getCause();
        if (cause != null) {
            String s = cause.toString();
            return s.lines().limit(20).collect(Collectors.joining("\n    "));
        }
        String m = f.getMessage();
        int nl = m.indexOf('\n');
        String first = nl < 0 ? m : m.substring(nl + 1);
        return first.lines().findFirst().orElse(m).strip();
    }

    private static String ranks(List<Integer> ranks) {
        return (ranks.size() == 1 ? "rank " : "ranks ")
                + ranks.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }

    private static String formatSeconds(double s) {
        return s == Math.rint(s) ? Long.toString((long) s) : String.format(java.util.Locale.ROOT, "%.1f", s);
    }
}
