package org.jmpi.launcher.ranks;

import java.util.Map;
import java.util.TreeMap;
import org.jmpi.profile.MpiCall;
import org.jmpi.profile.MpiTool;

/** Counts a rank's calls by name; after MPI.Finalize prints {@code counted <rank> name=n name=n ...} (sorted). */
public final class CountingTool implements MpiTool {
    private final Map<String, Integer> counts = new TreeMap<>();
    private int rank = -1;

    @Override
    public synchronized void after(MpiCall call) {
        counts.merge(call.name(), 1, Integer::sum);
        if (call.rank() >= 0) {
            rank = call.rank();
        }
        if (call.name().equals("MPI.Finalize")) {
            StringBuilder sb = new StringBuilder("counted " + rank);
            counts.forEach((k, v) -> sb.append(' ').append(k).append('=').append(v));
            System.out.println(sb);
        }
    }
}
