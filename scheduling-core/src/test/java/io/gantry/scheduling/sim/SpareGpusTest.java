package io.gantry.scheduling.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.model.Resources;
import org.junit.jupiter.api.Test;

/** Free GPUs handed out within one re-tune: what one job takes, the next cannot count on. */
class SpareGpusTest {

    private static JobRequest gang(int tasks, int gpusEach) {
        return new JobRequest("j", "u", tasks, Resources.ofGpus(gpusEach, 8, 32), 0, 0, Double.NaN, 100);
    }

    @Test
    void whatOneJobTakesIsGoneForTheNext() {
        SpareGpus spare = new SpareGpus(false, new int[] {2, 1});
        assertEquals(3, spare.free());
        assertTrue(spare.fits(gang(3, 1)));
        assertTrue(spare.take(gang(2, 1)));
        assertEquals(1, spare.free());
        assertFalse(spare.fits(gang(2, 1)));
        assertFalse(spare.take(gang(2, 1)), "a gang that does not fit takes nothing");
        assertEquals(1, spare.free());
    }

    @Test
    void aTaskNeedsItsGpusOnOneNode() {
        SpareGpus spare = new SpareGpus(false, new int[] {1, 1});
        assertFalse(spare.fits(gang(1, 2)), "two free GPUs on two nodes do not hold a 2-GPU task");
        assertTrue(spare.fits(gang(2, 1)));
    }

    @Test
    void waitingGangsTakeWhatTheyFitIntoAndTheRestIsUnmet() {
        SpareGpus spare = SpareGpus.withWaiting(java.util.List.of(gang(1, 2), gang(1, 4), gang(2, 1)), new int[] {2, 1, 1});
        assertTrue(spare.jobsWaiting());
        assertEquals(4, spare.unmetGpus(), "the 4-GPU task fits nowhere; the 2-GPU one and the two 1-GPU ones fit");
        assertEquals(0, spare.free());
        SpareGpus none = SpareGpus.withWaiting(java.util.List.of(), new int[] {2});
        assertFalse(none.jobsWaiting());
        assertEquals(0, none.unmetGpus());
        assertEquals(2, none.free());
    }
}
