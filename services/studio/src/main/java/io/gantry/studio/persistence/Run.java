package io.gantry.studio.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.List;

/**
 * One job submitted from the studio and what the lifecycle topic has said of it. JSON columns hold what the studio
 * only passes through: the submitted spec, the tuner's changes and the runner's result.
 */
@Entity
@Table(name = "studio_run")
public class Run extends PanacheEntityBase {

    @Id
    @Column(name = "job_id")
    public String jobId;
    public String owner;
    @Column(name = "graph_id")
    public Long graphId;
    @Column(name = "graph_version")
    public Integer graphVersion;
    public String dataset;
    @Column(name = "spec_json")
    public String specJson;
    public String state;
    @Column(name = "submitted_at")
    public Instant submittedAt;
    @Column(name = "updated_at")
    public Instant updatedAt;
    @Column(name = "started_at")
    public Instant startedAt;
    public Integer epoch;
    public int epochs;
    @Column(name = "last_accuracy")
    public Double lastAccuracy;
    public String node;
    @Column(name = "failure_reason")
    public String failureReason;
    @Column(name = "cancel_requested")
    public boolean cancelRequested;
    @Column(name = "tuning_json")
    public String tuningJson;
    @Column(name = "result_json")
    public String resultJson;

    /** The run {@code jobId} if {@code owner} made it; another user's run is as absent as a missing one. */
    public static Run owned(String jobId, String owner) {
        Run r = findById(jobId);
        return r != null && r.owner.equals(owner) ? r : null;
    }

    public static List<Run> ofOwner(String owner) {
        return list("owner = ?1 order by submittedAt desc", owner);
    }
}
