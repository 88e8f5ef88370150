package org.jmpi.launcher.hosts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jmpi.launcher.HostSpec;

/**
 * Parsers for the ways hosts are written down:
 *
 * <ul>
 *   <li>hostfiles, in both formats people have: Open MPI's {@code host slots=N [max_slots=M]} and Hydra's (and Intel
 *       MPI's) {@code host:N}; a bare {@code host} is one slot; {@code #} starts a comment; blank lines are skipped.
 *       A host named again adds its slots (so a PBS node file, one line per slot, works too);</li>
 *   <li>host lists on the command line ({@code -H a,b:2,c}) and in {@code MPI_HOST} (Volcano);</li>
 *   <li>Slurm's compressed node lists ({@code node[01-03,07],gpu1}) and task counts ({@code 2(x3),1}).</li>
 * </ul>
 *
 * Anything not understood is an error naming the line; nothing is guessed.
 */
public final class HostLists {
    private HostLists() {}

    /** Reads a hostfile. {@code defaultSlots} is used for hosts written without a count. */
    public static List<HostSpec> readHostfile(Path file, int defaultSlots) throws HostListException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new HostListException("cannot read the hostfile " + file + ": " + e.getMessage(), e);
        }
        Builder b = new Builder();
        int n = 0;
        for (String raw : lines) {
            n++;
            String line = raw;
            int hash = line.indexOf('#');
            if (hash >= 0) {
                line = line.substring(0, hash);
            }
            line = line.trim();
            if (line.isEmpty()) {
                continue;
            }
            try {
                parseLine(line, defaultSlots, b);
            } catch (HostListException e) {
                throw new HostListException("hostfile " + file + ", line " + n + " ('" + raw.trim() + "'): "
                        + e.getMessage());
            }
        }
        if (b.isEmpty()) {
            throw new HostListException("the hostfile " + file + " names no host");
        }
        return b.build();
    }

    private static void parseLine(String line, int defaultSlots, Builder b) throws HostListException {
        String[] tokens = line.split("\\s+");
        String first = tokens[0];
        if (tokens.length == 1) {
            addHostToken(first, defaultSlots, b);
            return;
        }
        Integer slots = null;
        for (int i = 1; i < tokens.length; i++) {
            String t = tokens[i];
            int eq = t.indexOf('=');
            if (eq <= 0) {
                throw new HostListException("expected key=value after the host name, got '" + t + "'");
            }
            String key = t.substring(0, eq).toLowerCase(java.util.Locale.ROOT);
            String value = t.substring(eq + 1);
            switch (key) {
                case "slots", "cpu", "cpus" -> slots = positive(value, key);
                case "max_slots", "max-slots" -> positive(value, key); // an upper bound we never exceed by default
                default -> throw new HostListException("unknown hostfile key '" + key + "' (known: slots, "
                        + "max_slots)");
            }
        }
        if (first.contains(":") && !first.startsWith("[") && first.indexOf(':') == first.lastIndexOf(':')) {
            throw new HostListException("give the slot count either as host:N or as slots=N, not both");
        }
        b.add(unbracket(first), slots == null ? defaultSlots : slots, slots != null);
    }

    /** One {@code host} or {@code host:N} token ({@code [v6addr]:N} for IPv6 literals). */
    private static void addHostToken(String token, int defaultSlots, Builder b) throws HostListException {
        String host = token;
        Integer slots = null;
        if (token.startsWith("[")) {
            int close = token.indexOf(']');
            if (close < 0) {
                throw new HostListException("unclosed '[' in '" + token + "'");
            }
            host = token.substring(1, close);
            String rest = token.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) {
                    throw new HostListException("unexpected '" + rest + "' after " + token.substring(0, close + 1));
                }
                slots = positive(rest.substring(1), "slot count");
            }
        } else {
            int colon = token.indexOf(':');
            if (colon >= 0) {
                if (colon != token.lastIndexOf(':')) {
                    // a bare IPv6 address: no count
                    host = token;
                } else {
                    host = token.substring(0, colon);
                    slots = positive(token.substring(colon + 1), "slot count");
                }
            }
        }
        if (host.isEmpty()) {
            throw new HostListException("empty host name in '" + token + "'");
        }
        b.add(host, slots == null ? defaultSlots : slots, slots != null);
    }

    /** Parses {@code a,b:2,c} (-H/--host/-hosts, MPI_HOST). Empty entries (a trailing comma) are skipped. */
    public static List<HostSpec> parseHostList(String list, int defaultSlots) throws HostListException {
        Builder b = new Builder();
        for (String part : list.split(",")) {
            String t = part.trim();
            if (!t.isEmpty()) {
                if (t.contains(" ")) {
                    throw new HostListException("host list entry '" + t + "' contains a space");
                }
                addHostToken(t, defaultSlots, b);
            }
        }
        if (b.isEmpty()) {
            throw new HostListException("the host list '" + list + "' names no host");
        }
        return b.build();
    }

    /** Expands a Slurm node list: {@code node[01-03,07],gpu1} is node01, node02, node03, node07, gpu1. */
    public static List<String> expandSlurmNodeList(String list) throws HostListException {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= list.length(); i++) {
            char c = i < list.length() ? list.charAt(i) : ',';
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
                if (depth < 0) {
                    throw new HostListException("unbalanced ']' in the node list '" + list + "'");
                }
            } else if (c == ',' && depth == 0) {
                String item = list.substring(start, i).trim();
                if (!item.isEmpty()) {
                    expandItem(item, out, list);
                }
                start = i + 1;
            }
        }
        if (depth != 0) {
            throw new HostListException("unbalanced '[' in the node list '" + list + "'");
        }
        if (out.isEmpty()) {
            throw new HostListException("the node list '" + list + "' names no node");
        }
        return out;
    }

    private static void expandItem(String item, List<String> out, String whole) throws HostListException {
        int open = item.indexOf('[');
        if (open < 0) {
            out.add(item);
            return;
        }
        int close = item.indexOf(']', open);
        String prefix = item.substring(0, open);
        String suffix = item.substring(close + 1);
        List<String> tails = new ArrayList<>();
        if (suffix.contains("[")) {
            expandItem(suffix, tails, whole);
        } else {
            tails.add(suffix);
        }
        for (String range : item.substring(open + 1, close).split(",")) {
            String r = range.trim();
            int dash = r.indexOf('-');
            try {
                if (dash < 0) {
                    for (String t : tails) {
                        out.add(prefix + r + t);
                    }
                } else {
                    String lo = r.substring(0, dash);
                    String hi = r.substring(dash + 1);
                    int from = Integer.parseInt(lo);
                    int to = Integer.parseInt(hi);
                    if (to < from || to - from > 100_000) {
                        throw new HostListException("bad range '" + r + "' in the node list '" + whole + "'");
                    }
                    for (int k = from; k <= to; k++) {
                        String num = Integer.toString(k);
                        while (num.length() < lo.length()) {
                            num = "0" + num;
                        }
                        for (String t : tails) {
                            out.add(prefix + num + t);
                        }
                    }
                }
            } catch (NumberFormatException e) {
                throw new HostListException("bad range '" + r + "' in the node list '" + whole + "'", e);
            }
        }
    }

    /** Expands Slurm's task counts: {@code 2(x3),1} is 2, 2, 2, 1. */
    public static List<Integer> expandSlurmCounts(String counts) throws HostListException {
        List<Integer> out = new ArrayList<>();
        for (String part : counts.split(",")) {
            String p = part.trim();
            if (p.isEmpty()) {
                continue;
            }
            int paren = p.indexOf('(');
            try {
                if (paren < 0) {
                    out.add(positive(p, "task count"));
                } else {
                    if (!p.endsWith(")") || !p.startsWith("x", paren + 1)) {
                        throw new HostListException("bad task count '" + p + "' in '" + counts + "'");
                    }
                    int n = positive(p.substring(0, paren), "task count");
                    int times = positive(p.substring(paren + 2, p.length() - 1), "repeat count");
                    for (int i = 0; i < times; i++) {
                        out.add(n);
                    }
                }
            } catch (HostListException e) {
                throw new HostListException(e.getMessage() + " in the Slurm counts '" + counts + "'");
            }
        }
        return out;
    }

    static int positive(String s, String what) throws HostListException {
        try {
            int n = Integer.parseInt(s.trim());
            if (n < 1) {
                throw new HostListException(what + " must be at least 1, not " + n);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new HostListException(what + " must be a number, not '" + s + "'", e);
        }
    }

    private static String unbracket(String h) {
        return h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
    }

    /** Collects hosts in first-seen order; a repeated host adds its slots. */
    static final class Builder {
        private final Map<String, int[]> slots = new LinkedHashMap<>(); // name -> {slots, given}

        void add(String host, int n, boolean given) {
            int[] s = slots.get(host);
            if (s == null) {
                slots.put(host, new int[] {n, given ? 1 : 0});
            } else {
                s[0] += n;
                s[1] |= given ? 1 : 0;
            }
        }

        boolean isEmpty() {
            return slots.isEmpty();
        }

        List<HostSpec> build() {
            List<HostSpec> out = new ArrayList<>();
            for (Map.Entry<String, int[]> e : slots.entrySet()) {
                out.add(new HostSpec(e.getKey(), e.getValue()[0], e.getValue()[1] == 1));
            }
            return out;
        }
    }
}
