package mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Checks package {@code mpi} against the Open MPI Java bindings signature list: every type and member exists with
 * the listed kind, modifiers, supertypes, parameter types, return type (with type parameters) and checked
 * exceptions. All mismatches are reported together.
 */
class ApiSurfaceTest {
    private static final int CHECKED_MODIFIERS = Modifier.PUBLIC | Modifier.PROTECTED | Modifier.PRIVATE
            | Modifier.STATIC | Modifier.FINAL | Modifier.ABSTRACT;

    @Test
    void everyListedTypeAndMemberMatches() {
        List<ApiList.Entry> entries = ApiList.load();
        List<String> problems = new ArrayList<>();
        for (ApiList.Entry e : entries) {
            try {
                switch (e.kind()) {
                    case TYPE -> checkType(e, problems);
                    case FIELD -> checkField(e, problems);
                    case CONSTRUCTOR, METHOD -> checkExecutable(e, problems);
                }
            } catch (ClassNotFoundException | LinkageError ex) {
                problems.add(where(e) + "cannot resolve a type: " + ex.getMessage());
            }
        }
        if (!problems.isEmpty()) {
            fail(problems.size() + " mismatches between package mpi and " + ApiList.RESOURCE + ":\n"
                    + String.join("\n", problems));
        }
    }

    @Test
    void theListHasTheDocumentedShape() {
        List<ApiList.Entry> entries = ApiList.load();
        long topLevel = entries.stream()
                .filter(e -> e.kind() == ApiList.Kind.TYPE && !e.owner().contains("."))
                .count();
        long nested = entries.stream()
                .filter(e -> e.kind() == ApiList.Kind.TYPE && e.owner().contains("."))
                .count();
        assertThat(topLevel).isEqualTo(35);
        assertThat(nested).isEqualTo(6);
    }

    /** Types of MPI 4.0 that Open MPI's bindings would have had to add to package mpi (docs/mpi-4.md). */
    private static final Set<String> MPI_4_TYPES = Set.of("Session");

    @Test
    void everyPublicTopLevelTypeOfPackageMpiIsListed() throws IOException, URISyntaxException {
        Set<String> listed = ApiList.load().stream()
                .filter(e -> e.kind() == ApiList.Kind.TYPE && !e.owner().contains("."))
                .map(ApiList.Entry::owner)
                .collect(Collectors.toCollection(TreeSet::new));
        Path dir = Path.of(MPI.class.getProtectionDomain().getCodeSource().getLocation().toURI()).resolve("mpi");
        List<String> extra = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                String file = f.getFileName().toString();
                if (!file.endsWith(".class") || file.contains("$")) {
                    continue;
                }
                String simple = file.substring(0, file.length() - ".class".length());
                if (simple.equals("package-info")) {
                    continue;
                }
                Class<?> c;
                try {
                    c = Class.forName("mpi." + simple, false, getClass().getClassLoader());
                } catch (ClassNotFoundException e) {
                    continue;
                }
                if (Modifier.isPublic(c.getModifiers()) && !listed.contains(simple) && !MPI_4_TYPES.contains(simple)) {
                    extra.add(simple);
                }
            }
        }
        assertThat(extra)
                .as("public types in package mpi that Open MPI does not have (besides MPI 4.0's); put extensions in org.jmpi.*")
                .isEmpty();
    }

    private static void checkType(ApiList.Entry e, List<String> problems) throws ClassNotFoundException {
        Class<?> c;
        try {
            c = ApiList.ownerClass(e.owner());
        } catch (ClassNotFoundException ex) {
            problems.add(where(e) + "type is missing");
            return;
        }
        if (c.isInterface() != e.isInterface()) {
            problems.add(where(e) + "expected " + (e.isInterface() ? "an interface" : "a class"));
        }
        Set<String> expected = new TreeSet<>(e.modifiers());
        if (e.isInterface()) {
            expected.add("abstract");
        }
        compareModifiers(e, "type", expected, c.getModifiers(), problems);
        if (!e.isInterface()) {
            Class<?> expectedSuper =
                    e.superclass() == null ? Object.class : ApiList.resolve(e.superclass(), e.owner(), Map.of());
            if (c.getSuperclass() != expectedSuper) {
                problems.add(where(e) + "extends " + name(c.getSuperclass()) + ", expected " + name(expectedSuper));
            }
        }
        Set<Class<?>> expectedIfaces = new java.util.HashSet<>();
        for (String i : e.interfaces()) {
            expectedIfaces.add(ApiList.resolve(i, e.owner(), Map.of()));
        }
        Set<Class<?>> actualIfaces = Set.of(c.getInterfaces());
        if (!actualIfaces.equals(expectedIfaces)) {
            problems.add(where(e) + "implements " + names(actualIfaces) + ", expected " + names(expectedIfaces));
        }
    }

    private static void checkField(ApiList.Entry e, List<String> problems) throws ClassNotFoundException {
        Class<?> owner = ApiList.ownerClass(e.owner());
        Class<?> type = ApiList.resolve(e.returnType(), e.owner(), Map.of());
        for (String fieldName : e.fieldNames()) {
            Field f;
            try {
                f = owner.getDeclaredField(fieldName);
            } catch (NoSuchFieldException ex) {
                problems.add(where(e) + "field " + fieldName + " is missing");
                continue;
            }
            if (f.getType() != type) {
                problems.add(where(e) + "field " + fieldName + " has type " + name(f.getType()) + ", expected "
                        + name(type));
            }
            compareModifiers(e, "field " + fieldName, e.modifiers(), f.getModifiers(), problems);
        }
    }

    private static void checkExecutable(ApiList.Entry e, List<String> problems) throws ClassNotFoundException {
        Executable x = ApiList.find(e);
        if (x == null) {
            problems.add(where(e) + "is missing");
            return;
        }
        Set<String> expected = new TreeSet<>(e.modifiers());
        expected.remove("native"); // jmpi is pure Java
        if (e.implicit()) {
            expected.add("public");
        }
        if (x.getDeclaringClass().isInterface()) {
            expected.add("public");
            expected.add("abstract");
        }
        compareModifiers(e, "member", expected, x.getModifiers(), problems);

        Set<Class<?>> expectedExceptions = new java.util.HashSet<>();
        for (String ex : e.exceptions()) {
            expectedExceptions.add(ApiList.resolve(ex, e.owner(), Map.of()));
        }
        Set<Class<?>> actualExceptions = Set.of(x.getExceptionTypes());
        if (!actualExceptions.equals(expectedExceptions)) {
            problems.add(where(e) + "throws " + names(actualExceptions) + ", expected " + names(expectedExceptions));
        }

        List<String> expectedTypeParams = new ArrayList<>();
        for (ApiList.TypeParam p : e.typeParams()) {
            expectedTypeParams.add(p.name() + " extends " + ApiList.resolve(p.bound(), e.owner(), Map.of()).getName());
        }
        List<String> actualTypeParams = new ArrayList<>();
        for (TypeVariable<?> v : x.getTypeParameters()) {
            actualTypeParams.add(v.getName() + " extends "
                    + Arrays.stream(v.getBounds()).map(Type::getTypeName).collect(Collectors.joining(" & ")));
        }
        if (!actualTypeParams.equals(expectedTypeParams)) {
            problems.add(where(e) + "type parameters " + actualTypeParams + ", expected " + expectedTypeParams);
        }

        if (x instanceof Method m) {
            String ret = e.returnType();
            Map<String, String> vars = ApiList.typeVars(e);
            if (vars.containsKey(ret)) {
                Type generic = m.getGenericReturnType();
                if (!(generic instanceof TypeVariable<?> v) || !v.getName().equals(ret)) {
                    problems.add(where(e) + "returns " + generic.getTypeName() + ", expected type variable " + ret);
                }
            } else {
                Class<?> expectedReturn = ApiList.resolve(ret, e.owner(), vars);
                if (m.getReturnType() != expectedReturn) {
                    problems.add(where(e) + "returns " + name(m.getReturnType()) + ", expected "
                            + name(expectedReturn));
                }
            }
        }
    }

    private static void compareModifiers(
            ApiList.Entry e, String what, Set<String> expected, int actualBits, List<String> problems) {
        Set<String> actual = new TreeSet<>();
        int bits = actualBits & CHECKED_MODIFIERS;
        for (String word : Modifier.toString(bits).split(" ")) {
            if (!word.isEmpty()) {
                actual.add(word);
            }
        }
        if (!actual.equals(expected)) {
            problems.add(where(e) + what + " modifiers " + actual + ", expected " + expected);
        }
    }

    private static String where(ApiList.Entry e) {
        return "line " + e.line() + " " + e.label() + ": ";
    }

    private static String name(Class<?> c) {
        return c == null ? "nothing" : c.getTypeName();
    }

    private static String names(Set<Class<?>> classes) {
        return classes.stream().map(ApiSurfaceTest::name).sorted().collect(Collectors.joining(", ", "[", "]"));
    }
}
