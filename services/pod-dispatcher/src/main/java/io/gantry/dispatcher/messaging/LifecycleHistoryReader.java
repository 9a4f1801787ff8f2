package io.gantry.dispatcher.messaging;

import io.gantry.events.JobPreempted;
import io.gantry.events.JobStarted;
import io.gantry.events.KafkaClientAuth;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.Topics;
import io.gantry.service.support.TopicHistory;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Reads {@code gantry.jobs.lifecycle} from the beginning to its current end, outside any consumer group, so a
 * restarted dispatcher knows which jobs, and which stints of them, were already dispatched; then reads
 * {@code gantry.scheduling.decisions} for the decisions of the stints still running, whose run the cluster picks up
 * again. Unreadable records are skipped: they belong to whoever wrote them, and their dead letters are that
 * consumer's business.
 */
@ApplicationScoped
public class LifecycleHistoryReader {

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

    private final String bootstrap;
    private final KafkaClientAuth kafkaAuth;

    public LifecycleHistoryReader(@ConfigProperty(name = "kafka.bootstrap.servers") String bootstrap,
                                  KafkaClientAuth kafkaAuth) {
        this.bootstrap = bootstrap;
        this.kafkaAuth = kafkaAuth;
    }

    /**
     * @param highestAttempts every job with any lifecycle event, with the highest attempt its events name: a start
     *        or a preemption names its stint, any other event counts as the first
     * @param stillRunning jobs whose last stint started and has not ended: their last word is {@link JobStarted}
     *        (or a non-terminal event other than {@link JobPreempted} after it)
     * @param endedJobIds jobs with a terminal event (completed, failed, rejected)
     * @param runningDecisions the decision of each still-running stint, by job id, where the decisions topic still
     *        holds it
     */
    public record History(Map<String, Integer> highestAttempts, Map<String, JobStarted> stillRunning,
                          Set<String> endedJobIds, Map<String, SchedulingDecision> runningDecisions) {

        /** Every job with any lifecycle event. */
        public Set<String> seenJobIds() {
            return highestAttempts.keySet();
        }

        /** Folds lifecycle events into a History; each job's events must come in their order on the topic. */
        public static final class Builder {
            private final Map<String, Integer> highestAttempts = new HashMap<>();
            private final Map<String, JobStarted> stillRunning = new LinkedHashMap<>();
            private final Set<String> ended = new HashSet<>();
            private final Map<String, SchedulingDecision> runningDecisions = new HashMap<>();

            public Builder add(LifecycleEvent e) {
                int attempt = e instanceof JobStarted s ? s.attempt() : e instanceof JobPreempted p ? p.attempt() : 1;
                highestAttempts.merge(e.jobId(), attempt, Math::max);
                if (e instanceof JobStarted started) {
                    stillRunning.put(e.jobId(), started);
                } else if (e instanceof JobPreempted preempted) {
                    // Only its own stint ends: a stop reported for an earlier one leaves a later start running.
                    stillRunning.computeIfPresent(e.jobId(),
                            (id, started) -> started.attempt() <= preempted.attempt() ? null : started);
                } else if (e.terminal()) {
                    stillRunning.remove(e.jobId());
                    ended.add(e.jobId());
                }
                return this;
            }

            /** Keeps {@code d} if it decided a stint that is still running (call after every lifecycle event). */
            public Builder addDecision(SchedulingDecision d) {
                JobStarted s = stillRunning.get(d.jobId());
                if (s != null && s.attempt() == d.attempt()) {
                    runningDecisions.putIfAbsent(d.jobId(), d);
                }
                return this;
            }

            public History build() {
                return new History(highestAttempts, stillRunning, ended, runningDecisions);
            }
        }
    }

    public History read() {
        History.Builder history = new History.Builder();
        TopicHistory.forEach(bootstrap, kafkaAuth, Topics.JOBS_LIFECYCLE, LifecycleEvent.class, READ_TIMEOUT, history::add);
        TopicHistory.forEach(bootstrap, kafkaAuth, Topics.SCHEDULING_DECISIONS, SchedulingDecision.class, READ_TIMEOUT,
                history::addDecision);
        return history.build();
    }
}
