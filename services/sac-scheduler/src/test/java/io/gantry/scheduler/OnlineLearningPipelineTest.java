package io.gantry.scheduler;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.security.TestSecurity;
import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobStarted;
import io.gantry.events.JobTuned;
import io.gantry.events.NodeMetrics;
import io.gantry.events.PolicyUpdated;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.SchedulingDecision;
import io.gantry.events.Topics;
import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.kafka.TopicProbe;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The online learner end to end through the real broker: the scheduler decides with {@code sac}, this test plays
 * the dispatcher (each decision is started and completed on {@code gantry.jobs.lifecycle}), and the learner must
 * turn that stream into transitions, train, pass the replay check, promote {@code sac-1}, publish
 * {@code PolicyUpdated}, save the version, and decide with it from then on. Small learner settings, so this takes
 * well under two minutes.
 */
@QuarkusTest
@TestProfile(OnlineLearningPipelineTest.Learning.class)
@QuarkusTestResource(KafkaBrokerTestResource.class)
// Runs as an admin (who may also read): the security tests check each role on its own.
@TestSecurity(user = "root", roles = {"admin", "operator", "user"})
class OnlineLearningPipelineTest {

    private static final Path DATA_DIR;

    static {
        try {
            DATA_DIR = Files.createTempDirectory("sac-learner-test");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static class Learning implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.ofEntries(Map.entry("gantry.scheduler.policy", "sac"),
                    Map.entry("gantry.scheduler.learner.data-dir", DATA_DIR.toString()),
                    Map.entry("gantry.scheduler.learner.update-interval", "100ms"),
                    Map.entry("gantry.scheduler.learner.min-transitions", "16"),
                    Map.entry("gantry.scheduler.learner.batch-size", "16"),
                    Map.entry("gantry.scheduler.learner.updates-per-transition", "2"),
                    Map.entry("gantry.scheduler.learner.updates-per-check", "20"),
                    Map.entry("gantry.scheduler.learner.check-min-jobs", "15"),
                    Map.entry("gantry.scheduler.learner.check-window-jobs", "200"),
                    // The gate opened wide (any p, no floor: promoted when the mean window JCT is lower): a candidate
                    // trained for a minute is rarely significantly better, and this test is about the pipeline; the
                    // gate's statistics are PromotionGateTest's.
                    Map.entry("gantry.scheduler.learner.check-windows", "5"),
                    Map.entry("gantry.scheduler.learner.check-alpha", "1"),
                    Map.entry("gantry.scheduler.learner.check-min-improvement", "0"),
                    Map.entry("gantry.scheduler.time-scale", "1000"));
        }
    }

    private static final String PREFIX = "ol-";
    private static final Duration DEADLINE = Duration.ofSeconds(90);
    private static final Pattern VERSION = Pattern.compile("sac-(\\d+)");

    private final SplittableRandom rng = new SplittableRandom(4);
    private final Map<String, JobTuned> submitted = new HashMap<>();
    private final Map<String, SchedulingDecision> decided = new HashMap<>();

    private void submit(TopicProbe probe, int count) {
        for (int i = 0; i < count; i++) {
            String id = PREFIX + submitted.size();
            long gpus = 1 + rng.nextInt(4);
            JobTuned job = new JobTuned(Events.newId(), 1, Instant.now(), id, "u" + rng.nextInt(3), id, null,
                    Instant.now(), 1, new ResourceAmounts(gpus * 1000, 4000, 16384), null, null,
                    60.0 + rng.nextInt(3000), null, List.of(), "test");
            submitted.put(id, job);
            probe.send(Topics.JOBS_TUNED, id, EventCodec.encode(job));
        }
    }

    /** Plays the dispatcher: every new decision of ours is started and, at once, completed. */
    private void dispatchNewDecisions(TopicProbe probe) {
        for (TopicProbe.Seen s : probe.readAll(Topics.SCHEDULING_DECISIONS)) {
            if (!s.key().startsWith(PREFIX) || decided.containsKey(s.key())) {
                continue;
            }
            SchedulingDecision d = EventCodec.decode(s.value(), SchedulingDecision.class);
            decided.put(d.jobId(), d);
            probe.send(Topics.JOBS_LIFECYCLE, d.jobId(), EventCodec.encode(new JobStarted(Events.newId(), 1,
                    Instant.now(), d.jobId(), d.user(), d.nodes(), d.perTask(), d.submittedAt(), d.policyVersion())));
            probe.send(Topics.JOBS_LIFECYCLE, d.jobId(), EventCodec.encode(new JobCompleted(Events.newId(), 1,
                    Instant.now(), d.jobId(), d.user(), d.nodes(), d.perTask(), d.submittedAt(), d.durationS())));
        }
    }

    private void dispatchUntilAllDecided(TopicProbe probe) {
        long end = System.nanoTime() + DEADLINE.toNanos();
        while (decided.size() < submitted.size() && System.nanoTime() < end) {
            dispatchNewDecisions(probe);
        }
        assertEquals(submitted.size(), decided.size(), "every submitted job is decided");
    }

    /** The sac promotions on the topic, waiting up to {@code patience} for the first. */
    private static List<TopicProbe.Seen> promotions(TopicProbe probe, Duration patience) {
        long end = System.nanoTime() + patience.toNanos();
        List<TopicProbe.Seen> found;
        do {
            found = probe.readAll(Topics.POLICY_UPDATES).stream().filter(s -> s.key().equals("sac")).toList();
            if (found.isEmpty()) {
                try {
                    Thread.sleep(250);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        } while (found.isEmpty() && System.nanoTime() < end);
        return found;
    }

    private static int versionNumber(String version) {
        Matcher m = VERSION.matcher(version);
        assertTrue(m.matches(), "a sac decision names its version as sac-N: " + version);
        return Integer.parseInt(m.group(1));
    }

    private static double metric(String scrape, String name) {
        Matcher m = Pattern.compile("(?m)^" + name + "(\\{[^}]*\\})? (\\S+)$").matcher(scrape);
        assertTrue(m.find(), name + " is on /q/metrics");
        return Double.parseDouble(m.group(2));
    }

    @Test
    void learnsFromLifecycleEventsPromotesAVersionPublishesPolicyUpdatedAndDecidesWithIt() throws IOException {
        try (TopicProbe probe = new TopicProbe(KafkaBrokerTestResource.broker().bootstrapServers())) {
            for (String node : List.of("ol-n1", "ol-n2")) {
                probe.send(Topics.CLUSTER_METRICS, node, EventCodec.encode(new NodeMetrics(Events.newId(), 1,
                        Instant.now(), node, new ResourceAmounts(8000, 96000, 393216), ResourceAmounts.ZERO, null,
                        null, null, 0, true, false, "test")));
            }
            // 16 GPUs, 80 jobs of 1-4 GPUs at once: a queue, so decisions wait for completions and rewards vary.
            // A replay check may fairly reject a candidate that is a little worse (CI saw three in a row); more jobs
            // bring more training and more checks, so batches follow until one is promoted or the deadline passes.
            submit(probe, 80);
            dispatchUntilAllDecided(probe);
            long end = System.nanoTime() + DEADLINE.toNanos();
            List<TopicProbe.Seen> updates = promotions(probe, Duration.ofSeconds(10));
            while (updates.isEmpty() && System.nanoTime() < end) {
                submit(probe, 40);
                dispatchUntilAllDecided(probe);
                updates = promotions(probe, Duration.ofSeconds(10));
            }
            assertFalse(updates.isEmpty(), "no version promoted within " + DEADLINE);
            PolicyUpdated update = EventCodec.decode(updates.get(0).value(), PolicyUpdated.class);
            assertEquals("sac", update.policy());
            assertEquals("sac-1", update.version());
            assertEquals("sac-0", update.previousVersion());
            assertTrue(update.evaluation().get("avg_jct_s") < update.evaluation().get("baseline_avg_jct_s"),
                    "promoted only if it is faster: " + update.evaluation());
            assertEquals(5.0, update.evaluation().get("windows"), "checked in windows: " + update.evaluation());
            assertTrue(update.evaluation().get("p_value") <= 1, "the test's p-value: " + update.evaluation());
            assertTrue(update.evaluation().get("jobs") >= 15, "checked on the completed jobs: " + update.evaluation());
            assertTrue(update.reason().contains("replay check"), update.reason());

            // The promoted version is on disk, named by the pointer a restart reads.
            assertTrue(Files.isRegularFile(DATA_DIR.resolve("versions/sac-1/sac.params")));
            assertTrue(Files.readString(DATA_DIR.resolve("versions/sac-1/metadata.json")).contains("\"previous_version\": \"sac-0\""));
            assertTrue(VERSION.matcher(Files.readString(DATA_DIR.resolve("promoted")).strip()).matches());

            // Jobs submitted after the promotion are decided by a promoted version.
            int before = submitted.size();
            submit(probe, 10);
            dispatchUntilAllDecided(probe);
            for (SchedulingDecision d : decided.values()) {
                assertEquals("sac", d.policy());
                versionNumber(d.policyVersion());
            }
            for (int i = before; i < submitted.size(); i++) {
                SchedulingDecision d = decided.get(PREFIX + i);
                assertTrue(versionNumber(d.policyVersion()) >= 1, "decided after sac-1 was promoted: " + d);
            }
            // In decision order, versions only go up: sac-0 first, each promotion swapped in once, never back.
            List<SchedulingDecision> inOrder = decided.values().stream()
                    .sorted(Comparator.comparing(SchedulingDecision::occurredAt)).toList();
            assertEquals(0, versionNumber(inOrder.get(0).policyVersion()), "the first decision, by sac-0");
            for (int i = 1; i < inOrder.size(); i++) {
                assertTrue(versionNumber(inOrder.get(i - 1).policyVersion())
                        <= versionNumber(inOrder.get(i).policyVersion()), "versions in decision order: " + inOrder);
            }
        }

        String scrape = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertTrue(metric(scrape, "gantry_sac_learner_updates_total") >= 20);
        assertTrue(metric(scrape, "gantry_sac_learner_transitions_total") >= 80);
        assertTrue(metric(scrape, "gantry_sac_promotions_total") >= 1);
        assertTrue(metric(scrape, "gantry_sac_policy_version") >= 1);
        metric(scrape, "gantry_sac_promotion_rejections_total"); // present; a win is not a rejection
        assertTrue(Double.isFinite(metric(scrape, "gantry_sac_promotion_check_improvement")), "a check ran");
        assertTrue(metric(scrape, "gantry_sac_exploration_decisions_total") >= 80, "every live decision is counted");
        metric(scrape, "gantry_sac_exploration_explored_total");
        assertTrue(Double.isFinite(metric(scrape, "gantry_sac_learner_critic_loss")));
        assertTrue(Double.isFinite(metric(scrape, "gantry_sac_learner_actor_loss")));
        assertTrue(metric(scrape, "gantry_sac_learner_alpha") > 0);
        double reward = metric(scrape, "gantry_sac_learner_reward");
        assertTrue(reward <= 0 && Double.isFinite(reward), "the reward is minus job-seconds: " + reward);
    }
}
