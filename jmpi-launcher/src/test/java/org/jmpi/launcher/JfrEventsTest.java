package org.jmpi.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.jmpi.launcher.ranks.JfrRank;
import org.jmpi.launcher.ranks.JfrSlowCallsRank;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The JFR events of the MPI call families (org.jmpi.runtime.events), recorded by ranks that jmpirun starts with
 * {@code --jfr DIR}, read back with the JDK's own recording parser: each family's event carries its fields.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class JfrEventsTest {
    @Test
    void everyCallFamilyRecordsItsFields(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("jfr");
        LaunchIntegrationTest.Result r = LaunchIntegrationTest.run(LaunchIntegrationTest.jmpirun("--no-stdin", "-n",
                "2", "--jfr", dir.toString(), "--jvm-arg",
                "-Djmpi.test.unused=1", "-cp", LaunchIntegrationTest.rankClassPath(), JfrRank.class.getName(),
                tmp.resolve("data.bin").toString()), Map.of("JMPI_JFR_THRESHOLD", "0 ms"), Duration.ofSeconds(150));
        assertThat(r.rc()).as(r.out()).isZero();
        List<RecordedEvent> events = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> recordings = files.filter(p -> p.toString().endsWith(".jfr")).toList();
            assertThat(recordings).as("one recording per rank").hasSize(2);
            for (Path p : recordings) {
                events.addAll(RecordingFile.readAllEvents(p).stream()
                        .filter(e -> e.getEventType().getName().startsWith("org.jmpi.")).toList());
            }
        }
        List<RecordedEvent> sends = all(events, "org.jmpi.PointToPoint", "MPI_Send");
        assertThat(sends).extracting(e -> e.getInt("tag")).containsExactlyInAnyOrder(42, 99);
        RecordedEvent send = sends.stream().filter(e -> e.getInt("tag") == 42).findFirst().orElseThrow();
        assertThat(send.getInt("peer")).isEqualTo(1);
        assertThat(send.getInt("tag")).isEqualTo(42);
        assertThat(send.getLong("bytes")).isEqualTo(20);
        assertThat(send.getString("datatype")).isEqualTo("MPI_INT");
        assertThat(send.getString("communicator")).startsWith("MPI_COMM_WORLD#");
        RecordedEvent recv = one(events, "org.jmpi.PointToPoint", "MPI_Recv");
        assertThat(recv.getInt("peer")).isZero();
        assertThat(recv.getLong("bytes")).isEqualTo(20);

        List<RecordedEvent> bcasts = all(events, "org.jmpi.Collective", "MPI_Bcast");
        assertThat(bcasts).hasSize(2);
        for (RecordedEvent b : bcasts) {
            assertThat(b.getInt("root")).isZero();
            assertThat(b.getInt("size")).isEqualTo(2);
            assertThat(b.getLong("bytes")).isEqualTo(12);
            assertThat(b.getString("algorithm")).isNotEmpty();
        }
        for (RecordedEvent a : all(events, "org.jmpi.Collective", "MPI_Allreduce")) {
            assertThat(a.getLong("bytes")).isEqualTo(64);
            assertThat(a.getString("datatype")).isEqualTo("MPI_DOUBLE");
            assertThat(a.getInt("root")).isEqualTo(-1);
        }
        assertThat(all(events, "org.jmpi.Collective", "MPI_Barrier")).hasSize(2);

        assertThat(all(events, "org.jmpi.RmaEpoch", "MPI_Win_fence")).hasSize(4);
        for (RecordedEvent l : all(events, "org.jmpi.RmaEpoch", "MPI_Win_lock")) {
            assertThat(l.getInt("target")).isIn(0, 1);
        }
        assertThat(all(events, "org.jmpi.RmaEpoch", "MPI_Win_unlock")).hasSize(2);

        List<RecordedEvent> writes = all(events, "org.jmpi.FileAccess", "MPI_File_write_at");
        assertThat(writes).hasSize(2);
        assertThat(writes).extracting(w -> w.getLong("offset")).containsExactlyInAnyOrder(0L, 16L);
        assertThat(writes).allSatisfy(w -> {
            assertThat(w.getLong("bytes")).isEqualTo(16);
            assertThat(w.getString("file")).endsWith("data.bin");
        });
        assertThat(all(events, "org.jmpi.FileAccess", "MPI_File_read_at")).hasSize(2);
        assertThat(events).allSatisfy(e -> assertThat(e.getDuration().isNegative()).isFalse());

        // the periodic traffic counters: at least the totals at finalize, one event per peer with traffic
        List<RecordedEvent> traffic = events.stream()
                .filter(e -> e.getEventType().getName().equals("org.jmpi.Traffic")).toList();
        assertThat(traffic).isNotEmpty();
        for (RecordedEvent e : traffic) {
            assertThat(e.getInt("peer")).isIn(0, 1);
            assertThat(e.getString("transport")).isIn("shm", "tcp");
            assertThat(e.getLong("framesSent") + e.getLong("framesReceived")).isPositive();
        }
        long sentByRank0To1 = traffic.stream().filter(e -> e.getInt("peer") == 1)
                .mapToLong(e -> e.getLong("bytesSent")).max().orElse(0);
        assertThat(sentByRank0To1).as("rank 0 sent rank 1 at least the 20-byte message").isGreaterThanOrEqualTo(20);
        assertThat(traffic).allSatisfy(e -> assertThat(e.getLong("bytesInFlight")).isNotNegative());
        // rank 1 never receives one message: its last queue sample (at finalize) counts it
        int maxUnexpected = events.stream().filter(e -> e.getEventType().getName().equals("org.jmpi.Queues"))
                .mapToInt(e -> e.getInt("unexpectedMessages")).max().orElse(-1);
        assertThat(maxUnexpected).isGreaterThanOrEqualTo(1);
        // time spent waiting: cumulative, so the last sample is the largest; the ranks waited for each other
        List<RecordedEvent> waiting = events.stream()
                .filter(e -> e.getEventType().getName().equals("org.jmpi.Waiting")).toList();
        assertThat(waiting).isNotEmpty();
        assertThat(waiting.stream().mapToLong(e -> e.getLong("waits")).max().orElse(0)).isPositive();
        assertThat(waiting.stream().mapToLong(e -> e.getDuration("timeWaiting").toNanos()).max().orElse(0))
                .isPositive();
    }

    /**
     * Without {@code JMPI_JFR_THRESHOLD}: the event types' own threshold (20 us) keeps the calls that take longer, as
     * these do (milliseconds). Before the fix an event was checked against the threshold before it was ended, with a
     * duration of 0, so not one point-to-point or collective event was recorded.
     */
    @ParameterizedTest
    @CsvSource({"processes, 2", "threads, 3"})
    void callsLongerThanTheDefaultThresholdAreRecorded(String mode, int n, @TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("jfr");
        List<String> args = new ArrayList<>(List.of("--no-stdin", "-n", Integer.toString(n), "--jfr", dir.toString(),
                "-cp", LaunchIntegrationTest.rankClassPath()));
        if (mode.equals("threads")) {
            args.add("--threads");
        }
        args.add(JfrSlowCallsRank.class.getName());
        LaunchIntegrationTest.Result r = LaunchIntegrationTest.run(
                LaunchIntegrationTest.jmpirun(args.toArray(String[]::new)), Map.of(), Duration.ofSeconds(150));
        assertThat(r.rc()).as(r.out()).isZero();
        List<RecordedEvent> events = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.filter(p -> p.toString().endsWith(".jfr")).toList()) {
                events.addAll(RecordingFile.readAllEvents(p).stream()
                        .filter(e -> e.getEventType().getName().startsWith("org.jmpi.")).toList());
            }
        }
        RecordedEvent send = one(events, "org.jmpi.PointToPoint", "MPI_Send");
        assertThat(send.getInt("tag")).isEqualTo(7);
        assertThat(send.getLong("bytes")).isEqualTo(8 << 20);
        RecordedEvent recv = one(events, "org.jmpi.PointToPoint", "MPI_Recv");
        assertThat(recv.getInt("peer")).isZero();
        assertThat(recv.getLong("bytes")).isEqualTo(8 << 20);
        assertThat(all(events, "org.jmpi.Collective", "MPI_Bcast")).as("one per rank").hasSize(n);
        assertThat(all(events, "org.jmpi.Collective", "MPI_Allreduce")).as("one per rank").hasSize(n);
        assertThat(events.stream().filter(e -> e.getEventType().getName().equals("org.jmpi.PointToPoint")
                || e.getEventType().getName().equals("org.jmpi.Collective")))
                .allSatisfy(e -> assertThat(e.getDuration()).isGreaterThanOrEqualTo(Duration.ofNanos(20_000)));
    }

    private static List<RecordedEvent> all(List<RecordedEvent> events, String type, String call) {
        return events.stream().filter(e -> e.getEventType().getName().equals(type) && call.equals(e.getString("call")))
                .toList();
    }

    private static RecordedEvent one(List<RecordedEvent> events, String type, String call) {
        List<RecordedEvent> l = all(events, type, call);
        assertThat(l).as(type + " " + call).hasSize(1);
        return l.get(0);
    }
}
