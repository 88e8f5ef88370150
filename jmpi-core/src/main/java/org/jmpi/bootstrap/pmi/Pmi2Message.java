package org.jmpi.bootstrap.pmi;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One message of the PMI-2 wire: {@code cmd=<name>;key=value;...;}, framed by a 6-character ASCII decimal length.
 *
 * <p>Framing: the length counts the bytes after the 6-character header. Our client writes it left-justified
 * ({@code "52    cmd=..."}), as MPICH's client does; Hydra answers right-justified ({@code "   113cmd=..."}) and Slurm
 * left-justified, so {@link #parseLength} trims. No escapes exist on this wire (MPICH's parser applies none), so a
 * value must not contain {@code ;}; keys are order-independent; the command is the value of {@code cmd}.
 *
 * @param command the command name ({@code fullinit}, {@code kvs-get-response}, ...)
 * @param fields every key except {@code cmd}, in the order seen
 */
public record Pmi2Message(String command, Map<String, String> fields) {
    /** Width of the length header. */
    public static final int HEADER = 6;

    public Pmi2Message {
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    /** A message with the given command and alternating keys and values. */
    public static Pmi2Message of(String command, String... keysAndValues) {
        if (keysAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("keys and values must come in pairs");
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return new Pmi2Message(command, m);
    }

    /** Parses a message body (without the length header). */
    public static Pmi2Message parse(String body) {
        Map<String, String> m = new LinkedHashMap<>();
        String command = "";
        for (String part : body.split(";")) {
            if (part.isEmpty()) {
                continue;
            }
            int eq = part.indexOf('=');
            String key = eq < 0 ? part : part.substring(0, eq);
            String value = eq < 0 ? "" : part.substring(eq + 1);
            if (key.equals("cmd") && command.isEmpty()) {
                command = value;
            } else {
                m.put(key, value);
            }
        }
        return new Pmi2Message(command, m);
    }

    /** The length in a 6-character header, or -1 when it is not a number. */
    public static int parseLength(byte[] header) {
        String s = new String(header, StandardCharsets.US_ASCII).trim();
        try {
            int n = Integer.parseInt(s);
            return n < 0 ? -1 : n;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The body: {@code cmd=name;k=v;...;}. */
    public String body() {
        StringBuilder sb = new StringBuilder("cmd=").append(command).append(';');
        for (Map.Entry<String, String> e : fields.entrySet()) {
            sb.append(e.getKey()).append('=').append(e.getValue()).append(';');
        }
        return sb.toString();
    }

    /** The framed bytes: the length left-justified in 6 characters, then the body. */
    public byte[] frame() {
        byte[] body = body().getBytes(StandardCharsets.US_ASCII);
        if (body.length > 999_999) {
            throw new IllegalArgumentException("PMI-2 message of " + body.length + " bytes does not fit the header");
        }
        String header = String.format("%-6d", body.length);
        byte[] out = new byte[HEADER + body.length];
        System.arraycopy(header.getBytes(StandardCharsets.US_ASCII), 0, out, 0, HEADER);
        System.arraycopy(body, 0, out, HEADER, body.length);
        return out;
    }

    /** The value of a key, or null. */
    public String get(String key) {
        return fields.get(key);
    }

    /** The value of a key as an int, or {@code fallback}. */
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

    /** The {@code rc} field: 0 when absent, else its value (-1 if garbled). */
    public int rc() {
        return intValue("rc", fields.containsKey("rc") ? -1 : 0);
    }

    /** Whether a boolean field is {@code TRUE} (PMI-2 spells booleans in capitals). */
    public boolean isTrue(String key) {
        return "TRUE".equalsIgnoreCase(fields.get(key));
    }

    @Override
    public String toString() {
        return body();
    }
}
