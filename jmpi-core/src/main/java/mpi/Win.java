package mpi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.Buffer;
import java.nio.ByteOrder;
import org.jmpi.datatype.BufferView;
import org.jmpi.datatype.MessageData;
import org.jmpi.op.ElementKind;
import org.jmpi.op.PredefinedReduction;
import org.jmpi.op.Reduction;
import org.jmpi.rma.Window;
import org.jmpi.rma.Windows;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;
import org.jmpi.runtime.RequestImpl;

/**
 * A window of memory exposed for one-sided communication (MPI_Win). The work is done by {@link Window} on a
 * communicator private to the window (a duplicate of the one given); this class checks arguments, turns buffers into
 * memory views and applies the window's error handler.
 *
 * <p>Buffers: windows and origin buffers may be direct or heap buffers (the Open MPI bindings take direct ones only).
 * Sizes and displacement units of {@code Win(Buffer, ...)} and of the allocating constructor are in elements of the
 * buffer's type, as in the Open MPI bindings (bytes when the allocating constructor gets no buffer). Attributes
 * {@code MPI.WIN_BASE} (the buffer, or a direct byte buffer over allocated memory; null for a dynamic window; Open
 * MPI's bindings return the native address as a Long), {@code MPI.WIN_SIZE} (Integer, bytes, as Open MPI's; a Long
 * past 2 GiB - 1) and {@code MPI.WIN_DISP_UNIT} (Integer, bytes). A window created with the info hint
 * {@code no_locks=true} refuses {@code lock} and {@code lockAll} ({@code MPI.ERR_RMA_SYNC}, as Open MPI does).
 * Extensions (shared-window parts, addresses of attached buffers, flavour and memory model):
 * {@link org.jmpi.rma.Windows}.
 */
public final class Win implements Freeable {
    public static final int WIN_NULL = 0;
    public static final int FLAVOR_PRIVATE = 0;
    public static final int FLAVOR_SHARED = 1;

    private Window impl;
    private Communicator privateComm;
    private Comm comm;
    private Errhandler errhandler = MPI.ERRORS_ARE_FATAL;
    private String name = "";
    private Info info;
    /** What WIN_BASE returns. */
    private Buffer base;
    /** The window size in bytes this rank asked for (WIN_SIZE); 0 for a dynamic window. */
    private long sizeBytes;

    /**
     * {@code MPI_Win_create} over {@code size} elements of {@code base} with a displacement unit in elements. A size
     * larger than the buffer is accepted, as in Open MPI (a rank may expose an empty buffer that nobody accesses):
     * {@code MPI.WIN_SIZE} says the size given, but the window is the buffer's memory, so an operation that reaches
     * past it fails at the origin with {@code ERR_RMA_RANGE} ({@link org.jmpi.rma.Windows#ERR_RMA_RANGE}).
     */
    public Win(Buffer base, int size, int dispUnit, Info info, Comm comm) throws MPIException {
        String call = "MPI_Win_create";
        try {
            Communicator c = begin(comm, info);
            int unit = base == null ? 1 : elementBytes(base);
            checkSizeAndUnit(size, dispUnit);
            // a size past the buffer's end is accepted, as in Open MPI (ranks that expose an empty buffer they never
            // expect to be accessed); the window is the buffer's memory, so an access past it is ERR_RMA_RANGE
            if (base == null && size != 0) {
                throw new MpiError(ErrorClass.ERR_BUFFER, "null base with window size " + size);
            }
            MemorySegment memory = memoryOf(base, base == null ? 0 : Math.min(size, base.capacity()), unit);
            this.base = base;
            this.sizeBytes = (long) size * unit;
            open(c, Window.FLAVOR_CREATE, memory, memory.byteSize(), dispUnit * unit);
        } catch (MpiError e) {
            throw Errors.raise(comm == null ? null : comm.errhandler, call, e);
        }
    }

    /**
     * {@code MPI_Win_create} over a whole memory segment (MPI 4.0's large buffers: native, or on the heap as a heap
     * buffer would be; it may hold more than 2 GiB), with a displacement unit in bytes. {@code MPI.WIN_BASE} then
     * answers the segment as a byte buffer when one can view it (at most 2 GiB - 1 bytes, native or over a
     * {@code byte[]}), else null. {@code MemorySegment.NULL} makes an empty window.
     */
    public Win(MemorySegment base, int dispUnit, Info info, Comm comm) throws MPIException {
        String call = "MPI_Win_create";
        try {
            Communicator c = begin(comm, info);
            if (base == null) {
                throw new MpiError(ErrorClass.ERR_BUFFER, "null segment (MemorySegment.NULL makes an empty window)");
            }
            checkSizeAndUnit(0, dispUnit);
            if (base.isReadOnly()) {
                throw new MpiError(ErrorClass.ERR_BUFFER, "a window cannot lie over a read-only segment");
            }
            this.base = viewOf(base);
            this.sizeBytes = base.byteSize();
            open(c, Window.FLAVOR_CREATE, base, base.byteSize(), dispUnit);
        } catch (MpiError e) {
            throw Errors.raise(comm == null ? null : comm.errhandler, call, e);
        }
    }

    /** A byte buffer over {@code s}, or null when none can view it. */
    private static Buffer viewOf(MemorySegment s) {
        if (s.byteSize() > Integer.MAX_VALUE || !s.isNative() && !(s.heapBase().orElse(null) instanceof byte[])) {
            return null;
        }
        return s.asByteBuffer().order(ByteOrder.nativeOrder());
    }

    /**
     * {@code MPI_Win_allocate} ({@code FLAVOR_PRIVATE}) and {@code MPI_Win_allocate_shared} ({@code FLAVOR_SHARED}).
     * A private window lies over {@code base} when one is given (as the memory MPI would hand back), else over new
     * native memory of {@code size} bytes (read it through {@code MPI.WIN_BASE}); also when {@code base} is too small
     * for the window or read-only (Open MPI ignores the buffer, so programs pass any, e.g. an empty one). A shared
     * window always gets new
     * memory, one segment for the ranks of the host (info {@code alloc_shared_noncontig=true}: a page per rank); reach
     * a rank's part with {@link org.jmpi.rma.Windows#sharedQuery}. {@code base}'s element type sets the units of
     * {@code size} and {@code dispUnit} (bytes when {@code base} is null).
     */
    public Win(int size, int dispUnit, Info info, Comm comm, Buffer base, int flavor) throws MPIException {
        String call = flavor == FLAVOR_SHARED ? "MPI_Win_allocate_shared" : "MPI_Win_allocate";
        try {
            Communicator c = begin(comm, info);
            if (flavor != FLAVOR_PRIVATE && flavor != FLAVOR_SHARED) {
                throw new MpiError(ErrorClass.ERR_ARG, "invalid flavor " + flavor
                        + " (use Win.FLAVOR_PRIVATE or Win.FLAVOR_SHARED)");
            }
            int unit = base == null ? 1 : elementBytes(base);
            checkSizeAndUnit(size, dispUnit);
            long bytes = (long) size * unit;
            this.sizeBytes = bytes;
            if (flavor == FLAVOR_SHARED) {
                open(c, Window.FLAVOR_SHARED, null, bytes, dispUnit * unit);
                this.base = impl.memory().asByteBuffer().order(ByteOrder.nativeOrder());
                return;
            }
            // Open MPI ignores the buffer (MPI_Win_allocate gets new memory); jmpi lies over it when it can hold the
            // window, else the window gets new memory all the same
            boolean overBase = base != null && !base.isReadOnly() && size <= base.capacity();
            MemorySegment memory;
            if (overBase) {
                memory = memoryOf(base, size, unit);
                this.base = base;
            } else {
                memory = null; // the window allocates it: shared memory when every rank is on this host
            }
            open(c, Window.FLAVOR_ALLOCATE, memory, bytes, dispUnit * unit);
            if (!overBase) {
                this.base = impl.memory().asByteBuffer().order(ByteOrder.nativeOrder());
            }
        } catch (MpiError e) {
            throw Errors.raise(comm == null ? null : comm.errhandler, call, e);
        }
    }

    /** {@code MPI_Win_create_dynamic}: memory comes with {@link #attach}; displacements are window addresses. */
    public Win(Info info, Comm comm) throws MPIException {
        try {
            Communicator c = begin(comm, info);
            open(c, Window.FLAVOR_DYNAMIC, null, 0, 1);
        } catch (MpiError e) {
            throw Errors.raise(comm == null ? null : comm.errhandler, "MPI_Win_create_dynamic", e);
        }
    }

    private Communicator begin(Comm comm, Info info) {
        JmpiRuntime.get();
        if (comm == null) {
            throw new MpiError(ErrorClass.ERR_COMM, "null communicator");
        }
        Communicator c = comm.live();
        if (c.isInter()) {
            throw new MpiError(ErrorClass.ERR_COMM, "windows need an intracommunicator");
        }
        this.comm = comm;
        this.errhandler = MPI.ERRORS_ARE_FATAL; // a new window's handler, whatever the communicator's (as MPI says)
        this.info = info == null || info.isNull() ? new Info(false) : info.clone();
        return c;
    }

    private static void checkSizeAndUnit(int size, int dispUnit) {
        if (size < 0) {
            throw new MpiError(ErrorClass.ERR_SIZE, "negative window size " + size);
        }
        if (dispUnit <= 0) {
            throw new MpiError(ErrorClass.ERR_DISP, "invalid displacement unit " + dispUnit + " (must be positive)");
        }
    }

    private void open(Communicator c, int flavor, MemorySegment memory, long bytes, int unitBytes) {
        privateComm = CommOps.dupImpl(c);
        try {
            impl = Window.create(privateComm, flavor, memory, bytes, unitBytes, hint("no_locks"),
                    hint("alloc_shared_noncontig"));
        } catch (MpiError e) {
            org.jmpi.comm.ContextIds.get().release(privateComm.context());
            throw e;
        }
        Windows.register(this, impl);
    }

    private boolean hint(String key) {
        String v = info.entries.get(key);
        return v != null && v.trim().equalsIgnoreCase("true");
    }

    private static MemorySegment memoryOf(Buffer base, int size, int unit) {
        if (base == null) {
            if (size != 0) {
                throw new MpiError(ErrorClass.ERR_BUFFER, "null base with window size " + size);
            }
            return MemorySegment.NULL;
        }
        if (base.isReadOnly()) {
            throw new MpiError(ErrorClass.ERR_BUFFER, "a window cannot lie over a read-only buffer");
        }
        if (size > base.capacity()) {
            throw new MpiError(ErrorClass.ERR_SIZE, "window size " + size + " exceeds the buffer's capacity "
                    + base.capacity());
        }
        return MemorySegment.ofBuffer(base.duplicate().clear()).asSlice(0, (long) size * unit);
    }

    private static int elementBytes(Buffer b) {
        return BufferView.elementBytes(b);
    }


    /** The live window, after checking that MPI runs and the handle was not freed. */
    private Window live() {
        JmpiRuntime.get();
        Window w = impl;
        if (w == null) {
            throw new MpiError(ErrorClass.ERR_WIN, "invalid window (freed or null)");
        }
        return w;
    }

    private MPIException fail(String call, MpiError e) {
        return Errors.raise(errhandler, call, e);
    }

    /** The memory {@code buf} gives to an attach (index 0 to {@code size} elements). */
    public void attach(Buffer base, int size) throws MPIException {
        try {
            Window w = live();
            if (base == null) {
                throw new MpiError(ErrorClass.ERR_BUFFER, "null buffer");
            }
            if (size < 0) {
                throw new MpiError(ErrorClass.ERR_SIZE, "negative size " + size);
            }
            w.attach(memoryOf(base, size, elementBytes(base)));
        } catch (MpiError e) {
            throw fail("MPI_Win_attach", e);
        }
    }

    public void detach(Buffer base) throws MPIException {
        try {
            Window w = live();
            if (base == null) {
                throw new MpiError(ErrorClass.ERR_BUFFER, "null buffer");
            }
            w.detach(MemorySegment.ofBuffer(base.duplicate().clear()));
        } catch (MpiError e) {
            throw fail("MPI_Win_detach", e);
        }
    }

    public Group getGroup() throws MPIException {
        try {
            live();
            int[] ranks = privateComm.worldRanks();
            return new Group(ranks, ranks[privateComm.rank()]);
        } catch (MpiError e) {
            throw fail("MPI_Win_get_group", e);
        }
    }

    // ------------------------------------------------------------------------------------------ operations

    public void put(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp, int targetCount,
            Datatype targetType) throws MPIException {
        blocking("MPI_Put", () -> startPut(origin, orgCount, orgType, targetRank, targetDisp, targetCount,
                targetType));
    }

    public final Request rPut(Buffer origin_addr, int origin_count, Datatype origin_datatype, int target_rank,
            int target_disp, int target_count, Datatype target_datatype) throws MPIException {
        return request("MPI_Rput", () -> startPut(origin_addr, origin_count, origin_datatype, target_rank,
                target_disp, target_count, target_datatype));
    }

    public void get(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp, int targetCount,
            Datatype targetType) throws MPIException {
        blocking("MPI_Get", () -> startGet(origin, orgCount, orgType, targetRank, targetDisp, targetCount,
                targetType));
    }

    public final Request rGet(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
            int targetCount, Datatype targetType) throws MPIException {
        return request("MPI_Rget", () -> startGet(origin, orgCount, orgType, targetRank, targetDisp, targetCount,
                targetType));
    }

    public void accumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
            int targetCount, Datatype targetType, Op op) throws MPIException {
        blocking("MPI_Accumulate", () -> startAccumulate(origin, orgCount, orgType, targetRank, targetDisp,
                targetCount, targetType, op));
    }

    public Request rAccumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
            int targetCount, Datatype targetType, Op op) throws MPIException {
        return request("MPI_Raccumulate", () -> startAccumulate(origin, orgCount, orgType, targetRank, targetDisp,
                targetCount, targetType, op));
    }

    public void getAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr, int resultCount,
            Datatype resultType, int targetRank, int targetDisp, int targetCount, Datatype targetType, Op op)
            throws MPIException {
        blocking("MPI_Get_accumulate", () -> startGetAccumulate(origin, orgCount, orgType, resultAddr, resultCount,
                resultType, targetRank, targetDisp, targetCount, targetType, op));
    }

    public Request rGetAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr, int resultCount,
            Datatype resultType, int targetRank, int targetDisp, int targetCount, Datatype targetType, Op op)
            throws MPIException {
        return request("MPI_Rget_accumulate", () -> startGetAccumulate(origin, orgCount, orgType, resultAddr,
                resultCount, resultType, targetRank, targetDisp, targetCount, targetType, op));
    }

    public void fetchAndOp(Buffer origin, Buffer resultAddr, Datatype dataType, int targetRank, int targetDisp, Op op)
            throws MPIException {
        blocking("MPI_Fetch_and_op", () -> {
            checkPredefined(dataType);
            return startGetAccumulate(origin, 1, dataType, resultAddr, 1, dataType, targetRank, targetDisp, 1,
                    dataType, op);
        });
    }

    public void compareAndSwap(Buffer origin, Buffer compareAddr, Buffer resultAddr, Datatype targetType,
            int targetRank, int targetDisp) throws MPIException {
        blocking("MPI_Compare_and_swap", () -> {
            Window w = live();
            checkPredefined(targetType);
            ElementKind kind = Op.kindOf(targetType);
            if (kind == null || kind.isFloating() || kind.isComplex() || kind.isPair()) {
                throw new MpiError(ErrorClass.ERR_TYPE, "compareAndSwap needs an integer, boolean or byte type, not "
                        + targetType.name);
            }
            MessageData value = BufferView.of(origin, 1, targetType.desc, false);
            MessageData compare = BufferView.of(compareAddr, 1, targetType.desc, false);
            MessageData result = BufferView.of(resultAddr, 1, targetType.desc, true);
            if (targetRank == MPI.PROC_NULL) {
                return null;
            }
            long n = targetType.desc.size();
            MemorySegment both = Arena.ofAuto().allocate(2 * n, 16);
            value.packTo(0, both, 0, n);
            compare.packTo(0, both, n, n);
            return w.compareAndSwap(new MessageData.SegmentData(both), result, targetRank, targetDisp,
                    targetType.desc);
        });
    }

    private RequestImpl startPut(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
            int targetCount, Datatype targetType) {
        Window w = live();
        MessageData data = originView(origin, orgCount, orgType, false);
        checkTarget(targetCount, targetType);
        checkSignature(orgCount, orgType, targetCount, targetType);
        if (targetRank == MPI.PROC_NULL) {
            return null;
        }
        return w.put(data, targetRank, targetDisp, targetCount, targetType.desc);
    }

    private RequestImpl startGet(Buffer origin, int orgCount, Datatype orgType, int targetRank, int targetDisp,
            int targetCount, Datatype targetType) {
        Window w = live();
        MessageData data = originView(origin, orgCount, orgType, true);
        checkTarget(targetCount, targetType);
        checkSignature(orgCount, orgType, targetCount, targetType);
        if (targetRank == MPI.PROC_NULL) {
            return null;
        }
        return w.get(data, targetRank, targetDisp, targetCount, targetType.desc);
    }

    private RequestImpl startAccumulate(Buffer origin, int orgCount, Datatype orgType, int targetRank,
            int targetDisp, int targetCount, Datatype targetType, Op op) {
        Window w = live();
        MessageData data = originView(origin, orgCount, orgType, false);
        checkTarget(targetCount, targetType);
        PredefinedReduction red = accumulateOp(op, targetType);
        checkSignature(orgCount, orgType, targetCount, targetType);
        checkKind(orgType, red);
        if (targetRank == MPI.PROC_NULL) {
            return null;
        }
        return w.accumulate(data, targetRank, targetDisp, targetCount, targetType.desc, red.op(), red.kind());
    }

    private RequestImpl startGetAccumulate(Buffer origin, int orgCount, Datatype orgType, Buffer resultAddr,
            int resultCount, Datatype resultType, int targetRank, int targetDisp, int targetCount,
            Datatype targetType, Op op) {
        Window w = live();
        checkTarget(targetCount, targetType);
        PredefinedReduction red = accumulateOp(op, targetType);
        boolean noOp = red.op() == org.jmpi.op.PredefinedOp.NO_OP;
        MessageData data = null;
        if (!noOp) {
            data = originView(origin, orgCount, orgType, false);
            checkSignature(orgCount, orgType, targetCount, targetType);
            checkKind(orgType, red);
        }
        MessageData result = originView(resultAddr, resultCount, resultType, true);
        checkSignature(resultCount, resultType, targetCount, targetType);
        checkKind(resultType, red);
        if (targetRank == MPI.PROC_NULL) {
            return null;
        }
        return w.getAccumulate(data, result, targetRank, targetDisp, targetCount, targetType.desc, red.op(),
                red.kind());
    }

    private static MessageData originView(Buffer buf, int count, Datatype type, boolean forReceive) {
        Comm.checkCount(count);
        Comm.checkType(type);
        return BufferView.of(buf, count, type.desc, forReceive);
    }

    private static void checkTarget(int targetCount, Datatype targetType) {
        Comm.checkCount(targetCount);
        Comm.checkType(targetType);
    }

    private static void checkPredefined(Datatype type) {
        Comm.checkType(type);
        org.jmpi.datatype.Primitive p = type.desc.signature().uniform();
        if (p == null || type.desc.size() != p.bytes) {
            throw new MpiError(ErrorClass.ERR_TYPE, "this call needs a predefined datatype, not " + type.name);
        }
    }

    /** Origin and target must move the same sequence of basic elements. */
    private static void checkSignature(int orgCount, Datatype orgType, int targetCount, Datatype targetType) {
        long o = orgType.desc.size() * orgCount;
        long t = targetType.desc.size() * targetCount;
        org.jmpi.datatype.Primitive po = orgType.desc.signature().uniform();
        org.jmpi.datatype.Primitive pt = targetType.desc.signature().uniform();
        if (o != t || o > 0 && po != pt) {
            throw new MpiError(ErrorClass.ERR_TYPE, "the origin's " + orgCount + " x " + orgType.name
                    + " does not match the target's " + targetCount + " x " + targetType.name
                    + " (type signatures differ)");
        }
    }

    private static PredefinedReduction accumulateOp(Op op, Datatype targetType) {
        if (op == null) {
            throw new MpiError(ErrorClass.ERR_OP, "null operation");
        }
        Reduction r = op.reduction(targetType, true);
        if (!(r instanceof PredefinedReduction p)) {
            throw new MpiError(ErrorClass.ERR_OP, "one-sided accumulate operations take predefined operations only"
                    + " (MPI.SUM, ..., MPI.REPLACE, MPI.NO_OP), not a user-defined one");
        }
        ElementKind k = Op.kindOf(targetType);
        if (k == null) {
            throw new MpiError(ErrorClass.ERR_TYPE, "accumulate needs a target type made of one predefined type, not "
                    + targetType.name);
        }
        return PredefinedReduction.of(p.op(), k, 1, k.mpiName);
    }

    private static void checkKind(Datatype type, PredefinedReduction red) {
        if (type.desc.size() > 0 && Op.kindOf(type) != red.kind()) {
            throw new MpiError(ErrorClass.ERR_TYPE, type.name + " does not match the target's " + red.kind().mpiName);
        }
    }

    @FunctionalInterface
    private interface Start {
        RequestImpl start();
    }

    private void blocking(String call, Start s) throws MPIException {
        try {
            RequestImpl r = s.start();
            if (r != null) {
                live().awaitOperation(r);
            }
        } catch (MpiError e) {
            throw fail(call, e);
        }
    }

    private Request request(String call, Start s) throws MPIException {
        try {
            return Request.of(comm, s.start(), call);
        } catch (MpiError e) {
            throw fail(call, e);
        }
    }

    // ------------------------------------------------------------------------------------- synchronisation

    public void fence(int assertion) throws MPIException {
        org.jmpi.runtime.events.RmaEvent ev = Jfr.rma();
        try {
            live().fence(assertion);
            Jfr.rma(ev, "MPI_Win_fence", this, -1);
        } catch (MpiError e) {
            throw fail("MPI_Win_fence", e);
        }
    }

    public void start(Group group, int assertion) throws MPIException {
        org.jmpi.runtime.events.RmaEvent ev = Jfr.rma();
        try {
            Window w = live();
            w.start(ranksOf(group), assertion);
            Jfr.rma(ev, "MPI_Win_start", this, -1);
        } catch (MpiError e) {
            throw fail("MPI_Win_start", e);
        }
    }

    public void complete() throws MPIException {
        org.jmpi.runtime.events.RmaEvent ev = Jfr.rma();
        try {
            live().complete();
            Jfr.rma(ev, "MPI_Win_complete", this, -1);
        } catch (MpiError e) {
            throw fail("MPI_Win_complete", e);
        }
    }

    public void post(Group group, int assertion) throws MPIException {
        org.jmpi.runtime.events.RmaEvent ev = Jfr.rma();
        try {
            Window w = live();
            w.post(ranksOf(group), assertion);
            Jfr.rma(ev, "MPI_Win_post", this, -1);
        } catch (MpiError e) {
            throw fail("MPI_Win_post", e);
        }
    }

    public void waitFor() throws MPIException {
        org.jmpi.runtime.events.RmaEvent ev = Jfr.rma();
        try {
            live().waitFor();
            Jfr.rma(ev, "MPI_Win_wait", this, -1);
        } catch (MpiError e) {
            throw fail("MPI_Win_wait", e);
        }
    }

    public boolean test() throws MPIException {
        try {
            return live().test();
        } catch (MpiError e) {
            throw fail("MPI_Win_test", e);
        }
    }

    /** The window ranks of a group's members. */
    private int[] ranksOf(Group group) {
        if (group == null || group.isNull()) {
            throw new MpiError(ErrorClass.ERR_GROUP, "invalid group");
        }
        int[] world = group.worldRanks();
        int[] mine = privateComm.worldRanks();
        int[] out = new int[world.length];
        for (int i = 0; i < world.length; i++) {
            out[i] = -1;
            for (int r = 0; r < mine.length; r++) {
                if (mine[r] == world[i]) {
                    out[i] = r;
                    break;
                }
            }
            if (out[i] < 0) {
                throw new MpiError(ErrorClass.ERR_RANK, "group member " + i + " is not in the window's group");
            }
        }
        return out;
    }

    public void lock(int lockType, int rank, int assertion) throws MPIException {
        org.jmpi.runtime.events.RmaEvent ev = Jfr.rma();
        try {
            live().lock(lockType, rank, assertion);
            Jfr.rma(ev, "MPI_Win_lock", this, rank);
        } catch (MpiError e) {
            throw fail("MPI_Win_lock", e);
        }
    }

    public void unlock(int rank) throws MPIException {
        org.jmpi.runtime.events.RmaEvent ev = Jfr.rma();
        try {
            live().unlock(rank);
            Jfr.rma(ev, "MPI_Win_unlock", this, rank);
        } catch (MpiError e) {
            throw fail("MPI_Win_unlock", e);
        }
    }

    public void lockAll(int assertion) throws MPIException {
        org.jmpi.runtime.events.RmaEvent ev = Jfr.rma();
        try {
            live().lockAll(assertion);
            Jfr.rma(ev, "MPI_Win_lock_all", this, -1);
        } catch (MpiError e) {
            throw fail("MPI_Win_lock_all", e);
        }
    }

    public void unlockAll() throws MPIException {
        org.jmpi.runtime.events.RmaEvent ev = Jfr.rma();
        try {
            live().unlockAll();
            Jfr.rma(ev, "MPI_Win_unlock_all", this, -1);
        } catch (MpiError e) {
            throw fail("MPI_Win_unlock_all", e);
        }
    }

    public void sync() throws MPIException {
        try {
            live().sync();
        } catch (MpiError e) {
            throw fail("MPI_Win_sync", e);
        }
    }

    public void flush(int targetRank) throws MPIException {
        org.jmpi.runtime.events.RmaEvent ev = Jfr.rma();
        try {
            live().flush(targetRank);
            Jfr.rma(ev, "MPI_Win_flush", this, targetRank);
        } catch (MpiError e) {
            throw fail("MPI_Win_flush", e);
        }
    }

    public void flushAll() throws MPIException {
        org.jmpi.runtime.events.RmaEvent ev = Jfr.rma();
        try {
            live().flushAll();
            Jfr.rma(ev, "MPI_Win_flush_all", this, -1);
        } catch (MpiError e) {
            throw fail("MPI_Win_flush_all", e);
        }
    }

    /** Operations complete at the target when they complete at all, so this is {@link #flush}. */
    public void flushLocal(int targetRank) throws MPIException {
        try {
            live().flush(targetRank);
        } catch (MpiError e) {
            throw fail("MPI_Win_flush_local", e);
        }
    }

    public void flushLocalAll() throws MPIException {
        try {
            live().flushAll();
        } catch (MpiError e) {
            throw fail("MPI_Win_flush_local_all", e);
        }
    }

    // ----------------------------------------------------------------------------- handlers, names, info

    public void setErrhandler(Errhandler errhandler) throws MPIException {
        try {
            live();
            if (errhandler == null) {
                throw new MpiError(ErrorClass.ERR_ARG, "null error handler");
            }
            this.errhandler = errhandler;
        } catch (MpiError e) {
            throw fail("MPI_Win_set_errhandler", e);
        }
    }

    public Errhandler getErrhandler() throws MPIException {
        try {
            live();
            return errhandler;
        } catch (MpiError e) {
            throw fail("MPI_Win_get_errhandler", e);
        }
    }

    public void callErrhandler(int errorCode) throws MPIException {
        try {
            live();
        } catch (MpiError e) {
            throw fail("MPI_Win_call_errhandler", e);
        }
        if (errhandler == MPI.ERRORS_RETURN) {
            // the handler returns the error, so the call returns normally (as Comm.callErrhandler)
            return;
        }
        throw fail("MPI_Win_call_errhandler",
                new MpiError(errorCode, "error raised by the application (code " + errorCode + ")"));
    }

    /** The attributes set on this window, created on first use (see {@link Attributes}). */
    private Attributes attributes;

    /** A new window attribute key (no callbacks; values stored serialised, as in Open MPI). */
    public static int createKeyval() throws MPIException {
        try {
            org.jmpi.runtime.JmpiRuntime.get();
            return Attributes.WIN.create();
        } catch (org.jmpi.runtime.MpiError e) {
            throw Errors.raise("MPI_Win_create_keyval", e);
        }
    }

    public static void freeKeyval(int keyval) throws MPIException {
        try {
            org.jmpi.runtime.JmpiRuntime.get();
            Attributes.WIN.free(keyval);
        } catch (org.jmpi.runtime.MpiError e) {
            throw Errors.raise("MPI_Win_free_keyval", e);
        }
    }

    public void setAttr(int keyval, Object value) throws MPIException {
        try {
            org.jmpi.runtime.JmpiRuntime.get();
            checkNotPredefined(keyval);
            winAttributes().set(keyval, value);
        } catch (org.jmpi.runtime.MpiError e) {
            throw fail("MPI_Win_set_attr", e);
        }
    }

    /**
     * The value of {@code keyval}; the predefined {@code MPI.WIN_BASE} (the base buffer), {@code MPI.WIN_SIZE}
     * (Integer, bytes, as Open MPI's bindings return it; a Long past 2 GiB - 1) and {@code MPI.WIN_DISP_UNIT}
     * (Integer, bytes) once the window exists.
     */
    public Object getAttr(int keyval) throws MPIException {
        try {
            org.jmpi.runtime.JmpiRuntime.get();
            if (impl != null) {
                Window w = impl;
                if (keyval == MPI.WIN_BASE) {
                    return base;
                }
                if (keyval == MPI.WIN_SIZE) {
                    // Integer, as Open MPI's bindings return it (programs cast it); a Long only past 2 GiB - 1
                    return sizeBytes <= Integer.MAX_VALUE ? (Object) (int) sizeBytes : (Object) sizeBytes;
                }
                if (keyval == MPI.WIN_DISP_UNIT) {
                    return w.dispUnit(w.communicator().rank());
                }
            }
            return winAttributes().get(keyval);
        } catch (org.jmpi.runtime.MpiError e) {
            throw fail("MPI_Win_get_attr", e);
        }
    }

    public void deleteAttr(int keyval) throws MPIException {
        try {
            org.jmpi.runtime.JmpiRuntime.get();
            checkNotPredefined(keyval);
            winAttributes().delete(keyval);
        } catch (org.jmpi.runtime.MpiError e) {
            throw fail("MPI_Win_delete_attr", e);
        }
    }

    private static void checkNotPredefined(int keyval) {
        if (keyval == MPI.WIN_BASE || keyval == MPI.WIN_SIZE || keyval == MPI.WIN_DISP_UNIT) {
            throw new MpiError(ErrorClass.ERR_KEYVAL, "predefined window attribute " + keyval + " is read-only");
        }
    }

    private synchronized Attributes winAttributes() {
        if (attributes == null) {
            attributes = new Attributes(Attributes.WIN);
        }
        return attributes;
    }

    /** {@code MPI_Win_free}: collective; refused inside an epoch (ERR_RMA_SYNC), the window staying usable. */
    public void free() throws MPIException {
        try {
            Window w = live();
            w.free();
            impl = null;
            Windows.unregister(this);
            org.jmpi.comm.ContextIds.get().release(privateComm.context());
            if (attributes != null) {
                attributes.clear();
            }
        } catch (MpiError e) {
            throw fail("MPI_Win_free", e);
        }
    }

    /** The hints in force: those given at creation or by {@link #setInfo}. */
    public Info getInfo() throws MPIException {
        try {
            live();
            return info.clone();
        } catch (MpiError e) {
            throw fail("MPI_Win_get_info", e);
        }
    }

    public void setInfo(Info info) throws MPIException {
        try {
            live();
            if (info == null) {
                throw new MpiError(ErrorClass.ERR_INFO, "null info object");
            }
            if (!info.isNull()) {
                this.info.entries.putAll(info.entries);
            }
        } catch (MpiError e) {
            throw fail("MPI_Win_set_info", e);
        }
    }

    /** The window's name for JFR events (empty when it has none). */
    String jfrName() {
        return name == null ? "" : name;
    }

    public String getName() throws MPIException {
        try {
            live();
            return name;
        } catch (MpiError e) {
            throw fail("MPI_Win_get_name", e);
        }
    }

    public void setName(String name) throws MPIException {
        try {
            live();
            if (name == null) {
                throw new MpiError(ErrorClass.ERR_ARG, "null name");
            }
            this.name = name.length() > MPI.MAX_OBJECT_NAME - 1 ? name.substring(0, MPI.MAX_OBJECT_NAME - 1) : name;
        } catch (MpiError e) {
            throw fail("MPI_Win_set_name", e);
        }
    }
}
