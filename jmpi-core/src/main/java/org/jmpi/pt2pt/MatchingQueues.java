package org.jmpi.pt2pt;

import java.util.function.Consumer;

/**
 * The posted-receive and unexpected-message queues of one engine, indexed so that matching does not walk a backlog.
 *
 * <p>Structure: a hash table of {@link Bucket}s, one per exact envelope (context, source, tag) seen, each holding a
 * FIFO of the posted receives with exactly that envelope and a FIFO of the unexpected messages with it. Besides:
 * <ul>
 *   <li>posted receives with a wildcard (ANY_SOURCE or ANY_TAG) sit in one FIFO of their own; every posted receive
 *       carries a posting sequence number, so that an arriving message takes the earliest of the first exact
 *       receive and the first matching wildcard receive;</li>
 *   <li>every unexpected message is also in one arrival-order list, which a wildcard receive or probe walks.</li>
 * </ul>
 * A receive or probe naming its source and tag, and a message for which no wildcard receive is posted, cost a hash
 * lookup, whatever the backlog of other envelopes (issue 16: an iProbe for an absent tag under a flood of 40,000
 * messages walked all of them per call). Wildcard receives and probes walk the arrival list as before; it is in
 * arrival order, so MPI's non-overtaking rule holds for them as for exact ones.
 *
 * <p>A bucket leaves the table when it empties and goes to a free list, from which the next new envelope takes it:
 * collectives use a new tag per call, and a steady exchange of any kind allocates no buckets.
 *
 * <p>Threading: not thread-safe; every method is called with the engine's matching lock held.
 */
final class MatchingQueues {
    /** Queue entries examined by searches (bucket chain steps and list nodes), for tests of the cost of matching. */
    long visited;

    private Bucket[] table = new Bucket[64];
    private int buckets;
    /** Emptied buckets for reuse, linked through {@code chain}. */
    private Bucket freeBuckets;
    private int freeBucketCount;
    private static final int FREE_BUCKETS_MAX = 1024;
    private long nextSeq = 1;
    private RecvRequest wildHead;
    private RecvRequest wildTail;
    private Unexpected arrivalHead;
    private Unexpected arrivalTail;

    /** The queues of one exact envelope. */
    static final class Bucket {
        int context;
        int source;
        int tag;
        Bucket chain;
        RecvRequest postedHead;
        RecvRequest postedTail;
        Unexpected unexpectedHead;
        Unexpected unexpectedTail;

        Bucket set(int context, int source, int tag) {
            this.context = context;
            this.source = source;
            this.tag = tag;
            return this;
        }

        boolean empty() {
            return postedHead == null && unexpectedHead == null;
        }
    }

    private static int hash(int context, int source, int tag) {
        int h = context * 0x9E3779B1 + source * 0x85EBCA77 + tag * 0xC2B2AE3D;
        return h ^ (h >>> 15);
    }

    private Bucket find(int context, int source, int tag) {
        Bucket b = table[hash(context, source, tag) & (table.length - 1)];
        while (b != null) {
            visited++;
            if (b.context == context && b.source == source && b.tag == tag) {
                return b;
            }
            b = b.chain;
        }
        return null;
    }

    private Bucket findOrAdd(int context, int source, int tag) {
        Bucket b = find(context, source, tag);
        if (b != null) {
            return b;
        }
        if (buckets >= table.length) {
            grow();
        }
        b = freeBuckets;
        if (b == null) {
            b = new Bucket();
        } else {
            freeBuckets = b.chain;
            freeBucketCount--;
        }
        b.set(context, source, tag);
        int i = hash(context, source, tag) & (table.length - 1);
        b.chain = table[i];
        table[i] = b;
        buckets++;
        return b;
    }

    /** Doubles the table (it holds only buckets in use: emptied ones leave at once). */
    private void grow() {
        Bucket[] old = table;
        table = new Bucket[old.length * 2];
        for (Bucket head : old) {
            for (Bucket b = head; b != null; ) {
                Bucket next = b.chain;
                int i = hash(b.context, b.source, b.tag) & (table.length - 1);
                b.chain = table[i];
                table[i] = b;
                b = next;
            }
        }
    }

    /** Takes an emptied bucket out of the table, into the free list. */
    private void dropIfEmpty(Bucket b) {
        if (!b.empty()) {
            return;
        }
        int i = hash(b.context, b.source, b.tag) & (table.length - 1);
        if (table[i] == b) {
            table[i] = b.chain;
        } else {
            Bucket p = table[i];
            while (p.chain != b) {
                p = p.chain;
            }
            p.chain = b.chain;
        }
        buckets--;
        b.chain = null;
        if (freeBucketCount < FREE_BUCKETS_MAX) {
            b.chain = freeBuckets;
            freeBuckets = b;
            freeBucketCount++;
        }
    }

    private static boolean exact(int source, int tag) {
        return source != Engine.ANY && tag != Engine.ANY;
    }

    // ------------------------------------------------------------------ posted receives

    /** Appends a posted receive. */
    void post(RecvRequest r) {
        r.queued = true;
        r.seq = nextSeq++;
        r.next = null;
        if (exact(r.sourceFilter, r.tagFilter)) {
            Bucket b = findOrAdd(r.context, r.sourceFilter, r.tagFilter);
            r.bucket = b;
            r.prev = b.postedTail;
            if (b.postedTail == null) {
                b.postedHead = r;
            } else {
                b.postedTail.next = r;
            }
            b.postedTail = r;
        } else {
            r.bucket = null;
            r.prev = wildTail;
            if (wildTail == null) {
                wildHead = r;
            } else {
                wildTail.next = r;
            }
            wildTail = r;
        }
    }

    /** Removes a posted receive (it must be queued). */
    void unpost(RecvRequest r) {
        r.queued = false;
        Bucket b = r.bucket;
        if (r.prev == null) {
            if (b != null) {
                b.postedHead = r.next;
            } else {
                wildHead = r.next;
            }
        } else {
            r.prev.next = r.next;
        }
        if (r.next == null) {
            if (b != null) {
                b.postedTail = r.prev;
            } else {
                wildTail = r.prev;
            }
        } else {
            r.next.prev = r.prev;
        }
        r.prev = null;
        r.next = null;
        r.bucket = null;
        if (b != null) {
            dropIfEmpty(b);
        }
    }

    /** Takes the earliest posted receive that matches a message (context, source, tag), or returns null. */
    RecvRequest takePosted(int context, int source, int tag) {
        Bucket b = find(context, source, tag);
        RecvRequest exactFirst = b == null ? null : b.postedHead;
        RecvRequest wildFirst = null;
        for (RecvRequest r = wildHead; r != null; r = r.next) {
            visited++;
            if (exactFirst != null && r.seq > exactFirst.seq) {
                break; // posted after the exact one, which wins
            }
            if (r.matches(context, source, tag)) {
                wildFirst = r;
                break;
            }
        }
        RecvRequest r = wildFirst != null ? wildFirst : exactFirst;
        if (r != null) {
            unpost(r);
        }
        return r;
    }

    /** Every posted receive (for failure handling and wake-ups); the action may unpost the one it is given. */
    void forEachPosted(Consumer<RecvRequest> action) {
        for (RecvRequest r = wildHead; r != null; ) {
            RecvRequest next = r.next;
            action.accept(r);
            r = next;
        }
        for (Bucket head : table.clone()) { // the action may empty buckets, which then leave the table
            for (Bucket b = head; b != null; ) {
                Bucket nextBucket = b.chain;
                for (RecvRequest r = b.postedHead; r != null; ) {
                    RecvRequest next = r.next;
                    action.accept(r);
                    r = next;
                }
                b = nextBucket;
            }
        }
    }

    // ------------------------------------------------------------------ unexpected messages

    /** Unexpected messages queued now (for diagnostics: the JFR counters). */
    int unexpectedCount;

    /** Appends an unexpected message (in arrival order). */
    void addUnexpected(Unexpected u) {
        unexpectedCount++;
        Bucket b = findOrAdd(u.context, u.source, u.tag);
        u.bucket = b;
        u.bucketPrev = b.unexpectedTail;
        u.bucketNext = null;
        if (b.unexpectedTail == null) {
            b.unexpectedHead = u;
        } else {
            b.unexpectedTail.bucketNext = u;
        }
        b.unexpectedTail = u;
        u.prev = arrivalTail;
        u.next = null;
        if (arrivalTail == null) {
            arrivalHead = u;
        } else {
            arrivalTail.next = u;
        }
        arrivalTail = u;
    }

    /** Removes an unexpected message (it must be queued). */
    void removeUnexpected(Unexpected u) {
        unexpectedCount--;
        Bucket b = u.bucket;
        if (u.bucketPrev == null) {
            b.unexpectedHead = u.bucketNext;
        } else {
            u.bucketPrev.bucketNext = u.bucketNext;
        }
        if (u.bucketNext == null) {
            b.unexpectedTail = u.bucketPrev;
        } else {
            u.bucketNext.bucketPrev = u.bucketPrev;
        }
        if (u.prev == null) {
            arrivalHead = u.next;
        } else {
            u.prev.next = u.next;
        }
        if (u.next == null) {
            arrivalTail = u.prev;
        } else {
            u.next.prev = u.prev;
        }
        u.prev = null;
        u.next = null;
        u.bucketPrev = null;
        u.bucketNext = null;
        u.bucket = null;
        dropIfEmpty(b);
    }

    /** The earliest unexpected message a receive (context, source, tag) would match, left queued; or null. */
    Unexpected findUnexpected(int context, int source, int tag) {
        if (exact(source, tag)) {
            Bucket b = find(context, source, tag);
            return b == null ? null : b.unexpectedHead;
        }
        for (Unexpected u = arrivalHead; u != null; u = u.next) {
            visited++;
            if (u.context == context && (source == Engine.ANY || source == u.source)
                    && (tag == Engine.ANY || tag == u.tag)) {
                return u;
            }
        }
        return null;
    }

    /** Takes the earliest unexpected message a receive (context, source, tag) matches, or returns null. */
    Unexpected takeUnexpected(int context, int source, int tag) {
        Unexpected u = findUnexpected(context, source, tag);
        if (u != null) {
            removeUnexpected(u);
        }
        return u;
    }

    /** The queued unexpected entry holding an in-JVM message, searched among those of its envelope only. */
    Unexpected findInproc(org.jmpi.shared.InprocMessage m) {
        Bucket b = find(m.context, m.source, m.tag);
        for (Unexpected u = b == null ? null : b.unexpectedHead; u != null; u = u.bucketNext) {
            visited++;
            if (u.inproc == m) {
                return u;
            }
        }
        return null;
    }

    /** Removes every unexpected message of {@code context} into {@code into}, in arrival order (a walk: rare). */
    void takeAllUnexpected(int context, java.util.List<Unexpected> into) {
        takeUnexpectedIf(u -> u.context == context, into);
    }

    /** Removes every unexpected message that {@code which} accepts into {@code into}, in arrival order (a walk). */
    void takeUnexpectedIf(java.util.function.Predicate<Unexpected> which, java.util.List<Unexpected> into) {
        for (Unexpected u = arrivalHead; u != null; ) {
            Unexpected next = u.next;
            if (which.test(u)) {
                removeUnexpected(u);
                into.add(u);
            }
            u = next;
        }
    }

    /** The queued rendezvous message a peer sent with this send id, or null (a walk: cancels are rare). */
    Unexpected findRendezvous(int peer, long sendId) {
        for (Unexpected u = arrivalHead; u != null; u = u.next) {
            visited++;
            if (u.peer == peer && u.sendId == sendId) {
                return u;
            }
        }
        return null;
    }
}
