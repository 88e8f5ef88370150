package org.jmpi.bootstrap;

import org.jmpi.shared.JobAbortedError;
import org.jmpi.shared.ThreadsJob;

/** Bootstrap of a rank that is a thread of a {@link ThreadsJob}: everything goes through the shared job object. */
public final class ThreadsBootstrap implements Bootstrap {
    private final ThreadsJob job;
    private final int rank;

    public ThreadsBootstrap(ThreadsJob job, int rank) {
        this.job = job;
        this.rank = rank;
    }

    public ThreadsJob job() {
        return job;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return job.size();
    }

    @Override
    public String jobId() {
        return job.jobId();
    }

    @Override
    public void put(String key, String value) {
        job.put(key, value);
    }

    @Override
    public void fence() {
        job.fence();
    }

    @Override
    public String get(String key) {
        return job.get(key);
    }

    @Override
    public void abort(int exitCode, String message) {
        job.abort(rank, exitCode, message);
        throw new JobAbortedError(exitCode, message);
    }

    @Override
    public void finalizeJob() {
        job.finalized(rank);
    }

    /** Every rank of a threads-mode job lives in this JVM. */
    @Override
    public boolean isLocal(int peer) {
        return peer >= 0 && peer < job.size();
    }

    @Override
    public void close() {}
}
