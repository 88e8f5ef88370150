package org.jmpi.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.jmpi.launcher.ranks.TestRank;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Which JVM runs the ranks of {@code mpirun -np 4 java ... Main}: the JDK jmpirun runs on, not the first {@code java}
 * on the PATH (on many machines an older default JDK, on which every rank died with UnsupportedClassVersionError);
 * and a {@code java} named by path that is too old is refused in one line before any rank starts. jmpirun runs as a
 * process of its own here, because only a process can be given another PATH.
 */
@Timeout(value = 90, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RankJavaTest extends JmpirunProcessTestBase {
    /** A fake JDK of {@code version} under {@code dir/name}: its {@code bin/java} only says that it ran. */
    private Path fakeJdk(String name, String version) throws Exception {
        Path bin = Files.createDirectories(dir.resolve(name).resolve("bin"));
        Path java = bin.resolve("java");
        Files.writeString(java, "#!/bin/sh\necho \"the java of " + name + " ran\"\nexit 1\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(dir.resolve(name).resolve("release"), "JAVA_VERSION=\"" + version + "\"\n");
        return java;
    }

    private record Run(int code, String output) {}

    private Run run(String path, String... args) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(LaunchIntegrationTest.jmpirun(args)).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().put("PATH", path);
        Path out = dir.resolve("out.txt");
        jmpirun = pb.redirectOutput(out.toFile()).start();
        assertThat(jmpirun.waitFor(60, TimeUnit.SECONDS)).as("jmpirun ended").isTrue();
        return new Run(jmpirun.exitValue(), Files.readString(out));
    }

    @Test
    void aBareJavaIsTheJdkJmpirunRunsOnNotTheFirstOnThePath() throws Exception {
        Path old = fakeJdk("jdk-17", "17.0.15");
        Run r = run(old.getParent() + File.pathSeparator + System.getenv("PATH"), "--no-stdin", "-n", "2", "java",
                "-XX:TieredStopAtLevel=1", "-cp", LauncherTest.testClasses().toString(), TestRank.class.getName(),
                "hello");
        assertThat(r.code()).as(r.output()).isZero();
        assertThat(r.output()).contains("hello from rank 0", "hello from rank 1").doesNotContain("jdk-17 ran");
    }

    @Test
    void aJavaNamedByPathThatIsTooOldIsRefusedInOneLine() throws Exception {
        Path old = fakeJdk("jdk-17", "17.0.15");
        Run r = run(System.getenv("PATH"), "--no-stdin", "-n", "3", old.toString(), "-cp",
                LauncherTest.testClasses().toString(), TestRank.class.getName(), "hello");
        assertThat(r.code()).as(r.output()).isEqualTo(JmpiRun.USAGE_ERROR);
        assertThat(r.output().lines()).as(r.output()).containsExactly("jmpirun: " + old + " is Java 17; jmpi's "
                + "ranks need Java 25 or later (plain 'java' runs them on jmpirun's own, "
                + Path.of(System.getProperty("java.home"), "bin", "java") + ")");
        // one that is new enough runs as given
        Path now = fakeJdk("jdk-25", "25.0.1");
        Run ok = run(System.getenv("PATH"), "--no-stdin", "-n", "2", now.toString(), "-cp", ".", "Main");
        assertThat(ok.output()).contains("the java of jdk-25 ran");
    }
}
