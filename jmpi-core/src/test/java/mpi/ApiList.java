package mpi;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Open MPI Java API signature list ({@code src/test/resources/ompi-java-api.txt}), parsed, with the means to
 * resolve each entry to the reflected member of package {@code mpi}. Shared by {@link ApiSurfaceTest} and
 * {@link ApiStatusDocTest}.
 */
final class ApiList {
    static final String RESOURCE = "/ompi-java-api.txt";

    enum Kind {
        TYPE,
        FIELD,
        CONSTRUCTOR,
        METHOD
    }

    /** A type parameter such as {@code T extends Data}; {@code bound} is {@code Object} when none is given. */
    record TypeParam(String name, String bound) {}

    /** One line of the list. For TYPE lines {@code name} is the simple type name; FIELD lines may name several. */
    record Entry(
            int line,
            String owner,
            Kind kind,
            String declaration,
            Set<String> modifiers,
            List<TypeParam> typeParams,
            String returnType,
            String name,
            List<String> fieldNames,
            List<String> paramTypes,
            List<String> exceptions,
            boolean implicit,
            String superclass,
            List<String> interfaces,
            boolean isInterface) {

        /** The member with simple parameter types, as used in messages: {@code Comm.bcast(Object, int, ...)}. */
        String label() {
            return switch (kind) {
                case TYPE -> owner;
                case FIELD -> owner + "." + String.join(", ", fieldNames);
                case CONSTRUCTOR -> owner + "(" + String.join(", ", paramTypes) + ")";
                case METHOD -> owner + "." + name + "(" + String.join(", ", paramTypes) + ")";
            };
        }
    }

    private static final Set<String> MODIFIER_WORDS =
            Set.of("public", "protected", "private", "static", "final", "abstract", "native");

    private static final Pattern TYPE_DECL = Pattern.compile(
            "^((?:\\w+\\s+)*?)(class|interface)\\s+(\\w+)(?:\\s+extends\\s+([\\w.]+))?(?:\\s+implements\\s+([\\w., ]+))?$");

    private static final Pattern MEMBER_DECL = Pattern.compile("^((?:(?:public|protected|private|static|final|abstract"
            + "|native)\\s+)*)(<[^>]*>\\s+)?([\\w\\[\\]<>.]+\\s+)?(\\w+)\\(([^)]*)\\)(?:\\s+throws\\s+([\\w, ]+?))?"
            + "\\s*(\\(implicit.*\\))?$");

    private static final Pattern FIELD_DECL =
            Pattern.compile("^((?:(?:public|protected|private|static|final)\\s+)+)([\\w\\[\\]]+)\\s+(.+)$");

    private ApiList() {}

    /** Every entry of the list, in file order. */
    static List<Entry> load() {
        List<Entry> out = new ArrayList<>();
        try (InputStream in = ApiList.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("test resource " + RESOURCE + " is missing");
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String text;
            int lineNo = 0;
            while ((text = reader.readLine()) != null) {
                lineNo++;
                String line = text.strip();
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                int bar = line.indexOf('|');
                if (bar < 0) {
                    throw new IllegalStateException(RESOURCE + ":" + lineNo + ": no '|' in: " + line);
                }
                out.add(parse(lineNo, line.substring(0, bar).strip(), line.substring(bar + 1).strip()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    static Entry parse(int lineNo, String owner, String decl) {
        if (decl.startsWith("TYPE ")) {
            String d = decl.substring(5).strip();
            Matcher m = TYPE_DECL.matcher(d);
            if (!m.matches()) {
                throw new IllegalStateException(RESOURCE + ":" + lineNo + ": cannot parse type: " + d);
            }
            List<String> ifaces = m.group(5) == null ? List.of() : splitList(m.group(5));
            return new Entry(lineNo, owner, Kind.TYPE, d, words(m.group(1)), List.of(), null, m.group(3), List.of(),
                    List.of(), List.of(), false, m.group(4), ifaces, m.group(2).equals("interface"));
        }
        if (decl.startsWith("FIELD ")) {
            String d = decl.substring(6).strip();
            Matcher m = FIELD_DECL.matcher(d);
            if (!m.matches()) {
                throw new IllegalStateException(RESOURCE + ":" + lineNo + ": cannot parse field: " + d);
            }
            return new Entry(lineNo, owner, Kind.FIELD, d, words(m.group(1)), List.of(), m.group(2), null,
                    splitList(m.group(3)), List.of(), List.of(), false, null, List.of(), false);
        }
        Matcher m = MEMBER_DECL.matcher(decl);
        if (!m.matches()) {
            throw new IllegalStateException(RESOURCE + ":" + lineNo + ": cannot parse member: " + decl);
        }
        List<TypeParam> typeParams = new ArrayList<>();
        if (m.group(2) != null) {
            String inner = m.group(2).strip();
            for (String p : splitList(inner.substring(1, inner.length() - 1))) {
                String[] parts = p.split("\\s+extends\\s+");
                typeParams.add(new TypeParam(parts[0].strip(), parts.length > 1 ? parts[1].strip() : "Object"));
            }
        }
        String ret = m.group(3) == null ? null : m.group(3).strip();
        List<String> params = new ArrayList<>();
        for (String p : splitList(m.group(5))) {
            int sp = p.lastIndexOf(' ');
            params.add(p.substring(0, sp).strip());
        }
        List<String> exceptions = m.group(6) == null ? List.of() : splitList(m.group(6));
        return new Entry(lineNo, owner, ret == null ? Kind.CONSTRUCTOR : Kind.METHOD, decl, words(m.group(1)),
                typeParams, ret, m.group(4), List.of(), params, exceptions, m.group(7) != null, null, List.of(),
                false);
    }

    private static Set<String> words(String s) {
        Set<String> out = new java.util.TreeSet<>();
        for (String w : s.strip().split("\\s+")) {
            if (!w.isEmpty()) {
                if (!MODIFIER_WORDS.contains(w)) {
                    throw new IllegalStateException("unknown modifier " + w);
                }
                out.add(w);
            }
        }
        return out;
    }

    private static List<String> splitList(String s) {
        List<String> out = new ArrayList<>();
        for (String p : s.split(",")) {
            if (!p.isBlank()) {
                out.add(p.strip());
            }
        }
        return out;
    }

    // ---- resolution -------------------------------------------------------------------------------------------

    private static final Map<String, Class<?>> PRIMITIVES = Map.of("boolean", boolean.class, "byte", byte.class,
            "char", char.class, "short", short.class, "int", int.class, "long", long.class, "float", float.class,
            "double", double.class, "void", void.class);

    /** The class of an entry's owner, e.g. {@code mpi.Struct$Data} for {@code Struct.Data}. */
    static Class<?> ownerClass(String owner) throws ClassNotFoundException {
        return Class.forName("mpi." + owner.replace('.', '$'), false, ApiList.class.getClassLoader());
    }

    /**
     * Resolves a type name as written in the list, in the context of {@code owner}: primitives, arrays, type
     * variables (to their erasure), nested types of the owner's top-level class, package {@code mpi},
     * {@code java.lang} and {@code java.nio}.
     */
    static Class<?> resolve(String name, String owner, Map<String, String> typeVars) throws ClassNotFoundException {
        String base = name;
        int dims = 0;
        while (base.endsWith("[]")) {
            base = base.substring(0, base.length() - 2).strip();
            dims++;
        }
        Class<?> c;
        if (typeVars.containsKey(base)) {
            c = resolve(typeVars.get(base), owner, Map.of());
        } else if (PRIMITIVES.containsKey(base)) {
            c = PRIMITIVES.get(base);
        } else {
            c = resolveReference(base, owner);
        }
        for (int i = 0; i < dims; i++) {
            c = c.arrayType();
        }
        return c;
    }

    private static Class<?> resolveReference(String base, String owner) throws ClassNotFoundException {
        String top = owner.contains(".") ? owner.substring(0, owner.indexOf('.')) : owner;
        List<String> candidates = List.of(
                "mpi." + top + "$" + base.replace('.', '$'),
                "mpi." + base.replace('.', '$'),
                "java.lang." + base,
                "java.nio." + base);
        for (String candidate : candidates) {
            try {
                return Class.forName(candidate, false, ApiList.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                // try the next scope
            }
        }
        throw new ClassNotFoundException(base + " (in the context of " + owner + ")");
    }

    static Map<String, String> typeVars(Entry e) {
        Map<String, String> m = new LinkedHashMap<>();
        for (TypeParam p : e.typeParams()) {
            m.put(p.name(), p.bound());
        }
        return m;
    }

    /** The erased parameter types of a constructor or method entry. */
    static Class<?>[] paramClasses(Entry e) throws ClassNotFoundException {
        Map<String, String> vars = typeVars(e);
        Class<?>[] out = new Class<?>[e.paramTypes().size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = resolve(e.paramTypes().get(i), e.owner(), vars);
        }
        return out;
    }

    /**
     * The reflected constructor or method of a CONSTRUCTOR/METHOD entry, or {@code null} when it does not exist.
     * Bridge and synthetic methods are ignored; constructors of inner classes take the enclosing instance first.
     */
    static Executable find(Entry e) throws ClassNotFoundException {
        Class<?> owner = ownerClass(e.owner());
        Class<?>[] params = paramClasses(e);
        if (e.kind() == Kind.CONSTRUCTOR) {
            if (owner.getEnclosingClass() != null && !Modifier.isStatic(owner.getModifiers())) {
                Class<?>[] withOuter = new Class<?>[params.length + 1];
                withOuter[0] = owner.getEnclosingClass();
                System.arraycopy(params, 0, withOuter, 1, params.length);
                params = withOuter;
            }
            for (Constructor<?> c : owner.getDeclaredConstructors()) {
                if (Arrays.equals(c.getParameterTypes(), params) && !c.isSynthetic()) {
                    return c;
                }
            }
            return null;
        }
        for (Method m : owner.getDeclaredMethods()) {
            if (m.getName().equals(e.name())
                    && Arrays.equals(m.getParameterTypes(), params)
                    && !m.isBridge()
                    && !m.isSynthetic()) {
                return m;
            }
        }
        return null;
    }

    /** True when the member exists and carries {@link NotImplemented}. FIELD/TYPE entries are never marked. */
    static boolean isNotImplemented(Entry e) throws ClassNotFoundException {
        if (e.kind() != Kind.CONSTRUCTOR && e.kind() != Kind.METHOD) {
            return false;
        }
        Executable x = find(e);
        return x != null && x.isAnnotationPresent(NotImplemented.class);
    }
}
