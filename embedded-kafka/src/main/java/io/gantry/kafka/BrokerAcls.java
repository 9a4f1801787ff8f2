package io.gantry.kafka;

import io.gantry.events.Topics;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Who may write which Gantry topic on a secured broker ({@link BrokerSecurity}): each topic is written only by the
 * principals whose code produces it, so a leaked client credential of one service, or a user's Kafka client, cannot
 * forge another service's events (a decision that binds a job, a priority). Every Gantry principal may read every
 * Gantry topic and join any consumer group: reading is what the services do, and what users see is guarded by the
 * services' REST endpoints, not the broker.
 *
 * <p>The principals are the Kafka users (SCRAM names) of the services, {@link #RUNNER} (the job runner's progress and
 * results) and {@link #SUBMITTER} (people and tools submitting jobs with a Kafka client, e.g. the replay CLI).
 * {@code BrokerAclsTest} checks the table against the outgoing channels in every service's application.properties.
 */
public final class BrokerAcls {

    public static final String RUNNER = "job-runner";
    public static final String SUBMITTER = "submitter";

    private static final Map<String, Set<String>> WRITERS = writers();
    private static final Set<String> PRINCIPALS = principalsOf(WRITERS);

    private BrokerAcls() {
    }

    /** Every principal that appears in the table: the services, the studio, the runner and the submitter. */
    public static Set<String> principals() {
        return PRINCIPALS;
    }

    /** The principals allowed to write {@code topic}; empty for a topic Gantry does not know. */
    public static Set<String> writers(String topic) {
        return WRITERS.getOrDefault(topic, Set.of());
    }

    /** The bindings a secured broker starts with: write per the table, read and group membership for everyone. */
    public static List<AclBinding> bindings() {
        List<AclBinding> acls = new ArrayList<>();
        WRITERS.forEach((topic, writers) -> writers.forEach(p -> acls.add(allow(p, ResourceType.TOPIC, topic, AclOperation.WRITE))));
        for (String p : principals()) {
            acls.add(allow(p, ResourceType.TOPIC, "gantry.", PatternType.PREFIXED, AclOperation.READ));
            acls.add(allow(p, ResourceType.TOPIC, "gantry.", PatternType.PREFIXED, AclOperation.DESCRIBE));
            acls.add(allow(p, ResourceType.GROUP, "*", PatternType.LITERAL, AclOperation.READ));
        }
        return acls;
    }

    private static AclBinding allow(String principal, ResourceType type, String name, AclOperation op) {
        return allow(principal, type, name, PatternType.LITERAL, op);
    }

    private static AclBinding allow(String principal, ResourceType type, String name, PatternType pattern, AclOperation op) {
        return new AclBinding(new ResourcePattern(type, name, pattern),
                new AccessControlEntry("User:" + principal, "*", op, AclPermissionType.ALLOW));
    }

    private static Set<String> principalsOf(Map<String, Set<String>> writers) {
        Set<String> all = new TreeSet<>();
        writers.values().forEach(all::addAll);
        return Collections.unmodifiableSet(all);
    }

    private static Map<String, Set<String>> writers() {
        Map<String, Set<String>> w = new LinkedHashMap<>();
        // Jobs enter from people (submitter, the studio, job-tuner's POST /jobs) and the dispatcher's pod watch.
        w.put(Topics.JOBS_SUBMITTED, Set.of(SUBMITTER, Topics.STUDIO, "job-tuner", "pod-dispatcher"));
        w.put(Topics.JOBS_TUNED, Set.of("job-tuner"));
        // Rejections (tuner, scheduler), pod lifecycle (dispatcher), training progress and results (runner).
        w.put(Topics.JOBS_LIFECYCLE, Set.of("job-tuner", "sac-scheduler", "pod-dispatcher", RUNNER));
        w.put(Topics.USERS_PRIORITY, Set.of("priority-accounting"));
        w.put(Topics.CLUSTER_METRICS, Set.of("metrics-ingest", "pod-dispatcher"));
        w.put(Topics.SCHEDULING_DECISIONS, Set.of("sac-scheduler"));
        w.put(Topics.POLICY_UPDATES, Set.of("sac-scheduler"));
        w.put(Topics.JOBS_CANCELLATIONS, Set.of(Topics.STUDIO));
        Topics.SERVICES.forEach(s -> w.put(Topics.deadLetter(s), Set.of(s)));
        w.put(Topics.deadLetter(Topics.STUDIO), Set.of(Topics.STUDIO));
        return Map.copyOf(w);
    }
}
