package org.jmpi.transport.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** N nodes of one job sharing an in-memory bootstrap. */
final class Cluster implements AutoCloseable {
    final Map<String, String> space = new ConcurrentHashMap<>();
    final List<Node> nodes = new ArrayList<>();
    final String jobId;

    Cluster(String jobId) {
        this.jobId = jobId;
    }

    static Cluster start(int n, TcpConfig config) {
        Cluster c = new Cluster("test-job-" + ProcessHandle.current().pid());
        for (int r = 0; r < n; r++) {
            c.nodes.add(new Node(r, n, c.jobId, c.space, config));
        }
        for (Node node : c.nodes) {
            node.start();
        }
        return c;
    }

    static Cluster start(int n) {
        return start(n, TcpConfig.defaults());
    }

    Node node(int rank) {
        return nodes.get(rank);
    }

    int size() {
        return nodes.size();
    }

    /** Fails the test with every handler error and peer failure seen. */
    void assertHealthy() {
        // every rank's errors in one message: the first rank's alone hid where a fault began
        java.util.List<String> errors = new java.util.ArrayList<>();
        for (Node n : nodes) {
            for (Throwable t : n.errors) {
                errors.add("rank " + n.rank + ": " + t);
            }
        }
        assertThat(errors).as("errors in the ranks' handlers").isEmpty();
        for (Node n : nodes) {
            assertThat(n.failures).as("peer failures seen by rank %d", n.rank).isEmpty();
        }
    }

    @Override
    public void close() throws InterruptedException {
        for (Node n : nodes) {
            n.close();
        }
    }
}
