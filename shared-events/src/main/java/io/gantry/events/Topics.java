package io.gantry.events;

import java.util.List;

/** Every Kafka topic Gantry uses. Each service also has a dead-letter topic, {@link #deadLetter(String)}. */
public final class Topics {

    public static final String JOBS_SUBMITTED = "gantry.jobs.submitted";
    public static final String JOBS_TUNED = "gantry.jobs.tuned";
    public static final String JOBS_LIFECYCLE = "gantry.jobs.lifecycle";
    /** Compacted: the latest priority per user. */
    public static final String USERS_PRIORITY = "gantry.users.priority";
    public static final String CLUSTER_METRICS = "gantry.cluster.metrics";
    public static final String SCHEDULING_DECISIONS = "gantry.scheduling.decisions";
    public static final String POLICY_UPDATES = "gantry.policy.updates";
    /** Users' requests to stop their jobs ({@link JobCancelRequested}), keyed by jobId. */
    public static final String JOBS_CANCELLATIONS = "gantry.jobs.cancellations";

    /** The services of the scheduling pipeline (ports 8081..8085), each with a dead-letter topic. */
    public static final List<String> SERVICES =
            List.of("metrics-ingest", "job-tuner", "priority-accounting", "sac-scheduler", "pod-dispatcher");

    /** The studio (port 8086): users' front end, beside the pipeline; it owns a dead-letter topic too. */
    public static final String STUDIO = "studio";

    /** The event topics (dead-letter topics excluded). */
    public static final List<String> EVENT_TOPICS = List.of(JOBS_SUBMITTED, JOBS_TUNED, JOBS_LIFECYCLE,
            USERS_PRIORITY, CLUSTER_METRICS, SCHEDULING_DECISIONS, POLICY_UPDATES, JOBS_CANCELLATIONS);

    private Topics() {
    }

    /** Where a service puts events it could not parse or validate, with the reason in the record headers. */
    public static String deadLetter(String service) {
        return "gantry.dlq." + service;
    }

    /** Every topic, dead-letter topics included. */
    public static List<String> all() {
        List<String> all = new java.util.ArrayList<>(EVENT_TOPICS);
        SERVICES.forEach(s -> all.add(deadLetter(s)));
        all.add(deadLetter(STUDIO));
        return List.copyOf(all);
    }
}
