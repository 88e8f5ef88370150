package mpi;

import java.nio.Buffer;
import org.jmpi.datatype.BaseKind;
import org.jmpi.datatype.BufferView;
import org.jmpi.datatype.MessageData;
import org.jmpi.datatype.TypeDescriptor;
import org.jmpi.io.OpenFile;
import org.jmpi.io.OpenFile.Position;
import org.jmpi.runtime.Communicator;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.JmpiRuntime;
import org.jmpi.runtime.MpiError;

/**
 * An MPI-IO file opened collectively by the processes of a communicator. A thin facade over
 * {@link org.jmpi.io.OpenFile}: argument checks, buffers turned into message data, errors through the file's error
 * handler. docs/io.md describes hints, collective buffering, data sieving, consistency and atomic mode.
 *
 * <p>Error handlers: a file's handler is {@code MPI.ERRORS_RETURN} unless changed with {@link #setErrhandler}, as
 * the standard says. Errors of the constructor (a failed open) and of {@link #delete} use the handler of
 * {@code MPI_FILE_NULL}, also {@code MPI.ERRORS_RETURN} (the Java bindings have no {@code FILE_NULL} object, so it
 * cannot be changed).
 *
 * <p>Threading: calls from several threads are allowed (THREAD_MULTIPLE); at most one split collective may be
 * active per file, as MPI says.
 */
public final class File {
    /** The error handler of MPI_FILE_NULL: applies to failed opens and to deletes. */
    static final Errhandler NULL_FILE_HANDLER = MPI.ERRORS_RETURN;

    private static final TypeDescriptor BYTES = TypeDescriptor.primitive(BaseKind.BYTE);

    /** The view set by the last {@link #setView} call. */
    private FileView view = new FileView(0, MPI.BYTE, MPI.BYTE, "native");

    /** The private duplicate of the communicator the file was opened on. */
    private final Intracomm comm;
    private final OpenFile impl;
    /** The error handler in force. */
    Errhandler errhandler = MPI.ERRORS_RETURN;
    /** The active split collective, or null; guarded by this. */
    private Request split;

    public File(Comm comm, String filename, int amode) throws MPIException {
        this(comm, filename, amode, null);
    }

    public File(Comm comm, String filename, int amode, Info info) throws MPIException {
        Intracomm dup = null;
        try {
            if (comm == null) {
                throw new MpiError(ErrorClass.ERR_COMM, "null communicator");
            }
            comm.live();
            if (!(comm instanceof Intracomm ic)) {
                throw new MpiError(ErrorClass.ERR_COMM, "files are opened on intracommunicators");
            }
            if (info != null && info.isNull()) {
                throw new MpiError(ErrorClass.ERR_INFO, "the info object was freed");
            }
            dup = ic.dup();
            this.comm = dup;
            this.impl = OpenFile.open(dup.live(), filename, amode, info == null ? null : info.entries);
        } catch (MpiError e) {
            freeQuietly(dup);
            throw Errors.raise(NULL_FILE_HANDLER, "MPI_File_open", e);
        }
    }

    private static void freeQuietly(Intracomm dup) {
        if (dup != null) {
            try {
                dup.free();
            } catch (MPIException e) {
                // the open failed on every rank; the duplicate is gone or unusable either way
            }
        }
    }

    private MPIException fail(String call, MpiError e) {
        return Errors.raise(errhandler, call, e);
    }

    private void live() {
        JmpiRuntime.get();
        if (impl.isClosed()) {
            throw new MpiError(ErrorClass.ERR_FILE, "the file is closed");
        }
    }

    public void close() throws MPIException {
        try {
            live();
            impl.close();
            comm.free();
        } catch (MpiError e) {
            throw fail("MPI_File_close", e);
        }
    }

    public static void delete(String filename) throws MPIException {
        delete(filename, null);
    }

    public static void delete(String filename, Info info) throws MPIException {
        try {
            JmpiRuntime.get();
            OpenFile.delete(filename);
        } catch (MpiError e) {
            throw Errors.raise(NULL_FILE_HANDLER, "MPI_File_delete", e);
        }
    }

    public void setSize(long size) throws MPIException {
        try {
            live();
            impl.setSize(size);
        } catch (MpiError e) {
            throw fail("MPI_File_set_size", e);
        }
    }

    public void preallocate(long size) throws MPIException {
        try {
            live();
            impl.preallocate(size);
        } catch (MpiError e) {
            throw fail("MPI_File_preallocate", e);
        }
    }

    public long getSize() throws MPIException {
        try {
            live();
            return impl.size();
        } catch (MpiError e) {
            throw fail("MPI_File_get_size", e);
        }
    }

    public Group getGroup() throws MPIException {
        try {
            live();
            Communicator c = comm.live();
            int[] ranks = c.worldRanks();
            return new Group(ranks, ranks[c.rank()]);
        } catch (MpiError e) {
            throw fail("MPI_File_get_group", e);
        }
    }

    public int getAMode() throws MPIException {
        try {
            live();
            return impl.amode();
        } catch (MpiError e) {
            throw fail("MPI_File_get_amode", e);
        }
    }

    public void setInfo(Info info) throws MPIException {
        try {
            live();
            if (info == null || info.isNull()) {
                throw new MpiError(ErrorClass.ERR_INFO, "invalid info object");
            }
            impl.setHints(info.entries);
        } catch (MpiError e) {
            throw fail("MPI_File_set_info", e);
        }
    }

    public Info getInfo() throws MPIException {
        try {
            live();
            Info info = new Info();
            info.entries.putAll(impl.hintMap());
            return info;
        } catch (MpiError e) {
            throw fail("MPI_File_get_info", e);
        }
    }

    public void setView(long disp, Datatype etype, Datatype filetype, String datarep) throws MPIException {
        setView(disp, etype, filetype, datarep, null);
    }

    public void setView(long disp, Datatype etype, Datatype filetype, String datarep, Info info) throws MPIException {
        try {
            live();
            MpiError problem = null;
            TypeDescriptor e = BYTES;
            TypeDescriptor f = BYTES;
            long d = disp;
            try {
                Comm.checkType(etype);
                Comm.checkType(filetype);
                e = etype.desc;
                f = filetype.desc;
                if (datarep == null) {
                    throw new MpiError(ErrorClass.ERR_UNSUPPORTED_DATAREP, "null data representation");
                }
                if (info != null && info.isNull()) {
                    throw new MpiError(ErrorClass.ERR_INFO, "the info object was freed");
                }
                if (disp == MPI.DISPLACEMENT_CURRENT) {
                    if ((impl.amode() & MPI.MODE_SEQUENTIAL) == 0) {
                        throw new MpiError(ErrorClass.ERR_ARG,
                                "MPI.DISPLACEMENT_CURRENT needs a file opened with MODE_SEQUENTIAL");
                    }
                    d = impl.byteOffset(impl.sharedPosition());
                }
            } catch (MpiError x) {
                problem = x;
                e = BYTES;
                f = BYTES;
                d = 0;
            }
            impl.setView(d, e, f, datarep, info == null ? null : info.entries, problem);
            view = new FileView(d, etype, filetype, datarep);
        } catch (MpiError e) {
            throw fail("MPI_File_set_view", e);
        }
    }

    public FileView getView() {
        return view;
    }

    // ------------------------------------------------------------------------------------------------ access

    private static Status status(long bytes) {
        Status s = new Status();
        s.bytes = bytes;
        return s;
    }

    /** The data of one access, or (for a collective call) the argument error to agree on with the other ranks. */
    private record Access(MessageData data, MpiError problem) {
        static Access of(Position where, boolean collective, Object buf, long count, Datatype type, boolean write) {
            try {
                Comm.checkType(type);
                return new Access(BufferView.of(buf, count, type.desc, !write), null);
            } catch (MpiError e) {
                if (!collective && where != Position.ORDERED) {
                    throw e;
                }
                return new Access(MessageData.EMPTY, e);
            }
        }
    }

    /** A blocking access; a collective one agrees on argument errors with the other ranks. */
    private Status access(String call, Position where, boolean write, boolean collective, long offset, Object buf,
            long count, Datatype type) throws MPIException {
        org.jmpi.runtime.events.FileEvent ev = Jfr.file();
        try {
            live();
            Access a = Access.of(where, collective, buf, count, type, write);
            long moved = impl.access(where, write, collective, offset, a.data(), a.problem());
            Jfr.file(ev, call, impl.path(), where == Position.EXPLICIT ? offset : -1, moved);
            return status(moved);
        } catch (MpiError e) {
            throw fail(call, e);
        }
    }

    /** Starts a non-blocking or split-collective access. */
    private Request begin(String call, Position where, boolean write, boolean collective, long offset, Object buf,
            long count, Datatype type) throws MPIException {
        try {
            live();
            Access a = Access.of(where, collective, buf, count, type, write);
            Request r = Request.of(null, impl.start(where, write, collective, offset, a.data(), a.problem()), call);
            r.file = this;
            return r;
        } catch (MpiError e) {
            throw fail(call, e);
        }
    }

    private void splitBegin(String call, Position where, boolean write, long offset, Object buf, int count,
            Datatype type) throws MPIException {
        synchronized (this) {
            if (split != null) {
                throw fail(call, new MpiError(ErrorClass.ERR_OTHER,
                        "a split collective is already active on this file (one at a time)"));
            }
            split = begin(call, where, write, true, offset, buf, count, type);
        }
    }

    private Status splitEnd(String call) throws MPIException {
        Request r;
        synchronized (this) {
            r = split;
            split = null;
        }
        if (r == null) {
            throw fail(call, new MpiError(ErrorClass.ERR_OTHER, "no split collective is active on this file"));
        }
        return r.waitStatus();
    }

    public Status readAt(long offset, Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_read_at", Position.EXPLICIT, false, false, offset, buf, count, type);
    }

    public Status readAtAll(long offset, Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_read_at_all", Position.EXPLICIT, false, true, offset, buf, count, type);
    }

    public Status writeAt(long offset, Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_write_at", Position.EXPLICIT, true, false, offset, buf, count, type);
    }

    public Status writeAtAll(long offset, Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_write_at_all", Position.EXPLICIT, true, true, offset, buf, count, type);
    }

    public Request iReadAt(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        return begin("MPI_File_iread_at", Position.EXPLICIT, false, false, offset, buf, count, type);
    }

    public Request iReadAtAll(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        return begin("MPI_File_iread_at_all", Position.EXPLICIT, false, true, offset, buf, count, type);
    }

    public Request iWriteAt(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        return begin("MPI_File_iwrite_at", Position.EXPLICIT, true, false, offset, buf, count, type);
    }

    public Request iWriteAtAll(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        return begin("MPI_File_iwrite_at_all", Position.EXPLICIT, true, true, offset, buf, count, type);
    }

    public Status read(Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_read", Position.INDIVIDUAL, false, false, 0, buf, count, type);
    }

    public Status readAll(Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_read_all", Position.INDIVIDUAL, false, true, 0, buf, count, type);
    }

    public Status write(Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_write", Position.INDIVIDUAL, true, false, 0, buf, count, type);
    }

    public Status writeAll(Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_write_all", Position.INDIVIDUAL, true, true, 0, buf, count, type);
    }

    public Request iRead(Buffer buf, int count, Datatype type) throws MPIException {
        return begin("MPI_File_iread", Position.INDIVIDUAL, false, false, 0, buf, count, type);
    }

    public Request iReadAll(Buffer buf, int count, Datatype type) throws MPIException {
        return begin("MPI_File_iread_all", Position.INDIVIDUAL, false, true, 0, buf, count, type);
    }

    public Request iWrite(Buffer buf, int count, Datatype type) throws MPIException {
        return begin("MPI_File_iwrite", Position.INDIVIDUAL, true, false, 0, buf, count, type);
    }

    public Request iWriteAll(Buffer buf, int count, Datatype type) throws MPIException {
        return begin("MPI_File_iwrite_all", Position.INDIVIDUAL, true, true, 0, buf, count, type);
    }

    public Status readShared(Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_read_shared", Position.SHARED, false, false, 0, buf, count, type);
    }

    public Status writeShared(Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_write_shared", Position.SHARED, true, false, 0, buf, count, type);
    }

    public Request iReadShared(Buffer buf, int count, Datatype type) throws MPIException {
        return begin("MPI_File_iread_shared", Position.SHARED, false, false, 0, buf, count, type);
    }

    public Request iWriteShared(Buffer buf, int count, Datatype type) throws MPIException {
        return begin("MPI_File_iwrite_shared", Position.SHARED, true, false, 0, buf, count, type);
    }

    public Status readOrdered(Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_read_ordered", Position.ORDERED, false, true, 0, buf, count, type);
    }

    public Status writeOrdered(Object buf, int count, Datatype type) throws MPIException {
        return access("MPI_File_write_ordered", Position.ORDERED, true, true, 0, buf, count, type);
    }

    // MPI 4.0's large counts (MPI_File_read_at_c, ...): a long count, for more than 2^31 - 1 elements of a memory
    // segment; the status's getCountLong tells how many moved.

    /** MPI_File_read_at_c: {@link #readAt(long, Object, int, Datatype)} with a {@code long} count. */
    public Status readAt(long offset, Object buf, long count, Datatype type) throws MPIException {
        return access("MPI_File_read_at_c", Position.EXPLICIT, false, false, offset, buf, count, type);
    }

    /** MPI_File_read_at_all_c: {@link #readAtAll(long, Object, int, Datatype)} with a {@code long} count. */
    public Status readAtAll(long offset, Object buf, long count, Datatype type) throws MPIException {
        return access("MPI_File_read_at_all_c", Position.EXPLICIT, false, true, offset, buf, count, type);
    }

    /** MPI_File_write_at_c: {@link #writeAt(long, Object, int, Datatype)} with a {@code long} count. */
    public Status writeAt(long offset, Object buf, long count, Datatype type) throws MPIException {
        return access("MPI_File_write_at_c", Position.EXPLICIT, true, false, offset, buf, count, type);
    }

    /** MPI_File_write_at_all_c: {@link #writeAtAll(long, Object, int, Datatype)} with a {@code long} count. */
    public Status writeAtAll(long offset, Object buf, long count, Datatype type) throws MPIException {
        return access("MPI_File_write_at_all_c", Position.EXPLICIT, true, true, offset, buf, count, type);
    }

    /** MPI_File_read_c: {@link #read(Object, int, Datatype)} with a {@code long} count. */
    public Status read(Object buf, long count, Datatype type) throws MPIException {
        return access("MPI_File_read_c", Position.INDIVIDUAL, false, false, 0, buf, count, type);
    }

    /** MPI_File_read_all_c: {@link #readAll(Object, int, Datatype)} with a {@code long} count. */
    public Status readAll(Object buf, long count, Datatype type) throws MPIException {
        return access("MPI_File_read_all_c", Position.INDIVIDUAL, false, true, 0, buf, count, type);
    }

    /** MPI_File_write_c: {@link #write(Object, int, Datatype)} with a {@code long} count. */
    public Status write(Object buf, long count, Datatype type) throws MPIException {
        return access("MPI_File_write_c", Position.INDIVIDUAL, true, false, 0, buf, count, type);
    }

    /** MPI_File_write_all_c: {@link #writeAll(Object, int, Datatype)} with a {@code long} count. */
    public Status writeAll(Object buf, long count, Datatype type) throws MPIException {
        return access("MPI_File_write_all_c", Position.INDIVIDUAL, true, true, 0, buf, count, type);
    }

    /** MPI_File_read_shared_c: {@link #readShared(Object, int, Datatype)} with a {@code long} count. */
    public Status readShared(Object buf, long count, Datatype type) throws MPIException {
        return access("MPI_File_read_shared_c", Position.SHARED, false, false, 0, buf, count, type);
    }

    /** MPI_File_write_shared_c: {@link #writeShared(Object, int, Datatype)} with a {@code long} count. */
    public Status writeShared(Object buf, long count, Datatype type) throws MPIException {
        return access("MPI_File_write_shared_c", Position.SHARED, true, false, 0, buf, count, type);
    }

    /** MPI_File_read_ordered_c: {@link #readOrdered(Object, int, Datatype)} with a {@code long} count. */
    public Status readOrdered(Object buf, long count, Datatype type) throws MPIException {
        return access("MPI_File_read_ordered_c", Position.ORDERED, false, true, 0, buf, count, type);
    }

    /** MPI_File_write_ordered_c: {@link #writeOrdered(Object, int, Datatype)} with a {@code long} count. */
    public Status writeOrdered(Object buf, long count, Datatype type) throws MPIException {
        return access("MPI_File_write_ordered_c", Position.ORDERED, true, true, 0, buf, count, type);
    }

    // The non-blocking ones with a long count take any buffer (a memory segment for more than 2^31 - 1 elements).

    /** MPI_File_iread_at_c: {@link #iReadAt(long, Buffer, int, Datatype)} with a {@code long} count. */
    public Request iReadAt(long offset, Object buf, long count, Datatype type) throws MPIException {
        return begin("MPI_File_iread_at_c", Position.EXPLICIT, false, false, offset, buf, count, type);
    }

    /** MPI_File_iread_at_all_c: {@link #iReadAtAll(long, Buffer, int, Datatype)} with a {@code long} count. */
    public Request iReadAtAll(long offset, Object buf, long count, Datatype type) throws MPIException {
        return begin("MPI_File_iread_at_all_c", Position.EXPLICIT, false, true, offset, buf, count, type);
    }

    /** MPI_File_iwrite_at_c: {@link #iWriteAt(long, Buffer, int, Datatype)} with a {@code long} count. */
    public Request iWriteAt(long offset, Object buf, long count, Datatype type) throws MPIException {
        return begin("MPI_File_iwrite_at_c", Position.EXPLICIT, true, false, offset, buf, count, type);
    }

    /** MPI_File_iwrite_at_all_c: {@link #iWriteAtAll(long, Buffer, int, Datatype)} with a {@code long} count. */
    public Request iWriteAtAll(long offset, Object buf, long count, Datatype type) throws MPIException {
        return begin("MPI_File_iwrite_at_all_c", Position.EXPLICIT, true, true, offset, buf, count, type);
    }

    /** MPI_File_iread_c: {@link #iRead(Buffer, int, Datatype)} with a {@code long} count. */
    public Request iRead(Object buf, long count, Datatype type) throws MPIException {
        return begin("MPI_File_iread_c", Position.INDIVIDUAL, false, false, 0, buf, count, type);
    }

    /** MPI_File_iread_all_c: {@link #iReadAll(Buffer, int, Datatype)} with a {@code long} count. */
    public Request iReadAll(Object buf, long count, Datatype type) throws MPIException {
        return begin("MPI_File_iread_all_c", Position.INDIVIDUAL, false, true, 0, buf, count, type);
    }

    /** MPI_File_iwrite_c: {@link #iWrite(Buffer, int, Datatype)} with a {@code long} count. */
    public Request iWrite(Object buf, long count, Datatype type) throws MPIException {
        return begin("MPI_File_iwrite_c", Position.INDIVIDUAL, true, false, 0, buf, count, type);
    }

    /** MPI_File_iwrite_all_c: {@link #iWriteAll(Buffer, int, Datatype)} with a {@code long} count. */
    public Request iWriteAll(Object buf, long count, Datatype type) throws MPIException {
        return begin("MPI_File_iwrite_all_c", Position.INDIVIDUAL, true, true, 0, buf, count, type);
    }

    /** MPI_File_iread_shared_c: {@link #iReadShared(Buffer, int, Datatype)} with a {@code long} count. */
    public Request iReadShared(Object buf, long count, Datatype type) throws MPIException {
        return begin("MPI_File_iread_shared_c", Position.SHARED, false, false, 0, buf, count, type);
    }

    /** MPI_File_iwrite_shared_c: {@link #iWriteShared(Buffer, int, Datatype)} with a {@code long} count. */
    public Request iWriteShared(Object buf, long count, Datatype type) throws MPIException {
        return begin("MPI_File_iwrite_shared_c", Position.SHARED, true, false, 0, buf, count, type);
    }

    public void seek(long offset, int whence) throws MPIException {
        try {
            live();
            impl.seek(offset, whence);
        } catch (MpiError e) {
            throw fail("MPI_File_seek", e);
        }
    }

    public long getPosition() throws MPIException {
        try {
            live();
            return impl.position();
        } catch (MpiError e) {
            throw fail("MPI_File_get_position", e);
        }
    }

    public long getByteOffset(long offset) throws MPIException {
        try {
            live();
            return impl.byteOffset(offset);
        } catch (MpiError e) {
            throw fail("MPI_File_get_byte_offset", e);
        }
    }

    public void seekShared(long offset, int whence) throws MPIException {
        try {
            live();
            impl.seekShared(offset, whence);
        } catch (MpiError e) {
            throw fail("MPI_File_seek_shared", e);
        }
    }

    public long getPositionShared() throws MPIException {
        try {
            live();
            return impl.sharedPosition();
        } catch (MpiError e) {
            throw fail("MPI_File_get_position_shared", e);
        }
    }

    public void readAtAllBegin(long offset, Object buf, int count, Datatype type) throws MPIException {
        splitBegin("MPI_File_read_at_all_begin", Position.EXPLICIT, false, offset, buf, count, type);
    }

    public Status readAtAllEnd(Object buf) throws MPIException {
        return splitEnd("MPI_File_read_at_all_end");
    }

    public void writeAtAllBegin(long offset, Object buf, int count, Datatype type) throws MPIException {
        splitBegin("MPI_File_write_at_all_begin", Position.EXPLICIT, true, offset, buf, count, type);
    }

    public Status writeAtAllEnd(Object buf) throws MPIException {
        return splitEnd("MPI_File_write_at_all_end");
    }

    public void readAllBegin(Object buf, int count, Datatype type) throws MPIException {
        splitBegin("MPI_File_read_all_begin", Position.INDIVIDUAL, false, 0, buf, count, type);
    }

    public Status readAllEnd(Object buf) throws MPIException {
        return splitEnd("MPI_File_read_all_end");
    }

    public void writeAllBegin(Object buf, int count, Datatype type) throws MPIException {
        splitBegin("MPI_File_write_all_begin", Position.INDIVIDUAL, true, 0, buf, count, type);
    }

    public Status writeAllEnd(Object buf) throws MPIException {
        return splitEnd("MPI_File_write_all_end");
    }

    public void readOrderedBegin(Object buf, int count, Datatype type) throws MPIException {
        splitBegin("MPI_File_read_ordered_begin", Position.ORDERED, false, 0, buf, count, type);
    }

    public Status readOrderedEnd(Object buf) throws MPIException {
        return splitEnd("MPI_File_read_ordered_end");
    }

    public void writeOrderedBegin(Object buf, int count, Datatype type) throws MPIException {
        splitBegin("MPI_File_write_ordered_begin", Position.ORDERED, true, 0, buf, count, type);
    }

    public Status writeOrderedEnd(Object buf) throws MPIException {
        return splitEnd("MPI_File_write_ordered_end");
    }

    public int getTypeExtent(Datatype type) throws MPIException {
        try {
            live();
            Comm.checkType(type);
            long extent = type.desc.extent();
            if (extent > Integer.MAX_VALUE) {
                throw new MpiError(ErrorClass.ERR_TYPE, "the extent " + extent + " does not fit an int");
            }
            return (int) extent;
        } catch (MpiError e) {
            throw fail("MPI_File_get_type_extent", e);
        }
    }

    public void setAtomicity(boolean atomicity) throws MPIException {
        try {
            live();
            impl.setAtomicity(atomicity);
        } catch (MpiError e) {
            throw fail("MPI_File_set_atomicity", e);
        }
    }

    public boolean getAtomicity() throws MPIException {
        try {
            live();
            return impl.atomicity();
        } catch (MpiError e) {
            throw fail("MPI_File_get_atomicity", e);
        }
    }

    public void sync() throws MPIException {
        try {
            live();
            impl.sync();
        } catch (MpiError e) {
            throw fail("MPI_File_sync", e);
        }
    }

    public void setErrhandler(Errhandler errhandler) throws MPIException {
        try {
            JmpiRuntime.get();
            if (errhandler == null) {
                throw new MpiError(ErrorClass.ERR_ARG, "null error handler");
            }
            this.errhandler = errhandler;
        } catch (MpiError e) {
            throw fail("MPI_File_set_errhandler", e);
        }
    }

    public Errhandler getErrhandler() throws MPIException {
        try {
            JmpiRuntime.get();
            return errhandler;
        } catch (MpiError e) {
            throw fail("MPI_File_get_errhandler", e);
        }
    }

    /**
     * Invokes the file's error handler with {@code errorCode}: under {@code MPI.ERRORS_RETURN} this returns normally
     * (the handler does nothing, as in C); under a fatal handler the job ends.
     */
    public void callErrhandler(int errorCode) throws MPIException {
        try {
            JmpiRuntime.get();
        } catch (MpiError e) {
            throw fail("MPI_File_call_errhandler", e);
        }
        if (errhandler == MPI.ERRORS_RETURN) {
            return;
        }
        throw fail("MPI_File_call_errhandler",
                new MpiError(errorCode, "error raised by the application (code " + errorCode + ")"));
    }
}
