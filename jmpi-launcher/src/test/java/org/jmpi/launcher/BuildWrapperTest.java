package org.jmpi.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12, item 9: README's first command, {@code ./mvnw}, tells a newcomer with an older JDK that JDK 25 is needed
 * and how to point JAVA_HOME at it, before Maven starts (which would fail on an option in .mvn/jvm.config).
 */
@Timeout(60)
class BuildWrapperTest {
    @Test
    void anOldJdkGetsAClearMessage(@TempDir Path dir) throws Exception {
        Path mvnw = Path.of("..", "mvnw").toAbsolutePath().normalize();
        // a JDK 17 as JAVA_HOME: its release file says so, and its java would print the version
        Path jdk = dir.resolve("jdk-17");
        Files.createDirectories(jdk.resolve("bin"));
        Files.writeString(jdk.resolve("release"), "JAVA_VERSION=\"17.0.9\"\n");
        Path java = jdk.resolve("bin/java");
        Files.writeString(java, "#!/bin/sh\necho 'openjdk version \"17.0.9\" 2023-10-17' >&2\n");
        java.toFile().setExecutable(true);
        ProcessBuilder pb = new ProcessBuilder(mvnw.toString(), "-v").directory(mvnw.getParent().toFile())
                .redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().put("JAVA_HOME", jdk.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isEqualTo(1);
        assertThat(out).contains("jmpi needs a JDK 25 to build; found Java 17, JAVA_HOME=" + jdk)
                .contains("export JAVA_HOME=").doesNotContain("Unrecognized option");
    }
}
