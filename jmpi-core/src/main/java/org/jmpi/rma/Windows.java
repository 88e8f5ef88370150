package org.jmpi.rma;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;

/**
 * jmpi's extensions to {@code mpi.Win} for what the Open MPI Java API has no call for. Pass the {@code mpi.Win} object
 * as {@code win}:
 *
 * <ul>
 *   <li>{@link #sharedQuery(Object, int)} / {@link #sharedSegment(Object, int)}: rank {@code r}'s part of a window
 *       made with {@code Win.FLAVOR_SHARED} (the role of {@code MPI_Win_shared_query}), as a direct
 *       {@link ByteBuffer} in native byte order or a {@link MemorySegment}; loads, stores and atomics
 *       ({@code VarHandle}s on the segment) reach the other rank's memory directly when it shares this host.
 *   <li>{@link #address(Object, Buffer)}: the displacement at which a buffer attached to a dynamic window
 *       ({@code new Win(info, comm)} + {@code attach}) is reached by other ranks (the role of {@code MPI_Get_address};
 *       the Java API's displacements are ints, so jmpi hands out window addresses below 2^31).
 *   <li>{@link #flavor(Object)} and {@link #model(Object)}: {@code MPI_WIN_CREATE_FLAVOR} and {@code MPI_WIN_MODEL}.
 *   <li>{@link #singleCopyOperations(Object)}: how many operations went straight into another process's memory.
 *   <li>The MPI-3 error classes the {@code mpi.MPI} class lacks: {@link #ERR_RMA_RANGE}, {@link #ERR_RMA_ATTACH},
 *       {@link #ERR_RMA_FLAVOR}, {@link #ERR_RMA_SHARED}.
 * </ul>
 *
 * <p>Threading: the registry is a synchronised weak map; windows are thread-safe.
 */
public final class Windows {
    private Windows() {}

    public static final int ERR_RMA_RANGE = ErrorClass.ERR_RMA_RANGE;
    public static final int ERR_RMA_ATTACH = ErrorClass.ERR_RMA_ATTACH;
    public static final int ERR_RMA_FLAVOR = ErrorClass.ERR_RMA_FLAVOR;
    public static final int ERR_RMA_SHARED = ErrorClass.ERR_RMA_SHARED;

    public static final int FLAVOR_CREATE = Window.FLAVOR_CREATE;
    public static final int FLAVOR_ALLOCATE = Window.FLAVOR_ALLOCATE;
    public static final int FLAVOR_DYNAMIC = Window.FLAVOR_DYNAMIC;
    public static final int FLAVOR_SHARED = Window.FLAVOR_SHARED;
    public static final int MODEL_UNIFIED = Window.MODEL_UNIFIED;

    private static final Map<Object, Window> WINDOWS = Collections.synchronizedMap(new WeakHashMap<>());

    /** Called by {@code mpi.Win} when a window is made; not for applications. */
    public static void register(Object win, Window window) {
        WINDOWS.put(win, window);
    }

    /** Called by {@code mpi.Win} when a window is freed; not for applications. */
    public static void unregister(Object win) {
        WINDOWS.remove(win);
    }

    private static Window of(Object win) {
        Window w = win == null ? null : WINDOWS.get(win);
        if (w == null || w.isFreed()) {
            throw new MpiError(ErrorClass.ERR_WIN, "not a live window: " + win);
        }
        return w;
    }

    /**
     * Rank {@code rank}'s part of a shared window as a direct byte buffer in native byte order.
     *
     * @throws MpiError ERR_RMA_FLAVOR for a window that is not shared, ERR_RANK for a bad rank
     */
    public static ByteBuffer sharedQuery(Object win, int rank) {
        return sharedSegment(win, rank).asByteBuffer().order(ByteOrder.nativeOrder());
    }

    /** Rank {@code rank}'s part of a shared window as a segment. */
    public static MemorySegment sharedSegment(Object win, int rank) {
        return of(win).sharedPart(rank);
    }

    /**
     * How many puts and gets this rank did on the window by single copy: straight into or out of another process's
     * window memory on this host ({@code process_vm_writev}/{@code readv}), without a message to that process. A
     * diagnostic (0 in threads mode, over TCP, on shared windows, and where the kernel forbids the calls).
     */
    public static long singleCopyOperations(Object win) {
        return of(win).singleCopyOperations();
    }

    /** The window address of a buffer attached to a dynamic window (its index 0). */
    public static long address(Object win, Buffer attached) {
        Window w = of(win);
        long a = w.addressOf(MemorySegment.ofBuffer(attached.duplicate().clear()));
        if (a < 0) {
            throw new MpiError(ErrorClass.ERR_RMA_ATTACH, "the buffer is not attached to this window");
        }
        return a;
    }

    public static int flavor(Object win) {
        return of(win).flavor();
    }

    public static int model(Object win) {
        return of(win).model();
    }

    /** Whether a background thread serves passive-target requests for the window at this rank (see docs). */
    public static boolean hasPassiveProgressThread(Object win) {
        return of(win).hasPassiveHelper();
    }
}
