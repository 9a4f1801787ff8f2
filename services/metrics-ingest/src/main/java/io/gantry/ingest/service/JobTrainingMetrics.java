package io.gantry.ingest.service;

import io.gantry.events.JobProgress;
import io.gantry.events.LifecycleEvent;
import io.gantry.ingest.mapping.TrainingFigures;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code gantry_job_*} gauges: the last training figures each job reported in a {@code JobProgress}, labelled
 * {@code job_id} and {@code user} (the loss also {@code split}: {@code train}, {@code validation}).
 *
 * <p>The label is {@code job_id}, not {@code job}: Prometheus attaches its own {@code job} label (the scrape job) to
 * every scraped series and renames a clashing one to {@code exported_job}, so a {@code job} label would not reach a
 * query under its own name.
 *
 * <p>Cardinality is bounded: a job's series are removed {@code forgetAfter} after its terminal event, after
 * {@code forgetSilentAfter} without any event, and when more than {@code maxJobs} jobs have series the one that ended
 * (else last reported) longest ago is dropped first. A figure a job never reported has no series (never a made-up 0).
 */
public final class JobTrainingMetrics {

    public static final String PROGRESS = "gantry_job_progress";
    public static final String EPOCH = "gantry_job_epoch";
    public static final String LOSS = "gantry_job_loss";
    public static final String ACCURACY = "gantry_job_accuracy";
    public static final String SAMPLES_PER_SECOND = "gantry_job_samples_per_second";

    private final MeterRegistry registry;
    private final Duration forgetAfter;
    private final Duration forgetSilentAfter;
    private final int maxJobs;
    private final Clock clock;
    private final Map<String, JobSeries> jobs = new LinkedHashMap<>();

    public JobTrainingMetrics(MeterRegistry registry, Duration forgetAfter, Duration forgetSilentAfter, int maxJobs,
                              Clock clock) {
        if (maxJobs < 1) {
            throw new IllegalArgumentException("gantry.ingest.jobs.max-jobs must be at least 1, was " + maxJobs);
        }
        this.registry = registry;
        this.forgetAfter = forgetAfter;
        this.forgetSilentAfter = forgetSilentAfter;
        this.maxJobs = maxJobs;
        this.clock = clock;
    }

    /** Takes one lifecycle event: progress updates the job's gauges, a terminal event starts its forget timer. */
    public synchronized void on(LifecycleEvent event) {
        Instant now = clock.instant();
        if (event instanceof JobProgress p) {
            JobSeries s = jobs.get(p.jobId());
            if (s == null) {
                makeRoomForOneMore();
                s = new JobSeries(p.jobId(), p.user() == null ? "" : p.user());
                jobs.put(p.jobId(), s);
            }
            s.update(p, now);
        } else if (event.terminal()) {
            JobSeries s = jobs.get(event.jobId());
            if (s != null) {
                s.endedAt = now;
                s.lastEventAt = now;
            }
        }
    }

    /** Removes the series of jobs ended more than {@code forgetAfter} ago or silent for {@code forgetSilentAfter}. */
    public synchronized int sweep() {
        Instant now = clock.instant();
        List<JobSeries> gone = new ArrayList<>();
        for (JobSeries s : jobs.values()) {
            boolean ended = s.endedAt != null && !s.endedAt.plus(forgetAfter).isAfter(now);
            boolean silent = !s.lastEventAt.plus(forgetSilentAfter).isAfter(now);
            if (ended || silent) {
                gone.add(s);
            }
        }
        gone.forEach(this::forget);
        return gone.size();
    }

    /** Jobs that have series now. */
    public synchronized int trackedJobs() {
        return jobs.size();
    }

    private void makeRoomForOneMore() {
        while (jobs.size() >= maxJobs) {
            Optional<JobSeries> victim = jobs.values().stream().filter(s -> s.endedAt != null)
                    .min(Comparator.comparing(s -> s.endedAt));
            forget(victim.orElseGet(() -> jobs.values().stream()
                    .min(Comparator.comparing(s -> s.lastEventAt)).orElseThrow()));
        }
    }

    private void forget(JobSeries s) {
        jobs.remove(s.jobId);
        s.meters.forEach(registry::remove);
        s.meters.clear();
    }

    /** One job's last figures and the gauges that read them. */
    private final class JobSeries {
        final String jobId;
        final Tags tags;
        final List<Meter> meters = new ArrayList<>();
        final Figure progress = new Figure(PROGRESS,
                "Fraction of the job's training done (0..1), as the job last reported it", Tags.empty());
        final Figure epoch = new Figure(EPOCH, "Epoch the job last reported", Tags.empty());
        final Figure trainLoss = new Figure(LOSS, "Loss the job last reported, by split", Tags.of("split", "train"));
        final Figure validationLoss = new Figure(LOSS, "Loss the job last reported, by split",
                Tags.of("split", "validation"));
        final Figure accuracy = new Figure(ACCURACY, "Validation accuracy the job last reported (0..1)", Tags.empty());
        final Figure samplesPerSecond = new Figure(SAMPLES_PER_SECOND, "Training throughput the job last reported",
                Tags.empty());
        Instant lastEventAt;
        Instant endedAt;

        JobSeries(String jobId, String user) {
            this.jobId = jobId;
            this.tags = Tags.of("job_id", jobId, "user", user);
        }

        void update(JobProgress p, Instant now) {
            lastEventAt = now;
            endedAt = null; // a new attempt after a preemption reports again
            set(progress, p.progress());
            set(epoch, p.epoch() == null ? null : p.epoch().doubleValue());
            set(trainLoss, TrainingFigures.trainLoss(p));
            set(validationLoss, TrainingFigures.validationLoss(p));
            set(accuracy, TrainingFigures.accuracy(p));
            set(samplesPerSecond, p.samplesPerSecond());
        }

        /** Keeps a reported figure; its gauge is registered with its first value, so an unreported one has none. */
        private void set(Figure f, Double value) {
            if (value == null) {
                return;
            }
            f.value = value;
            if (!f.registered) {
                f.registered = true;
                meters.add(Gauge.builder(f.name, f, x -> x.value).description(f.help).tags(tags.and(f.extra))
                        .strongReference(true).register(registry));
            }
        }
    }

    /** One gauge of a job: its name, help and extra labels, and the value it reads. */
    private static final class Figure {
        final String name;
        final String help;
        final Tags extra;
        volatile double value = Double.NaN;
        boolean registered;

        Figure(String name, String help, Tags extra) {
            this.name = name;
            this.help = help;
            this.extra = extra;
        }
    }
}
