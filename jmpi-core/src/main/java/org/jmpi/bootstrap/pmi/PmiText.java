package org.jmpi.bootstrap.pmi;

import java.util.Map;

/** Checks and clean-ups shared by the PMI clients: key and value rules, messages, environment numbers. */
final class PmiText {
    private PmiText() {}

    static boolean isKeyChar(char c) {
        return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '.'
                || c == '-';
    }

    /** Keys are 1 to {@code max} characters of {@code [A-Za-z0-9_.-]}. */
    static void checkKey(String key, int max) {
        if (key == null || key.isEmpty() || key.length() > max) {
            throw new IllegalArgumentException("PMI key must have 1 to " + max + " characters: '" + key + "'");
        }
        for (int i = 0; i < key.length(); i++) {
            if (!isKeyChar(key.charAt(i))) {
                throw new IllegalArgumentException("PMI key may only hold [A-Za-z0-9_.-]: '" + key + "'");
            }
        }
    }

    /** Values are 1 to {@code max} characters of printable ASCII 33-126 except {@code ;} (PMI-2's separator). */
    static void checkValue(String key, String value, int max) {
        if (value == null || value.isEmpty() || value.length() > max) {
            throw new IllegalArgumentException("PMI value for key '" + key + "' must have 1 to " + max
                    + " characters, not " + (value == null ? "null" : value.length()));
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 33 || c > 126 || c == ';') {
                throw new IllegalArgumentException("PMI value for key '" + key + "' holds a character outside "
                        + "printable ASCII 33-126 (or a ';') at index " + i);
            }
        }
    }

    /** Replaces every character outside printable ASCII 33-126 by {@code _}. */
    static String sanitizeMessage(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            sb.append(c >= 33 && c <= 126 ? c : '_');
        }
        return sb.toString();
    }

    /** Replaces every character outside {@code [A-Za-z0-9_.-]} by {@code _} (for file names). */
    static String safeName(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            sb.append(isKeyChar(c) ? c : '_');
        }
        return sb.toString();
    }

    static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    static int parseInt(Map<String, String> env, String name) {
        String v = blankToNull(env.get(name));
        if (v == null) {
            throw new PmiException(name + " is not set");
        }
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new PmiException(name + " must be a number, not '" + v + "'", e);
        }
    }
}
