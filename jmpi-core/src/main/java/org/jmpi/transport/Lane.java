package org.jmpi.transport;

import java.lang.foreign.MemorySegment;
import org.jmpi.shared.SmallPayload;

/**
 * A transport's short way for a small frame whose header is only its envelope: written straight from the caller's
 * values into the peer's memory and read straight out of it, without a header segment, a queue or a completion. The
 * point-to-point layer's eager messages take it where it can ({@code Engine.sendNow}, {@code Engine.receiveNow}); the
 * frames are the same frames {@link Transport#send} writes (a header with no send or receive id, total bytes equal to
 * the payload), so the receiving end handles them through its {@link FrameSink} whenever it is not the lane that
 * takes them.
 *
 * <p>Threading: {@link #sendShort}, {@link #sendByAddress} and {@link #wasRead} as {@link Transport#send};
 * {@link #takeShort} only by the thread that holds the progress lock (it reads the rings that {@link Transport#poll}
 * reads).
 */
public interface Lane {
    /** {@link #takeShort}: nothing from that peer yet. */
    long NOTHING = -1;
    /** {@link #takeShort}: the peer's next frame is not the one asked for (the sink must have it). */
    long OTHER = -2;
    /**
     * A bit of a frame's kind that {@link #takeShort} does not compare: a frame of {@code kind | ANSWERED} is taken
     * as one of {@code kind}, and its length is answered with {@link #TAKEN_ANSWERED} set (the point-to-point layer's
     * eager message whose sender wants to hear that it was received).
     */
    int ANSWERED = 1 << 16;
    /** Set in what {@link #takeShort} answers when the frame it took had {@link #ANSWERED} in its kind. */
    long TAKEN_ANSWERED = (long) ANSWERED << 32;

    /** Largest payload {@link #sendShort} takes. */
    int shortPayloadMax();

    /**
     * Whether {@link #takeShort} may be asked with a capacity above {@link #shortPayloadMax()}, for the messages this
     * lane sends by address ({@link #sendByAddress}); it then takes nothing larger from the peer but those. False: the
     * caller receives larger messages the usual way.
     */
    default boolean takesByAddress() {
        return false;
    }

    /**
     * Whether {@link #sendShort} and {@link #takeShort} copy a payload that has a {@link SmallPayload} from it alone:
     * then the caller may pass null for {@code payload} or {@code into} with a {@code small} that
     * {@linkplain SmallPayload#fits fits} the length (a view of a new array need not make its memory segment).
     */
    default boolean copiesSmall() {
        return false;
    }

    /**
     * Writes a frame of {@code kind} with this envelope (flags 0, no ids, total = {@code length}) and {@code length}
     * payload bytes from {@code payload} at {@code offset} to {@code peer}, now; or does nothing and answers false
     * (no room, frames queued before it, not connected yet, closed): the caller then sends the usual way.
     * {@code small}, when not null, is {@code payload} (from offset 0) as a {@link SmallPayload}, which the lane may
     * copy from instead.
     */
    boolean sendShort(int peer, int kind, int context, int source, int tag, MemorySegment payload, long offset,
            int length, SmallPayload small);

    /**
     * Sends a frame as {@link #sendShort} does but leaves the payload where it is: the peer copies it straight out of
     * {@code payload} (one copy instead of two), so the caller must keep {@code payload} as it is until
     * {@link #wasRead} says the peer has read it. The payload may be larger than {@link #shortPayloadMax()}. Answers
     * the ticket to ask {@link #wasRead} with, or 0 when this lane does not do that for this message or peer (too small
     * or too large, not native memory, no room now, ...): nothing was done.
     */
    default long sendByAddress(int peer, int kind, int context, int source, int tag, MemorySegment payload) {
        return 0;
    }

    /**
     * Whether {@code peer} has read the payload of {@link #sendByAddress}'s message of {@code ticket} (or the lane
     * was closed). A thread that waits for it may sleep: the peer wakes this rank once it has read it.
     */
    default boolean wasRead(int peer, long ticket) {
        return true;
    }

    /**
     * Takes {@code peer}'s next frame if it is a short frame of {@code kind} (or {@code kind | ANSWERED}) with exactly
     * this envelope and at most {@code capacity} payload bytes: copies the payload into {@code into} at
     * {@code offset} and answers its length, with {@link #TAKEN_ANSWERED} set for {@code kind | ANSWERED}. Else
     * {@link #NOTHING} or {@link #OTHER}, and the frame stays where it is. {@code small}, when not null, is
     * {@code into} (from offset 0) as a {@link SmallPayload}, which the lane may copy into instead.
     */
    long takeShort(int peer, int kind, int context, int source, int tag, MemorySegment into, long offset,
            long capacity, SmallPayload small);

    /**
     * A {@link Transport#poll} of this transport that leaves {@code peer}'s frames where they are (a thread waiting in
     * {@link #takeShort} for that peer's next frame makes progress for the others). Same threading as
     * {@link #takeShort}.
     */
    boolean pollOthers(int peer);

    /**
     * Whether {@code peer}'s next frame may be there for {@link #takeShort}: one look at the peer's memory, no
     * bookkeeping, so that a thread waiting for it can spin on this alone. True whenever the lane cannot tell (the
     * caller then calls {@link #takeShort}, which decides). Same threading as {@link #takeShort}.
     */
    boolean arrived(int peer);

    /**
     * Whether {@code peer}'s next frame, one {@link #takeShort} answered {@link #OTHER} for, is a short one (a control
     * frame, or a small message for another receive), which {@link #passOne} hands over at little cost. Same threading
     * as {@link #takeShort}.
     */
    default boolean shortNext(int peer) {
        return true;
    }

    /**
     * Hands {@code peer}'s next frame to the sink (after {@link #takeShort} answered {@link #OTHER}: a control frame,
     * another message), as {@link Transport#poll} would. False when nothing could be handed over. Same threading as
     * {@link #takeShort}.
     */
    boolean passOne(int peer);
}
