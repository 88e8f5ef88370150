package org.jmpi.ft;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;

/**
 * The collective steps of checkpointing, over the public API of package {@code mpi}: strings gathered to rank 0 and
 * broadcast from it, and the agreement on errors that makes every rank of a collective call end the same way (all
 * succeed, or all throw the same {@code MPIException}), so that a failure on one rank never leaves the others
 * waiting.
 */
final class Coordination {
    private Coordination() {}

    /** An error one rank met: its MPI error class and message. */
    record Failure(int errorClass, String message) {
        MPIException exception() {
            return Errors.of(errorClass, message);
        }
    }

    /** Rank 0's {@code s} on every rank (other ranks' argument is ignored). */
    static String bcast(Comm comm, String s) throws MPIException {
        boolean root = comm.getRank() == 0;
        byte[] bytes = root ? s.getBytes(StandardCharsets.UTF_8) : null;
        int[] len = {root ? bytes.length : 0};
        comm.bcast(len, 1, MPI.INT, 0);
        if (!root) {
            bytes = new byte[len[0]];
        }
        if (len[0] > 0) {
            comm.bcast(bytes, len[0], MPI.BYTE, 0);
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** Every rank's {@code s}, by rank, on rank 0; null on the others. */
    static String[] gather(Comm comm, String s) throws MPIException {
        int size = comm.getSize();
        boolean root = comm.getRank() == 0;
        byte[] mine = s.getBytes(StandardCharsets.UTF_8);
        int[] len = {mine.length};
        int[] lens = root ? new int[size] : null;
        comm.gather(len, 1, MPI.INT, lens, 1, MPI.INT, 0);
        if (!root) {
            comm.gatherv(mine, mine.length, MPI.BYTE, 0);
            return null;
        }
        int[] displs = new int[size];
        long total = 0;
        for (int r = 0; r < size; r++) {
            displs[r] = (int) total;
            total += lens[r];
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw Errors.of(MPI.ERR_NO_MEM, "checkpoint: " + total + " bytes of rank reports do not fit an array");
        }
        byte[] all = new byte[(int) total];
        comm.gatherv(mine, mine.length, MPI.BYTE, all, lens, displs, MPI.BYTE, 0);
        String[] out = new String[size];
        for (int r = 0; r < size; r++) {
            out[r] = new String(all, displs[r], lens[r], StandardCharsets.UTF_8);
        }
        return out;
    }

    /**
     * Collective: every rank passes its own failure (or null); every rank gets the same combined failure (or null
     * when no rank failed). The error class is that of the lowest failing rank; the message names the ranks.
     */
    static Failure agree(Comm comm, Failure local) throws MPIException {
        return agree(comm, local, true);
    }

    /** As {@link #agree(Comm, Failure)}; without {@code nameRanks} the messages are joined as they are. */
    static Failure agree(Comm comm, Failure local, boolean nameRanks) throws MPIException {
        String[] all = gather(comm, local == null ? "" : local.errorClass() + "\t" + local.message());
        String combined = "";
        if (all != null) {
            combined = combine(all, nameRanks);
        }
        combined = bcast(comm, combined);
        if (combined.isEmpty()) {
            return null;
        }
        int tab = combined.indexOf('\t');
        return new Failure(Integer.parseInt(combined.substring(0, tab)), combined.substring(tab + 1));
    }

    /** Rank reports ("class\tmessage" or "") folded into one: ranks with the same message listed together. */
    static String combine(String[] reports) {
        return combine(reports, true);
    }

    private static String combine(String[] reports, boolean nameRanks) {
        Map<String, List<Integer>> byMessage = new LinkedHashMap<>();
        int errorClass = 0;
        for (int r = 0; r < reports.length; r++) {
            if (reports[r].isEmpty()) {
                continue;
            }
            int tab = reports[r].indexOf('\t');
            if (byMessage.isEmpty()) {
                errorClass = Integer.parseInt(reports[r].substring(0, tab));
            }
            byMessage.computeIfAbsent(reports[r].substring(tab + 1), k -> new ArrayList<>()).add(r);
        }
        if (byMessage.isEmpty()) {
            return "";
        }
        if (reports.length == 1 || !nameRanks) {
            return errorClass + "\t" + String.join("; ", byMessage.keySet());
        }
        StringBuilder sb = new StringBuilder();
        int shown = 0;
        for (Map.Entry<String, List<Integer>> e : byMessage.entrySet()) {
            if (shown == 4) {
                sb.append("; and ").append(byMessage.size() - shown).append(" more");
                break;
            }
            if (shown > 0) {
                sb.append("; ");
            }
            sb.append(ranks(e.getValue())).append(": ").append(e.getKey());
            shown++;
        }
        return errorClass + "\t" + sb;
    }

    private static String ranks(List<Integer> rs) {
        if (rs.size() == 1) {
            return "rank " + rs.get(0);
        }
        StringBuilder sb = new StringBuilder("ranks ");
        for (int i = 0; i < rs.size(); i++) {
            if (i == 8) {
                sb.append(", ... (").append(rs.size()).append(" ranks)");
                break;
            }
            sb.append(i == 0 ? "" : ", ").append(rs.get(i));
        }
        return sb.toString();
    }
}
