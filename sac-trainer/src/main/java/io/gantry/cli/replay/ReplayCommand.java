package io.gantry.cli.replay;

import io.gantry.cli.CommandOptions;
import io.gantry.cli.GantryCli;
import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.JobSubmitted;
import io.gantry.events.KafkaClientAuth;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.Topics;
import io.gantry.training.model.RealJobSet;
import io.gantry.scheduling.model.JobRequest;
import io.gantry.scheduling.trace.Trace;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Replays a trace into a running Gantry as any Kafka producer would: one {@code JobSubmitted} per job on
 * {@code gantry.jobs.submitted}, keyed by job id, at the trace's arrival times divided by the speed-up; then
 * follows {@code gantry.jobs.lifecycle} until every job has ended, with a live progress line.
 */
public final class ReplayCommand implements GantryCli.Command {

    @Override
    public String summary() {
        return "submit a trace's jobs to a running Gantry and report what became of them";
    }

    @Override
    public int run(String[] args) throws Exception {
        return CommandOptions.run("replay", ReplayOptions.USAGE, args, ReplayOptions::parse, System.out, System.err,
                this::replay);
    }

    private int replay(ReplayOptions o) throws Exception {
        Trace trace = o.trace().loader().load(o.file(), o.shape());
        List<JobRequest> jobs = new ArrayList<>(trace.jobs());
        jobs.sort(Comparator.comparingDouble(JobRequest::submitTime));
        jobs = slice(jobs, o.skip(), o.jobs(), o.wrap());
        if (jobs.isEmpty()) {
            System.err.println("gantry replay: no jobs in " + o.file());
            return 1;
        }
        System.err.printf(Locale.ROOT, "replaying %d jobs of %s at %.0fx (%d bad rows skipped)%n", jobs.size(),
                o.file(), o.speedup(), trace.badRows().size());

        List<Planned> plan = plan(jobs, o);
        if (o.realJobs() > 0) {
            System.err.printf(Locale.ROOT, "mixing in %d real training jobs (job-runner processes; seeds %d..%d)%n",
                    o.realJobs(), o.realSeed(), o.realSeed() + o.realJobs() - 1);
        }
        LifecycleTally tally = new LifecycleTally(o.speedup());
        ServiceEvents events = o.serviceEvents() != null ? ServiceEvents.following(o.serviceEvents()) : ServiceEvents.none();
        AtomicBoolean stop = new AtomicBoolean();
        Instant started = Instant.now();
        ProgressLine progress = new ProgressLine(tally, plan.size(), started, events, System.err);
        // Stopped (Ctrl-C, or ./gantry up stopping the run): the last news and line, then the summary as it stands.
        Thread printer = new Thread(() -> {
            progress.close();
            printSummary(o, tally, events, started);
        }, "replay-summary");
        Runtime.getRuntime().addShutdownHook(printer);
        KafkaClientAuth auth = KafkaClientAuth.fromEnvironment(System.getenv());
        try (KafkaConsumer<String, String> lifecycle = lifecycleConsumer(o.bootstrap(), auth);
             KafkaProducer<String, String> producer = producer(o.bootstrap(), auth)) {
            Thread follower = new Thread(() -> follow(lifecycle, tally, stop), "lifecycle-follower");
            follower.setDaemon(true);
            follower.start();
            progress.start();
            submit(plan, o, e -> producer.send(
                    new ProducerRecord<>(Topics.JOBS_SUBMITTED, e.key(), EventCodec.encode(e))), tally);
            producer.flush();
            long deadline = System.nanoTime() + (long) Math.min(o.timeoutS() * 1e9, Long.MAX_VALUE / 2);
            while (!(o.exitWhenDone() && tally.allDone()) && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            progress.close();
            stop.set(true);
            follower.join(5_000);
        }
        Runtime.getRuntime().removeShutdownHook(printer);
        printSummary(o, tally, events, started);
        return tally.allDone() ? 0 : 1;
    }

    /**
     * The {@code n} jobs after the first {@code skip} of {@code sorted} (in arrival order). With {@code wrap}, a trace
     * that runs out starts over (a soak runs longer than any trace lasts at its rate): pass k, from 2, replays the same
     * jobs as {@code <id>-passk}, one trace span later, so that no job id repeats.
     */
    static List<JobRequest> slice(List<JobRequest> sorted, int skip, int n, boolean wrap) {
        List<JobRequest> rest = sorted.subList(Math.min(skip, sorted.size()), sorted.size());
        if (!wrap || n <= rest.size() || rest.isEmpty()) {
            return rest.subList(0, Math.min(n, rest.size()));
        }
        double span = rest.get(rest.size() - 1).submitTime() - rest.get(0).submitTime() + 1;
        List<JobRequest> out = new ArrayList<>(rest);
        for (int pass = 2; out.size() < n; pass++) {
            double shift = (pass - 1) * span;
            for (int i = 0; i < rest.size() && out.size() < n; i++) {
                JobRequest j = rest.get(i);
                out.add(new JobRequest(j.id() + "-pass" + pass, j.user(), j.tasks(), j.perTask(),
                        j.submitTime() + shift, j.priority(), j.predictedDurationS(), j.trueDurationS()));
            }
        }
        return out;
    }

    /**
     * A submission and its arrival time in trace seconds; {@code target} is a real job's target test accuracy.
     * {@code eventAt} makes the event when it is sent, stamped with that instant: its {@code occurredAt} is the time
     * the job waits from (job-tuner passes it on as {@code submittedAt}), so a stamp taken when planning would add the
     * replay's own pacing to every submit-to-bind latency.
     */
    record Planned(double submitTimeS, Function<Instant, JobSubmitted> eventAt, Double target) {
    }

    /**
     * The trace's jobs in arrival order, with the real jobs of {@code --real-jobs} spread evenly among them: real job k
     * arrives with the trace job at position (k + 1) · n / (N + 1).
     */
    static List<Planned> plan(List<JobRequest> jobs, ReplayOptions o) {
        List<Planned> plan = new ArrayList<>();
        List<RealJobSet.RealJob> real = RealJobSet.first(o.realJobs(), o.realSeed());
        int k = 0;
        for (int i = 0; i < jobs.size(); i++) {
            JobRequest j = jobs.get(i);
            plan.add(new Planned(j.submitTime(), at -> toEvent(j, at), null));
            while (k < real.size() && (long) (k + 1) * jobs.size() / (real.size() + 1) <= i) {
                int index = k;
                RealJobSet.RealJob r = real.get(k);
                plan.add(new Planned(j.submitTime(), at -> realEvent(index, r, at), r.target()));
                k++;
            }
        }
        return plan;
    }

    static JobSubmitted realEvent(int k, RealJobSet.RealJob r, Instant sentAt) {
        String id = String.format(Locale.ROOT, "real-%03d-%s", k, r.name());
        // No durationS: it runs as long as its training takes. Tuning as the user allows by default.
        return new JobSubmitted(Events.newId(), GantryEvent.SCHEMA_VERSION, sentAt, id, r.user(), r.name(), null,
                1, r.perTask(), null, null, null, null, true, r.spec());
    }

    /**
     * Hands each job to {@code send} at its (accelerated) arrival time, or at a fixed rate when {@code --rate} is
     * given, stamped with the moment it is handed over.
     */
    static void submit(List<Planned> jobs, ReplayOptions o, Consumer<JobSubmitted> send, LifecycleTally tally)
            throws InterruptedException {
        double t0 = jobs.get(0).submitTimeS();
        long wallStart = System.nanoTime();
        for (int i = 0; i < jobs.size(); i++) {
            Planned p = jobs.get(i);
            double dueS = o.rate() > 0 ? i / o.rate() : o.rate() == 0 ? 0 : (p.submitTimeS() - t0) / o.speedup();
            long waitNs = wallStart + (long) (dueS * 1e9) - System.nanoTime();
            if (waitNs > 1_000_000) {
                Thread.sleep(waitNs / 1_000_000, (int) (waitNs % 1_000_000));
            }
            JobSubmitted e = p.eventAt().apply(Instant.now());
            tally.submitted(e.jobId());
            if (p.target() != null) {
                tally.real(e.jobId(), p.target(), e.training().target().metric());
            }
            send.accept(e);
        }
    }

    static JobSubmitted toEvent(JobRequest j, Instant sentAt) {
        var r = j.perTask();
        // The Alibaba trace has no users; its loader names the QoS class as the tenant. Never blank on the wire.
        String user = j.user() == null || j.user().isBlank() ? "unknown" : j.user();
        return new JobSubmitted(Events.newId(), GantryEvent.SCHEMA_VERSION, sentAt, j.id(), user, j.id(), null,
                j.tasks(), new ResourceAmounts(r.gpuMilli(), r.cpuMilli(), r.memoryMib()), null, null,
                Double.isFinite(j.trueDurationS()) ? j.trueDurationS() : null, null);
    }

    private static void follow(KafkaConsumer<String, String> consumer, LifecycleTally tally, AtomicBoolean stop) {
        while (!stop.get()) {
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
                tally.accept(r.value());
            }
        }
    }

    private static void printSummary(ReplayOptions o, LifecycleTally tally, ServiceEvents events, Instant started) {
        LifecycleTally.Snapshot s = tally.snapshot();
        double wall = Duration.between(started, Instant.now()).toMillis() / 1000.0;
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("submitted", s.submitted());
        summary.put("completed", s.completed());
        summary.put("failed", s.failed());
        summary.put("rejected", s.rejected());
        summary.put("preempted", s.preempted());
        summary.put("duplicates", s.duplicates());
        summary.put("duplicate_events", s.duplicateEvents());
        summary.put("redelivered", s.redelivered());
        summary.put("avg_jct_s", s.avgJctS());
        summary.put("p99_submit_to_bind_ms", s.p99SubmitToBindMs());
        summary.put("p50_submit_to_bind_ms", s.p50SubmitToBindMs());
        summary.put("unfinished", s.submitted() - s.finished());
        summary.put("real_jobs", s.realJobs());
        summary.put("real_completed", s.realCompleted());
        summary.put("real_target_reached", s.realTargetReached());
        summary.put("real_mean_test_accuracy", s.realMeanTestAccuracy());
        summary.put("real_min_test_accuracy", s.realMinTestAccuracy());
        summary.put("real_progress_complete", s.realProgressComplete());
        summary.put("real_progress_problems", s.realProgressProblems());
        summary.put("speedup", o.speedup());
        summary.put("wall_s", wall);
        summary.put("jobs_per_s", wall > 0 ? s.finished() / wall : 0);
        if (events.enabled()) {
            summary.put("service_restarts", events.restarts());
        }
        try {
            String json = EventCodec.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(summary);
            System.out.println(json);
            if (o.summary() != null) {
                if (o.summary().toAbsolutePath().getParent() != null) {
                    Files.createDirectories(o.summary().toAbsolutePath().getParent());
                }
                Files.writeString(o.summary(), json + "\n");
            }
        } catch (IOException e) {
            System.err.println("gantry replay: cannot write " + o.summary() + ": " + e.getMessage());
        }
    }

    private static KafkaProducer<String, String> producer(String bootstrap, KafkaClientAuth auth) {
        Map<String, Object> p = new HashMap<>(auth.clientConfig());
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 1);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        return new KafkaProducer<>(p);
    }

    /** Reads the lifecycle topic from its current end, assigned before the first job is sent so nothing is missed. */
    private static KafkaConsumer<String, String> lifecycleConsumer(String bootstrap, KafkaClientAuth auth) {
        Map<String, Object> c = new HashMap<>(auth.clientConfig());
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // The tally reads times the system stamped on each event, not when they arrive here: reading in batches of up
        // to 250 ms changes no reported figure and spares the broker one fetch per lifecycle event of a busy replay.
        c.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, 256 * 1024);
        c.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 250);
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c);
        List<TopicPartition> parts = consumer.partitionsFor(Topics.JOBS_LIFECYCLE, Duration.ofSeconds(30)).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
        consumer.assign(parts);
        consumer.seekToEnd(parts);
        parts.forEach(consumer::position); // resolve the end offsets now, before any job is submitted
        return consumer;
    }
}
