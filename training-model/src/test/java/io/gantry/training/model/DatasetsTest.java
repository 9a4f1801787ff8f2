package io.gantry.training.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DatasetsTest {

    @Test
    void everyDatasetSplitsStratifiedAndTheSameWayEachTime() {
        int[][] sizes = {{1797, 10}, {150, 3}, {178, 3}, {569, 2}};
        for (int i = 0; i < Datasets.ALL.size(); i++) {
            Datasets.Info info = Datasets.ALL.get(i);
            Datasets.Loaded a = Datasets.load(SharedDatasets.dir(), info.name());
            assertEquals(sizes[i][0], a.train().size() + a.validation().size() + a.test().size(), info.name());
            assertEquals(sizes[i][1], a.classNames().size());
            int[] perClass = new int[info.classes()];
            for (int y : a.test().y()) {
                perClass[y]++;
            }
            for (int c : perClass) {
                assertTrue(c >= 1, info.name() + ": every class is in the test split");
            }
            Datasets.Loaded b = Datasets.load(SharedDatasets.dir(), info.name());
            assertArrayEquals(a.test().y(), b.test().y());
            assertArrayEquals(a.train().x()[0], b.train().x()[0]);
        }
        Datasets.Loaded iris = Datasets.load(SharedDatasets.dir(), "iris");
        assertEquals(102, iris.train().size());
        assertEquals(24, iris.validation().size());
        assertEquals(24, iris.test().size());
        double mean = 0;
        for (float[] x : iris.train().x()) {
            mean += x[0];
        }
        assertEquals(0.0, mean / iris.train().size(), 1e-5, "standardised on the training split");
        float max = 0;
        for (float[] x : Datasets.load(SharedDatasets.dir(), "digits").train().x()) {
            for (float v : x) {
                max = Math.max(max, v);
            }
        }
        assertEquals(1.0f, max, "digits scaled to [0, 1]");
    }
}
