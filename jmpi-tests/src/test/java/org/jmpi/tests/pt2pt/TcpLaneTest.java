package org.jmpi.tests.pt2pt;

import mpi.MPIException;
import org.jmpi.junit.Mode;
import org.jmpi.junit.MpiTest;

/**
 * {@link LaneTest}'s promises between ranks that talk over TCP ({@code jmpi.transport=tcp}), where the lane writes a
 * blocking eager message straight into the connection's write buffer and takes it straight out of its read buffer:
 * order whatever path each message takes, matching, truncation, progress for the other peers while one waits,
 * statuses. Every pair's first exchange makes both ranks connect (a barrier), so the lane also runs across the switch
 * of crossed connections.
 */
class TcpLaneTest {
    private static final String TCP = "-Djmpi.transport=tcp";
    private final LaneTest lane = new LaneTest();

    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES, jvmArgs = TCP)
    void messagesOfOneStreamKeepTheirOrderWhateverPathEachTakes() throws MPIException {
        mpi.MPI.COMM_WORLD.barrier();
        lane.messagesOfOneStreamKeepTheirOrderWhateverPathEachTakes();
    }

    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES, jvmArgs = TCP)
    void aReceivePostedEarlierKeepsItsMessage() throws MPIException {
        lane.aReceivePostedEarlierKeepsItsMessage();
    }

    @MpiTest(ranks = {2}, modes = Mode.PROCESSES, jvmArgs = TCP)
    void anUnexpectedMessageComesBeforeTheLane() throws MPIException {
        lane.anUnexpectedMessageComesBeforeTheRing();
    }

    @MpiTest(ranks = {2}, modes = Mode.PROCESSES, jvmArgs = TCP)
    void aTooShortBufferIsTruncation() throws MPIException {
        lane.aTooShortBufferIsTruncation();
    }

    @MpiTest(ranks = {1, 3, 4}, modes = Mode.PROCESSES, jvmArgs = TCP)
    void haloExchangeWithProcNullAtTheEnds() throws MPIException {
        lane.haloExchangeWithProcNullAtTheEnds();
    }

    @MpiTest(ranks = {3}, modes = Mode.PROCESSES, jvmArgs = TCP)
    void aWaitingRankServesItsOtherPeers() throws MPIException {
        lane.aWaitingRankServesItsOtherPeers();
    }

    @MpiTest(ranks = {2}, modes = Mode.PROCESSES, jvmArgs = TCP)
    void typedArraysAndStatusCounts() throws MPIException {
        lane.typedArraysAndStatusCounts();
    }

    @MpiTest(ranks = {2, 3}, modes = Mode.PROCESSES, jvmArgs = TCP)
    void aWindowOfNonBlockingSendsMixesLaneAndUsualPath() throws MPIException {
        mpi.MPI.COMM_WORLD.barrier();
        lane.aWindowOfNonBlockingSendsMixesLaneAndUsualPath();
    }
}
