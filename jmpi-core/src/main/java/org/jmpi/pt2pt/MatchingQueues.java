package org.jmpi.pt2pt;

import java.util.function.Consumer;

/**
 * The posted-receive and unexpected-message queues of one engine: two plain lists while they are short, indexed by
 * envelope once they grow, so that matching never walks a backlog.
 *
 * <p>Short queues (the common case: a few receives posted, a few messages waiting): every posted receive sits in one
 * list in posting order, every unexpected message in one list in arrival order, and matching takes the first entry
 * that matches, which is MPI's non-overtaking rule. In threads mode the sender matches in the receiver's queues, so
 * every cache line both threads write moves between their cores on each message: the lists touch one line of this
 * object and the request, where a hash table touched a bucket and the table too (that cost a threads-mode 8 B
 * ping-pong 0.4-0.7 us, about half its time).
 *
 * <p>Indexed (from the moment either queue holds more than {@value #INDEX_AT} entries, until both are empty again):
 * a hash table of {@link Bucket}s, one per exact envelope (context, source, tag), each holding a FIFO of the posted
 * receives with exactly that envelope and a FIFO of the unexpected messages with it. Besides:
 * <ul>
 *   <li>posted receives with a wildcard (ANY_SOURCE or ANY_TAG) stay in the list, now holding wildcards only; every
 *       posted receive carries a posting number (see below), so that an arriving message takes the earliest of the
 *       first exact receive and the first matching wildcard receive;</li>
 *   <li>every unexpected message stays in the arrival-order list too, which a wildcard receive or probe walks.</li>
 * </ul>
 * A receive or probe naming its source and tag, and a message for which no wildcard receive is posted, then cost a
 * hash lookup whatever the backlog of other envelopes (issue 16: an iProbe for an absent tag under a flood of 40,000
 * messages walked all of them per call). Wildcard receives and probes walk the arrival list, which is in arrival
 * order, so the non-overtaking rule holds for them as for exact ones.
 *
 * <p>Order between an exact and a wildcard receive while indexed: each wildcard receive takes the next number of a
 * counter that only wildcard postings advance, and an exact receive records the counter as it finds it (the number of
 * wildcard receives posted before it). A wildcard receive was posted after an exact one exactly when its number is
 * greater. When the queues become indexed, the posted list is numbered this way in its order.
 *
 * <p>A bucket that empties stays in the table (a steady exchange on one envelope writes only that bucket and its
 * requests). Empty buckets are swept out when the table fills, into a free list from which new envelopes take them:
 * collectives use a new tag per call, and a steady exchange of any kind allocates no buckets.
 *
 * <p>Threading: not thread-safe; every method is called with the engine's matching lock held.
 */
final class MatchingQueues {
    /**
     * Queue entries examined by searches beyond the first bucket of a chain (further chain steps and list nodes), for
     * tests of the cost of matching. Not counted for the first bucket, so that the common lookup writes nothing here.
     */
    long visited;

    /** Entries in a queue beyond which the queues are indexed (a walk of this many is cheaper than two more lines). */
    static final int INDEX_AT = 16;
    /** Whether exact envelopes are in the hash table (else every entry is in the two lists only). */
    private boolean indexed;
    /** Posted receives queued now. */
    private int postedCount;
    private Bucket[] table = new Bucket[64];
    /** Buckets in the table, empty ones included. */
    private int buckets;
    /**
     * Emptied buckets for reuse, linked through {@code chain}: as many as the table has slots (a sweep frees at most
     * that many; with a fixed bound of 1,024 a root holding 1,536 messages of distinct tags, two paces of two senders
     * in a loop of reduces, dropped the surplus of each sweep and allocated it again: 15 bytes per call).
     */
    private Bucket freeBuckets;
    private int freeBucketCount;
    /** Wildcard receives posted since the queues were last indexed (see the class comment). */
    private long wildcardsPosted;
    /** Posted receives: all of them in posting order, or once indexed the wildcard ones. */
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
        if (b == null || (b.context == context && b.source == source && b.tag == tag)) {
            return b;
        }
        for (b = b.chain; b != null; b = b.chain) {
            visited++;
            if (b.context == context && b.source == source && b.tag == tag) {
                return b;
            }
        }
        return null;
    }

    private Bucket findOrAdd(int context, int source, int tag) {
        Bucket b = find(context, source, tag);
        if (b != null) {
            return b;
        }
        if (buckets >= table.length) {
            sweep();
            if (buckets >= table.length / 2) {
                grow(); // so that the next sweep is at least half a table of new envelopes away
            }
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

    /** Doubles the table, rehashing every bucket in it (empty ones too: a sweep takes those out first). */
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

    /** Takes every empty bucket out of the table, into the free list (up to its bound). */
    private void sweep() {
        for (int i = 0; i < table.length; i++) {
            Bucket kept = null;
            for (Bucket b = table[i]; b != null; ) {
                Bucket next = b.chain;
                if (b.empty()) {
                    buckets--;
                    b.chain = null;
                    if (freeBucketCount < table.length) {
                        b.chain = freeBuckets;
                        freeBuckets = b;
                        freeBucketCount++;
                    }
                } else {
                    b.chain = kept;
                    kept = b;
                }
                b = next;
            }
            table[i] = kept;
        }
    }

    private static boolean exact(int source, int tag) {
        return source != Engine.ANY && tag != Engine.ANY;
    }

    // ------------------------------------------------------------------ posted receives

    /**
     * Whether any receive is posted and not yet matched. Read without the engine's lock by a sender choosing how to
     * send (see {@code Engine.isend}): a hint, which a receive posted or matched meanwhile may make stale.
     */
    boolean anyPosted() {
        return postedCount > 0;
    }

    /** Appends a posted receive. */
    void post(RecvRequest r) {
        r.queued = true;
        r.next = null;
        postedCount++;
        if (indexed && exact(r.sourceFilter, r.tagFilter)) {
            r.seq = wildcardsPosted;
            appendToBucket(r, findOrAdd(r.context, r.sourceFilter, r.tagFilter));
            return;
        }
        r.seq = ++wildcardsPosted; // only read while indexed
        appendToList(r);
        if (!indexed && postedCount > INDEX_AT) {
            index();
        }
    }

    private void appendToBucket(RecvRequest r, Bucket b) {
        r.bucket = b;
        r.prev = b.postedTail;
        if (b.postedTail == null) {
            b.postedHead = r;
        } else {
            b.postedTail.next = r;
        }
        b.postedTail = r;
    }

    private void appendToList(RecvRequest r) {
        r.bucket = null;
        r.prev = wildTail;
        if (wildTail == null) {
            wildHead = r;
        } else {
            wildTail.next = r;
        }
        wildTail = r;
    }

    /**
     * Puts the exact posted receives and every unexpected message into the hash table, keeping each queue's order, and
     * numbers the posted receives (see the class comment).
     */
    private void index() {
        indexed = true;
        RecvRequest r = wildHead;
        wildHead = null;
        wildTail = null;
        long wildcards = 0;
        while (r != null) {
            RecvRequest next = r.next;
            r.next = null;
            if (exact(r.sourceFilter, r.tagFilter)) {
                r.seq = wildcards;
                appendToBucket(r, findOrAdd(r.context, r.sourceFilter, r.tagFilter));
            } else {
                r.seq = ++wildcards;
                appendToList(r);
            }
            r = next;
        }
        wildcardsPosted = wildcards;
        for (Unexpected u = arrivalHead; u != null; u = u.next) {
            appendToBucket(u, findOrAdd(u.context, u.source, u.tag));
        }
    }

    /** Back to the plain lists once both queues are empty (the buckets left in the table are all empty). */
    private void unindexIfEmpty() {
        if (indexed && postedCount == 0 && unexpectedCount == 0) {
            indexed = false;
            wildcardsPosted = 0;
        }
    }

    /** Removes a posted receive (it must be queued). */
    void unpost(RecvRequest r) {
        r.queued = false;
        postedCount--;
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
        unindexIfEmpty();
    }

    /** Takes the earliest posted receive that matches a message (context, source, tag), or returns null. */
    RecvRequest takePosted(int context, int source, int tag) {
        RecvRequest r = findPosted(context, source, tag);
        if (r != null) {
            unpost(r);
        }
        return r;
    }

    /** The earliest posted receive that matches a message (context, source, tag), left posted; or null. */
    RecvRequest findPosted(int context, int source, int tag) {
        RecvRequest exactFirst = null;
        if (indexed) {
            Bucket b = find(context, source, tag);
            exactFirst = b == null ? null : b.postedHead;
        }
        RecvRequest listFirst = null;
        for (RecvRequest r = wildHead; r != null; r = r.next) {
            visited++;
            if (exactFirst != null && r.seq > exactFirst.seq) {
                break; // posted after the exact one, which wins (see the class comment)
            }
            if (r.matches(context, source, tag)) {
                listFirst = r;
                break;
            }
        }
        return listFirst != null ? listFirst : exactFirst;
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
        u.prev = arrivalTail;
        u.next = null;
        if (arrivalTail == null) {
            arrivalHead = u;
        } else {
            arrivalTail.next = u;
        }
        arrivalTail = u;
        u.bucket = null;
        u.bucketPrev = null;
        u.bucketNext = null;
        if (indexed) {
            appendToBucket(u, findOrAdd(u.context, u.source, u.tag));
        } else if (unexpectedCount > INDEX_AT) {
            index();
        }
    }

    private static void appendToBucket(Unexpected u, Bucket b) {
        u.bucket = b;
        u.bucketPrev = b.unexpectedTail;
        u.bucketNext = null;
        if (b.unexpectedTail == null) {
            b.unexpectedHead = u;
        } else {
            b.unexpectedTail.bucketNext = u;
        }
        b.unexpectedTail = u;
    }

    /** Removes an unexpected message (it must be queued). */
    void removeUnexpected(Unexpected u) {
        unexpectedCount--;
        Bucket b = u.bucket;
        if (b != null) {
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
        unindexIfEmpty();
    }

    /** The earliest unexpected message a receive (context, source, tag) would match, left queued; or null. */
    Unexpected findUnexpected(int context, int source, int tag) {
        if (indexed && exact(source, tag)) {
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
        if (!indexed) {
            for (Unexpected u = arrivalHead; u != null; u = u.next) {
                visited++;
                if (u.inproc == m) {
                    return u;
                }
            }
            return null;
        }
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
