package org.jmpi.io;

import java.util.Arrays;

/**
 * The file runs behind one access, in stream order: run {@code i} is {@code length[i]} bytes at file offset
 * {@code file[i]}, holding stream bytes {@code [stream[i], stream[i] + length[i])} of the user's data. Adjacent
 * runs that continue each other in the file are merged. {@link #sorted} tells whether file offsets only grow (MPI
 * requires that of a file type; two-phase I/O relies on it).
 *
 * <p>Threading: built and used by one thread.
 */
final class FileRuns {
    long[] file = new long[8];
    long[] stream = new long[8];
    long[] length = new long[8];
    int count;
    boolean sorted = true;

    /** The runs behind view bytes {@code [v, v + bytes)}. */
    static FileRuns of(View view, long v, long bytes) {
        FileRuns r = new FileRuns();
        view.runs(v, bytes, r::add);
        return r;
    }

    void add(long fileOffset, long streamOffset, long len) {
        if (len == 0) {
            return;
        }
        if (count > 0) {
            int l = count - 1;
            if (file[l] + length[l] == fileOffset && stream[l] + length[l] == streamOffset) {
                length[l] += len;
                return;
            }
            if (fileOffset < file[l] + length[l]) {
                sorted = false;
            }
        }
        if (count == file.length) {
            file = Arrays.copyOf(file, count * 2);
            stream = Arrays.copyOf(stream, count * 2);
            length = Arrays.copyOf(length, count * 2);
        }
        file[count] = fileOffset;
        stream[count] = streamOffset;
        length[count] = len;
        count++;
    }

    /** Lowest file offset touched (runs sorted), or 0 when empty. */
    long start() {
        if (count == 0) {
            return 0;
        }
        if (sorted) {
            return file[0];
        }
        long m = Long.MAX_VALUE;
        for (int i = 0; i < count; i++) {
            m = Math.min(m, file[i]);
        }
        return m;
    }

    /** One past the highest file offset touched, or 0 when empty. */
    long end() {
        if (count == 0) {
            return 0;
        }
        if (sorted) {
            return file[count - 1] + length[count - 1];
        }
        long m = 0;
        for (int i = 0; i < count; i++) {
            m = Math.max(m, file[i] + length[i]);
        }
        return m;
    }

    /**
     * Drops what lies at or past {@code eof} and everything after it in stream order (a read stops at the end of
     * the file).
     *
     * @return the stream bytes left (what the read can deliver)
     */
    long clipTo(long eof) {
        for (int i = 0; i < count; i++) {
            if (file[i] + length[i] > eof) {
                length[i] = Math.max(0, eof - file[i]);
                long delivered = stream[i] + length[i];
                count = length[i] == 0 ? i : i + 1;
                return delivered;
            }
        }
        return count == 0 ? 0 : stream[count - 1] + length[count - 1];
    }
}
