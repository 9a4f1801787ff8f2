package io.gantry.studio.mapping;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import io.gantry.events.EventCodec;
import io.gantry.events.JobProgress;
import io.gantry.events.JobResult;
import io.gantry.events.TuningChange;
import io.gantry.studio.persistence.ProgressPoint;
import io.gantry.studio.persistence.Run;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** Lifecycle events to what the studio keeps of them, and stored runs to what the REST API shows. */
public final class RunViews {

    /** One point of a run's curves. */
    public record ProgressView(Integer epoch, Long step, double progress, Double trainLoss, Double validationLoss,
                               Double validationAccuracy, Double samplesPerSecond, Instant occurredAt) {
    }

    /** What the runner measured at the end: test accuracy and loss, the confusion matrix and the resources used. */
    public record ResultView(double testAccuracy, double testLoss, int[][] confusionMatrix,
                             Integer targetReachedAtEpoch, int epochsRun, long peakRssBytes, double cpuSeconds,
                             double wallSeconds, double meanSamplesPerSecond) {
    }

    /** A state change as the run's event stream sends it. */
    public record StateView(String state, String reason) {
    }

    private static final TypeReference<List<TuningChange>> CHANGES = new TypeReference<>() {
    };

    private RunViews() {
    }

    public static ProgressPoint point(JobProgress p) {
        ProgressPoint pt = new ProgressPoint();
        pt.jobId = p.jobId();
        pt.eventId = p.eventId();
        pt.epoch = p.epoch();
        pt.step = p.step();
        pt.progress = p.progress();
        pt.trainLoss = p.trainLoss() != null ? p.trainLoss() : p.loss();
        pt.validationLoss = p.validationLoss();
        pt.validationAccuracy = p.validationAccuracy() != null ? p.validationAccuracy() : p.accuracy();
        pt.samplesPerSecond = p.samplesPerSecond();
        pt.occurredAt = p.occurredAt();
        return pt;
    }

    public static ProgressView view(ProgressPoint p) {
        return new ProgressView(p.epoch, p.step, p.progress, p.trainLoss, p.validationLoss, p.validationAccuracy,
                p.samplesPerSecond, p.occurredAt);
    }

    public static ResultView result(JobResult r) {
        return new ResultView(r.testAccuracy(), r.testLoss(), r.confusionMatrix(), r.targetReachedEpoch(),
                r.epochsRun(), r.peakRssBytes(), r.cpuSeconds(), r.wallSeconds(), r.meanSamplesPerSecond());
    }

    public static ResultView result(Run r) {
        return r.resultJson == null ? null : read(r.resultJson, ResultView.class);
    }

    public static List<TuningChange> tuning(Run r) {
        if (r.tuningJson == null) {
            return List.of();
        }
        try {
            return EventCodec.mapper().readValue(r.tuningJson, CHANGES);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("run " + r.jobId + ": unreadable tuning column", e);
        }
    }

    /**
     * Seconds left, from the share of the run done ({@code progress}) and the time since it started; null before the
     * first progress report.
     */
    public static Double etaSeconds(Run r, ProgressPoint last, Instant now) {
        if (last == null || r.startedAt == null || last.progress <= 0 || RunStates.ended(r.state)) {
            return null;
        }
        double elapsed = Duration.between(r.startedAt, now).toMillis() / 1000.0;
        return Math.max(0, elapsed * (1 - last.progress) / last.progress);
    }

    public static String json(Object value) {
        try {
            return EventCodec.mapper().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName(), e);
        }
    }

    public static <T> T read(String json, Class<T> type) {
        try {
            return EventCodec.mapper().readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable " + type.getSimpleName() + " column", e);
        }
    }
}
