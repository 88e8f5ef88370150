package org.jmpi.bootstrap.pmi;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One line of the PMI-1 "simple" wire: {@code cmd=<name> key=value ...}.
 *
 * <p>Parsing follows Flux RFC 13's advice, because Hydra and Slurm order their keys differently: keys may come in
 * any order, runs of spaces or tabs separate pairs, extra keys are kept. A value runs to the next space and may
 * itself contain {@code =} (only the first one splits). A token without {@code =} is kept as a key with an empty
 * value (the {@code endcmd} line of a multi-line {@code spawn}). The command is the value of {@code cmd}, or of
 * {@code mcmd} for the multi-line form. Formatting writes {@code cmd} first and the other keys in insertion order.
 *
 * <p>Values never contain spaces on this wire (Slurm and Hydra 4.0 apply no escapes), so callers must encode them.
 *
 * @param command the command name ({@code init}, {@code get_result}, ...)
 * @param fields every key except {@code cmd}/{@code mcmd}, in the order seen
 */
public record Pmi1Message(String command, Map<String, String> fields) {

    public Pmi1Message {
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    /** A message with the given command and alternating keys and values. */
    public static Pmi1Message of(String command, String... keysAndValues) {
        if (keysAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("keys and values must come in pairs");
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return new Pmi1Message(command, m);
    }

    /** Parses one line (without or with its trailing newline). The command is "" when neither cmd nor mcmd is set. */
    public static Pmi1Message parse(String line) {
        Map<String, String> m = new LinkedHashMap<>();
        String command = "";
        int i = 0;
        int n = line.length();
        while (i < n) {
            while (i < n && isSeparator(line.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < n && !isSeparator(line.charAt(i))) {
                i++;
            }
            if (start == i) {
                break;
            }
            String token = line.substring(start, i);
            int eq = token.indexOf('=');
            String key = eq < 0 ? token : token.substring(0, eq);
            String value = eq < 0 ? "" : token.substring(eq + 1);
            if (command.isEmpty() && (key.equals("cmd") || key.equals("mcmd"))) {
                command = value;
            } else {
                m.put(key, value);
            }
        }
        return new Pmi1Message(command, m);
    }

    private static boolean isSeparator(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }

    /** The value of a key, or null. */
    public String get(String key) {
        return fields.get(key);
    }

    /** The value of a key parsed as an int, or {@code fallback} when absent or not a number. */
    public int intValue(String key, int fallback) {
        String v = fields.get(key);
        if (v == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    /** The {@code rc} field: 0 when absent (Hydra leaves it out of several replies), else its value (-1 if garbled). */
    public int rc() {
        return intValue("rc", fields.containsKey("rc") ? -1 : 0);
    }

    /** The wire form, without the newline. */
    public String format() {
        StringBuilder sb = new StringBuilder("cmd=").append(command);
        for (Map.Entry<String, String> e : fields.entrySet()) {
            sb.append(' ').append(e.getKey()).append('=').append(e.getValue());
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return format();
    }

    /**
     * {@code text} as one value of this wire, reversibly: {@code %}, controls, spaces and every character beyond
     * ASCII become {@code %XX} (the bytes of UTF-8). jmpi's own launcher decodes it with {@link #decodeText}; other
     * PMI servers never see it (they get a readable copy, see {@code Pmi1Bootstrap.abort}).
     */
    public static String encodeText(String text) {
        StringBuilder sb = new StringBuilder(text.length());
        for (byte b : text.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c > 32 && c < 127 && c != '%') {
                sb.append((char) c);
            } else {
                sb.append('%').append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 15, 16));
            }
        }
        return sb.toString();
    }

    /** The text {@link #encodeText} encoded; a malformed escape is kept as it stands. */
    public static String decodeText(String value) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            int hi = i + 2 < value.length() ? Character.digit(value.charAt(i + 1), 16) : -1;
            int lo = i + 2 < value.length() ? Character.digit(value.charAt(i + 2), 16) : -1;
            if (c == '%' && hi >= 0 && lo >= 0) {
                bytes.write(hi << 4 | lo);
                i += 2;
            } else {
                byte[] b = String.valueOf(c).getBytes(java.nio.charset.StandardCharsets.UTF_8);
                bytes.write(b, 0, b.length);
            }
        }
        return bytes.toString(java.nio.charset.StandardCharsets.UTF_8);
    }
}
