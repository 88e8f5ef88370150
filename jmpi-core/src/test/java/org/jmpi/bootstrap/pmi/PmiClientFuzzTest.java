package org.jmpi.bootstrap.pmi;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Fuzz target: what a rank reads from a PMI server it cannot trust to be well-formed (Hydra's or Slurm's PMI-1 lines,
 * Slurm's PMI-2 length-prefixed frames, a rendezvous server). The first byte picks the dialect; the rest is
 * everything the "server" sends, in one piece. Start-up and a put / fence / get / finalize must either work or fail
 * with a {@link PmiException}: no other exception, no hang, no allocation driven by a length field.
 *
 * <p>Run as a regression test over the stored inputs by {@code ./mvnw verify}; fuzzed for {@code jmpi.fuzz.duration}
 * by the {@code fuzz} profile (see docs/launching.md, "Fuzzing").
 */
class PmiClientFuzzTest {

    @FuzzTest(maxDuration = "30s")
    void serverReplies(byte[] data) {
        if (data.length == 0) {
            return;
        }
        int mode = data[0] & 3;
        ReplayChannel ch = new ReplayChannel(Arrays.copyOfRange(data, 1, data.length));
        try {
            switch (mode) {
                case 0, 1 -> {
                    // PMI_FD (rank and size given) or PMI_PORT (initack, rank and size from the server)
                    Pmi1Bootstrap b = mode == 0 ? Pmi1Bootstrap.open(ch, "fuzz", -1, 0, 2)
                            : Pmi1Bootstrap.open(ch, "fuzz", 0, -1, -1);
                    exercise(b);
                }
                default -> exercise(Pmi2Bootstrap.open(ch, "fuzz", 0, "fuzzjob"));
            }
        } catch (PmiException expected) {
            // a broken server is reported as such
        }
    }

    private static void exercise(org.jmpi.bootstrap.Bootstrap b) {
        try {
            b.put("k", "v");
            b.fence();
            b.get("k");
            b.get("PMI_process_mapping");
            b.finalizeJob();
        } finally {
            b.close();
        }
    }

    /** A channel whose server side says {@code replies} whatever is asked; writes are dropped. */
    static final class ReplayChannel implements LineChannel {
        private final byte[] replies;
        private int pos;

        ReplayChannel(byte[] replies) {
            this.replies = replies;
        }

        @Override
        public void writeLine(String line) {
        }

        @Override
        public void write(byte[] bytes) {
        }

        @Override
        public String readLine() throws IOException {
            if (pos >= replies.length) {
                return null;
            }
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            while (pos < replies.length && replies[pos] != '\n') {
                if (b.size() >= MAX_LINE) {
                    throw new IOException("line too long");
                }
                b.write(replies[pos++]);
            }
            pos++;
            return b.toString(StandardCharsets.US_ASCII);
        }

        @Override
        public byte[] readExactly(int n) throws IOException {
            if (pos >= replies.length && n > 0) {
                return null;
            }
            if (n > replies.length - pos) {
                throw new IOException("end of stream in a message");
            }
            byte[] b = Arrays.copyOfRange(replies, pos, pos + n);
            pos += n;
            return b;
        }

        @Override
        public void watchEnd(Runnable onEnd) {
        }

        @Override
        public void close() {
        }
    }
}
