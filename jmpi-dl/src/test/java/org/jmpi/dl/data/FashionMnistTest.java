package org.jmpi.dl.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FashionMnistTest {
    private static final String ABSENT = "Fashion-MNIST is not installed in " + FashionMnist.defaultDirectory()
            + " (apt-get install dataset-fashion-mnist, or set JMPI_DL_DATA): test skipped";

    @Test
    void readsTheTrainingSet() throws IOException {
        org.jmpi.dl.data.RequireDataset.check();
        Dataset train = FashionMnist.train();
        assertThat(train.size()).isEqualTo(60_000);
        assertThat(train.images()).hasSize(60_000 * 784);
        assertThat(train.labelCounts()).containsOnly(6_000);
        assertPixelsInRange(train);
    }

    @Test
    void readsTheTestSet() throws IOException {
        org.jmpi.dl.data.RequireDataset.check();
        Dataset test = FashionMnist.test();
        assertThat(test.size()).isEqualTo(10_000);
        assertThat(test.labelCounts()).containsOnly(1_000);
        assertPixelsInRange(test);
        // The first test image is an ankle boot, as in every Fashion-MNIST tutorial.
        assertThat(test.labels()[0]).isEqualTo(9);
        Dataset slice = test.slice(10, 20);
        assertThat(slice.size()).isEqualTo(10);
        assertThat(slice.images()[0]).isEqualTo(test.images()[10 * 784]);
        assertThat(slice.labels()[9]).isEqualTo(test.labels()[19]);
    }

    private static void assertPixelsInRange(Dataset set) {
        float min = Float.MAX_VALUE;
        float max = -Float.MAX_VALUE;
        for (float p : set.images()) {
            min = Math.min(min, p);
            max = Math.max(max, p);
        }
        assertThat(min).isEqualTo(0f);
        assertThat(max).isEqualTo(1f);
    }

    @Test
    void readsSmallValidFiles(@TempDir Path dir) throws IOException {
        byte[] pixels = new byte[3 * 784];
        pixels[0] = (byte) 255;
        pixels[784 + 5] = (byte) 51;
        write(dir.resolve("t10k-images-idx3-ubyte.gz"), images(3, 28, 28, pixels));
        write(dir.resolve("t10k-labels-idx1-ubyte.gz"), labels(new byte[] {9, 0, 3}));
        Dataset set = FashionMnist.load(dir, false);
        assertThat(set.size()).isEqualTo(3);
        assertThat(set.labels()).containsExactly(9, 0, 3);
        assertThat(set.images()[0]).isEqualTo(1f);
        assertThat(set.images()[784 + 5]).isEqualTo(0.2f);
        assertThat(set.images()[1]).isZero();
    }

    @Test
    void namesTheDirectoryAndThePackageWhenAFileIsMissing(@TempDir Path dir) throws IOException {
        write(dir.resolve("train-images-idx3-ubyte.gz"), images(1, 28, 28, new byte[784]));
        assertThatThrownBy(() -> FashionMnist.load(dir, true))
                .isInstanceOf(DatasetMissingException.class)
                .hasMessageContaining(dir.toAbsolutePath().toString())
                .hasMessageContaining("train-labels-idx1-ubyte.gz")
                .hasMessageNotContaining("train-images")
                .hasMessageContaining("apt-get install dataset-fashion-mnist")
                .hasMessageContaining("JMPI_DL_DATA")
                .satisfies(e -> assertThat(((DatasetMissingException) e).directory()).isEqualTo(dir));
        assertThat(FashionMnist.available(dir)).isFalse();
    }

    @Test
    void rejectsABadMagicNumber(@TempDir Path dir) throws IOException {
        write(dir.resolve("t10k-images-idx3-ubyte.gz"), images(1, 28, 28, new byte[784]));
        // An images header where the labels file should be.
        write(dir.resolve("t10k-labels-idx1-ubyte.gz"), images(1, 28, 28, new byte[784]));
        assertThatThrownBy(() -> FashionMnist.load(dir, false))
                .isInstanceOf(IOException.class)
                .isNotInstanceOf(DatasetMissingException.class)
                .hasMessageContaining("t10k-labels-idx1-ubyte.gz")
                .hasMessageContaining("bad magic number 0x00000803, expected 0x00000801");
    }

    @Test
    void rejectsTruncatedOrMismatchedFiles(@TempDir Path dir) throws IOException {
        write(dir.resolve("t10k-labels-idx1-ubyte.gz"), labels(new byte[] {1, 2}));
        Path imagesFile = dir.resolve("t10k-images-idx3-ubyte.gz");
        write(imagesFile, images(2, 28, 28, new byte[784 + 100]));
        assertThatThrownBy(() -> FashionMnist.load(dir, false))
                .hasMessageContaining(imagesFile.toString())
                .hasMessageContaining("truncated, 884 of 1568 data bytes");
        write(imagesFile, images(3, 28, 28, new byte[3 * 784]));
        assertThatThrownBy(() -> FashionMnist.load(dir, false))
                .hasMessageContaining("holds 3 items, expected 2");
        write(imagesFile, images(2, 32, 32, new byte[2 * 1024]));
        assertThatThrownBy(() -> FashionMnist.load(dir, false))
                .hasMessageContaining("images of 32 x 32 pixels");
        Files.write(imagesFile, new byte[] {0, 0, 8, 3, 0, 0, 0, 2});
        assertThatThrownBy(() -> FashionMnist.load(dir, false))
                .hasMessageContaining(imagesFile.toString())
                .hasMessageContaining("not a valid gzip file");
        write(imagesFile, images(2, 28, 28, new byte[2 * 784]));
        write(dir.resolve("t10k-labels-idx1-ubyte.gz"), labels(new byte[] {1, 10}));
        assertThatThrownBy(() -> FashionMnist.load(dir, false))
                .hasMessageContaining("label 10 of item 1");
    }

    private static byte[] images(int count, int rows, int columns, byte[] pixels) {
        return ByteBuffer.allocate(16 + pixels.length).putInt(0x803).putInt(count).putInt(rows).putInt(columns)
                .put(pixels).array();
    }

    private static byte[] labels(byte[] labels) {
        return ByteBuffer.allocate(8 + labels.length).putInt(0x801).putInt(labels.length).put(labels).array();
    }

    private static void write(Path file, byte[] content) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = new GZIPOutputStream(bytes)) {
            out.write(content);
        }
        Files.write(file, bytes.toByteArray());
    }
}
