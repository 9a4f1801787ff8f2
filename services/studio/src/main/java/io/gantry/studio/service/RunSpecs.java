package io.gantry.studio.service;

import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobSubmitted;
import io.gantry.events.ModelGraph;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.TrainingSpec;
import io.gantry.events.TrainingTarget;
import io.gantry.events.TuningOptions;
import io.gantry.events.Violation;
import io.gantry.studio.config.StudioConfig;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A run request as the runner's {@link TrainingSpec} inside a {@link JobSubmitted}, checked by the event contract and
 * the shape inference before anything is published; every broken rule is a {@link FieldError} naming the request's
 * field ({@code learningRate}, {@code target.value}, {@code graph.layers[2]} with its node, ...).
 */
public final class RunSpecs {

    /** The body of {@code POST /api/runs}; absent hyper-parameters take the defaults below. */
    public record Submit(Long graphId, Integer version, ModelGraph graph, String dataset, String optimizer,
                         Double learningRate, Integer batchSize, Integer epochs, Long seed, TrainingTarget target,
                         Boolean tune, String name) {
    }

    public static final String DEFAULT_OPTIMIZER = "adam";
    public static final double DEFAULT_LEARNING_RATE = 0.01;
    public static final int DEFAULT_BATCH_SIZE = 32;
    public static final int DEFAULT_EPOCHS = 10;
    public static final long DEFAULT_SEED = 1;

    private RunSpecs() {
    }

    /** The spec of {@code s} for {@code graph} on {@code dataset}; refuses an invalid graph or hyper-parameter. */
    public static TrainingSpec spec(Submit s, ModelGraph graph, String dataset) {
        return new TrainingSpec(graph, dataset, s.optimizer() == null ? DEFAULT_OPTIMIZER : s.optimizer(),
                s.learningRate() == null ? DEFAULT_LEARNING_RATE : s.learningRate(),
                s.batchSize() == null ? DEFAULT_BATCH_SIZE : s.batchSize(),
                s.epochs() == null ? DEFAULT_EPOCHS : s.epochs(), s.seed() == null ? DEFAULT_SEED : s.seed(),
                s.target());
    }

    private static final String JOB_ID_PREFIX = "studio-";

    /** A new job id for a studio run: {@code studio-} and 12 hex digits. */
    public static String newJobId() {
        return JOB_ID_PREFIX + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    /** False for a job the studio cannot have submitted (every run's id starts as {@link #newJobId} makes it). */
    public static boolean mayBeRun(String jobId) {
        return jobId.startsWith(JOB_ID_PREFIX);
    }

    /** The submission of {@code spec} by {@code user}; a {@link BadRequest} lists every rule it breaks. */
    public static JobSubmitted submission(String jobId, String user, String name, TrainingSpec spec, boolean tune,
                                          StudioConfig.Request request) {
        JobSubmitted job = new JobSubmitted(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), jobId, user,
                name, spec.modelKey(), 1, new ResourceAmounts(request.gpuMilli(), request.cpuMilli(),
                request.memoryMib()), null, null, null, new TuningOptions(tune, null, null, null), true, spec);
        List<FieldError> errors = new ArrayList<>();
        for (Violation v : job.violations()) {
            errors.add(FieldError.of(requestField(v.field()), v.reason()));
        }
        if (!errors.isEmpty()) {
            throw new BadRequest(errors);
        }
        return job;
    }

    /** {@code training.learningRate} → {@code learningRate}, {@code training.model.layers[1]} → {@code graph.layers[1]}. */
    static String requestField(String eventField) {
        if (eventField.startsWith("training.model")) {
            return GraphValidation.GRAPH + eventField.substring("training.model".length());
        }
        if (eventField.equals("jobName")) {
            return "name";
        }
        return eventField.startsWith("training.") ? eventField.substring("training.".length()) : eventField;
    }
}
