package io.gantry.scheduling.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.trace.NodeShape;
import io.gantry.scheduling.trace.SharedTraces;
import io.gantry.scheduling.trace.TraceFormat;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The learned duration predictor on the real Philly trace (September–October 2017), asked as a scheduler asks. */
class LearnedDurationPredictorTest {

    private static List<JobRequest> philly;
    /** October 1: September's jobs teach, October's are scored. */
    private static double october;

    @BeforeAll
    static void load() throws IOException {
        philly = PredictionAccuracy.bySubmit(TraceFormat.PHILLY.loader()
                .load(SharedTraces.tracesDir().resolve("philly-pollux/philly-sep-oct.csv"), NodeShape.ALIBABA_G2).jobs());
        october = philly.get(5657).submitTime(); // the first of the 5,657 September jobs is at index 0
    }

    /** Predictions of jobs in submit order, each job's run time reported when it would end (submit + run time). */
    private static List<Double> predictions(DurationPredictor p, List<JobRequest> jobs) {
        return java.util.Arrays.stream(PredictionAccuracy.predictions(jobs, p)).boxed().toList();
    }

    /** Until it has learned from {@value LearnedDurationPredictor#WARM_UP} jobs it answers as the history predictor. */
    @Test
    void answersAsTheHistoryPredictorUntilWarm() {
        LearnedDurationPredictor learned = new LearnedDurationPredictor();
        List<Double> a = predictions(learned, philly.subList(0, 400));
        List<Double> b = predictions(new HistoryDurationPredictor(), philly.subList(0, 400));
        int cold = 0;
        for (int i = 0; i < a.size() && cold == i; i++) {
            if (a.get(i).equals(b.get(i))) {
                cold++;
            }
        }
        assertTrue(cold > 200, "identical for the first " + cold + " jobs");
        assertTrue(learned.observed() >= LearnedDurationPredictor.WARM_UP, "learned from " + learned.observed());
        assertTrue(!a.equals(b), "after warm-up it learns its own answers");
    }

    /** A prediction reads only the past: the same jobs give the same predictions whether or not later jobs follow. */
    @Test
    void aPredictionDoesNotDependOnLaterJobs() {
        List<Double> prefix = predictions(new LearnedDurationPredictor(), philly.subList(0, 3000));
        List<Double> whole = predictions(new LearnedDurationPredictor(), philly.subList(0, 6000));
        assertEquals(prefix, whole.subList(0, 3000));
    }

    /**
     * Taught by September and then October as it ends, it predicts October's log run times better than the history
     * predictor it starts from (the ablation against its untrained prior); both measured in this run on the same jobs.
     */
    @Test
    void predictsOctoberBetterInLogErrorThanTheHistoryPredictor() {
        PredictionAccuracy.Result history = PredictionAccuracy.measure(philly, new HistoryDurationPredictor(), october, 1);
        PredictionAccuracy.Result learned = PredictionAccuracy.measure(philly, new LearnedDurationPredictor(), october, 1);
        assertEquals(philly.size() - 5657, learned.predicted());
        assertTrue(learned.maeLog() < 0.95 * history.maeLog(), learned + " vs " + history);
        PredictionAccuracy.Result oracle = PredictionAccuracy.measure(philly, new OracleDurationPredictor(), october, 1);
        assertEquals(0.0, oracle.maeLog());
        assertEquals(1.0, oracle.pairOrder());
    }
}
