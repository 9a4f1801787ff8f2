package io.gantry.studio.persistence;

import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.List;

/** One saved, immutable version of a graph: the ModelGraph JSON and the dataset it was designed for. */
@Entity
@Table(name = "studio_graph_version")
public class GraphVersion extends GeneratedIdEntity {

    public long graphId;
    public int version;
    public String graphJson;
    public String dataset;
    public Instant createdAt;

    public static List<GraphVersion> of(long graphId) {
        return list("graphId = ?1 order by version", graphId);
    }

    public static GraphVersion find(long graphId, int version) {
        return find("graphId = ?1 and version = ?2", graphId, version).firstResult();
    }

    public static int latest(long graphId) {
        Integer v = getEntityManager().createQuery("select max(v.version) from GraphVersion v where v.graphId = ?1",
                Integer.class).setParameter(1, graphId).getSingleResult();
        return v == null ? 0 : v;
    }
}
