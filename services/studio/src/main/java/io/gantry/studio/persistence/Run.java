package io.gantry.studio.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
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
    public String jobId;
    public String owner;
    public Long graphId;
    public Integer graphVersion;
    public String dataset;
    public String specJson;
    public String state;
    public Instant submittedAt;
    public Instant updatedAt;
    public Instant startedAt;
    public Integer epoch;
    public int epochs;
    public Double lastAccuracy;
    public String node;
    public String failureReason;
    public boolean cancelRequested;
    public String tuningJson;
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
