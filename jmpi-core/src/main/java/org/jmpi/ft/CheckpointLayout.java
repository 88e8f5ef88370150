package org.jmpi.ft;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The on-disk layout of checkpoints: directory and file names, the binary part file of each rank and the text manifest
 * that makes a generation complete. No other class computes a name or an offset.
 *
 * <pre>
 * PREFIX/                                 the checkpoint directory (jmpirun -ckpoint-prefix)
 *   generation-N/                         one directory per generation, N = 0, 1, 2, ... (decimal)
 *     rank-R.part                         rank R's part: written as rank-R.part.tmp, fsynced, renamed
 *     manifest                            written last, by rank 0: manifest.tmp, fsync, rename, fsync of the directory
 *   .jmpi-probe-TOKEN                     while Checkpoint.open runs: rank 0's probe that every rank must see
 *
 * Part file, little-endian:
 *   +0    8  magic "JMPICKPT"
 *   +8    4  layout version (1)
 *   +12   4  rank
 *   +16   4  ranks (size of the communicator that wrote it)
 *   +20   4  item count
 *   +24   8  generation
 *   +32      items, one after the other:
 *            +0      4  name length L (UTF-8 bytes, 1..1024)
 *            +4      L  name, UTF-8
 *            +4+L    1  type code (ItemType: 1 BYTES, 2 SHORTS, 3 CHARS, 4 INTS, 5 LONGS, 6 FLOATS, 7 DOUBLES,
 *                       8 BUFFER, 9 OBJECT)
 *            +5+L    8  count: elements of the type (bytes for BUFFER and OBJECT)
 *            +13+L      count * elementBytes bytes of data (elements little-endian; an OBJECT in Java serialisation)
 *
 * Manifest, UTF-8 text, one record per line, fields separated by one space (an item's name is the rest of its line):
 *   jmpi-checkpoint 1
 *   generation 7
 *   ranks 4
 *   time 2026-11-22T10:00:00.123Z
 *   part 0 1048620 8d3f00aa               rank, size in bytes, CRC32C of the whole part (8 hex digits); one per rank
 *   item 0 DOUBLES 131072 rows            rank, type, count, name; one per registered item of each rank
 *   end 1c2d3e4f                          CRC32C of every byte before this line
 * </pre>
 *
 * <p>A generation is <em>complete</em> when its manifest exists, parses, and every part has the size and checksum the
 * manifest gives. Anything else (no manifest: the job died while writing; a missing, short or changed part) is a
 * partial generation, which is never loaded.
 */
final class CheckpointLayout {
    private CheckpointLayout() {}

    static final String GENERATION_PREFIX = "generation-";
    static final String MANIFEST = "manifest";
    static final String TEMPORARY_SUFFIX = ".tmp";
    static final String PROBE_PREFIX = ".jmpi-probe-";

    static final byte[] MAGIC = "JMPICKPT".getBytes(StandardCharsets.US_ASCII);
    static final int VERSION = 1;
    static final int OFF_MAGIC = 0;
    static final int OFF_VERSION = 8;
    static final int OFF_RANK = 12;
    static final int OFF_RANKS = 16;
    static final int OFF_ITEM_COUNT = 20;
    static final int OFF_GENERATION = 24;
    static final int HEADER_BYTES = 32;
    /** Item header: name length, name, type code, count. */
    static final int ITEM_FIXED_BYTES = 4 + 1 + 8;
    static final int MAX_NAME_BYTES = 1024;
    static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    static final String MANIFEST_FIRST_LINE = "jmpi-checkpoint " + VERSION;
    /** A manifest larger than this is not one of ours. */
    static final long MAX_MANIFEST_BYTES = 256L << 20;

    static Path generationDirectory(Path prefix, long generation) {
        return prefix.resolve(GENERATION_PREFIX + generation);
    }

    static Path part(Path generationDirectory, int rank) {
        return generationDirectory.resolve("rank-" + rank + ".part");
    }

    static Path temporary(Path file) {
        return file.resolveSibling(file.getFileName() + TEMPORARY_SUFFIX);
    }

    static Path manifest(Path generationDirectory) {
        return generationDirectory.resolve(MANIFEST);
    }

    /** The generation a directory name stands for, or -1 when it is not a generation directory. */
    static long generationOf(String directoryName) {
        if (!directoryName.startsWith(GENERATION_PREFIX)) {
            return -1;
        }
        String digits = directoryName.substring(GENERATION_PREFIX.length());
        if (digits.isEmpty() || digits.length() > 18 || (digits.length() > 1 && digits.charAt(0) == '0')) {
            return -1;
        }
        for (int i = 0; i < digits.length(); i++) {
            if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
                return -1;
            }
        }
        return Long.parseLong(digits);
    }

    /** Every generation directory under {@code prefix}, newest (highest number) first. */
    static List<Long> generationDirectories(Path prefix) throws IOException {
        List<Long> found = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(prefix)) {
            for (Path p : s) {
                long g = generationOf(p.getFileName().toString());
                if (g >= 0 && Files.isDirectory(p)) {
                    found.add(g);
                }
            }
        }
        found.sort((a, b) -> Long.compare(b, a));
        return found;
    }

    /** Why {@code name} cannot name an item, or null when it can. */
    static String badName(String name) {
        if (name == null || name.isEmpty()) {
            return "an item needs a non-empty name";
        }
        if (name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
            return "item name '" + name.substring(0, 40) + "...' is longer than " + MAX_NAME_BYTES + " bytes";
        }
        for (int i = 0; i < name.length(); i++) {
            if (Character.isISOControl(name.charAt(i))) {
                return "item name '" + name.replaceAll("\\p{Cntrl}", "?") + "' contains a control character";
            }
        }
        return null;
    }

    /** The fixed header of a part file. */
    static ByteBuffer partHeader(int rank, int ranks, int items, long generation) {
        ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES).order(ORDER);
        b.put(OFF_MAGIC, MAGIC);
        b.putInt(OFF_VERSION, VERSION);
        b.putInt(OFF_RANK, rank);
        b.putInt(OFF_RANKS, ranks);
        b.putInt(OFF_ITEM_COUNT, items);
        b.putLong(OFF_GENERATION, generation);
        return b;
    }

    /** The header of one item: name length, name, type code, count. */
    static ByteBuffer itemHeader(String name, ItemType type, long count) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(ITEM_FIXED_BYTES + n.length).order(ORDER);
        b.putInt(n.length).put(n).put(type.code()).putLong(count);
        return b.flip();
    }

    /** What a manifest says about one registered item of one rank. */
    record ItemInfo(String name, ItemType type, long count) {}

    /**
     * A parsed manifest.
     *
     * @param sizes part size in bytes, by rank
     * @param checksums CRC32C of each part, by rank
     * @param items the items of each rank, in the order they were registered
     */
    record Manifest(long generation, int ranks, Instant time, long[] sizes, int[] checksums,
            List<List<ItemInfo>> items) {

        /** The manifest's text, with its closing checksum line. */
        byte[] encode() {
            StringBuilder sb = new StringBuilder(256 + 64 * ranks);
            sb.append(MANIFEST_FIRST_LINE).append('\n');
            sb.append("generation ").append(generation).append('\n');
            sb.append("ranks ").append(ranks).append('\n');
            sb.append("time ").append(time).append('\n');
            for (int r = 0; r < ranks; r++) {
                sb.append("part ").append(r).append(' ').append(sizes[r]).append(' ')
                        .append(HexFormat.of().toHexDigits(checksums[r])).append('\n');
            }
            for (int r = 0; r < ranks; r++) {
                for (ItemInfo i : items.get(r)) {
                    sb.append("item ").append(r).append(' ').append(i.type().name()).append(' ').append(i.count())
                            .append(' ').append(i.name()).append('\n');
                }
            }
            byte[] body = sb.toString().getBytes(StandardCharsets.UTF_8);
            CRC32C crc = new CRC32C();
            crc.update(body);
            byte[] end = ("end " + HexFormat.of().toHexDigits((int) crc.getValue()) + "\n")
                    .getBytes(StandardCharsets.UTF_8);
            byte[] all = new byte[body.length + end.length];
            System.arraycopy(body, 0, all, 0, body.length);
            System.arraycopy(end, 0, all, body.length, end.length);
            return all;
        }

        /** Parses a manifest's bytes; throws with the reason when they are not a complete, intact manifest. */
        static Manifest parse(byte[] bytes) throws BadCheckpointException {
            if (bytes.length == 0) {
                throw new BadCheckpointException("the manifest is empty");
            }
            int endLine = lastLineStart(bytes);
            String last = new String(bytes, endLine, bytes.length - endLine, StandardCharsets.UTF_8);
            if (!last.startsWith("end ") || !last.endsWith("\n")) {
                throw new BadCheckpointException("the manifest is cut short (no end line)");
            }
            CRC32C crc = new CRC32C();
            crc.update(bytes, 0, endLine);
            int expected = parseHex(last.substring(4, last.length() - 1), "the manifest's end line");
            if ((int) crc.getValue() != expected) {
                throw new BadCheckpointException("the manifest's checksum does not match its contents");
            }
            String[] lines = new String(bytes, 0, endLine, StandardCharsets.UTF_8).split("\n", -1);
            // the text ends with '\n', so the last element is empty
            if (lines.length < 5 || !lines[0].equals(MANIFEST_FIRST_LINE)) {
                throw new BadCheckpointException("not a jmpi checkpoint manifest of layout version " + VERSION);
            }
            long generation = parseLong(field(lines[1], "generation"), "generation");
            long ranksL = parseLong(field(lines[2], "ranks"), "ranks");
            if (ranksL < 1 || ranksL > 1 << 24) {
                throw new BadCheckpointException("the manifest gives " + ranksL + " ranks");
            }
            int ranks = (int) ranksL;
            Instant time;
            try {
                time = Instant.parse(field(lines[3], "time"));
            } catch (DateTimeParseException e) {
                throw new BadCheckpointException("the manifest's time is not a time: " + lines[3]);
            }
            long[] sizes = new long[ranks];
            int[] crcs = new int[ranks];
            boolean[] seen = new boolean[ranks];
            List<List<ItemInfo>> items = new ArrayList<>(ranks);
            for (int r = 0; r < ranks; r++) {
                items.add(new ArrayList<>());
            }
            for (int i = 4; i < lines.length - 1; i++) {
                String line = lines[i];
                if (line.startsWith("part ")) {
                    String[] f = line.split(" ", -1);
                    if (f.length != 4) {
                        throw new BadCheckpointException("bad manifest line: " + line);
                    }
                    int r = rankField(f[1], ranks, line);
                    if (seen[r]) {
                        throw new BadCheckpointException("the manifest lists rank " + r + "'s part twice");
                    }
                    seen[r] = true;
                    sizes[r] = parseLong(f[2], "part size");
                    crcs[r] = parseHex(f[3], line);
                } else if (line.startsWith("item ")) {
                    String[] f = line.split(" ", 5);
                    if (f.length != 5) {
                        throw new BadCheckpointException("bad manifest line: " + line);
                    }
                    int r = rankField(f[1], ranks, line);
                    ItemType t;
                    try {
                        t = ItemType.valueOf(f[2]);
                    } catch (IllegalArgumentException e) {
                        throw new BadCheckpointException("unknown item type in manifest line: " + line);
                    }
                    items.get(r).add(new ItemInfo(f[4], t, parseLong(f[3], "item count")));
                } else {
                    throw new BadCheckpointException("bad manifest line: " + line);
                }
            }
            for (int r = 0; r < ranks; r++) {
                if (!seen[r]) {
                    throw new BadCheckpointException("the manifest lists no part for rank " + r);
                }
            }
            return new Manifest(generation, ranks, time, sizes, crcs, items);
        }

        private static int lastLineStart(byte[] b) {
            int i = b.length - 2; // skip the final newline
            while (i >= 0 && b[i] != '\n') {
                i--;
            }
            return i + 1;
        }

        private static String field(String line, String key) throws BadCheckpointException {
            if (!line.startsWith(key + " ")) {
                throw new BadCheckpointException("the manifest has no " + key + " line where expected: " + line);
            }
            return line.substring(key.length() + 1);
        }

        private static int rankField(String s, int ranks, String line) throws BadCheckpointException {
            long r = parseLong(s, "rank");
            if (r < 0 || r >= ranks) {
                throw new BadCheckpointException("rank out of range in manifest line: " + line);
            }
            return (int) r;
        }

        private static long parseLong(String s, String what) throws BadCheckpointException {
            try {
                long v = Long.parseLong(s);
                if (v < 0) {
                    throw new NumberFormatException();
                }
                return v;
            } catch (NumberFormatException e) {
                throw new BadCheckpointException("the manifest's " + what + " is not a number: " + s);
            }
        }

        private static int parseHex(String s, String where) throws BadCheckpointException {
            if (s.length() != 8) {
                throw new BadCheckpointException("bad checksum in " + where);
            }
            try {
                return HexFormat.fromHexDigits(s);
            } catch (IllegalArgumentException e) {
                throw new BadCheckpointException("bad checksum in " + where);
            }
        }
    }

    /** A checkpoint (or part of one) that is not what it should be; the message says what is wrong. */
    static final class BadCheckpointException extends Exception {
        private static final long serialVersionUID = 1L;

        BadCheckpointException(String message) {
            super(message);
        }

        BadCheckpointException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
