package mpi;

/** A file view: displacement, elementary type, file type and data representation, as set by {@link File#setView}. */
public final class FileView {
    private final long disp;
    private final Datatype etype;
    private final Datatype filetype;
    private final String datarep;

    /** Creates a view description. */
    public FileView(long disp, Datatype etype, Datatype filetype, String datarep) {
        this.disp = disp;
        this.etype = etype;
        this.filetype = filetype;
        this.datarep = datarep;
    }

    /** The displacement in bytes from the start of the file. */
    public long getDisp() {
        return disp;
    }

    /** The elementary datatype. */
    public Datatype getEType() {
        return etype;
    }

    /** The file type. */
    public Datatype getFileType() {
        return filetype;
    }

    /** The data representation, e.g. {@code "native"}. */
    public String getDataRep() {
        return datarep;
    }
}
