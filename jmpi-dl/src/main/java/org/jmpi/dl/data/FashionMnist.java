package org.jmpi.dl.data;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Fashion-MNIST (Zalando's 28 x 28 grey-scale images of clothes in ten classes, 60,000 for training and 10,000 for
 * testing) read from the gzipped IDX files that the Debian package {@code dataset-fashion-mnist} installs in
 * {@value #PACKAGE_DIRECTORY}. The environment variable {@value #ENVIRONMENT_VARIABLE} names another directory holding
 * the same four files; {@link #load(Path, boolean)} takes one explicitly.
 *
 * <p>IDX: a big-endian header (magic number {@code 0x0000080N}, unsigned bytes with {@code N} dimensions, then
 * {@code N} 32-bit sizes) followed by the bytes. Images become floats in [0, 1] (byte / 255).
 */
public final class FashionMnist {
    /** Where {@code apt-get install dataset-fashion-mnist} puts the files. */
    public static final String PACKAGE_DIRECTORY = "/usr/share/datasets/fashion-mnist";
    /** The environment variable that overrides {@link #PACKAGE_DIRECTORY}. */
    public static final String ENVIRONMENT_VARIABLE = "JMPI_DL_DATA";
    /** Image height and width. */
    public static final int SIDE = 28;
    /** Pixels per image. */
    public static final int PIXELS = SIDE * SIDE;
    /** Number of classes. */
    public static final int CLASSES = 10;
    /** Names of the ten classes, indexed by label. */
    public static final List<String> CLASS_NAMES = List.of("T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
            "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot");

    private static final String TRAIN_IMAGES = "train-images-idx3-ubyte.gz";
    private static final String TRAIN_LABELS = "train-labels-idx1-ubyte.gz";
    private static final String TEST_IMAGES = "t10k-images-idx3-ubyte.gz";
    private static final String TEST_LABELS = "t10k-labels-idx1-ubyte.gz";
    private static final int IMAGES_MAGIC = 0x00000803;
    private static final int LABELS_MAGIC = 0x00000801;
    private static final float[] SCALE = new float[256];

    static {
        for (int i = 0; i < SCALE.length; i++) {
            SCALE[i] = i / 255f;
        }
    }

    private FashionMnist() {
    }

    /**
     * @return {@value #ENVIRONMENT_VARIABLE} when it is set and not blank, else {@value #PACKAGE_DIRECTORY}
     */
    public static Path defaultDirectory() {
        String override = System.getenv(ENVIRONMENT_VARIABLE);
        return Path.of(override != null && !override.isBlank() ? override.strip() : PACKAGE_DIRECTORY);
    }

    /** @return whether all four files are readable in {@link #defaultDirectory()} (their content is not checked) */
    public static boolean available() {
        return available(defaultDirectory());
    }

    /**
     * @param directory a directory
     * @return whether all four files are readable there (their content is not checked)
     */
    public static boolean available(Path directory) {
        for (String name : List.of(TRAIN_IMAGES, TRAIN_LABELS, TEST_IMAGES, TEST_LABELS)) {
            Path file = directory.resolve(name);
            if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
                return false;
            }
        }
        return true;
    }

    /**
     * @return the 60,000 training images from {@link #defaultDirectory()}
     * @throws DatasetMissingException when the files are not there
     * @throws IOException             when they cannot be read or are not valid IDX files
     */
    public static Dataset train() throws IOException {
        return load(defaultDirectory(), true);
    }

    /**
     * @return the 10,000 test images from {@link #defaultDirectory()}
     * @throws DatasetMissingException when the files are not there
     * @throws IOException             when they cannot be read or are not valid IDX files
     */
    public static Dataset test() throws IOException {
        return load(defaultDirectory(), false);
    }

    /**
     * Reads one of the two sets.
     *
     * @param directory the directory holding the gzipped IDX files
     * @param train     true for the training set, false for the test set
     * @return the images and labels
     * @throws DatasetMissingException when the images or the labels file is not there
     * @throws IOException             when a file cannot be read, is not gzip, is truncated, has a bad header, or the
     *                                 two files disagree
     */
    public static Dataset load(Path directory, boolean train) throws IOException {
        Path imagesFile = directory.resolve(train ? TRAIN_IMAGES : TEST_IMAGES);
        Path labelsFile = directory.resolve(train ? TRAIN_LABELS : TEST_LABELS);
        List<String> missing = new ArrayList<>();
        for (Path file : List.of(imagesFile, labelsFile)) {
            if (!Files.isRegularFile(file)) {
                missing.add(file.getFileName().toString());
            }
        }
        if (!missing.isEmpty()) {
            boolean fromEnvironment = System.getenv(ENVIRONMENT_VARIABLE) != null
                    && directory.equals(defaultDirectory());
            throw new DatasetMissingException(directory, "Fashion-MNIST " + (train ? "training" : "test")
                    + " set not found in " + directory.toAbsolutePath()
                    + (fromEnvironment ? " (from " + ENVIRONMENT_VARIABLE + ")" : "") + ": missing "
                    + String.join(", ", missing) + ". Install it with `apt-get install dataset-fashion-mnist` "
                    + "(files in " + PACKAGE_DIRECTORY + "), or set " + ENVIRONMENT_VARIABLE
                    + " to a directory holding the four gzipped IDX files");
        }
        byte[] labelBytes = readIdx(labelsFile, LABELS_MAGIC, -1);
        int count = labelBytes.length;
        byte[] pixelBytes = readIdx(imagesFile, IMAGES_MAGIC, count);
        int[] labels = new int[count];
        for (int i = 0; i < count; i++) {
            labels[i] = labelBytes[i] & 0xff;
            if (labels[i] >= CLASSES) {
                throw new IOException(labelsFile + ": label " + labels[i] + " of item " + i + " is not in [0, "
                        + CLASSES + ")");
            }
        }
        float[] images = new float[pixelBytes.length];
        for (int i = 0; i < images.length; i++) {
            images[i] = SCALE[pixelBytes[i] & 0xff];
        }
        return new Dataset(images, labels, PIXELS, CLASSES);
    }

    /**
     * Reads a gzipped IDX file of unsigned bytes: labels (1 dimension) or 28 x 28 images (3 dimensions).
     *
     * @param file          the file
     * @param magic         the expected magic number, which also gives the number of dimensions
     * @param expectedCount the number of items the file must hold, or -1 for any
     * @return the data bytes after the header
     */
    private static byte[] readIdx(Path file, int magic, int expectedCount) throws IOException {
        try (InputStream in = new BufferedInputStream(new GZIPInputStream(Files.newInputStream(file), 1 << 16),
                1 << 16)) {
            int dimensions = magic & 0xff;
            byte[] header = in.readNBytes(4 * (1 + dimensions));
            if (header.length < 4) {
                throw new IOException(file + ": truncated header (" + header.length + " bytes, an IDX file starts with "
                        + "a 4-byte magic number)");
            }
            int found = intAt(header, 0);
            if (found != magic) {
                throw new IOException(file + ": bad magic number " + String.format("0x%08x", found) + ", expected "
                        + String.format("0x%08x", magic) + " (IDX, unsigned bytes, " + dimensions + " dimension"
                        + (dimensions == 1 ? "" : "s") + ")");
            }
            if (header.length < 4 * (1 + dimensions)) {
                throw new IOException(file + ": truncated header (" + header.length + " of " + 4 * (1 + dimensions)
                        + " bytes)");
            }
            int count = intAt(header, 4);
            if (count < 0 || expectedCount >= 0 && count != expectedCount) {
                throw new IOException(file + ": holds " + Integer.toUnsignedString(count) + " items, expected "
                        + (expectedCount >= 0 ? expectedCount + " (as many as the labels file)" : "a count >= 0"));
            }
            long itemBytes = 1;
            if (dimensions == 3) {
                int rows = intAt(header, 8);
                int columns = intAt(header, 12);
                if (rows != SIDE || columns != SIDE) {
                    throw new IOException(file + ": images of " + rows + " x " + columns + " pixels, expected " + SIDE
                            + " x " + SIDE);
                }
                itemBytes = PIXELS;
            }
            long length = count * itemBytes;
            if (length > Integer.MAX_VALUE - 16) {
                throw new IOException(file + ": " + count + " items are too many to hold in one array");
            }
            byte[] data = in.readNBytes((int) length);
            if (data.length < length) {
                throw new IOException(file + ": truncated, " + data.length + " of " + length + " data bytes ("
                        + count + " items in the header)");
            }
            if (in.read() >= 0) {
                throw new IOException(file + ": more data after the " + count + " items the header announces");
            }
            return data;
        } catch (EOFException | ZipException e) {
            throw new IOException(file + ": not a valid gzip file, or truncated (" + e.getMessage() + ")", e);
        }
    }

    private static int intAt(byte[] bytes, int offset) {
        return (bytes[offset] & 0xff) << 24 | (bytes[offset + 1] & 0xff) << 16 | (bytes[offset + 2] & 0xff) << 8
                | bytes[offset + 3] & 0xff;
    }
}
