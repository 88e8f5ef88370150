package mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.lang.reflect.Executable;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A member of package {@code mpi} carries {@link NotImplemented} exactly when its body is a not-implemented stub
 * ({@code throw Unsupported.of("...")}, or an {@code UnsupportedOperationException} saying "not implemented"), and
 * the stub names its own member. The sources are scanned with a deliberately small parser (comments stripped,
 * wrapped declarations joined); a reflection count cross-checks that the scan saw every marked member.
 */
class NotImplementedMarksTest {
    private static final Set<String> KEYWORDS = Set.of("if", "for", "while", "switch", "catch", "synchronized",
            "return", "new", "else", "try", "do", "throw", "case", "assert");

    private static final Pattern HEADER = Pattern.compile("^(?:(?:public|protected|private|static|final|abstract"
            + "|synchronized|native|default)\\s+)*(?:<.+?>\\s+)?(?:([\\w.$<>\\[\\]?, ]+?)\\s+)?(\\w+)\\s*\\((.*)\\)"
            + "\\s*(?:throws\\s+[\\w.,\\s]+)?\\{\\s*$");

    private static final Pattern LABEL = Pattern.compile("Unsupported\\.of\\(\\s*\"([^\"]*)\"");

    /** A method or constructor found in the source. */
    private static final class Member {
        final String file;
        final int line;
        final String name;
        final String params;
        final boolean marked;
        boolean stub;

        Member(String file, int line, String name, String params, boolean marked) {
            this.file = file;
            this.line = line;
            this.name = name;
            this.params = params;
            this.marked = marked;
        }

        String where() {
            return file + ":" + line + " " + name + "(" + params + ")";
        }
    }

    @Test
    void stubsAndMarksAgree() throws IOException, URISyntaxException, ClassNotFoundException {
        Path dir = ProjectDir.get().resolve("jmpi-core/src/main/java/mpi");
        List<String> problems = new ArrayList<>();
        List<Member> members = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                scan(f, members, problems);
            }
        }
        for (Member m : members) {
            if (m.marked && !m.stub) {
                problems.add(m.where() + ": marked @NotImplemented but its body does not throw Unsupported.of(...)");
            }
            if (m.stub && !m.marked) {
                problems.add(m.where() + ": throws a not-implemented exception but is not marked @NotImplemented");
            }
        }
        long markedInSource = members.stream().filter(m -> m.marked).count();
        long markedByReflection = countMarkedByReflection();
        if (markedInSource != markedByReflection) {
            problems.add("the source scan found " + markedInSource + " @NotImplemented members but reflection finds "
                    + markedByReflection + ": the scanner missed a declaration");
        }
        if (!problems.isEmpty()) {
            fail(problems.size() + " problems with @NotImplemented marks:\n" + String.join("\n", problems));
        }
        assertThat(members).isNotEmpty();
    }

    private static void scan(Path file, List<Member> members, List<String> problems) throws IOException {
        String fileName = file.getFileName().toString();
        String typeName = fileName.substring(0, fileName.length() - ".java".length());
        List<String[]> lines = logicalLines(stripComments(Files.readString(file, StandardCharsets.UTF_8)));
        Member current = null;
        boolean pendingMark = false;
        for (String[] l : lines) {
            int lineNo = Integer.parseInt(l[0]);
            String text = l[1].strip();
            // leading annotations, possibly on the same line as the declaration
            while (text.startsWith("@")) {
                Matcher a = Pattern.compile("^@([\\w.]+)(\\([^)]*\\))?\\s*").matcher(text);
                if (!a.find()) {
                    break;
                }
                if (a.group(1).equals("NotImplemented") || a.group(1).equals("mpi.NotImplemented")) {
                    pendingMark = true;
                }
                text = text.substring(a.end());
            }
            if (text.isEmpty()) {
                continue;
            }
            Matcher h = HEADER.matcher(text);
            if (h.matches() && !KEYWORDS.contains(h.group(2)) && !text.contains("=")
                    && (h.group(1) == null || !containsKeyword(h.group(1)))) {
                current = new Member(fileName, lineNo, h.group(2), simpleParams(h.group(3)), pendingMark);
                members.add(current);
                pendingMark = false;
                continue;
            }
            pendingMark = pendingMark && text.startsWith("@");
            boolean unsupportedCall = text.contains("Unsupported.of(");
            boolean notImplementedUoe = text.contains("UnsupportedOperationException(")
                    && text.contains("not implemented");
            if (!unsupportedCall && !notImplementedUoe) {
                continue;
            }
            if (current == null) {
                problems.add(fileName + ":" + lineNo + ": not-implemented exception outside a method");
                continue;
            }
            current.stub = true;
            Matcher label = LABEL.matcher(text);
            if (unsupportedCall && label.find()) {
                String expectedTail = current.name + "(" + current.params + ")";
                String got = label.group(1);
                boolean ctor = current.name.equals(typeName) || current.name.equals("Data");
                boolean ok = got.startsWith(typeName) && (ctor ? got.endsWith(expectedTail)
                        : got.endsWith("." + expectedTail));
                if (!ok) {
                    problems.add(current.where() + ": Unsupported.of names \"" + got + "\", expected \"" + typeName
                            + (ctor ? "" : ".") + expectedTail + "\"");
                }
            } else if (unsupportedCall) {
                problems.add(current.where() + ": Unsupported.of should name the member with a string literal");
            }
        }
    }

    private static boolean containsKeyword(String typePart) {
        for (String w : typePart.split("[\\s<>\\[\\],?]+")) {
            if (KEYWORDS.contains(w)) {
                return true;
            }
        }
        return false;
    }

    /** "final int[] ranks, Buffer buf" becomes "int[], Buffer". */
    static String simpleParams(String params) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        StringBuilder cur = new StringBuilder();
        for (char c : (params + ",").toCharArray()) {
            if (c == '<') {
                depth++;
            } else if (c == '>') {
                depth--;
            }
            if (c == ',' && depth == 0) {
                String p = cur.toString().strip().replaceAll("@\\w+\\s+", "").replaceFirst("^final\\s+", "");
                if (!p.isEmpty()) {
                    int sp = p.lastIndexOf(' ');
                    out.add(p.substring(0, sp).replaceAll("\\s+", ""));
                }
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        return String.join(", ", out);
    }

    /** Blanks comments (keeping newlines) and leaves string and char literals intact. */
    static String stripComments(String src) {
        StringBuilder out = new StringBuilder(src.length());
        int i = 0;
        int n = src.length();
        while (i < n) {
            char c = src.charAt(i);
            if (c == '"' || c == '\'') {
                int end = i + 1;
                while (end < n && src.charAt(end) != c) {
                    end += src.charAt(end) == '\\' ? 2 : 1;
                }
                end = Math.min(end + 1, n);
                out.append(src, i, end);
                i = end;
            } else if (src.startsWith("//", i)) {
                while (i < n && src.charAt(i) != '\n') {
                    i++;
                }
            } else if (src.startsWith("/*", i)) {
                int end = src.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                for (int k = i; k < end; k++) {
                    if (src.charAt(k) == '\n') {
                        out.append('\n');
                    }
                }
                i = end;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /**
     * Physical lines joined into statements: a logical line ends at a line ending in '{', '}' or ';' with no
     * parenthesis open (so a wrapped declaration and the annotations above it form one line). Each entry is
     * {first line number, text}.
     */
    static List<String[]> logicalLines(String src) {
        List<String[]> out = new ArrayList<>();
        String[] physical = src.split("\n", -1);
        StringBuilder cur = new StringBuilder();
        int start = 0;
        int depth = 0;
        for (int i = 0; i < physical.length; i++) {
            if (cur.isEmpty()) {
                start = i + 1;
            }
            String line = physical[i];
            cur.append(cur.isEmpty() ? "" : " ").append(line.strip());
            depth += parenDelta(line);
            String joined = cur.toString().strip();
            boolean complete = joined.isEmpty() || joined.endsWith("{") || joined.endsWith("}")
                    || joined.endsWith(";");
            if (depth <= 0 && complete) {
                out.add(new String[] {Integer.toString(start), cur.toString()});
                cur.setLength(0);
                depth = 0;
            }
        }
        if (!cur.isEmpty()) {
            out.add(new String[] {Integer.toString(start), cur.toString()});
        }
        return out;
    }

    private static int parenDelta(String line) {
        int d = 0;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == '\\') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '(') {
                d++;
            } else if (c == ')') {
                d--;
            }
        }
        return d;
    }

    private static long countMarkedByReflection() throws IOException, URISyntaxException, ClassNotFoundException {
        Path classes = Path.of(MPI.class.getProtectionDomain().getCodeSource().getLocation().toURI()).resolve("mpi");
        long count = 0;
        try (Stream<Path> files = Files.list(classes)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String name = f.getFileName().toString();
                Class<?> c = Class.forName("mpi." + name.substring(0, name.length() - ".class".length()), false,
                        NotImplementedMarksTest.class.getClassLoader());
                List<Executable> all = new ArrayList<>(List.of(c.getDeclaredMethods()));
                all.addAll(List.of(c.getDeclaredConstructors()));
                count += all.stream()
                        .filter(x -> !x.isSynthetic()) // bridges of covariant overrides copy the annotation
                        .filter(x -> x.isAnnotationPresent(NotImplemented.class))
                        .count();
            }
        }
        return count;
    }
}
