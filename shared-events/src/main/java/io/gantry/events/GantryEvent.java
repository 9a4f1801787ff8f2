package io.gantry.events;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.time.Instant;
import java.util.List;

/**
 * Every event on every Gantry topic. The JSON carries {@code eventId}, {@code type}, {@code schemaVersion}
 * and {@code occurredAt}; {@code type} selects the record. Consumers are idempotent on {@code eventId}.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = JobSubmitted.class, name = JobSubmitted.TYPE),
        @JsonSubTypes.Type(value = JobTuned.class, name = JobTuned.TYPE),
        @JsonSubTypes.Type(value = UserPriority.class, name = UserPriority.TYPE),
        @JsonSubTypes.Type(value = NodeMetrics.class, name = NodeMetrics.TYPE),
        @JsonSubTypes.Type(value = SchedulingDecision.class, name = SchedulingDecision.TYPE),
        @JsonSubTypes.Type(value = JobStarted.class, name = JobStarted.TYPE),
        @JsonSubTypes.Type(value = JobProgress.class, name = JobProgress.TYPE),
        @JsonSubTypes.Type(value = JobResult.class, name = JobResult.TYPE),
        @JsonSubTypes.Type(value = JobCompleted.class, name = JobCompleted.TYPE),
        @JsonSubTypes.Type(value = JobFailed.class, name = JobFailed.TYPE),
        @JsonSubTypes.Type(value = JobPreempted.class, name = JobPreempted.TYPE),
        @JsonSubTypes.Type(value = JobRejected.class, name = JobRejected.TYPE),
        @JsonSubTypes.Type(value = PolicyUpdated.class, name = PolicyUpdated.TYPE),
        @JsonSubTypes.Type(value = JobCancelRequested.class, name = JobCancelRequested.TYPE)
})
public sealed interface GantryEvent
        permits JobEvent, UserPriority, NodeMetrics, PolicyUpdated {

    /** The only schema version this code reads and writes. A change to a contract bumps it. */
    int SCHEMA_VERSION = 1;

    String eventId();

    int schemaVersion();

    Instant occurredAt();

    /** The Kafka record key: the job id for job events, the user for priorities, the node for metrics. */
    @JsonIgnore
    String key();

    /** The name written in the {@code type} field. */
    @JsonIgnore
    default String type() {
        return getClass().getSimpleName();
    }

    /** Problems with this event's content, each naming the field; empty when valid. */
    default List<Violation> violations() {
        Violations v = new Violations();
        v.envelope(eventId(), schemaVersion(), occurredAt());
        checkBody(v);
        return v.list();
    }

    /** Adds the body's own checks; the envelope is checked for every event alike. */
    void checkBody(Violations v);
}
