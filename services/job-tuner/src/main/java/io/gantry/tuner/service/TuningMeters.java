package io.gantry.tuner.service;

import io.gantry.events.TuningChange;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;

/**
 * The tuner's Prometheus metrics. Labels are bounded: field names outside the job's own top-level fields are counted
 * as {@code other}, so a producer sending odd field paths cannot grow the series without limit. GPU-seconds are
 * counted twice, as submitted and as queued, because a saving can be negative (a job given more GPUs may use more
 * GPU-seconds to finish sooner) and a counter cannot go down: saved = submitted − tuned, in PromQL.
 */
@ApplicationScoped
public class TuningMeters {

    static final Set<String> FIELDS = Set.of("type", "eventId", "schemaVersion", "occurredAt", "jobId", "user", "jobName",
            "model", "tasks", "perTask", "batchSize", "epochs", "durationS", "tuning", "gpus", "training");

    private final MeterRegistry registry;

    public TuningMeters(MeterRegistry registry, JobTuner tuner) {
        this.registry = registry;
        Gauge.builder("gantry.tuner.models", tuner, t -> t.models().size())
                .description("Models the tuner has a fitted profile for").register(registry);
        for (JobTuner.Outcome o : JobTuner.Outcome.values()) {
            jobs(o); // present at 0 from the start, so rate() and absence alerts work before the first job
        }
    }

    /** Counts a decision of the pipeline (previews are not jobs and are not counted). */
    public void record(JobTuner.Decision d) {
        jobs(d.outcome()).increment();
        if (d instanceof JobTuner.Rejected r) {
            rejected(r.event().field());
        } else if (d instanceof JobTuner.Tuned t) {
            for (TuningChange c : t.event().changes()) {
                Counter.builder("gantry.tuner.changes").description("Fields the tuner changed")
                        .tag("field", label(c.field())).register(registry).increment();
            }
            if (t.submittedGpuSeconds() != null && t.tunedGpuSeconds() != null) {
                gpuSeconds("submitted").increment(t.submittedGpuSeconds());
                gpuSeconds("tuned").increment(t.tunedGpuSeconds());
            }
        }
    }

    /** Counts a {@code JobRejected} sent for a submission that broke the event contract. */
    public void recordInvalid(String field) {
        jobs(JobTuner.Outcome.REJECTED).increment();
        rejected(field);
    }

    private Counter jobs(JobTuner.Outcome o) {
        return Counter.builder("gantry.tuner.jobs").description("Submitted jobs by what the tuner did with them")
                .tag("outcome", o.label()).register(registry);
    }

    private void rejected(String field) {
        Counter.builder("gantry.tuner.rejections").description("Rejected jobs by the (top-level) field at fault")
                .tag("field", label(field)).register(registry).increment();
    }

    private Counter gpuSeconds(String configuration) {
        return Counter.builder("gantry.tuner.predicted.gpu.seconds")
                .description("GPU-seconds the models predict for the jobs they can predict, as submitted and as queued")
                .tag("configuration", configuration).register(registry);
    }

    static String label(String field) {
        if (field == null) {
            return "other";
        }
        String top = field.split("[.\\[]", 2)[0];
        return FIELDS.contains(top) ? top : "other";
    }
}
