package org.jmpi.io;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The hints of an open file (MPI info keys, ROMIO's names). Honoured: {@code cb_buffer_size},
 * {@code cb_nodes}, {@code romio_cb_read}, {@code romio_cb_write}, {@code romio_ds_read},
 * {@code romio_ds_write}, {@code ind_rd_buffer_size}, {@code ind_wr_buffer_size}, {@code striping_unit} (aligns
 * the file domains of two-phase I/O). Every other key, and a value that does not parse, is ignored, as MPI allows;
 * {@link #asMap()} lists the values in force, so {@code getInfo} shows what was taken.
 *
 * <p>Threading: immutable.
 */
record Hints(long cbBufferSize, int cbNodes, Switch cbRead, Switch cbWrite, Switch dsRead, Switch dsWrite,
        long indRdBufferSize, long indWrBufferSize, long stripingUnit) {

    /** A hint's three states, as ROMIO spells them. */
    enum Switch {
        ENABLE,
        DISABLE,
        AUTOMATIC;

        String text() {
            return name().toLowerCase(Locale.ROOT);
        }

        static Switch parse(String s, Switch dflt) {
            if (s == null) {
                return dflt;
            }
            return switch (s.trim().toLowerCase(Locale.ROOT)) {
                case "enable", "true" -> ENABLE;
                case "disable", "false" -> DISABLE;
                case "automatic" -> AUTOMATIC;
                default -> dflt;
            };
        }
    }

    static final long DEFAULT_CB_BUFFER = 16L << 20;
    static final long DEFAULT_IND_RD_BUFFER = 4L << 20;
    static final long DEFAULT_IND_WR_BUFFER = 512L << 10;

    /** The defaults for a file opened by {@code size} processes. */
    static Hints defaults(int size) {
        return new Hints(DEFAULT_CB_BUFFER, size, Switch.AUTOMATIC, Switch.AUTOMATIC, Switch.AUTOMATIC,
                Switch.AUTOMATIC, DEFAULT_IND_RD_BUFFER, DEFAULT_IND_WR_BUFFER, 0);
    }

    /** These hints with the keys of {@code info} applied (null or unknown keys change nothing). */
    Hints with(Map<String, String> info, int size) {
        if (info == null) {
            return this;
        }
        return new Hints(
                positive(info.get("cb_buffer_size"), cbBufferSize, 1L << 40),
                (int) Math.min(size, positive(info.get("cb_nodes"), cbNodes, size)),
                Switch.parse(info.get("romio_cb_read"), cbRead),
                Switch.parse(info.get("romio_cb_write"), cbWrite),
                Switch.parse(info.get("romio_ds_read"), dsRead),
                Switch.parse(info.get("romio_ds_write"), dsWrite),
                positive(info.get("ind_rd_buffer_size"), indRdBufferSize, 1L << 31),
                positive(info.get("ind_wr_buffer_size"), indWrBufferSize, 1L << 31),
                positive(info.get("striping_unit"), stripingUnit, 1L << 40));
    }

    private static long positive(String s, long dflt, long max) {
        if (s == null) {
            return dflt;
        }
        try {
            long v = Long.parseLong(s.trim());
            return v > 0 && v <= max ? v : dflt;
        } catch (NumberFormatException e) {
            return dflt;
        }
    }

    /** The hints in force, as info keys and values. */
    Map<String, String> asMap() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("cb_buffer_size", Long.toString(cbBufferSize));
        m.put("cb_nodes", Integer.toString(cbNodes));
        m.put("romio_cb_read", cbRead.text());
        m.put("romio_cb_write", cbWrite.text());
        m.put("romio_ds_read", dsRead.text());
        m.put("romio_ds_write", dsWrite.text());
        m.put("ind_rd_buffer_size", Long.toString(indRdBufferSize));
        m.put("ind_wr_buffer_size", Long.toString(indWrBufferSize));
        if (stripingUnit > 0) {
            m.put("striping_unit", Long.toString(stripingUnit));
        }
        return m;
    }
}
