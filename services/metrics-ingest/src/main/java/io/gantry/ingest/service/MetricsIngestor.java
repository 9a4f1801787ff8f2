package io.gantry.ingest.service;

import io.gantry.events.NodeMetrics;
import io.gantry.events.Violation;
import io.gantry.ingest.config.IngestConfig;
import io.gantry.ingest.mapping.NodeMetricsEvents;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Reads the source every {@code gantry.ingest.interval} and publishes one {@link NodeMetrics} per node.
 * <ul>
 * <li>A node read fresh and valid is published with {@code stale=false}.</li>
 * <li>A node seen before but without a valid fresh reading — missing from the read, invalid this time, or the
 * source is down — is published with {@code stale=true} and its last good values, at every attempt, until it has
 * been missing for {@code forget-missing-after}. Nothing is ever estimated.</li>
 * <li>Source data that cannot become a valid NodeMetrics goes to {@code gantry.dlq.metrics-ingest} with the
 * reason, once per distinct problem while it lasts (not every tick), and is counted every time.</li>
 * <li>A failed read is logged once per outage, counted, and retried after a delay that doubles up to
 * {@code max-backoff} (before the first good read: every interval, since the source may just be starting);
 * the first good read ends the outage.</li>
 * </ul>
 * All reads run on one thread.
 */
@ApplicationScoped
public class MetricsIngestor {

    private static final Logger LOG = Logger.getLogger(MetricsIngestor.class);

    private final IngestConfig config;
    private final NodeMetricsSource source;
    private final IngestSink sink;
    private final MeterRegistry registry;
    private final Counter scrapes;
    private final Timer scrapeDuration;
    private final Map<String, Counter> failuresByKind = new HashMap<>();
    private final Map<String, Counter> rejectedByKind = new HashMap<>();

    private final Map<String, LastGood> lastGood = new HashMap<>();
    /** Problems dead-lettered and still present: subject + reason. */
    private Set<String> activeProblems = new HashSet<>();
    private ScheduledExecutorService loop;
    private volatile IngestStatus status;
    private Instant outageStartedAt;

    private record LastGood(NodeMetrics metrics, Instant readAt) {
    }

    public MetricsIngestor(IngestConfig config, NodeMetricsSource source, IngestSink sink, MeterRegistry registry) {
        this.config = config;
        this.source = source;
        this.sink = sink;
        this.registry = registry;
        this.status = new IngestStatus(source.describe(), null, 0, null, 0, 0);
        scrapes = Counter.builder("gantry.ingest.scrapes").description("Successful reads of the metrics source")
                .register(registry);
        scrapeDuration = Timer.builder("gantry.ingest.scrape.duration").description("Time to read and map the source")
                .register(registry);
        Gauge.builder("gantry.ingest.last.success.age", this, MetricsIngestor::secondsSinceLastSuccess)
                .baseUnit("seconds").description("Time since the last successful read (NaN before the first)")
                .register(registry);
        Gauge.builder("gantry.ingest.nodes", () -> status.freshNodes()).tag("state", "fresh")
                .description("Nodes published at the last attempt, by freshness").register(registry);
        Gauge.builder("gantry.ingest.nodes", () -> status.staleNodes()).tag("state", "stale")
                .description("Nodes published at the last attempt, by freshness").register(registry);
        // Every kind from the start, at 0: rate() and increase() then see the first failure or rejection too.
        failure("unavailable");
        failure("unparsable");
        rejected("line");
        rejected("node");
    }

    void start(@Observes StartupEvent ev) {
        loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "metrics-ingest");
            t.setDaemon(true);
            return t;
        });
        loop.schedule(this::attempt, 0, TimeUnit.MILLISECONDS);
        LOG.infof("reading node metrics from %s every %s", source.describe(), config.interval());
    }

    void stop(@Observes ShutdownEvent ev) {
        if (loop != null) {
            loop.shutdownNow();
        }
    }

    public IngestStatus status() {
        return status;
    }

    private void attempt() {
        Duration next = config.interval();
        try {
            SourceReading reading = scrapeDuration.recordCallable(source::read);
            onRead(reading);
        } catch (SourceUnavailableException e) {
            next = onFailure(e.kind(), e.getMessage());
        } catch (Exception e) {
            // A bug in mapping must not stop the loop; it is an outage of its own kind, logged with its trace.
            LOG.error("reading node metrics failed unexpectedly", e);
            next = onFailure("unparsable", e.toString());
        } finally {
            try {
                loop.schedule(this::attempt, next.toNanos(), TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException stopping) {
                // shutting down: no next attempt
            }
        }
    }

    private void onRead(SourceReading reading) {
        Instant now = Instant.now();
        scrapes.increment();
        if (outageStartedAt != null) {
            LOG.infof("node metrics from %s are back after %d failed read(s) since %s", source.describe(),
                    status.consecutiveFailures(), outageStartedAt);
            outageStartedAt = null;
        }
        Set<String> problems = new HashSet<>();
        Set<String> fresh = new HashSet<>();
        for (NodeReading r : reading.nodes()) {
            NodeMetrics m = NodeMetricsEvents.fresh(r, now, config.sourceName());
            var violations = m.violations();
            if (!violations.isEmpty()) {
                String reason = violations.stream().map(Violation::toString).collect(Collectors.joining("; "));
                reject(new Rejection("node", r.node(), reason, r.evidence()), problems);
                continue;
            }
            sink.publish(m);
            lastGood.put(r.node(), new LastGood(m, now));
            fresh.add(r.node());
        }
        reading.rejections().forEach(rej -> reject(rej, problems));
        activeProblems = problems;
        int stale = publishStale(fresh, now);
        status = new IngestStatus(source.describe(), now, 0, null, fresh.size(), stale);
    }

    private Duration onFailure(String kind, String error) {
        failure(kind).increment();
        long failures = status.consecutiveFailures() + 1;
        if (outageStartedAt == null) {
            outageStartedAt = Instant.now();
            LOG.warnf("cannot read node metrics (%s): %s; publishing known nodes as stale and retrying with backoff",
                    kind, error);
        } else {
            LOG.debugf("still cannot read node metrics: %s", error);
        }
        int stale = publishStale(Set.of(), Instant.now());
        status = new IngestStatus(source.describe(), status.lastSuccessAt(), failures, error, 0, stale);
        if (status.lastSuccessAt() == null) {
            // Still waiting for the source to come up (services start in any order): keep the normal pace so the
            // first metrics follow its start within one interval.
            return config.interval();
        }
        long factor = 1L << Math.min(failures - 1, 20);
        Duration backoff = config.interval().multipliedBy(factor);
        return backoff.compareTo(config.maxBackoff()) > 0 ? config.maxBackoff() : backoff;
    }

    /** Publishes the last good values of every known node not in {@code fresh}, marked stale; forgets old ones. */
    private int publishStale(Set<String> fresh, Instant now) {
        int published = 0;
        for (Iterator<Map.Entry<String, LastGood>> it = lastGood.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, LastGood> e = it.next();
            if (fresh.contains(e.getKey())) {
                continue;
            }
            if (Duration.between(e.getValue().readAt(), now).compareTo(config.forgetMissingAfter()) > 0) {
                LOG.infof("node %s has been missing since %s: no longer published", e.getKey(), e.getValue().readAt());
                it.remove();
                continue;
            }
            NodeMetrics last = e.getValue().metrics();
            sink.publish(NodeMetricsEvents.stale(last, now));
            published++;
        }
        return published;
    }

    private void reject(Rejection rejection, Set<String> problems) {
        rejected(rejection.kind()).increment();
        String problem = rejection.subject() + "\n" + rejection.reason();
        problems.add(problem);
        if (!activeProblems.contains(problem)) {
            LOG.warnf("dead-lettering %s from %s: %s", rejection.subject(), source.describe(), rejection.reason());
            sink.deadLetter(rejection, source.describe());
        }
    }

    private Counter rejected(String kind) {
        return rejectedByKind.computeIfAbsent(kind, k -> Counter.builder("gantry.ingest.rejected")
                .description("Source lines or nodes that could not become a valid NodeMetrics")
                .tag("kind", k).register(registry));
    }

    private Counter failure(String kind) {
        return failuresByKind.computeIfAbsent(kind, k -> Counter.builder("gantry.ingest.scrape.failures")
                .description("Reads of the metrics source that gave nothing usable").tag("kind", k).register(registry));
    }

    private double secondsSinceLastSuccess() {
        Instant last = status.lastSuccessAt();
        return last == null ? Double.NaN : Duration.between(last, Instant.now()).toNanos() / 1e9;
    }
}
