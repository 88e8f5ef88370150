package org.jmpi.comm;

import org.jmpi.coll.Collectives;
import org.jmpi.coll.Schedule;
import org.jmpi.datatype.BaseKind;
import org.jmpi.datatype.BufferView;
import org.jmpi.datatype.TypeDescriptor;
import org.jmpi.op.ElementKind;
import org.jmpi.op.PredefinedOp;
import org.jmpi.op.PredefinedReduction;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;
import org.jmpi.runtime.RequestImpl;

/**
 * The non-blocking form of {@link ContextIds#allocate(Communicator)}, for MPI_Comm_idup: each attempt is a
 * non-blocking allreduce, and the next attempt (or the claim) runs in its completion callback, so the caller returns
 * at once and the agreement progresses while it does other work.
 *
 * <p>Attempts run on a helper communicator over the parent's group on the parent's spare contexts (see
 * {@link ContextIds#spareContext}), with its own collective sequence: retries then never take sequence numbers of
 * the parent, whose user collectives may be interleaved differently at different processes. One helper per parent
 * keeps the sequences of several pending idups in step.
 *
 * <p>Cost: as the blocking form, one allreduce of 520 bytes per attempt.
 *
 * <p>Threading: the callbacks run in whichever thread completes the allreduce; the state they touch ({@code own},
 * {@code attempt}) is written by one callback at a time, because attempts are sequential; the result is published
 * by {@code complete()}, whose volatile write pairs with the waiter's read.
 */
public final class AsyncContextAgreement extends RequestImpl {
    private static final TypeDescriptor LONG = TypeDescriptor.primitive(BaseKind.LONG);

    private final ContextIds ids;
    private final Communicator helper;
    private final int key;
    private final java.util.function.IntConsumer onContext;
    private final long[] mine = new long[ContextIds.arrayLength()];
    private final long[] res = new long[ContextIds.arrayLength()];
    private boolean own;
    private Schedule attempt;
    private volatile int context = -1;

    private AsyncContextAgreement(Communicator helper, int key, java.util.function.IntConsumer onContext) {
        super(JmpiRuntime.get().progress());
        this.ids = ContextIds.get();
        this.helper = helper;
        this.key = key;
        this.onContext = onContext;
    }

    /** A helper communicator for the idups of {@code parent} (keep one per parent). */
    public static Communicator helperFor(Communicator parent) {
        return new Communicator(ContextIds.spareContext(parent), parent.worldRanks(), parent.rank());
    }

    /**
     * Starts agreeing on a context over the group of {@code helper} (see {@link #helperFor}).
     *
     * @param onContext told the new context before the request completes (in the completing thread)
     */
    public static AsyncContextAgreement start(Communicator helper, int key, java.util.function.IntConsumer onContext) {
        AsyncContextAgreement a = new AsyncContextAgreement(helper, key, onContext);
        a.ids.enter(key);
        a.next();
        return a;
    }

    /** The agreed context, once complete without error. */
    public int context() {
        return context;
    }

    private void next() {
        own = ids.prepare(key, mine);
        try {
            Schedule s = Collectives.schedule(helper, "MPI_Comm_idup");
            Collectives.allreduce(s, BufferView.of(mine, mine.length, LONG, false),
                    BufferView.of(res, res.length, LONG, true), mine.length,
                    PredefinedReduction.of(PredefinedOp.BAND, ElementKind.LONG, 1, "MPI.LONG"));
            attempt = s;
            s.whenDone(this::attemptDone);
            s.start();
        } catch (MpiError e) {
            ids.settle(null, own);
            finish(e.errorClass(), e.getMessage());
        }
    }

    private void attemptDone() {
        Schedule s = attempt;
        if (s.error() != 0) {
            ids.settle(null, own);
            finish(s.error(), s.errorMessage());
            return;
        }
        int c;
        try {
            c = ids.settle(res, own);
        } catch (MpiError e) {
            finish(e.errorClass(), e.getMessage());
            return;
        }
        if (c >= 0) {
            context = c;
            onContext.accept(c);
            finish(0, null);
        } else {
            next();
        }
    }

    private void finish(int errorClass, String message) {
        ids.leave(key);
        error = errorClass;
        errorMessage = message;
        complete();
    }
}
