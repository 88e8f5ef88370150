package mpi;

import java.nio.Buffer;

/** An MPI-IO file opened collectively by the processes of a communicator. */
public final class File {
    /** The view set by the last {@link #setView} call. */
    private FileView view = new FileView(0, MPI.BYTE, MPI.BYTE, "native");

    @NotImplemented
    public File(Comm comm, String filename, int amode) throws MPIException {
        throw Unsupported.of("File(Comm, String, int)");
    }

    @NotImplemented
    public File(Comm comm, String filename, int amode, Info info) throws MPIException {
        throw Unsupported.of("File(Comm, String, int, Info)");
    }

    @NotImplemented
    public void close() throws MPIException {
        throw Unsupported.of("File.close()");
    }

    @NotImplemented
    public static void delete(String filename) throws MPIException {
        throw Unsupported.of("File.delete(String)");
    }

    @NotImplemented
    public static void delete(String filename, Info info) throws MPIException {
        throw Unsupported.of("File.delete(String, Info)");
    }

    @NotImplemented
    public void setSize(long size) throws MPIException {
        throw Unsupported.of("File.setSize(long)");
    }

    @NotImplemented
    public void preallocate(long size) throws MPIException {
        throw Unsupported.of("File.preallocate(long)");
    }

    @NotImplemented
    public long getSize() throws MPIException {
        throw Unsupported.of("File.getSize()");
    }

    @NotImplemented
    public Group getGroup() throws MPIException {
        throw Unsupported.of("File.getGroup()");
    }

    @NotImplemented
    public int getAMode() throws MPIException {
        throw Unsupported.of("File.getAMode()");
    }

    @NotImplemented
    public void setInfo(Info info) throws MPIException {
        throw Unsupported.of("File.setInfo(Info)");
    }

    @NotImplemented
    public Info getInfo() throws MPIException {
        throw Unsupported.of("File.getInfo()");
    }

    @NotImplemented
    public void setView(long disp, Datatype etype, Datatype filetype, String datarep) throws MPIException {
        throw Unsupported.of("File.setView(long, Datatype, Datatype, String)");
    }

    @NotImplemented
    public void setView(long disp, Datatype etype, Datatype filetype, String datarep, Info info) throws MPIException {
        throw Unsupported.of("File.setView(long, Datatype, Datatype, String, Info)");
    }

    public FileView getView() {
        return view;
    }

    @NotImplemented
    public Status readAt(long offset, Object buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.readAt(long, Object, int, Datatype)");
    }

    @NotImplemented
    public Status readAtAll(long offset, Object buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.readAtAll(long, Object, int, Datatype)");
    }

    @NotImplemented
    public Status writeAt(long offset, Object buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.writeAt(long, Object, int, Datatype)");
    }

    @NotImplemented
    public Status writeAtAll(long offset, Object buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.writeAtAll(long, Object, int, Datatype)");
    }

    @NotImplemented
    public Request iReadAt(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.iReadAt(long, Buffer, int, Datatype)");
    }

    @NotImplemented
    public Request iReadAtAll(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.iReadAtAll(long, Buffer, int, Datatype)");
    }

    @NotImplemented
    public Request iWriteAt(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.iWriteAt(long, Buffer, int, Datatype)");
    }

    @NotImplemented
    public Request iWriteAtAll(long offset, Buffer buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.iWriteAtAll(long, Buffer, int, Datatype)");
    }

    @NotImplemented
    public Status read(Object buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.read(Object, int, Datatype)");
    }

    @NotImplemented
    public Status readAll(Object buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.readAll(Object, int, Datatype)");
    }

    @NotImplemented
    public Status write(Object buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.write(Object, int, Datatype)");
    }

    @NotImplemented
    public Status writeAll(Object buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.writeAll(Object, int, Datatype)");
    }

    @NotImplemented
    public Request iRead(Buffer buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.iRead(Buffer, int, Datatype)");
    }

    @NotImplemented
    public Request iReadAll(Buffer buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.iReadAll(Buffer, int, Datatype)");
    }

    @NotImplemented
    public Request iWrite(Buffer buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.iWrite(Buffer, int, Datatype)");
    }

    @NotImplemented
    public Request iWriteAll(Buffer buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.iWriteAll(Buffer, int, Datatype)");
    }

    @NotImplemented
    public void seek(long offset, int whence) throws MPIException {
        throw Unsupported.of("File.seek(long, int)");
    }

    @NotImplemented
    public long getPosition() throws MPIException {
        throw Unsupported.of("File.getPosition()");
    }

    @NotImplemented
    public long getByteOffset(long offset) throws MPIException {
        throw Unsupported.of("File.getByteOffset(long)");
    }

    @NotImplemented
    public Status readShared(Object buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.readShared(Object, int, Datatype)");
    }

    @NotImplemented
    public Status writeShared(Object buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.writeShared(Object, int, Datatype)");
    }

    @NotImplemented
    public Request iReadShared(Buffer buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.iReadShared(Buffer, int, Datatype)");
    }

    @NotImplemented
    public Request iWriteShared(Buffer buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.iWriteShared(Buffer, int, Datatype)");
    }

    @NotImplemented
    public Status readOrdered(Object buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.readOrdered(Object, int, Datatype)");
    }

    @NotImplemented
    public Status writeOrdered(Object buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.writeOrdered(Object, int, Datatype)");
    }

    @NotImplemented
    public void seekShared(long offset, int whence) throws MPIException {
        throw Unsupported.of("File.seekShared(long, int)");
    }

    @NotImplemented
    public long getPositionShared() throws MPIException {
        throw Unsupported.of("File.getPositionShared()");
    }

    @NotImplemented
    public void readAtAllBegin(long offset, Object buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.readAtAllBegin(long, Object, int, Datatype)");
    }

    @NotImplemented
    public Status readAtAllEnd(Object buf) throws MPIException {
        throw Unsupported.of("File.readAtAllEnd(Object)");
    }

    @NotImplemented
    public void writeAtAllBegin(long offset, Object buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.writeAtAllBegin(long, Object, int, Datatype)");
    }

    @NotImplemented
    public Status writeAtAllEnd(Object buf) throws MPIException {
        throw Unsupported.of("File.writeAtAllEnd(Object)");
    }

    @NotImplemented
    public void readAllBegin(Object buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.readAllBegin(Object, int, Datatype)");
    }

    @NotImplemented
    public Status readAllEnd(Object buf) throws MPIException {
        throw Unsupported.of("File.readAllEnd(Object)");
    }

    @NotImplemented
    public void writeAllBegin(Object buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.writeAllBegin(Object, int, Datatype)");
    }

    @NotImplemented
    public Status writeAllEnd(Object buf) throws MPIException {
        throw Unsupported.of("File.writeAllEnd(Object)");
    }

    @NotImplemented
    public void readOrderedBegin(Object buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.readOrderedBegin(Object, int, Datatype)");
    }

    @NotImplemented
    public Status readOrderedEnd(Object buf) throws MPIException {
        throw Unsupported.of("File.readOrderedEnd(Object)");
    }

    @NotImplemented
    public void writeOrderedBegin(Object buf, int count, Datatype type) throws MPIException {
        throw Unsupported.of("File.writeOrderedBegin(Object, int, Datatype)");
    }

    @NotImplemented
    public Status writeOrderedEnd(Object buf) throws MPIException {
        throw Unsupported.of("File.writeOrderedEnd(Object)");
    }

    @NotImplemented
    public int getTypeExtent(Datatype type) throws MPIException {
        throw Unsupported.of("File.getTypeExtent(Datatype)");
    }

    @NotImplemented
    public void setAtomicity(boolean atomicity) throws MPIException {
        throw Unsupported.of("File.setAtomicity(boolean)");
    }

    @NotImplemented
    public boolean getAtomicity() throws MPIException {
        throw Unsupported.of("File.getAtomicity()");
    }

    @NotImplemented
    public void sync() throws MPIException {
        throw Unsupported.of("File.sync()");
    }

    @NotImplemented
    public void setErrhandler(Errhandler errhandler) throws MPIException {
        throw Unsupported.of("File.setErrhandler(Errhandler)");
    }

    @NotImplemented
    public Errhandler getErrhandler() throws MPIException {
        throw Unsupported.of("File.getErrhandler()");
    }

    @NotImplemented
    public void callErrhandler(int errorCode) throws MPIException {
        throw Unsupported.of("File.callErrhandler(int)");
    }
}
