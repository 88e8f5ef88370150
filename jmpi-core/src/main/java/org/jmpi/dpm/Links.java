package org.jmpi.dpm;

import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;
import org.jmpi.shared.ThreadsJob;
import org.jmpi.transport.tcp.TcpTransport;

/**
 * How this rank reaches processes of other jobs once a connect, accept or spawn has named them: over TCP (processes
 * mode, {@link Tcp}) or by handing messages to their engines in this JVM (threads mode, {@link InJvm}). A process's
 * <em>card</em> says where it is: a TCP business card, or {@code jvm:<id>} for a rank that is a thread of the JVM with
 * that id. A threads-mode job and a job of processes cannot reach each other (nor two threads-mode jobs in two JVMs):
 * {@link #reaches} says so before anything is attached, and the connect/accept fails on both sides.
 *
 * <p>Threading: called under the {@link ProcessTable}'s lock.
 */
interface Links {
    /** The card of world rank {@code rank} of this job. */
    String cardOf(int rank);

    /** Whether a process with this card can be reached from here. */
    boolean reaches(String card);

    /** The address ports of this rank listen on. */
    String portHost();

    /** Makes process {@code id} reachable as peer {@code index}, admitted with {@code token}. */
    void add(int index, ProcessTable.Identity id, byte[] token);

    /** Peer {@code index} is no longer held: its connection (or its link to the other job) goes. */
    void retire(int index);

    /** This rank finalizes: what ties it to other jobs and is not a connection (listeners) goes. */
    default void close() {
    }

    /** The card prefix of a rank that is a thread of some JVM. */
    String JVM_CARD = "jvm:";

    /** Processes mode: the TCP transport's dynamic peers, admitted by their link token. */
    final class Tcp implements Links {
        private final JmpiRuntime runtime;
        private final TcpTransport tcp;

        Tcp(JmpiRuntime runtime, TcpTransport tcp, TcpTransport.ForeignAdmission admission) {
            this.runtime = runtime;
            this.tcp = tcp;
            tcp.setForeignAdmission(admission);
        }

        @Override
        public String cardOf(int rank) {
            String card = rank == runtime.rank() ? tcp.businessCard()
                    : runtime.bootstrap().get(TcpTransport.cardKey(rank));
            if (card == null) {
                throw new MpiError(ErrorClass.ERR_INTERN, "rank " + rank + " published no TCP business card");
            }
            return card;
        }

        @Override
        public boolean reaches(String card) {
            return !card.startsWith(JVM_CARD);
        }

        @Override
        public String portHost() {
            return Spawner.bareHost(cardOf(runtime.rank()));
        }

        @Override
        public void add(int index, ProcessTable.Identity id, byte[] token) {
            tcp.addForeign(index, id.card(), token);
        }

        @Override
        public void retire(int index) {
            tcp.retireForeign(index);
        }
    }

    /**
     * Threads mode: the other job's ranks are threads of this JVM; messages go straight to their engines (the job's
     * endpoint table), and the other job's end (an abort, a rank gone before finalizing) fails this rank's
     * operations that involve its ranks, as a broken connection does between processes.
     */
    final class InJvm implements Links {
        private final JmpiRuntime runtime;
        private final String card = JVM_CARD + ThreadsJob.jvmId();
        private final java.util.Map<Integer, Runnable> unsubscribe = new java.util.HashMap<>();

        InJvm(JmpiRuntime runtime) {
            this.runtime = runtime;
        }

        @Override
        public String cardOf(int rank) {
            return card;
        }

        @Override
        public boolean reaches(String other) {
            return card.equals(other);
        }

        @Override
        public String portHost() {
            return "127.0.0.1";
        }

        @Override
        public void add(int index, ProcessTable.Identity id, byte[] token) {
            ThreadsJob other = ThreadsJob.live(id.jobId());
            if (other == null || id.rank() < 0 || id.rank() >= other.size() || other.endpoint(id.rank()) == null) {
                throw new MpiError(ErrorClass.ERR_PORT, "process " + id.rank() + " of job " + id.jobId()
                        + " is not running in this JVM");
            }
            other.markLinked();
            ThreadsJob own = ThreadsJob.live(runtime.bootstrap().jobId());
            if (own != null) {
                own.markLinked();
            }
            runtime.engine().addForeignEndpoint(index, other.endpoint(id.rank()));
            int rank = id.rank();
            ThreadsJob.LossListener l = (lost, why) -> {
                if (lost < 0 || lost == rank) {
                    runtime.engine().onPeerFailure(index, new java.io.IOException(why));
                }
            };
            other.addLossListener(l);
            unsubscribe.put(index, () -> other.removeLossListener(l));
            if (other.aborted()) {
                l.lost(-1, "job " + id.jobId() + " aborted");
            }
        }

        @Override
        public void retire(int index) {
            Runnable r = unsubscribe.remove(index);
            if (r != null) {
                r.run();
            }
        }

        /** A rank that finalizes without disconnecting leaves no listener (and so no engine) on other jobs. */
        @Override
        public void close() {
            unsubscribe.values().forEach(Runnable::run);
            unsubscribe.clear();
        }
    }
}
