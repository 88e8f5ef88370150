/**
 * Training data for the examples and tests of jmpi-dl: {@link org.jmpi.dl.data.FashionMnist} reads the gzipped IDX
 * files of the Debian package {@code dataset-fashion-mnist} into a {@link org.jmpi.dl.data.Dataset} (pixels scaled to
 * [0, 1], labels 0 to 9); {@link org.jmpi.dl.data.DatasetMissingException} says how to install the files when they
 * are not there.
 *
 * <p>May import: the JDK only.
 */
package org.jmpi.dl.data;
