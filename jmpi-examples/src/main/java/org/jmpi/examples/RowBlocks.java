package org.jmpi.examples;

/**
 * A block partition of consecutive rows among ranks, as a row-split stencil code uses it: {@code rows} rows starting
 * at row {@code base}, split into {@code parts} blocks whose sizes differ by at most one (the first
 * {@code rows % parts} blocks get one more). Used by {@link Jacobi}; a program that re-partitions after a restart with
 * another number of ranks (or after losing ranks) computes the new blocks with the same rules.
 */
public final class RowBlocks {
    private RowBlocks() {}

    /** The rows {@code [first, first + count)} of one part. */
    public record Block(int first, int count) {
        /** One past the last row. */
        public int end() {
            return first + count;
        }

        /** Whether row {@code row} is in this block. */
        public boolean contains(int row) {
            return row >= first && row < end();
        }
    }

    /** Part {@code part} of {@code rows} rows from row {@code base} split into {@code parts} blocks. */
    public static Block of(int base, int rows, int parts, int part) {
        if (rows < 0 || parts < 1 || part < 0 || part >= parts) {
            throw new IllegalArgumentException("part " + part + " of " + parts + " of " + rows + " rows");
        }
        int q = rows / parts;
        int r = rows % parts;
        int first = base + part * q + Math.min(part, r);
        return new Block(first, q + (part < r ? 1 : 0));
    }

    /** The part that holds row {@code row}. */
    public static int owner(int base, int rows, int parts, int row) {
        if (row < base || row >= base + rows) {
            throw new IllegalArgumentException("row " + row + " is not in [" + base + ", " + (base + rows) + ")");
        }
        int q = rows / parts;
        int r = rows % parts;
        int i = row - base;
        // the first r parts have q + 1 rows
        return i < r * (q + 1) ? i / (q + 1) : r + (i - r * (q + 1)) / q;
    }
}
