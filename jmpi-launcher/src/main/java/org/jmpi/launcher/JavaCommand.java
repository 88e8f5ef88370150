package org.jmpi.launcher;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarFile;

/**
 * Open MPI's idiom {@code mpirun -np 4 java [options] Main args}: when the program jmpirun starts is {@code java}
 * (by name or path), jmpi's class path and the JVM options every rank needs are added to its command line, keeping
 * the user's own class path: a {@code -cp}/{@code -classpath}/{@code --class-path} gets jmpi's jars appended;
 * without one, the class path is {@code CLASSPATH} (else {@code .}) plus jmpi's jars, as {@code java} would have
 * used; {@code -jar app.jar} becomes {@code -cp app.jar:jmpi Main-Class}, because {@code java -jar} ignores every
 * other class path.
 */
final class JavaCommand {
    /** The JVM options jmpi ranks need (what {@code jmpirun --java-options} prints). */
    static final List<String> RANK_JVM_OPTIONS = List.of("--enable-native-access=ALL-UNNAMED");

    /** java options that take the next argument as their value. */
    private static final Set<String> WITH_VALUE = Set.of("-cp", "-classpath", "--class-path", "-p", "--module-path",
            "--upgrade-module-path", "--add-modules", "--limit-modules", "--add-reads", "--add-exports",
            "--add-opens", "--patch-module", "--enable-native-access", "--source", "-splash");

    /** java options whose value is the class path. */
    private static final Set<String> CLASS_PATH = Set.of("-cp", "-classpath", "--class-path");

    private JavaCommand() {}

    /** The Java feature version jmpi needs, in the launcher and in every rank. */
    static final int NEEDED_FEATURE = 25;

    /** True when {@code program} is the java launcher. */
    static boolean isJava(String program) {
        Path name = Path.of(program).getFileName();
        return name != null && name.toString().equals("java");
    }

    /**
     * Why the java executable at {@code program} (a path) cannot run jmpi's ranks, as one line, or null when it can or
     * its version cannot be told. The version is read from the {@code release} file of its JDK, as bin/jmpirun does;
     * a path that does not exist here (another host's) is left to that host.
     */
    static String tooOld(String program) {
        Path home;
        try {
            Path exe = Path.of(program).toRealPath();
            home = exe.getParent() == null ? null : exe.getParent().getParent();
        } catch (IOException | RuntimeException e) {
            return null;
        }
        if (home == null) {
            return null;
        }
        int feature;
        try {
            String version = null;
            for (String line : java.nio.file.Files.readAllLines(home.resolve("release"))) {
                if (line.startsWith("JAVA_VERSION=")) {
                    version = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                }
            }
            if (version == null) {
                return null;
            }
            if (version.startsWith("1.")) {
                version = version.substring(2);
            }
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("^\\d+").matcher(version);
            if (!m.find()) {
                return null;
            }
            feature = Integer.parseInt(m.group());
        } catch (IOException | RuntimeException e) {
            return null;
        }
        if (feature >= NEEDED_FEATURE) {
            return null;
        }
        return program + " is Java " + feature + "; jmpi's ranks need Java " + NEEDED_FEATURE + " or later (plain "
                + "'java' runs them on jmpirun's own, " + Path.of(System.getProperty("java.home"), "bin", "java")
                + ")";
    }

    /**
     * The arguments of {@code java} with jmpi added.
     *
     * @param javaArgs what followed {@code java} on jmpirun's command line
     * @param jmpi jmpi's class path entries
     * @param classpathEnv the {@code CLASSPATH} variable, or null
     * @param warnings where to say what could not be done
     */
    static List<String> withJmpi(List<String> javaArgs, List<Path> jmpi, String classpathEnv, PrintStream warnings) {
        String jmpiPath = String.join(File.pathSeparator, jmpi.stream().map(Path::toString).toList());
        List<String> out = new ArrayList<>();
        boolean nativeAccess = false;
        boolean hasClassPath = false;
        List<String> options = options(javaArgs);
        for (int i = 0; i < options.size(); i++) {
            String a = options.get(i);
            nativeAccess |= a.startsWith("--enable-native-access");
            if (CLASS_PATH.contains(a) && i + 1 < options.size()) {
                out.add(a);
                out.add(options.get(++i) + File.pathSeparator + jmpiPath);
                hasClassPath = true;
            } else if (a.startsWith("--class-path=")) {
                out.add(a + File.pathSeparator + jmpiPath);
                hasClassPath = true;
            } else {
                out.add(a);
                if (WITH_VALUE.contains(a) && i + 1 < options.size()) {
                    out.add(options.get(++i));
                }
            }
        }
        List<String> rest = new ArrayList<>(javaArgs.subList(options.size(), javaArgs.size()));
        if (!rest.isEmpty() && rest.get(0).equals("-jar") && rest.size() > 1) {
            String mainClass = mainClassOf(rest.get(1), warnings);
            if (mainClass != null) {
                out.add("-cp");
                out.add(rest.get(1) + File.pathSeparator + jmpiPath);
                rest.set(0, mainClass);
                rest.remove(1);
                hasClassPath = true;
            }
        } else if (!hasClassPath && (rest.isEmpty() || !rest.get(0).startsWith("-"))) {
            String base = classpathEnv == null || classpathEnv.isBlank() ? "." : classpathEnv;
            out.add("-cp");
            out.add(base + File.pathSeparator + jmpiPath);
        }
        List<String> all = new ArrayList<>();
        if (!nativeAccess) {
            all.addAll(RANK_JVM_OPTIONS);
        }
        all.addAll(out);
        all.addAll(rest);
        return all;
    }

    /**
     * The JVM options among a java command's arguments, with their values: the arguments before the main class,
     * {@code -jar} or {@code -m}.
     */
    static List<String> options(List<String> javaArgs) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < javaArgs.size(); i++) {
            String a = javaArgs.get(i);
            if (!a.startsWith("-") || a.equals("-jar") || a.equals("-m") || a.equals("--module")) {
                break;
            }
            out.add(a);
            if (WITH_VALUE.contains(a) && i + 1 < javaArgs.size()) {
                out.add(javaArgs.get(++i));
            }
        }
        return out;
    }

    /** The class path entries a java command's options name, without those of {@code jmpi}. */
    static List<Path> classPath(List<String> javaArgs, List<Path> jmpi) {
        List<String> options = options(javaArgs);
        List<Path> out = new ArrayList<>();
        for (int i = 0; i < options.size(); i++) {
            String a = options.get(i);
            String value = a.startsWith("--class-path=") ? a.substring("--class-path=".length())
                    : CLASS_PATH.contains(a) && i + 1 < options.size() ? options.get(++i) : null;
            if (value != null) {
                for (String e : value.split(File.pathSeparator)) {
                    if (!e.isEmpty() && !jmpi.contains(Path.of(e))) {
                        out.add(Path.of(e));
                    }
                }
            }
        }
        return out;
    }

    private static String mainClassOf(String jar, PrintStream warnings) {
        try (JarFile f = new JarFile(jar)) {
            String m = f.getManifest() == null ? null : f.getManifest().getMainAttributes()
                    .getValue(Attributes.Name.MAIN_CLASS);
            if (m == null) {
                warnings.println("jmpirun: warning: " + jar + " names no Main-Class; java -jar cannot see jmpi's "
                        + "classes (use -cp " + jar + " MainClass)");
            }
            return m;
        } catch (IOException e) {
            warnings.println("jmpirun: warning: cannot read " + jar + " (" + e.getMessage() + "); java -jar cannot "
                    + "see jmpi's classes");
            return null;
        }
    }
}
