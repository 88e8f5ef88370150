package org.jmpi.transport.tcp;

import java.util.Map;
import org.jmpi.bootstrap.Bootstrap;

/** A bootstrap for ranks in one JVM: a shared map as key-value space, a fence that does nothing. */
record InMemoryBootstrap(int rank, int size, String jobId, Map<String, String> space) implements Bootstrap {
    @Override
    public void put(String key, String value) {
        space.put(key, value);
    }

    @Override
    public void fence() {}

    @Override
    public String get(String key) {
        return space.get(key);
    }

    @Override
    public void abort(int exitCode, String message) {
        throw new IllegalStateException("abort(" + exitCode + "): " + message);
    }

    @Override
    public void finalizeJob() {}

    @Override
    public void close() {}
}
