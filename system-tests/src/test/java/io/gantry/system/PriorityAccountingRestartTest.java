package io.gantry.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gantry.events.EventCodec;
import io.gantry.events.Events;
import io.gantry.events.JobCompleted;
import io.gantry.events.JobStarted;
import io.gantry.events.LifecycleEvent;
import io.gantry.events.ResourceAmounts;
import io.gantry.events.Topics;
import io.gantry.events.UserPriority;
import io.gantry.kafka.TopicProbe;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * priority-accounting is stopped and started again as a new operating-system process against the same database (the
 * default H2 file under {@code GANTRY_DATA_DIR}): every user's priority, base, weight and usage must be the same
 * afterwards, the new process must not apply the already consumed events again (it resumes from the committed
 * offsets), and it must still apply new ones.
 */
class PriorityAccountingRestartTest {

    private static final String SERVICE = "priority-accounting";
    private static final ResourceAmounts ONE_GPU = new ResourceAmounts(1000, 4000, 8192);

    @Test
    void aRestartedProcessShowsTheSamePrioritiesFromTheSameDatabase() throws Exception {
        try (GantryProcesses system = new GantryProcesses()) {
            system.startBroker();
            system.startService(SERVICE, Map.of());
            createUser(system, "{\"name\":\"heavy\",\"basePriority\":5,\"weight\":1}");
            createUser(system, "{\"name\":\"mid\",\"basePriority\":2,\"weight\":2}");
            createUser(system, "{\"name\":\"light\",\"basePriority\":0,\"weight\":3}");
            // Only finished jobs: every user's usage then decays at the same rate, so usage shares, and with them the
            // priorities, do not move while the service restarts; any difference is a difference in state.
            Instant t0 = Instant.now().minusSeconds(7200);
            try (TopicProbe probe = new TopicProbe(system.bootstrap())) {
                for (int i = 0; i < 6; i++) {
                    run(probe, "heavy-" + i, "heavy", 4, t0.plusSeconds(i * 1000L), 900);
                }
                run(probe, "mid-0", "mid", 2, t0.plusSeconds(600), 600);
                run(probe, "mid-1", "mid", 2, t0.plusSeconds(3000), 600);
                run(probe, "light-0", "light", 1, t0.plusSeconds(5000), 300);
                run(probe, "newcomer-0", "newcomer", 1, t0.plusSeconds(6000), 120); // known only from its events
                GantryProcesses.await(Duration.ofSeconds(60), "every event in the ledger", () ->
                        intervals(system, "heavy") == 6 && intervals(system, "mid") == 2
                                && intervals(system, "light") == 1 && intervals(system, "newcomer") == 1);
                assertEquals(20, metric(system, "gantry_priority_events_applied_total"), "20 lifecycle events applied");

                Map<String, JsonNode> before = users(system);
                assertEquals(List.of("heavy", "light", "mid", "newcomer"), List.copyOf(before.keySet()));
                assertTrue(fairShareTerm(before.get("light")) > fairShareTerm(before.get("heavy")),
                        "usage counts: the heavy user's fair-share term is below the light user's");
                Map<String, JsonNode> usageBefore = usages(system, before.keySet());
                long pidBefore = system.pid(SERVICE);

                system.stopAndRestart(SERVICE);

                assertNotEquals(pidBefore, system.pid(SERVICE), "a new process");
                Map<String, JsonNode> after = users(system);
                assertEquals(before.keySet(), after.keySet());
                for (String u : before.keySet()) {
                    for (String field : List.of("priority", "basePriority", "weight", "fairShareFactor")) {
                        double b = before.get(u).path(field).asDouble();
                        assertEquals(b, after.get(u).path(field).asDouble(), 1e-9 * Math.max(1, Math.abs(b)),
                                u + " " + field + " before and after the restart");
                    }
                    JsonNode ub = usageBefore.get(u);
                    JsonNode ua = usage(system, u);
                    assertEquals(ub.path("gpuSeconds").asDouble(), ua.path("gpuSeconds").asDouble(), 1e-9, u);
                    assertEquals(ub.path("intervals"), ua.path("intervals"), u + "'s usage intervals");
                }
                assertEquals(0, metric(system, "gantry_priority_events_applied_total"),
                        "the new process resumed after the committed offsets: no event applied a second time");

                // The restarted consumer still takes new events: one more job for light.
                run(probe, "light-1", "light", 1, Instant.now().minusSeconds(200), 100);
                GantryProcesses.await(Duration.ofSeconds(60), "the new job in the ledger",
                        () -> intervals(system, "light") == 2);
                assertEquals(2, metric(system, "gantry_priority_events_applied_total"));

                // What the scheduler reads: the last priority published for each user is the one the API shows.
                Map<String, Double> published = new TreeMap<>();
                for (TopicProbe.Seen s : probe.readAll(Topics.USERS_PRIORITY)) {
                    UserPriority p = EventCodec.decode(s.value(), UserPriority.class);
                    published.put(p.user(), p.priority());
                }
                assertEquals(before.keySet(), published.keySet());
                for (String u : List.of("heavy", "mid", "newcomer")) {
                    assertEquals(before.get(u).path("priority").asDouble(), published.get(u), 1.0,
                            u + ": published within the publish threshold of its priority");
                }
            }
        }
    }

    private static double fairShareTerm(JsonNode user) {
        return user.path("priority").asDouble() - user.path("basePriority").asDouble();
    }

    private static void run(TopicProbe probe, String job, String user, int gpus, Instant start, double seconds) {
        List<String> nodes = Collections.nCopies(gpus, "n1");
        send(probe, new JobStarted(Events.newId(), 1, start, job, user, nodes, ONE_GPU, start.minusSeconds(5), "test"));
        Instant end = start.plusSeconds((long) seconds);
        send(probe, new JobCompleted(Events.newId(), 1, end, job, user, nodes, ONE_GPU, start.minusSeconds(5), seconds));
    }

    private static void send(TopicProbe probe, LifecycleEvent e) {
        probe.send(Topics.JOBS_LIFECYCLE, e.key(), EventCodec.encode(e));
    }

    private static void createUser(GantryProcesses system, String json) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://localhost:" + system.port(SERVICE) + "/users"))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + io.gantry.service.support.security.TestTokens.admin()).POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(201, r.statusCode(), r.body());
    }

    private static Map<String, JsonNode> users(GantryProcesses system) throws Exception {
        Map<String, JsonNode> out = new TreeMap<>();
        for (JsonNode u : EventCodec.mapper().readTree(system.get(SERVICE, "/users"))) {
            out.put(u.path("name").asText(), u);
        }
        return out;
    }

    private static JsonNode usage(GantryProcesses system, String user) throws Exception {
        return EventCodec.mapper().readTree(system.get(SERVICE, "/users/" + user + "/usage"));
    }

    private static Map<String, JsonNode> usages(GantryProcesses system, Iterable<String> users) throws Exception {
        Map<String, JsonNode> out = new TreeMap<>();
        for (String u : users) {
            out.put(u, usage(system, u));
        }
        return out;
    }

    private static int intervals(GantryProcesses system, String user) throws Exception {
        return usage(system, user).path("intervals").size();
    }

    private static double metric(GantryProcesses system, String name) throws Exception {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "(\\{[^}]*\\})? (\\S+)$")
                .matcher(system.get(SERVICE, "/q/metrics"));
        if (!m.find()) {
            throw new AssertionError(name + " is not on /q/metrics");
        }
        return Double.parseDouble(m.group(2));
    }
}
