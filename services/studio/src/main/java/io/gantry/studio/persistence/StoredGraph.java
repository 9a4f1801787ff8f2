package io.gantry.studio.persistence;

import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.List;

/** A named graph of one user; its content lives in its {@link GraphVersion}s. */
@Entity
@Table(name = "studio_graph")
public class StoredGraph extends GeneratedIdEntity {

    public String owner;
    public String name;
    public Instant createdAt;
    public Instant updatedAt;

    /** The graph {@code id} if {@code owner} owns it: another user's graph is as absent as a missing one. */
    public static StoredGraph owned(long id, String owner) {
        StoredGraph g = findById(id);
        return g != null && g.owner.equals(owner) ? g : null;
    }

    public static List<StoredGraph> ofOwner(String owner) {
        return list("owner = ?1 order by updatedAt desc, id desc", owner);
    }
}
