package io.gantry.scheduler.messaging;

import io.gantry.events.JobTuned;
import io.gantry.events.KafkaClientAuth;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.Topics;
import io.gantry.scheduler.config.SchedulerConfig;
import io.gantry.scheduler.service.JobClock;
import io.gantry.scheduler.service.RestorePlan;
import io.gantry.scheduler.service.SchedulerLoop;
import io.gantry.service.support.TopicHistory;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.reactive.messaging.ChannelRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Rebuilds the queue after a restart. The scheduler keeps its queue in memory and commits a tuned job's offset
 * once the job is queued, so without this a restart would forget every job queued but not yet decided. The
 * {@code tuned} and {@code lifecycle} channels start paused; this reads the three topics that define the state
 * (jobs tuned, decisions made, lifecycle), folds them per job ({@link RestorePlan}, which also settles and logs any
 * disagreement between them), hands the result to the scheduler, then lets the channels flow. Events the channels
 * then redeliver are recognised by job id and attempt and change nothing.
 */
@ApplicationScoped
public class SchedulerRecovery {

    private static final Logger LOG = Logger.getLogger(SchedulerRecovery.class);
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

    private final SchedulerLoop loop;
    private final ChannelRegistry channels;
    private final String bootstrap;
    private final KafkaClientAuth kafkaAuth;
    private final JobClock clock;

    public SchedulerRecovery(SchedulerLoop loop, ChannelRegistry channels, SchedulerConfig config,
                             @ConfigProperty(name = "kafka.bootstrap.servers") String bootstrap,
                             KafkaClientAuth kafkaAuth) {
        this.loop = loop;
        this.channels = channels;
        this.bootstrap = bootstrap;
        this.kafkaAuth = kafkaAuth;
        this.clock = new JobClock(config.timeScale());
    }

    void recover(@Observes StartupEvent ev) {
        long start = System.nanoTime();
        List<JobTuned> tuned = TopicHistory.read(bootstrap, kafkaAuth, Topics.JOBS_TUNED, JobTuned.class, READ_TIMEOUT);
        List<SchedulingDecision> decided =
                TopicHistory.read(bootstrap, kafkaAuth, Topics.SCHEDULING_DECISIONS, SchedulingDecision.class, READ_TIMEOUT);
        List<LifecycleEvent> lifecycle =
                TopicHistory.read(bootstrap, kafkaAuth, Topics.JOBS_LIFECYCLE, LifecycleEvent.class, READ_TIMEOUT);
        RestorePlan plan = RestorePlan.fold(tuned, decided, lifecycle, clock);
        plan.disagreements().forEach(d -> LOG.warnf("restore: the topics disagree; %s", d));
        loop.apply(state -> {
            state.restore(plan);
            LOG.infof("recovered from the topics in %d ms: %d jobs ended, %d pending, %d holding resources, %d stopping"
                            + " (%d disagreement(s) settled, logged above)", (System.nanoTime() - start) / 1_000_000,
                    plan.ended().size(), state.pendingCount(), state.runningCount(), state.stoppingCount(),
                    plan.disagreements().size());
            return true;
        }).join();
        channels.getPausable("tuned").resume();
        channels.getPausable("cancellations").resume();
        channels.getPausable("lifecycle").resume();
    }
}
