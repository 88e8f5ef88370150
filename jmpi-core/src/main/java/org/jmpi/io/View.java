package org.jmpi.io;

import java.lang.foreign.MemorySegment;
import org.jmpi.datatype.PlanData;
import org.jmpi.datatype.RunVisitor;
import org.jmpi.datatype.TypeDescriptor;
import org.jmpi.runtime.ErrorClass;
import org.jmpi.runtime.MpiError;

/**
 * A file view compiled for access: the displacement, the elementary type and the file type, tiled from the
 * displacement at one file-type extent per copy. The data bytes a rank sees form a stream (the "view stream");
 * view byte {@code v} lies in tile {@code v / size(filetype)} at packed position {@code v % size(filetype)} of that
 * tile, and the file type's {@link TypeDescriptor plan} tells which file byte that is. No second type engine: the
 * runs come from {@link PlanData#visitRuns}, the walk that packs messages, over a plan of the touched tiles placed
 * at their file offsets.
 *
 * <p>Threading: immutable, freely shared.
 */
final class View {
    final long disp;
    final TypeDescriptor etype;
    final TypeDescriptor filetype;
    /** Bytes of one etype. */
    final long etypeSize;
    private final long tileSize;
    private final long tileExtent;
    /** True when the view stream maps to the file byte for byte from {@code disp + lb}. */
    private final boolean contiguous;

    View(long disp, TypeDescriptor etype, TypeDescriptor filetype) {
        this.disp = disp;
        this.etype = etype;
        this.filetype = filetype;
        this.etypeSize = etype.size();
        this.tileSize = filetype.size();
        this.tileExtent = filetype.extent();
        this.contiguous = filetype.isContiguous();
    }

    /** The default view: displacement 0, bytes, the whole file. */
    static View bytes(TypeDescriptor byteType) {
        return new View(0, byteType, byteType);
    }

    /** The file offset of view byte {@code v} (where the data byte at that position of the stream lives). */
    long fileOffset(long v) {
        long[] out = {-1};
        runs(v, 1, (file, stream, len) -> out[0] = file);
        return out[0];
    }

    /**
     * Calls {@code out} with each contiguous file run behind view bytes {@code [v, v + length)}, in stream order:
     * {@code (file offset, position relative to v, length)}.
     *
     * @throws MpiError ERR_ARG when the range reaches past the largest file offset
     */
    void runs(long v, long length, RunVisitor out) {
        if (length <= 0) {
            return;
        }
        try {
            if (contiguous) {
                out.run(Math.addExact(Math.addExact(disp, filetype.lb()), v), 0, length);
                return;
            }
            long first = v / tileSize;
            long last = (Math.addExact(v, length) - 1) / tileSize;
            long origin = Math.addExact(disp, Math.multiplyExact(first, tileExtent));
            long skip = v - first * tileSize;
            PlanData tiles = new PlanData(MemorySegment.NULL, origin, filetype, last - first + 1);
            tiles.visitRuns(skip, length, (file, stream, len) -> out.run(file, stream - skip, len));
        } catch (ArithmeticException e) {
            throw new MpiError(ErrorClass.ERR_ARG, "the access reaches past the largest file offset");
        }
    }
}
