package org.jmpi.dl;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;
import java.util.TreeMap;
import org.jmpi.dl.Negotiation.Descriptor;
import org.jmpi.dl.Negotiation.Requests;
import org.jmpi.dl.Negotiation.Response;

/**
 * Rank 0's half of the negotiation (Horovod's coordinator). It remembers, per tensor name, which ranks submitted it
 * and how; a tensor is ready when every rank has submitted it or has joined. Ready tensors with the same operation,
 * compression and number of contributors are fused, in the order they became ready, into buffers of at most
 * {@code fusionBytes} (a tensor larger than that travels alone). A ready tensor whose ranks disagree on its shape,
 * operation or compression is not reduced: every rank gets an error naming the tensor and which ranks said what.
 * A tensor that a rank which has closed its reducer never submitted fails the same way.
 *
 * <p>Threading: rank 0's background thread only.
 */
final class Coordinator {
    private final int size;
    private final long fusionBytes;
    private final long stallWarningNanos;
    private final long stallShutdownNanos;
    private final java.util.function.Consumer<String> warnings;
    private final Map<String, Pending> pending = new LinkedHashMap<>();
    private final boolean[] joined;
    private final boolean[] shutdown;
    private int lastJoined = -1;

    private static final class Pending {
        final Descriptor[] byRank;
        final long firstSeen;
        int count;
        long lastWarned;

        Pending(int size, long now) {
            byRank = new Descriptor[size];
            firstSeen = now;
            lastWarned = now;
        }
    }

    Coordinator(int size, ReducerOptions options) {
        this.size = size;
        fusionBytes = options.fusionBytes();
        stallWarningNanos = options.stallWarning().toNanos();
        stallShutdownNanos = options.stallShutdown().toNanos();
        warnings = options.warnings();
        joined = new boolean[size];
        shutdown = new boolean[size];
    }

    /** One cycle: the requests of every rank in, the responses every rank will carry out. */
    List<Response> cycle(Requests[] requests, long now) {
        List<Response> out = new ArrayList<>();
        List<Negotiation.Error> errors = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            Requests q = requests[r];
            if ((q.flags() & Negotiation.FLAG_JOIN) != 0) {
                joined[r] = true;
                lastJoined = r;
            }
            if ((q.flags() & Negotiation.FLAG_SHUTDOWN) != 0) {
                shutdown[r] = true;
            }
            for (Descriptor d : q.tensors()) {
                Pending p = pending.computeIfAbsent(d.name(), k -> new Pending(size, now));
                if (p.byRank[r] != null) {
                    // The submitting side refuses a name already in flight; a second one here is a bug.
                    throw new IllegalStateException("rank " + r + " submitted tensor '" + d.name() + "' twice");
                }
                p.byRank[r] = d;
                p.count++;
            }
        }
        // Ready tensors, grouped by (op, compression, contributors) in the order they became ready.
        Map<String, List<Descriptor>> groups = new LinkedHashMap<>();
        Map<String, Integer> contributorsOf = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, Pending>> it = pending.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Pending> e = it.next();
            Pending p = e.getValue();
            String missingClosed = missing(p, shutdown, true);
            if (missingClosed != null) {
                it.remove();
                errors.add(new Negotiation.Error("tensor '" + e.getKey() + "' was never submitted by rank(s) "
                        + missingClosed + ", which closed their reducer", List.of(e.getKey())));
                continue;
            }
            if (!ready(p)) {
                continue;
            }
            it.remove();
            String mismatch = mismatch(e.getKey(), p);
            if (mismatch != null) {
                errors.add(new Negotiation.Error(mismatch, List.of(e.getKey())));
                continue;
            }
            Descriptor d = first(p);
            String key = d.op() + "/" + d.compression() + "/" + p.count;
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(d);
            contributorsOf.put(key, p.count);
        }
        for (Map.Entry<String, List<Descriptor>> g : groups.entrySet()) {
            fuse(g.getValue(), contributorsOf.get(g.getKey()), out);
        }
        out.addAll(errors);
        stalls(now, out);
        if (all(joined)) {
            out.add(new Negotiation.Joined(lastJoined));
            java.util.Arrays.fill(joined, false);
            lastJoined = -1;
        }
        if (all(shutdown)) {
            if (!pending.isEmpty()) {
                out.add(new Negotiation.Error("the reducer was closed on every rank while the tensor was pending",
                        List.copyOf(pending.keySet())));
                pending.clear();
            }
            out.add(new Negotiation.Shutdown());
        }
        return out;
    }

    private void fuse(List<Descriptor> ready, int contributors, List<Response> out) {
        List<String> names = new ArrayList<>();
        List<Integer> elements = new ArrayList<>();
        long bytes = 0;
        Descriptor head = ready.get(0);
        for (Descriptor d : ready) {
            long b = 4L * d.elements();
            if (!names.isEmpty() && (fusionBytes == 0 || bytes + b > fusionBytes)) {
                out.add(allreduce(head, contributors, names, elements));
                names = new ArrayList<>();
                elements = new ArrayList<>();
                bytes = 0;
            }
            names.add(d.name());
            elements.add(d.elements());
            bytes += b;
        }
        out.add(allreduce(head, contributors, names, elements));
    }

    private static Response allreduce(Descriptor head, int contributors, List<String> names, List<Integer> elements) {
        int[] e = elements.stream().mapToInt(Integer::intValue).toArray();
        return new Negotiation.Allreduce(head.op(), head.compression(), contributors, List.copyOf(names), e);
    }

    private void stalls(long now, List<Response> out) {
        List<String> failed = new ArrayList<>();
        StringBuilder failMessage = new StringBuilder();
        for (Iterator<Map.Entry<String, Pending>> it = pending.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Pending> e = it.next();
            Pending p = e.getValue();
            long waited = now - p.firstSeen;
            String missing = missing(p, joined, false);
            if (stallShutdownNanos > 0 && waited >= stallShutdownNanos) {
                it.remove();
                failed.add(e.getKey());
                failMessage.append(failMessage.isEmpty() ? "" : "; ").append("tensor '").append(e.getKey())
                        .append("' stalled for ").append(waited / 1_000_000_000L)
                        .append(" s: not submitted by rank(s) ")
                        .append(missing);
                continue;
            }
            if (stallWarningNanos > 0 && now - p.lastWarned >= stallWarningNanos) {
                p.lastWarned = now;
                warnings.accept("jmpi-dl: stall: tensor '" + e.getKey() + "' has waited " + waited / 1_000_000_000L
                        + " s: submitted by rank(s) " + submitted(p) + ", not yet by rank(s) " + missing
                        + " (a rank may have skipped this tensor, or be far behind)");
            }
        }
        if (!failed.isEmpty()) {
            out.add(new Negotiation.Error(failMessage.toString(), failed));
        }
    }

    private boolean ready(Pending p) {
        for (int r = 0; r < size; r++) {
            if (p.byRank[r] == null && !joined[r]) {
                return false;
            }
        }
        return true;
    }

    /** The ranks without a descriptor (only among those with {@code among[r]} when {@code only}), or null: none. */
    private String missing(Pending p, boolean[] among, boolean only) {
        StringJoiner j = new StringJoiner(", ", "[", "]");
        boolean any = false;
        for (int r = 0; r < size; r++) {
            if (p.byRank[r] == null && (only ? among[r] : !among[r])) {
                j.add(Integer.toString(r));
                any = true;
            }
        }
        return any ? j.toString() : null;
    }

    private String submitted(Pending p) {
        StringJoiner j = new StringJoiner(", ", "[", "]");
        for (int r = 0; r < size; r++) {
            if (p.byRank[r] != null) {
                j.add(Integer.toString(r));
            }
        }
        return j.toString();
    }

    private static Descriptor first(Pending p) {
        for (Descriptor d : p.byRank) {
            if (d != null) {
                return d;
            }
        }
        throw new IllegalStateException("no descriptor");
    }

    /** Null when every rank agrees; else a message listing each variant and its ranks. */
    private String mismatch(String name, Pending p) {
        Map<String, StringJoiner> variants = new TreeMap<>();
        Descriptor head = first(p);
        boolean differ = false;
        for (int r = 0; r < size; r++) {
            Descriptor d = p.byRank[r];
            if (d == null) {
                continue;
            }
            if (d.elements() != head.elements() || d.op() != head.op()
                    || !Objects.equals(d.compression(), head.compression())) {
                differ = true;
            }
            variants.computeIfAbsent(d.shape(), k -> new StringJoiner(", ", "[", "]")).add(Integer.toString(r));
        }
        if (!differ) {
            return null;
        }
        StringJoiner j = new StringJoiner("; ");
        variants.forEach((shape, ranks) -> j.add("rank(s) " + ranks + ": " + shape));
        return "tensor '" + name + "' was submitted differently by the ranks: " + j;
    }

    private static boolean all(boolean[] a) {
        for (boolean b : a) {
            if (!b) {
                return false;
            }
        }
        return true;
    }
}
