package org.jmpi.bootstrap.pmi;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.jmpi.bootstrap.Bootstrap;

/**
 * {@link Bootstrap} over the PMI-2 wire on an inherited descriptor ({@code PMI_FD}): what Slurm's
 * {@code srun --mpi=pmi2} plugin speaks natively, and Hydra too.
 *
 * <p>Start-up, as observed under Slurm 22.05 and Hydra 4.0 (launch-integration.md, section 2):
 *
 * <pre>
 * -> cmd=init pmi_version=2 pmi_subversion=0\n            (one PMI-1 style line first: both servers insist)
 * &lt;- cmd=response_to_init rc=0 pmi_version=2 pmi_subversion=0\n
 * -> "52    cmd=fullinit;pmijobid=23.0;pmirank=3;threaded=FALSE;"   (pmijobid only when PMI_JOBID is set; Slurm
 *                                                                    requires it)
 * &lt;- "114   cmd=fullinit-response;rc=0;...;rank=3;size=4;appnum=-1;..."
 * -> "14    cmd=job-getid;"          &lt;- "...cmd=job-getid-response;rc=0;jobid=23.0;"
 * </pre>
 *
 * then per call {@code kvs-put;key;value}, {@code kvs-fence}, {@code kvs-get;jobid;srcid=-1;key} (answered with
 * {@code found=TRUE|FALSE}), {@code info-getjobattr;key=PMI_process_mapping}, {@code abort;isworldabort=TRUE;msg}
 * and {@code finalize}. Every frame is a 6-character length and a {@code ;}-separated body ({@link Pmi2Message}).
 *
 * <p>Threading: like PMI-1 the wire is lock-step, so every request and its reply run under {@code lock}; any thread
 * may call any method. {@code broken}, {@code finalized} and {@code closed} are only touched under the lock.
 */
public final class Pmi2Bootstrap implements Bootstrap {
    private static final int KEY_MAX = 64;

    private final ReentrantLock lock = new ReentrantLock();
    private final LineChannel channel;
    private final String via;
    private final int rank;
    private final int size;
    private final String jobId;
    private final String safeJobId;
    private String broken;
    private boolean finalized;
    private boolean closed;
    /** Set before finalize and close: from then on the server's end of the connection is expected. */
    private volatile boolean ending;

    private Pmi2Bootstrap(LineChannel channel, String via, int rank, int size, String jobId) {
        this.channel = channel;
        this.via = via;
        this.rank = rank;
        this.size = size;
        this.jobId = jobId;
        this.safeJobId = PmiText.safeName(jobId);
    }

    /**
     * Connects over {@code PMI_FD} (with {@code PMI_RANK}, and {@code PMI_JOBID} when set).
     *
     * @return the bootstrap, or {@code null} when {@code PMI_FD} is not set
     * @throws PmiException when the variables are malformed or the server refuses PMI-2
     */
    public static Pmi2Bootstrap fromEnvironment(Map<String, String> env) {
        String fd = PmiText.blankToNull(env.get("PMI_FD"));
        if (fd == null) {
            return null;
        }
        int descriptor = PmiText.parseInt(env, "PMI_FD");
        int rank = PmiText.parseInt(env, "PMI_RANK");
        LineChannel ch;
        try {
            ch = new FdLineChannel(descriptor);
        } catch (RuntimeException | LinkageError e) {
            throw new PmiException("cannot use PMI_FD=" + fd + " (run the JVM with "
                    + "--enable-native-access=ALL-UNNAMED): " + e, e);
        }
        return open(ch, "PMI_FD=" + fd, rank, PmiText.blankToNull(env.get("PMI_JOBID")));
    }

    /** Runs the start-up exchange on {@code ch} for the given rank; {@code pmiJobId} may be null. */
    static Pmi2Bootstrap open(LineChannel ch, String via, int rank, String pmiJobId) {
        try {
            ch.writeLine("cmd=init pmi_version=2 pmi_subversion=0");
            String line = ch.readLine();
            if (line == null) {
                throw new PmiException("the PMI server at " + via + " closed the connection during init");
            }
            Pmi1Message init = Pmi1Message.parse(line);
            if (!init.command().equals("response_to_init") || init.rc() != 0
                    || init.intValue("pmi_version", -1) != 2) {
                throw new PmiException("the PMI server at " + via + " refused PMI-2: " + line);
            }
            Pmi2Message full = pmiJobId == null
                    ? Pmi2Message.of("fullinit", "pmirank", Integer.toString(rank), "threaded", "FALSE")
                    : Pmi2Message.of("fullinit", "pmijobid", pmiJobId, "pmirank", Integer.toString(rank), "threaded",
                            "FALSE");
            Pmi2Message r = exchange(ch, via, full, "fullinit-response");
            if (r.rc() != 0) {
                throw new PmiException("PMI-2 fullinit refused by " + via + ": " + r);
            }
            int gotRank = r.intValue("rank", -1);
            int size = r.intValue("size", -1);
            if (size < 1 || gotRank < 0 || gotRank >= size) {
                throw new PmiException("PMI server at " + via + " gave rank " + gotRank + " of size " + size);
            }
            Pmi2Message id = exchange(ch, via, Pmi2Message.of("job-getid"), "job-getid-response");
            String jobId = id.get("jobid");
            if (id.rc() != 0 || jobId == null || jobId.isEmpty()) {
                throw new PmiException("PMI server at " + via + " gave no job id: " + id);
            }
            return new Pmi2Bootstrap(ch, via, gotRank, size, jobId);
        } catch (IOException | RuntimeException e) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // already failing
            }
            if (e instanceof PmiException p) {
                throw p;
            }
            throw new PmiException("PMI-2 start-up with the server at " + via + " failed: " + e, e);
        }
    }

    /** Sends one request and reads its reply, which must carry {@code replyCommand}. */
    private static Pmi2Message exchange(LineChannel ch, String via, Pmi2Message request, String replyCommand)
            throws IOException {
        ch.write(request.frame());
        byte[] header = ch.readExactly(Pmi2Message.HEADER);
        if (header == null) {
            throw new PmiException("the PMI server at " + via + " closed the connection while this rank waited for "
                    + "cmd=" + replyCommand + " (is the job ending?)");
        }
        int length = Pmi2Message.parseLength(header);
        if (length < 0 || length > LineChannel.MAX_LINE) {
            throw new PmiException("the PMI server at " + via + " sent a bad PMI-2 length header '"
                    + new String(header, StandardCharsets.US_ASCII) + "'");
        }
        byte[] body = ch.readExactly(length);
        if (body == null && length > 0) {
            throw new PmiException("the PMI server at " + via + " closed the connection in a message");
        }
        Pmi2Message m = Pmi2Message.parse(body == null ? "" : new String(body, StandardCharsets.US_ASCII));
        if (!m.command().equals(replyCommand)) {
            throw new PmiException("expected cmd=" + replyCommand + " from the PMI server at " + via + ", got: " + m);
        }
        return m;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    /** The job id, made safe for file names. */
    @Override
    public String jobId() {
        return safeJobId;
    }

    /** The job id exactly as the server gave it. */
    public String pmiJobId() {
        return jobId;
    }

    @Override
    public void put(String key, String value) {
        PmiText.checkKey(key, KEY_MAX);
        PmiText.checkValue(key, value, MAX_VALUE);
        lock.lock();
        try {
            Pmi2Message r = call(Pmi2Message.of("kvs-put", "key", key, "value", value), "kvs-put-response");
            if (r.rc() != 0) {
                throw new PmiException("PMI-2 put of key '" + key + "' refused: " + r);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void fence() {
        lock.lock();
        try {
            Pmi2Message r = call(Pmi2Message.of("kvs-fence"), "kvs-fence-response");
            if (r.rc() != 0) {
                throw new PmiException("PMI-2 fence failed: " + r);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String get(String key) {
        PmiText.checkKey(key, KEY_MAX);
        lock.lock();
        try {
            Pmi2Message r = call(Pmi2Message.of("kvs-get", "jobid", jobId, "srcid", "-1", "key", key),
                    "kvs-get-response");
            return r.rc() != 0 || !r.isTrue("found") ? null : r.get("value");
        } finally {
            lock.unlock();
        }
    }

    /** A job attribute ({@code PMI_process_mapping}, {@code universeSize}), or null when the server has none. */
    public String jobAttribute(String key) {
        lock.lock();
        try {
            Pmi2Message r = call(Pmi2Message.of("info-getjobattr", "key", key), "info-getjobattr-response");
            return r.rc() != 0 || !r.isTrue("found") ? null : r.get("value");
        } finally {
            lock.unlock();
        }
    }

    /** The server's {@code PMI_process_mapping}, or null. */
    public String processMapping() {
        return jobAttribute("PMI_process_mapping");
    }

    /** Sends {@code cmd=abort;isworldabort=TRUE;msg=...;}. No reply comes; never throws. */
    @Override
    public void abort(int exitCode, String message) {
        ending = true; // the job ends; so will the connection
        lock.lock();
        try {
            if (broken != null || closed) {
                return;
            }
            String m = message == null || message.isEmpty() ? "aborted" : message;
            if (m.length() > 512) {
                m = m.substring(0, 512);
            }
            channel.write(Pmi2Message.of("abort", "isworldabort", "TRUE", "msg",
                    PmiText.sanitizeMessage(m).replace(';', '_') + "_(exit_code_" + exitCode + ")").frame());
        } catch (IOException e) {
            broken = e.toString();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void watchEnd(Runnable onEnd) {
        channel.watchEnd(() -> {
            if (!ending) {
                onEnd.run();
            }
        });
    }

    /** As {@link Pmi1Bootstrap#finalizeJob()}: the wait for the answer is bounded ({@link FinalizeDeadline}). */
    @Override
    public void finalizeJob() {
        ending = true; // the server may close the connection once it has answered
        lock.lock();
        try {
            if (finalized) {
                return;
            }
            FinalizeDeadline.run(channel, FinalizeDeadline.configuredNanos(), via,
                    () -> call(Pmi2Message.of("finalize"), "finalize-response"));
            finalized = true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        ending = true;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            channel.close();
        } catch (IOException ignored) {
            // closing a connection we no longer need
        } finally {
            lock.unlock();
        }
    }

    private Pmi2Message call(Pmi2Message request, String replyCommand) {
        if (closed) {
            throw new PmiException("PMI connection to " + via + " is closed");
        }
        if (broken != null) {
            throw new PmiException("PMI connection to " + via + " is broken: " + broken);
        }
        try {
            return exchange(channel, via, request, replyCommand);
        } catch (IOException | PmiException e) {
            broken = e.getMessage();
            if (e instanceof PmiException p) {
                throw p;
            }
            throw new PmiException("PMI-2 " + request.command() + " to " + via + " failed: " + e, e);
        }
    }

    @Override
    public String toString() {
        return "Pmi2Bootstrap[rank " + rank + " of " + size + ", job " + jobId + ", " + via + "]";
    }
}
