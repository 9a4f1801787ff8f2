package io.gantry.scheduling.sim;

import java.util.Arrays;

/** A growable array of doubles: the allocation time series has one point per change. */
final class DoubleSeries {
    private double[] values = new double[1024];
    private int size;

    void add(double v) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = v;
    }

    int size() {
        return size;
    }

    double last() {
        return values[size - 1];
    }

    double[] toArray() {
        return Arrays.copyOf(values, size);
    }
}
