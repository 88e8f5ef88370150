package org.jmpi.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * jmpirun parses common command lines without picocli ({@link JmpiRun#parseCommon}); where it does, the result must be
 * what picocli makes of the same arguments, and where picocli would refuse them, the fast path must refuse too.
 */
class CommonArgsTest {
    private static final PrintStream SINK = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

    private static JmpiRun fresh() {
        return new JmpiRun(SINK, SINK, Map.of());
    }

    /** What jmpirun takes from a parsed command line, as one comparable string. */
    private static String fields(JmpiRun r) {
        return "ranks=" + r.ranks + " threads=" + r.threads + " cp=" + r.classpath + " tag=" + r.tagOutput
                + " nostdin=" + r.noStdin + " over=" + r.oversubscribe + " root=" + r.allowRunAsRoot + " main="
                + r.mainClass + " args=" + r.args + " hosts=" + r.hostList + " jvm=" + r.jvmArgs + " x=" + r.exports
                + " exec=" + r.exec + " verbose=" + r.verbose + " timeout=" + r.timeoutSeconds + " hostfile="
                + r.hostfile + " agent=" + r.launcherExec + " wdir=" + r.wdir;
    }

    @Provide
    Arbitrary<List<String>> commandLines() {
        Arbitrary<String> token = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, Arbitraries.of("-n", "-np", "--np", "-c", "-cp", "--classpath-append",
                        "--threads", "-l", "--tag-output", "--prepend-rank", "-prepend-rank", "--no-stdin",
                        "--oversubscribe", "--allow-run-as-root", "-H", "--host", "-hosts", "-f", "--hostfile",
                        "--launcher-exec", "-launch-agent", "-bootstrap-exec", "-x", "--jvm-arg", "--wdir", "-v",
                        "--verbose")),
                net.jqwik.api.Tuple.of(2, Arbitraries.of("-v", "--timeout", "-H=a", "--exec", "--help", "-x",
                        "--jvm-arg", "-n=3", "-n4", "-lv", "--", ":", "-")),
                net.jqwik.api.Tuple.of(4, Arbitraries.of("0", "1", "4", "07", "+3", "-2", "99999999999", "x")),
                net.jqwik.api.Tuple.of(4, Arbitraries.of("Main", "org.example.App", "a.jar", "/tmp/x:lib/*", "@opts",
                        "java", "", " ", "a b", "-Dx=1", "--flag", "h1:2,h2", "10.0.0.1", "/usr/bin/ssh", "-Xmx64m",
                        "-verbose:gc", "-X", "-D", "A=1", "--jvm-arg=-Dy=2", "--jvm-arg=", "-XX:+UseSerialGC")));
        return token.list().ofMaxSize(9);
    }

    @Property(tries = 3000)
    void theFastPathAgreesWithPicocli(@ForAll("commandLines") List<String> argv) {
        String[] a = argv.toArray(String[]::new);
        JmpiRun fast = fresh();
        boolean taken = fast.parseCommon(a);
        net.jqwik.api.statistics.Statistics.label("fast path").collect(taken);
        if (!taken) {
            assertThat(fields(fast)).as("a refused command line leaves the fields alone").isEqualTo(fields(fresh()));
            return;
        }
        JmpiRun slow = fresh();
        CommandLine cl = JmpiRun.Cli.commandLine(slow, SINK, SINK);
        CommandLine.ParseResult parsed = cl.parseArgs(a); // throws (and fails the property) if picocli refuses
        assertThat(parsed.isUsageHelpRequested() || parsed.isVersionHelpRequested()).isFalse();
        assertThat(fields(fast)).as(String.join(" ", argv)).isEqualTo(fields(slow));
    }

    @Test
    void theCommonFormsTakeTheFastPath() {
        assertThat(fresh().parseCommon("-n", "4", "org.jmpi.examples.Hello")).isTrue();
        assertThat(fresh().parseCommon("-np", "2", "--threads", "-cp", "a.jar", "-cp", "b", "Main", "-n", "x", ":x"))
                .isTrue();
        assertThat(fresh().parseCommon("--help")).isFalse();
        assertThat(fresh().parseCommon("-n", "4")).as("no program").isFalse();
        assertThat(fresh().parseCommon("-n", "1", "A", ":", "-n", "1", "B")).as("MPMD").isFalse();
        assertThat(fresh().parseCommon("-n", "1", "-n", "2", "A")).as("repeated").isFalse();
        assertThat(fresh().parseCommon("-H", "a,b", "-H", "c:2", "--launcher-exec", "/x/ssh", "-f", "hosts", "A"))
                .as("hosts, a hostfile and an agent").isTrue();
        assertThat(fresh().parseCommon("--launcher-exec", "a", "-launch-agent", "b", "A")).as("two agents").isFalse();
        assertThat(fresh().parseCommon("-H", "-n", "A")).as("an option as the host list").isFalse();
        assertThat(fresh().parseCommon("-x", "A=1", "--jvm-arg", "-Xmx1g", "--jvm-arg=-Dk=v", "--wdir", "/tmp", "-v",
                "A")).as("exports, JVM options, a directory, verbose").isTrue();
        assertThat(fresh().parseCommon("--jvm-arg", "-verbose:gc", "A")).as("a JVM option picocli may read as -v")
                .isFalse();
    }

    @Test
    void programArgumentsThatLookLikeFilesOfOptionsStayAsTheyAre() {
        JmpiRun r = fresh();
        CommandLine.ParseResult parsed = JmpiRun.Cli.commandLine(r, SINK, SINK).parseArgs("-H", "localhost", "Main",
                "@/etc/hostname");
        assertThat(parsed.hasMatchedPositional(1)).isTrue();
        assertThat(r.args).containsExactly("@/etc/hostname");
    }
}
