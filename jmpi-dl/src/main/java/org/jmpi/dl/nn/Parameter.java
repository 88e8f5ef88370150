package org.jmpi.dl.nn;

import java.util.Objects;

/**
 * A named tensor of a model: its values and the gradients of the loss with respect to them, two plain arrays of the
 * same length that live as long as the model. Back-propagation overwrites {@link #gradients()} in place on each
 * step, so a distributed trainer may replace them in place with their average across ranks before the optimiser
 * reads them; {@link #values()} is changed in place by the optimiser (or by a broadcast of the initial values).
 */
public final class Parameter {
    private final String name;
    private final int rows;
    private final int columns;
    private final float[] values;
    private final float[] gradients;

    /**
     * A zero tensor of {@code rows x columns} floats (a vector has one row).
     *
     * @param name    unique within its model, e.g. {@code "fc1.weight"}
     * @param rows    number of rows, at least 1
     * @param columns number of columns, at least 1
     */
    public Parameter(String name, int rows, int columns) {
        this.name = Objects.requireNonNull(name, "name");
        if (rows < 1 || columns < 1 || (long) rows * columns > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException(name + ": bad shape " + rows + " x " + columns);
        }
        this.rows = rows;
        this.columns = columns;
        this.values = new float[rows * columns];
        this.gradients = new float[rows * columns];
    }

    /** @return the name, unique within the model */
    public String name() {
        return name;
    }

    /** @return the number of rows (1 for a vector) */
    public int rows() {
        return rows;
    }

    /** @return the number of columns; element {@code (r, c)} is at index {@code r * columns() + c} */
    public int columns() {
        return columns;
    }

    /** @return the number of elements, {@code rows() * columns()} */
    public int size() {
        return values.length;
    }

    /** @return the values themselves (not a copy), in row-major order */
    public float[] values() {
        return values;
    }

    /** @return the gradients themselves (not a copy), same length and order as {@link #values()} */
    public float[] gradients() {
        return gradients;
    }

    @Override
    public String toString() {
        return name + (rows == 1 ? "[" + columns + "]" : "[" + rows + " x " + columns + "]");
    }
}
