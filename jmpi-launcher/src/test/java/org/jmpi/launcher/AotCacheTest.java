package org.jmpi.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When a rank may use the distribution's class cache (the end-to-end checks are in jmpi-dist's ClassCacheTest). */
class AotCacheTest {
    @Test
    void optionsThatMakeTheJvmRefuseACacheLeaveItOut() {
        assertThat(AotCache.compatible(List.of("-Xmx4g", "-ea", "-XX:+UseSerialGC", "-XX:+UseParallelGC",
                "-Dx=y", "-XX:TieredStopAtLevel=1", "--enable-native-access=ALL-UNNAMED"))).isTrue();
        for (String o : List.of("-XX:+UseZGC", "-XX:-UseCompressedOops", "-XX:+UseCompactObjectHeaders",
                "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-modules", "-Xshare:off",
                "-XX:AOTCache=x.aot", "-XX:SharedArchiveFile=a.jsa", "-Xmx32g", "-Xmx40000m", "-Xmx1t",
                "-XX:MaxHeapSize=64g", "--enable-native-access=ALL-MODULE-PATH", "-Xmxlots")) {
            assertThat(AotCache.compatible(List.of("-ea", o))).as(o).isFalse();
        }
        assertThat(AotCache.largeHeap("-Xmx31g")).isFalse();
        assertThat(AotCache.largeHeap("-Xmx32g")).isTrue();
        assertThat(AotCache.largeHeap("-Xmx33554432k")).isTrue();
        assertThat(AotCache.largeHeap("-Xmx999999999999999999t")).isTrue();
    }

    @Test
    void theStampMustNameThisJdkAndTheJarsAsTheyAre(@TempDir Path lib) throws Exception {
        Path aot = Files.createDirectories(lib.resolve("aot"));
        Path jar = Files.writeString(lib.resolve("jmpi-core.jar"), "not really a jar");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path home = java.toRealPath().getParent().getParent();
        String version = "";
        for (String line : Files.readAllLines(home.resolve("release"))) {
            if (line.startsWith("JAVA_RUNTIME_VERSION=")) {
                version = line.substring(line.indexOf('"') + 1, line.lastIndexOf('"'));
            }
        }
        String jarStamp = Files.size(jar) + ":" + Files.getLastModifiedTime(jar).to(TimeUnit.SECONDS);
        Files.writeString(aot.resolve("stamp"), "java.home=" + home + "\njava.version=" + version
                + "\njar.jmpi-core.jar=" + jarStamp + "\n");
        assertThat(AotCache.stampHolds(aot, java)).isTrue();

        Files.writeString(aot.resolve("stamp"), "java.home=" + home + "\njava.version=" + version + "-other"
                + "\njar.jmpi-core.jar=" + jarStamp + "\n");
        assertThat(AotCache.stampHolds(aot, java)).as("another JDK version").isFalse();

        Files.writeString(aot.resolve("stamp"), "java.home=/elsewhere\njava.version=" + version
                + "\njar.jmpi-core.jar=" + jarStamp + "\n");
        assertThat(AotCache.stampHolds(aot, java)).as("another JDK").isFalse();

        Files.writeString(aot.resolve("stamp"), "java.home=" + home + "\njava.version=" + version
                + "\njar.jmpi-core.jar=" + jarStamp + "\n");
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 3000));
        assertThat(AotCache.stampHolds(aot, java)).as("a jar that changed").isFalse();

        Files.writeString(aot.resolve("stamp"), "java.home=" + home + "\njava.version=" + version + "\n");
        assertThat(AotCache.stampHolds(aot, java)).as("a stamp without jars").isFalse();
        Files.delete(jar);
        Files.writeString(aot.resolve("stamp"), "java.home=" + home + "\njava.version=" + version
                + "\njar.jmpi-core.jar=" + jarStamp + "\n");
        assertThat(AotCache.stampHolds(aot, java)).as("a jar that is gone").isFalse();
    }

    @Test
    void aDevelopmentBuildHasNoCache() {
        // the tests run against jmpi-core's classes or jar in its target directory: no lib/aot beside it
        assertThat(AotCache.rankOptions(Path.of(System.getProperty("java.home"), "bin", "java"), List.of(),
                java.util.Map.of(), List.of(), false)).isEmpty();
    }
}
