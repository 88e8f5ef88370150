package org.jmpi.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.jmpi.datatype.BaseKind;
import org.jmpi.datatype.MessageData;
import org.jmpi.datatype.TypeDescriptor;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;

/**
 * One rank's side of a file opened collectively ({@code MPI_File}): the channel, the view, the individual file
 * pointer, the shared file pointer, the hints and the atomic flag, and every data access as MPI defines it. Package
 * {@code mpi} checks and converts user arguments and calls in here; errors come back as {@link MpiError}.
 *
 * <h2>Collective calls</h2>
 * A collective call first agrees: every rank contributes its local verdict on its arguments (and what the call
 * needs to know of the others) to one allgather, so that a bad argument on one rank fails the call on every rank
 * instead of leaving the others waiting. Data accesses then use two-phase I/O ({@link TwoPhase}) or, where that
 * does not pay (contiguous accesses that do not interleave, {@code romio_cb_*} = disable, atomic mode), independent
 * access ({@link Sieve}).
 *
 * <h2>Ordering</h2>
 * Non-blocking and split-collective operations run on the file's worker thread in the order they were started;
 * a blocking collective started while some are pending runs there too, after them, so every rank performs the
 * collectives of a file in the same order. Pointers move when an operation starts (as MPI says for non-blocking
 * calls).
 *
 * <p>Threading: the user may call from several threads (THREAD_MULTIPLE); pointer updates are synchronized on
 * this object; the view, hints and atomic flag are volatile and replaced whole; the channel serves positional I/O
 * from any thread.
 */
public final class OpenFile {
    public static final int MODE_CREATE = 1;
    public static final int MODE_RDONLY = 2;
    public static final int MODE_WRONLY = 4;
    public static final int MODE_RDWR = 8;
    public static final int MODE_DELETE_ON_CLOSE = 16;
    public static final int MODE_UNIQUE_OPEN = 32;
    public static final int MODE_EXCL = 64;
    public static final int MODE_APPEND = 128;
    public static final int MODE_SEQUENTIAL = 256;
    private static final int ALL_MODES = 511;
    public static final int SEEK_SET = 600;
    public static final int SEEK_CUR = 602;
    public static final int SEEK_END = 604;

    /** Where a data access starts. */
    public enum Position {
        /** At an explicit offset (in etypes of the view). */
        EXPLICIT,
        /** At the rank's individual file pointer. */
        INDIVIDUAL,
        /** At the shared file pointer, in whatever order the ranks come. */
        SHARED,
        /** At the shared file pointer, collectively, in rank order. */
        ORDERED
    }

    private static final TypeDescriptor BYTE = TypeDescriptor.primitive(BaseKind.BYTE);
    private static final AtomicInteger WORKERS = new AtomicInteger();

    private final IoComm io;
    private final Path path;
    private final int amode;
    private final FileChannel channel;
    private final boolean readable;
    private final boolean writable;
    private final Object key;
    private final SharedPointer shared;
    private final String sharedProblem;
    private final ConcurrentLinkedQueue<ByteBuffer> buffers = new ConcurrentLinkedQueue<>();
    private volatile Hints hints;
    private volatile View view = View.bytes(BYTE);
    private volatile boolean atomic;
    private volatile String datarep = "native";
    /** The individual file pointer, in etypes of the view; guarded by this. */
    private long pointer;
    private ExecutorService worker;
    private final AtomicInteger pending = new AtomicInteger();
    private volatile boolean closed;

    private OpenFile(IoComm io, Path path, int amode, FileChannel channel, boolean readable, boolean writable,
            Object key, SharedPointer shared, String sharedProblem, Hints hints) {
        this.io = io;
        this.path = path;
        this.amode = amode;
        this.channel = channel;
        this.readable = readable;
        this.writable = writable;
        this.key = key;
        this.shared = shared;
        this.sharedProblem = sharedProblem;
        this.hints = hints;
    }

    // ------------------------------------------------------------------------------------------ open and close

    /** The local checks of an access mode; null when it is valid. */
    static String amodeProblem(int amode) {
        if ((amode & ~ALL_MODES) != 0) {
            return "unknown access mode bits " + Integer.toHexString(amode & ~ALL_MODES);
        }
        int rw = Integer.bitCount(amode & (MODE_RDONLY | MODE_WRONLY | MODE_RDWR));
        if (rw != 1) {
            return "exactly one of MODE_RDONLY, MODE_WRONLY and MODE_RDWR must be given";
        }
        if ((amode & MODE_RDONLY) != 0 && (amode & (MODE_CREATE | MODE_EXCL)) != 0) {
            return "MODE_RDONLY cannot be combined with MODE_CREATE or MODE_EXCL";
        }
        if ((amode & MODE_RDWR) != 0 && (amode & MODE_SEQUENTIAL) != 0) {
            return "MODE_RDWR cannot be combined with MODE_SEQUENTIAL";
        }
        return null;
    }

    /**
     * Opens {@code filename} on every rank of {@code comm} (collective; {@code comm} is a private duplicate the
     * file keeps).
     */
    public static OpenFile open(Communicator comm, String filename, int amode, Map<String, String> info) {
        IoComm io = new IoComm(comm);
        MpiError local = null;
        Path path = null;
        String problem = amodeProblem(amode);
        if (problem != null) {
            local = new MpiError(ErrorClass.ERR_AMODE, problem);
        } else if (filename == null || filename.isEmpty()) {
            local = new MpiError(ErrorClass.ERR_BAD_FILE, "no file name");
        } else {
            try {
                path = Path.of(filename);
            } catch (InvalidPathException e) {
                local = new MpiError(ErrorClass.ERR_BAD_FILE, "invalid file name " + filename + ": " + e.getReason());
            }
        }
        long nameHash = filename == null ? 0 : ((long) filename.hashCode() << 32) ^ filename.length();
        long[] all = io.allgather(amode, nameHash, local == null ? 0 : local.errorClass());
        raiseAny(io, all, 3, 2, local);
        for (int r = 1; r < io.size(); r++) {
            if (all[3 * r] != all[0]) {
                throw new MpiError(ErrorClass.ERR_AMODE, "the access mode differs between ranks (rank 0 gave "
                        + all[0] + ", rank " + r + " gave " + all[3 * r] + ")");
            }
            if (all[3 * r + 1] != all[1]) {
                throw new MpiError(ErrorClass.ERR_NOT_SAME, "the file name differs between ranks 0 and " + r);
            }
        }
        // rank 0 creates the file, then everyone opens it
        MpiError created = null;
        if (io.rank() == 0 && (amode & MODE_CREATE) != 0) {
            try {
                if ((amode & MODE_EXCL) != 0) {
                    Files.createFile(path);
                } else {
                    FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE).close();
                }
            } catch (IOException e) {
                created = IoErrors.of(e, "creating", filename);
            }
        } else if (io.rank() == 0 && (amode & MODE_EXCL) != 0 && Files.exists(path)) {
            created = new MpiError(ErrorClass.ERR_FILE_EXISTS, "file " + filename + " exists (MODE_EXCL)");
        }
        raiseAny(io, io.allgather(created == null ? 0 : created.errorClass()), 1, 0, created);
        FileChannel ch = null;
        boolean readable = (amode & (MODE_RDONLY | MODE_RDWR)) != 0;
        boolean writable = (amode & (MODE_WRONLY | MODE_RDWR)) != 0;
        Object key = null;
        MpiError opened = null;
        try {
            Set<StandardOpenOption> options = EnumSet.noneOf(StandardOpenOption.class);
            if (readable) {
                options.add(StandardOpenOption.READ);
            }
            if (writable) {
                options.add(StandardOpenOption.WRITE);
            }
            if ((amode & MODE_WRONLY) != 0) {
                // data sieving and two-phase writes read before they write: ask for reading too, quietly
                try {
                    ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
                    readable = true;
                } catch (IOException e) {
                    ch = null;
                }
            }
            if (ch == null) {
                ch = FileChannel.open(path, options);
            }
            if (Files.isDirectory(path)) {
                throw new MpiError(ErrorClass.ERR_BAD_FILE, filename + " is a directory");
            }
            key = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
            if (key == null) {
                key = path.toAbsolutePath().normalize().toString();
            }
        } catch (IOException e) {
            opened = IoErrors.of(e, "opening", filename);
        } catch (MpiError e) {
            opened = e;
        }
        try {
            raiseAny(io, io.allgather(opened == null ? 0 : opened.errorClass()), 1, 0, opened);
        } catch (MpiError e) {
            closeQuietly(ch);
            throw e;
        }
        // the shared file pointer's side file
        long eof = 0;
        if ((amode & MODE_APPEND) != 0) {
            try {
                eof = ch.size();
            } catch (IOException e) {
                eof = 0;
            }
        }
        byte[] sideName = new byte[0];
        String problemText = "";
        if (io.rank() == 0) {
            try {
                sideName = SharedPointer.create(path, eof).toString().getBytes(StandardCharsets.UTF_8);
            } catch (IOException e) {
                problemText = "no shared file pointer: cannot create its side file next to " + filename + " ("
                        + e.getMessage() + ")";
            }
        }
        long[] len = {sideName.length};
        io.bcast(len, 0);
        byte[] name = io.rank() == 0 ? sideName : new byte[(int) len[0]];
        io.bcast(name, 0);
        SharedPointer sp = null;
        if (name.length > 0) {
            try {
                sp = SharedPointer.open(Path.of(new String(name, StandardCharsets.UTF_8)));
            } catch (IOException e) {
                problemText = "no shared file pointer: cannot open its side file (" + e.getMessage() + ")";
            }
        } else if (problemText.isEmpty()) {
            problemText = "no shared file pointer: rank 0 could not create its side file";
        }
        OpenFile f = new OpenFile(io, path, amode, ch, readable, writable, key, sp,
                sp == null ? problemText : null, Hints.defaults(io.size()).with(info, io.size()));
        f.pointer = eof;
        return f;
    }

    /** Raises the error of the lowest failing rank on every rank (this rank's own error when it is that rank). */
    private static void raiseAny(IoComm io, long[] all, int stride, int at, MpiError mine) {
        for (int r = 0; r < io.size(); r++) {
            int cls = (int) all[stride * r + at];
            if (cls != 0) {
                if (mine != null) {
                    throw mine;
                }
                throw new MpiError(cls, "failed on rank " + r + " (" + ErrorClass.name(cls) + ")");
            }
        }
    }

    private static void closeQuietly(FileChannel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException e) {
                // nothing was written through it
            }
        }
    }

    /** Closes the file on every rank (collective); deletes it when opened with MODE_DELETE_ON_CLOSE. */
    public void close() {
        inOrder(() -> {
            closed = true;
            io.barrier();
            MpiError failed = null;
            try {
                channel.close();
            } catch (IOException e) {
                failed = IoErrors.of(e, "closing", path.toString());
            }
            io.barrier();
            if (shared != null) {
                shared.close(io.rank() == 0);
            }
            if (io.rank() == 0 && (amode & MODE_DELETE_ON_CLOSE) != 0) {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException e) {
                    failed = IoErrors.of(e, "deleting", path.toString());
                }
            }
            raiseAny(io, io.allgather(failed == null ? 0 : failed.errorClass()), 1, 0, failed);
            return null;
        });
        if (worker != null) {
            worker.shutdown();
        }
    }

    /** Deletes a file ({@code MPI_File_delete}, not collective). */
    public static void delete(String filename) {
        if (filename == null || filename.isEmpty()) {
            throw new MpiError(ErrorClass.ERR_BAD_FILE, "no file name");
        }
        try {
            Files.delete(Path.of(filename));
        } catch (InvalidPathException e) {
            throw new MpiError(ErrorClass.ERR_BAD_FILE, "invalid file name " + filename + ": " + e.getReason());
        } catch (IOException e) {
            throw IoErrors.of(e, "deleting", filename);
        }
    }

    // ------------------------------------------------------------------------------------------ queries, sizes

    public int amode() {
        return amode;
    }

    public boolean isClosed() {
        return closed;
    }

    public long size() {
        checkOpen();
        try {
            return channel.size();
        } catch (IOException e) {
            throw IoErrors.of(e, "reading the size of", path.toString());
        }
    }

    /** Truncates or extends the file (collective; every rank must give the same size). */
    public void setSize(long size) {
        resize(size, "resizing", now -> {
            if (size < now) {
                channel.truncate(size);
            } else if (size > now) {
                Sieve.writeFully(channel, ByteBuffer.allocate(1), size - 1, 1);
            }
        });
    }

    /** Makes sure the first {@code size} bytes have storage (collective); never shrinks the file. */
    public void preallocate(long size) {
        resize(size, "preallocating", now -> {
            ByteBuffer zeros = ByteBuffer.allocateDirect(1 << 20);
            for (long pos = now; pos < size; pos += zeros.capacity()) {
                Sieve.writeFully(channel, zeros, pos, (int) Math.min(zeros.capacity(), size - pos));
            }
        });
    }

    /** What rank 0 does to the file's length, given its current length. */
    @FunctionalInterface
    private interface Resize {
        void apply(long now) throws IOException;
    }

    /** A collective change of the file's length: agreement on the size, rank 0 acts, errors shared. */
    private void resize(long size, String what, Resize action) {
        inOrder(() -> {
            MpiError local = size < 0 ? new MpiError(ErrorClass.ERR_ARG, "negative size " + size)
                    : !writable ? new MpiError(ErrorClass.ERR_READ_ONLY, "the file was opened read-only") : null;
            agreeSame(local, size, "size");
            MpiError failed = null;
            if (io.rank() == 0) {
                try {
                    action.apply(channel.size());
                } catch (IOException e) {
                    failed = IoErrors.of(e, what, path.toString());
                }
            }
            raiseAny(io, io.allgather(failed == null ? 0 : failed.errorClass()), 1, 0, failed);
            return null;
        });
    }

    /** Agreement on a value that must be the same on every rank, and on the local argument checks. */
    private void agreeSame(MpiError local, long value, String what) {
        long[] all = io.allgather(local == null ? 0 : local.errorClass(), value);
        raiseAny(io, all, 2, 0, local);
        for (int r = 1; r < io.size(); r++) {
            if (all[2 * r + 1] != all[1]) {
                throw new MpiError(ErrorClass.ERR_NOT_SAME, "the " + what + " differs between ranks 0 and " + r);
            }
        }
    }

    /** The hints in force, as info keys and values. */
    public Map<String, String> hintMap() {
        return hints.asMap();
    }

    Hints hints() {
        return hints;
    }

    /** Applies hints (collective). */
    public void setHints(Map<String, String> info) {
        inOrder(() -> {
            checkOpen();
            hints = hints.with(info, io.size());
            return null;
        });
    }

    public void setAtomicity(boolean flag) {
        inOrder(() -> {
            agreeSame(null, flag ? 1 : 0, "atomicity flag");
            atomic = flag;
            return null;
        });
    }

    public boolean atomicity() {
        return atomic;
    }

    /** Flushes this rank's writes to the storage device (collective in MPI; no waiting for the others). */
    public void sync() {
        inOrder(() -> {
            checkOpen();
            if (!writable) {
                return null;
            }
            try {
                channel.force(true);
            } catch (IOException e) {
                throw IoErrors.of(e, "syncing", path.toString());
            }
            return null;
        });
    }

    // ------------------------------------------------------------------------------------------------- views

    /**
     * Sets the view (collective). Resets the individual and shared pointers to 0.
     *
     * @param problem a local argument error found by the caller, agreed with the others first, or null
     */
    public void setView(long disp, TypeDescriptor etype, TypeDescriptor filetype, String rep,
            Map<String, String> info, MpiError problem) {
        inOrder(() -> {
            MpiError local = problem;
            if (local == null) {
                local = viewProblem(disp, etype, filetype, rep);
            }
            long repHash = rep == null ? 0 : rep.hashCode();
            agreeSame(local, repHash, "data representation");
            long[] sizes = io.allgather(etype.size());
            for (int r = 1; r < io.size(); r++) {
                if (sizes[r] != sizes[0]) {
                    throw new MpiError(ErrorClass.ERR_NOT_SAME, "the etype size differs between ranks 0 and " + r);
                }
            }
            View v = new View(disp, etype, filetype);
            synchronized (this) {
                view = v;
                pointer = 0;
                datarep = rep;
            }
            hints = hints.with(info, io.size());
            if (shared != null && io.rank() == 0) {
                shared.set(0);
            }
            io.barrier();
            return null;
        });
    }

    private MpiError viewProblem(long disp, TypeDescriptor etype, TypeDescriptor filetype, String rep) {
        if (closed) {
            return new MpiError(ErrorClass.ERR_FILE, "the file is closed");
        }
        if (disp < 0) {
            return new MpiError(ErrorClass.ERR_ARG, "negative displacement " + disp);
        }
        if (etype.size() == 0) {
            return new MpiError(ErrorClass.ERR_TYPE, "the etype holds no data");
        }
        if (filetype.size() == 0 || filetype.size() % etype.size() != 0) {
            return new MpiError(ErrorClass.ERR_TYPE, "the file type (" + filetype.size()
                    + " bytes of data) is not built from the etype (" + etype.size() + " bytes)");
        }
        var eu = etype.signature().uniform();
        var fu = filetype.signature().uniform();
        if (eu != null && fu != eu) {
            return new MpiError(ErrorClass.ERR_TYPE, "the file type is not built from the etype (" + eu
                    + " expected, the file type holds " + (fu == null ? "mixed data" : fu) + ")");
        }
        if (filetype.trueLb() < 0 || filetype.lb() < 0) {
            return new MpiError(ErrorClass.ERR_TYPE, "the file type has a negative displacement");
        }
        if (filetype.extent() <= 0) {
            return new MpiError(ErrorClass.ERR_TYPE, "the file type has no extent");
        }
        if (!"native".equalsIgnoreCase(rep) && !"internal".equalsIgnoreCase(rep)) {
            return new MpiError(ErrorClass.ERR_UNSUPPORTED_DATAREP, "data representation " + rep
                    + " is not supported (native and internal are; external32 is not)");
        }
        return null;
    }

    public String datarep() {
        return datarep;
    }

    // ------------------------------------------------------------------------------------- pointers and offsets

    public synchronized long position() {
        checkOpen();
        checkNotSequential("MPI_File_get_position");
        return pointer;
    }

    public void seek(long offset, int whence) {
        checkOpen();
        checkNotSequential("MPI_File_seek");
        synchronized (this) {
            pointer = resolveSeek(offset, whence, pointer);
        }
    }

    private long resolveSeek(long offset, int whence, long current) {
        long base = switch (whence) {
            case SEEK_SET -> 0;
            case SEEK_CUR -> current;
            case SEEK_END -> endInEtypes();
            default -> throw new MpiError(ErrorClass.ERR_ARG, "invalid whence " + whence);
        };
        long target;
        try {
            target = Math.addExact(base, offset);
        } catch (ArithmeticException e) {
            throw new MpiError(ErrorClass.ERR_ARG, "the offset overflows");
        }
        if (target < 0) {
            throw new MpiError(ErrorClass.ERR_ARG, "seek to a negative position " + target);
        }
        return target;
    }

    /** The view position, in etypes, of the end of the file (rounded up to a whole etype). */
    private long endInEtypes() {
        View v = view;
        long size = size();
        if (size <= v.disp) {
            return 0;
        }
        long tile = v.filetype.size();
        long full = (size - v.disp) / v.filetype.extent();
        long[] in = {0};
        v.runs(full * tile, tile, (file, stream, len) -> in[0] += Math.min(len, Math.max(0, size - file)));
        return Math.ceilDiv(full * tile + in[0], v.etypeSize);
    }

    public long byteOffset(long offset) {
        checkOpen();
        if (offset < 0) {
            throw new MpiError(ErrorClass.ERR_ARG, "negative offset " + offset);
        }
        View v = view;
        try {
            return v.fileOffset(Math.multiplyExact(offset, v.etypeSize));
        } catch (ArithmeticException e) {
            throw new MpiError(ErrorClass.ERR_ARG, "offset " + offset + " overflows");
        }
    }

    public long sharedPosition() {
        checkOpen();
        return sharedPointer().get();
    }

    /** Sets the shared pointer (collective; every rank must give the same position). */
    public void seekShared(long offset, int whence) {
        inOrder(() -> {
            MpiError local = null;
            long target = 0;
            try {
                checkOpen();
                SharedPointer sp = sharedPointer();
                io.barrier();
                target = resolveSeek(offset, whence, whence == SEEK_CUR ? sp.get() : 0);
            } catch (MpiError e) {
                local = e;
            }
            agreeSame(local, target, "shared file pointer position");
            if (io.rank() == 0) {
                shared.set(target);
            }
            io.barrier();
            return null;
        });
    }

    private SharedPointer sharedPointer() {
        if (shared == null) {
            throw new MpiError(ErrorClass.ERR_IO, sharedProblem);
        }
        return shared;
    }

    // ------------------------------------------------------------------------------------------- data access

    /**
     * A blocking data access.
     *
     * @param offset the explicit offset in etypes (for {@link Position#EXPLICIT})
     * @param argProblem an argument error the caller found (data is then empty), or null; a collective call
     *     agrees on it with the other ranks before raising it
     * @return the bytes of {@code data} moved (fewer than asked for a read that met the end of the file)
     */
    public long access(Position where, boolean write, boolean collective, long offset, MessageData data,
            MpiError argProblem) {
        MpiError local = argProblem != null ? argProblem : problem(where, write, offset, data);
        if (collective || where == Position.ORDERED) {
            return inOrder(() -> collective(where, write, local, offset, data, true));
        }
        if (local != null) {
            throw local;
        }
        long etypes = data.bytes() / view.etypeSize;
        long at = switch (where) {
            case EXPLICIT -> offset;
            case SHARED -> sharedPointer().fetchAdd(etypes);
            default -> individualStart();
        };
        long moved = independent(write, at, data);
        if (where == Position.INDIVIDUAL) {
            advance(at, moved);
        }
        return moved;
    }

    /**
     * Starts a non-blocking (or split collective) access; the request completes on the file's worker thread.
     * Argument errors are raised here, at the start; the pointers move now by the amount asked for.
     */
    public IoRequest start(Position where, boolean write, boolean collective, long offset, MessageData data,
            MpiError argProblem) {
        MpiError local = argProblem != null ? argProblem : problem(where, write, offset, data);
        if (local != null && !collective && where != Position.ORDERED) {
            throw local;
        }
        IoRequest r = new IoRequest(JmpiRuntime.get().progress());
        long etypes = local == null ? data.bytes() / view.etypeSize : 0;
        long at;
        if (local != null) {
            at = 0;
        } else {
            at = switch (where) {
                case EXPLICIT -> offset;
                case SHARED -> sharedPointer().fetchAdd(etypes);
                case ORDERED -> 0;
                case INDIVIDUAL -> {
                    synchronized (this) {
                        long p = pointer;
                        pointer += etypes;
                        yield p;
                    }
                }
            };
        }
        Position resolved = where == Position.ORDERED ? Position.ORDERED : Position.EXPLICIT;
        submit(() -> {
            try {
                long moved = collective || where == Position.ORDERED
                        ? collective(resolved, write, local, at, data, false)
                        : independent(write, at, data);
                r.finish(moved, 0, null);
            } catch (MpiError e) {
                r.finish(0, e.errorClass(), e.getMessage());
            } catch (RuntimeException e) {
                r.finish(0, ErrorClass.ERR_INTERN, String.valueOf(e));
            }
            return null;
        });
        return r;
    }

    private synchronized long individualStart() {
        return pointer;
    }

    private synchronized void advance(long from, long bytes) {
        pointer = from + bytes / view.etypeSize;
    }

    /** The local checks of a data access; null when it may go ahead. */
    private MpiError problem(Position where, boolean write, long offset, MessageData data) {
        if (closed) {
            return new MpiError(ErrorClass.ERR_FILE, "the file is closed");
        }
        if (write && (amode & MODE_RDONLY) != 0) {
            return new MpiError(ErrorClass.ERR_READ_ONLY, "the file was opened with MODE_RDONLY");
        }
        if (!write && (amode & MODE_WRONLY) != 0) {
            return new MpiError(ErrorClass.ERR_ACCESS, "the file was opened with MODE_WRONLY");
        }
        if ((amode & MODE_SEQUENTIAL) != 0 && (where == Position.EXPLICIT || where == Position.INDIVIDUAL)) {
            return new MpiError(ErrorClass.ERR_UNSUPPORTED_OPERATION,
                    "a file opened with MODE_SEQUENTIAL is accessed through the shared file pointer only");
        }
        if (where == Position.EXPLICIT && offset < 0) {
            return new MpiError(ErrorClass.ERR_ARG, "negative offset " + offset);
        }
        if ((where == Position.SHARED || where == Position.ORDERED) && shared == null) {
            return new MpiError(ErrorClass.ERR_IO, sharedProblem);
        }
        long esize = view.etypeSize;
        if (data.bytes() % esize != 0) {
            return new MpiError(ErrorClass.ERR_TYPE, "the data (" + data.bytes()
                    + " bytes) is not a whole number of etypes of " + esize + " bytes");
        }
        return null;
    }

    private long independent(boolean write, long at, MessageData data) {
        View v = view;
        long bytes = data.bytes();
        if (bytes == 0) {
            return 0;
        }
        long vpos;
        try {
            vpos = Math.multiplyExact(at, v.etypeSize);
        } catch (ArithmeticException e) {
            throw new MpiError(ErrorClass.ERR_ARG, "offset " + at + " overflows");
        }
        FileRuns runs = FileRuns.of(v, vpos, bytes);
        boolean atomicNow = atomic;
        RangeLock lock = atomicNow ? lock(runs.start(), runs.end(), !write) : null;
        try {
            if (write) {
                Sieve.write(this, runs, data, atomicNow);
                return bytes;
            }
            long delivered = runs.clipTo(channel.size());
            Sieve.read(this, runs, data);
            return delivered;
        } catch (IOException e) {
            throw IoErrors.of(e, write ? "writing" : "reading", path.toString());
        } finally {
            if (lock != null) {
                lock.close();
            }
        }
    }

    /**
     * A collective access. Agrees on errors first, so a bad argument anywhere fails the call everywhere.
     *
     * @param advancePointer whether an individual-pointer access moves the pointer here (blocking calls)
     */
    private long collective(Position where, boolean write, MpiError local, long offset, MessageData data,
            boolean advancePointer) {
        View v = view;
        long bytes = local == null ? data.bytes() : 0;
        long etypes = bytes / v.etypeSize;
        long at = offset;
        if (where == Position.ORDERED) {
            long[] all = io.allgather(local == null ? 0 : local.errorClass(), etypes);
            raiseAny(io, all, 2, 0, local);
            long total = 0;
            long before = 0;
            for (int r = 0; r < io.size(); r++) {
                if (r == io.rank()) {
                    before = total;
                }
                total += all[2 * r + 1];
            }
            long[] base = {0};
            if (io.rank() == 0) {
                base[0] = shared.fetchAdd(total);
            }
            io.bcast(base, 0);
            at = base[0] + before;
        } else if (where == Position.INDIVIDUAL) {
            at = individualStart();
        } else if (where == Position.SHARED) {
            throw new MpiError(ErrorClass.ERR_INTERN, "no collective access at the shared pointer");
        }
        FileRuns runs = new FileRuns();
        long delivered = bytes;
        MpiError prep = local;
        if (prep == null && bytes > 0) {
            try {
                runs = FileRuns.of(v, Math.multiplyExact(at, v.etypeSize), bytes);
                if (!write) {
                    delivered = runs.clipTo(channel.size());
                }
            } catch (MpiError e) {
                prep = e;
            } catch (ArithmeticException e) {
                prep = new MpiError(ErrorClass.ERR_ARG, "offset " + at + " overflows");
            } catch (IOException e) {
                prep = IoErrors.of(e, "reading the size of", path.toString());
            }
        }
        long start = runs.count == 0 ? Long.MAX_VALUE : runs.start();
        long end = runs.count == 0 ? Long.MIN_VALUE : runs.end();
        long[] info = io.allgather(prep == null ? 0 : prep.errorClass(), start, end, runs.count,
                runs.sorted ? 1 : 0);
        raiseAny(io, info, 5, 0, prep);
        int p = io.size();
        boolean anyNoncontiguous = false;
        boolean allSorted = true;
        long[] extents = new long[2 * p];
        for (int r = 0; r < p; r++) {
            extents[2 * r] = info[5 * r + 1];
            extents[2 * r + 1] = info[5 * r + 2];
            anyNoncontiguous |= info[5 * r + 3] > 1;
            allSorted &= info[5 * r + 4] == 1;
        }
        Hints.Switch cb = write ? hints.cbWrite() : hints.cbRead();
        boolean twoPhase = allSorted && !atomic && p > 1 && switch (cb) {
            case ENABLE -> true;
            case DISABLE -> false;
            case AUTOMATIC -> anyNoncontiguous || interleaved(extents);
        };
        long moved;
        if (twoPhase) {
            TwoPhase.run(this, write, extents, runs, data);
            moved = delivered;
        } else {
            moved = bytes == 0 ? 0 : independent(write, at, data);
        }
        if (where == Position.INDIVIDUAL && advancePointer) {
            advance(at, moved);
        }
        return moved;
    }

    /** Whether the ranks' accesses overlap or interleave in the file. */
    private static boolean interleaved(long[] extents) {
        int n = extents.length / 2;
        Integer[] order = new Integer[n];
        int k = 0;
        for (int r = 0; r < n; r++) {
            if (extents[2 * r] < extents[2 * r + 1]) {
                order[k++] = r;
            }
        }
        java.util.Arrays.sort(order, 0, k, (a, b) -> Long.compare(extents[2 * a], extents[2 * b]));
        for (int i = 1; i < k; i++) {
            if (extents[2 * order[i]] < extents[2 * order[i - 1] + 1]) {
                return true;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------------------------------ order, worker

    /**
     * Runs a collective step in start order: in the caller when nothing is pending on the worker, else on the worker
     * after what is pending (and waits for it).
     */
    private <T> T inOrder(Callable<T> task) {
        if (pending.get() == 0) {
            return call(task);
        }
        Future<T> f = submit(task);
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MpiError(ErrorClass.ERR_OTHER, "interrupted");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof MpiError m) {
                throw m;
            }
            throw new MpiError(ErrorClass.ERR_INTERN, String.valueOf(e.getCause()), e.getCause());
        }
    }

    private static <T> T call(Callable<T> task) {
        try {
            return task.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new MpiError(ErrorClass.ERR_INTERN, String.valueOf(e), e);
        }
    }

    private synchronized <T> Future<T> submit(Callable<T> task) {
        if (worker == null) {
            int id = WORKERS.incrementAndGet();
            worker = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "jmpi-io-" + id);
                t.setDaemon(true);
                return t;
            });
        }
        pending.incrementAndGet();
        return worker.submit(() -> {
            try {
                return task.call();
            } finally {
                pending.decrementAndGet();
            }
        });
    }

    private void checkOpen() {
        if (closed) {
            throw new MpiError(ErrorClass.ERR_FILE, "the file is closed");
        }
    }

    private void checkNotSequential(String call) {
        if ((amode & MODE_SEQUENTIAL) != 0) {
            throw new MpiError(ErrorClass.ERR_UNSUPPORTED_OPERATION, call + " on a file opened with MODE_SEQUENTIAL");
        }
    }

    // ------------------------------------------------------------------------------------ for Sieve and TwoPhase

    IoComm io() {
        return io;
    }

    FileChannel channel() {
        return channel;
    }

    /** The file's path (diagnostics, JFR events). */
    public String path() {
        return path.toString();
    }

    boolean readable() {
        return readable;
    }

    RangeLock lock(long start, long end, boolean sharedLock) {
        boolean osShared = sharedLock ? readable : !writable;
        return RangeLock.take(key, channel, start, end, osShared, path.toString());
    }

    /** A direct buffer of at least {@code bytes} bytes (at most 2 GiB). */
    ByteBuffer takeBuffer(long bytes) {
        for (ByteBuffer b : buffers) {
            if (b.capacity() >= bytes && buffers.remove(b)) {
                return b;
            }
        }
        return ByteBuffer.allocateDirect((int) Math.min(Integer.MAX_VALUE - 8, Math.max(bytes, 64 << 10)));
    }

    void giveBuffer(ByteBuffer b) {
        if (buffers.size() < 4) {
            buffers.add(b);
        }
    }
}
