package io.gantry.events;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/** Collects {@link Violation}s with small, named checks so each event states its rules in a few lines. */
public final class Violations {

    private final List<Violation> list = new ArrayList<>();

    public List<Violation> list() {
        return List.copyOf(list);
    }

    public void add(String field, String reason) {
        list.add(new Violation(field, reason));
    }

    void envelope(String eventId, int schemaVersion, Instant occurredAt) {
        if (notBlank("eventId", eventId)) {
            try {
                UUID.fromString(eventId);
            } catch (IllegalArgumentException e) {
                add("eventId", "must be a UUID");
            }
        }
        if (schemaVersion != GantryEvent.SCHEMA_VERSION) {
            add("schemaVersion", "must be " + GantryEvent.SCHEMA_VERSION + ", was " + schemaVersion);
        }
        present("occurredAt", occurredAt);
    }

    public boolean present(String field, Object value) {
        if (value == null) {
            add(field, "is required");
            return false;
        }
        return true;
    }

    public boolean notBlank(String field, String value) {
        if (value == null || value.isBlank()) {
            add(field, "is required and must not be blank");
            return false;
        }
        return true;
    }

    public void notEmpty(String field, Collection<?> value) {
        if (value == null || value.isEmpty()) {
            add(field, "must not be empty");
        }
    }

    /** At most {@code max} elements (one node per task: a gang's bound). */
    public void atMost(String field, Collection<?> value, int max) {
        if (value != null && value.size() > max) {
            add(field, "must have at most " + max + " elements, was " + value.size());
        }
    }

    public void atLeast(String field, long value, long min) {
        if (value < min) {
            add(field, "must be at least " + min + ", was " + value);
        }
    }

    public void atLeast(String field, double value, double min) {
        if (!(value >= min)) {
            add(field, "must be at least " + min + ", was " + value);
        }
    }

    public void between(String field, double value, double min, double max) {
        if (!(value >= min && value <= max)) {
            add(field, "must be between " + min + " and " + max + ", was " + value);
        }
    }

    /** {@code min} ≤ value ≤ {@code max}, the bound broken named with the value. */
    public void within(String field, long value, long min, long max) {
        if (value < min) {
            add(field, "must be at least " + min + ", was " + value);
        } else if (value > max) {
            add(field, "must be at most " + max + ", was " + value);
        }
    }

    /** Optional count: checked only when present. */
    public void withinIfPresent(String field, Integer value, long min, long max) {
        if (value != null) {
            within(field, value, min, max);
        }
    }

    /** Optional run time in seconds: when present, finite, ≥ 0 and at most {@link Limits#MAX_DURATION_S}. */
    public void durationIfPresent(String field, Double seconds) {
        if (seconds != null && !(seconds >= 0 && seconds <= Limits.MAX_DURATION_S)) {
            add(field, "must be a finite number of seconds between 0 and " + (long) Limits.MAX_DURATION_S
                    + " (366 days), was " + seconds);
        }
    }

    /** Optional seconds with no upper bound of their own (a measured run time): when present, finite and ≥ 0. */
    public void finiteSeconds(String field, Double seconds) {
        if (seconds != null && !(seconds >= 0 && Double.isFinite(seconds))) {
            add(field, "must be a finite number of seconds >= 0, was " + seconds);
        }
    }

    /**
     * Optional free text that is shown, logged or used as a label ({@code jobName}, {@code model}, a reason): when
     * present, at most {@code max} characters and none that can forge a log line or hide text (control characters such
     * as a line break, and invisible format characters such as a right-to-left override). The value is not quoted.
     */
    public void textIfPresent(String field, String value, int max) {
        if (value == null) {
            return;
        }
        if (value.length() > max) {
            add(field, "must be at most " + max + " characters, was " + value.length());
            return;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isISOControl(c) || Character.getType(c) == Character.FORMAT) {
                add(field, String.format(java.util.Locale.ROOT, "must not contain control or format characters, "
                        + "has U+%04X at index %d", (int) c, i));
                return;
            }
        }
    }

    /** A required node name ({@link Names#isNode}). */
    public void node(String field, String node) {
        if (notBlank(field, node) && !Names.isNode(node)) {
            add(field, nameProblem(node, Limits.MAX_NODE_NAME_LENGTH, Names.NODE_RULE));
        }
    }

    /** Node names of a placed stint, each a {@link Names#isNode}; at most {@link Limits#MAX_TASKS}. */
    private void nodes(List<String> nodes) {
        atMost("nodes", nodes, Limits.MAX_TASKS);
        if (nodes != null && nodes.size() <= Limits.MAX_TASKS) {
            for (int i = 0; i < nodes.size(); i++) {
                node("nodes[" + i + "]", nodes.get(i));
            }
        }
    }

    /** A required job id ({@link Names#isJobId}). */
    public void jobId(String field, String id) {
        if (notBlank(field, id) && !Names.isJobId(id)) {
            add(field, nameProblem(id, Limits.MAX_JOB_ID_LENGTH, Names.JOB_ID_RULE));
        }
    }

    /** A required user name ({@link Names#isUser}). */
    public void user(String field, String user) {
        if (notBlank(field, user)) {
            userIfPresent(field, user);
        }
    }

    /** An optional user name: when present, it follows {@link Names#USER}. */
    public void userIfPresent(String field, String user) {
        if (user != null && !Names.isUser(user)) {
            add(field, nameProblem(user, Limits.MAX_USER_LENGTH, Names.USER_RULE));
        }
    }

    /**
     * Where a stint ran, in the events that end one ({@code JobCompleted}, {@code JobFailed}, {@code JobPreempted}):
     * the job, its user when named, and the nodes and per-task request when known.
     */
    public void endedStint(String jobId, String user, List<String> nodes, ResourceAmounts perTask) {
        jobId("jobId", jobId);
        userIfPresent("user", user);
        // Bounded in number only: an end may be reported for pods that never reached a node.
        atMost("nodes", nodes, Limits.MAX_TASKS);
        perTaskIfPresent("perTask", perTask);
    }

    /**
     * Where a stint is placed, in the events that start one ({@code SchedulingDecision}, {@code JobStarted}): the
     * job, its user when named, at least one node and the per-task request.
     */
    public void placedStint(String jobId, String user, List<String> nodes, ResourceAmounts perTask) {
        jobId("jobId", jobId);
        userIfPresent("user", user);
        notEmpty("nodes", nodes);
        nodes(nodes);
        perTask("perTask", perTask);
    }

    /** The reason never quotes the value: it may be huge or carry characters that do not belong in a header or log. */
    private static String nameProblem(String value, int max, String rule) {
        return value.length() > max ? "must be at most " + max + " characters, was " + value.length()
                : "must be " + rule;
    }

    /** Non-negative amounts, with no upper bound: a node's capacity or allocation. */
    public void resources(String field, ResourceAmounts r) {
        if (present(field, r)) {
            atLeast(field + ".gpuMilli", r.gpuMilli(), 0);
            atLeast(field + ".cpuMilli", r.cpuMilli(), 0);
            atLeast(field + ".memoryMib", r.memoryMib(), 0);
        }
    }

    /** What one pod of a job requests: required, each amount between 0 and its {@link Limits} bound. */
    public void perTask(String field, ResourceAmounts r) {
        if (present(field, r)) {
            perTaskAmounts(field, r);
        }
    }

    /** As {@link #perTask}, when present. */
    public void perTaskIfPresent(String field, ResourceAmounts r) {
        if (r != null) {
            perTaskAmounts(field, r);
        }
    }

    private void perTaskAmounts(String field, ResourceAmounts r) {
        within(field + ".gpuMilli", r.gpuMilli(), 0, Limits.MAX_GPU_MILLI_PER_TASK);
        within(field + ".cpuMilli", r.cpuMilli(), 0, Limits.MAX_CPU_MILLI_PER_TASK);
        within(field + ".memoryMib", r.memoryMib(), 0, Limits.MAX_MEMORY_MIB_PER_TASK);
    }
}
