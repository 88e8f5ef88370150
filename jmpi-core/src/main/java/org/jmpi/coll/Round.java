package org.jmpi.coll;

import java.util.Arrays;
import org.jmpi.datatype.MessageData;

/**
 * One round of a {@link Schedule}: local steps, run first and in order, then messages, all started together; the
 * round ends when every message has completed. Peers are kept as ranks in the schedule's communicator; an algorithm
 * building for a part of it ({@link Schedule#within}) gives them as ranks in that part.
 *
 * <p>Threading: built by one thread before the schedule starts, read-only afterwards.
 */
public final class Round {
    final int index;
    Runnable[] locals = new Runnable[0];
    int localCount;
    int[] peers = new int[2];
    MessageData[] data = new MessageData[2];
    boolean[] isSend = new boolean[2];
    int opCount;

    /** Comm ranks of the group whose ranks the algorithm gives as peers, or null (see {@link Schedule#within}). */
    private final int[] group;

    Round(int index, int[] group) {
        this.index = index;
        this.group = group;
    }

    /** Adds a local step (a copy or a reduction), run at the start of the round. */
    public Round local(Runnable step) {
        if (localCount == locals.length) {
            locals = Arrays.copyOf(locals, Math.max(2, 2 * localCount));
        }
        locals[localCount++] = step;
        return this;
    }

    /** Sends {@code d} to {@code peer}. */
    public Round send(int peer, MessageData d) {
        return op(peer, d, true);
    }

    /** Receives from {@code peer} into {@code d}. */
    public Round recv(int peer, MessageData d) {
        return op(peer, d, false);
    }

    private Round op(int peer, MessageData d, boolean send) {
        if (opCount == peers.length) {
            int n = 2 * opCount;
            peers = Arrays.copyOf(peers, n);
            data = Arrays.copyOf(data, n);
            isSend = Arrays.copyOf(isSend, n);
        }
        peers[opCount] = group == null ? peer : group[peer];
        data[opCount] = d;
        isSend[opCount] = send;
        opCount++;
        return this;
    }
}
