package org.jmpi.dl.data;

import java.util.Arrays;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Labelled images held as two plain arrays: {@code images} has {@code size * pixels} floats, image {@code k} at
 * {@code [k * pixels, (k + 1) * pixels)} in row-major order, and {@code labels} has {@code size} class numbers in
 * {@code [0, classes)}. The arrays are shared, not copied: callers must not modify them.
 *
 * @param images  the pixels of all images, one after the other
 * @param labels  the class of each image
 * @param pixels  the number of floats per image (784 for 28 x 28)
 * @param classes the number of classes (10)
 */
public record Dataset(float[] images, int[] labels, int pixels, int classes) {
    /** Checks the lengths agree and the labels are in range. */
    public Dataset {
        Objects.requireNonNull(images, "images");
        Objects.requireNonNull(labels, "labels");
        if (pixels <= 0 || classes <= 0) {
            throw new IllegalArgumentException("pixels and classes must be positive: " + pixels + ", " + classes);
        }
        if ((long) labels.length * pixels != images.length) {
            throw new IllegalArgumentException(
                    images.length + " pixels for " + labels.length + " labels of " + pixels + " pixels each");
        }
        for (int i = 0; i < labels.length; i++) {
            if (labels[i] < 0 || labels[i] >= classes) {
                throw new IllegalArgumentException("label " + labels[i] + " of image " + i + " not in [0, " + classes
                        + ")");
            }
        }
    }

    /** @return the number of images */
    public int size() {
        return labels.length;
    }

    /**
     * @param from first image, inclusive
     * @param to   last image, exclusive
     * @return a new data set with copies of images {@code [from, to)}
     */
    public Dataset slice(int from, int to) {
        Objects.checkFromToIndex(from, to, size());
        return new Dataset(Arrays.copyOfRange(images, from * pixels, to * pixels), Arrays.copyOfRange(labels, from, to),
                pixels, classes);
    }

    /** @return the number of images of each class, indexed by class */
    public int[] labelCounts() {
        int[] counts = new int[classes];
        for (int label : labels) {
            counts[label]++;
        }
        return counts;
    }

    /**
     * A permutation of the image numbers {@code 0 .. size() - 1} (Fisher-Yates), the same for the same seed.
     *
     * @param seed seed of the {@link SplittableRandom} that draws it
     * @return a new array holding each image number once
     */
    public int[] shuffledIndices(long seed) {
        int[] order = new int[size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = order.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        return order;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Dataset d && pixels == d.pixels && classes == d.classes
                && Arrays.equals(images, d.images) && Arrays.equals(labels, d.labels);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(labels) + Arrays.hashCode(images);
    }

    @Override
    public String toString() {
        return "Dataset[" + size() + " images of " + pixels + " pixels, " + classes + " classes]";
    }
}
