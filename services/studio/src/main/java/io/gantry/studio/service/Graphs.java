package io.gantry.studio.service;

import io.gantry.events.Limits;
import io.gantry.events.ModelGraph;
import io.gantry.studio.mapping.RunViews;
import io.gantry.studio.persistence.GraphVersion;
import io.gantry.studio.persistence.StoredGraph;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.time.Instant;
import java.util.List;

/**
 * Named graphs with versions, owned by the user who made them. Every save is a new version and a version never
 * changes, so a run always names exactly what it trained. A graph is saved only when it is valid on its dataset.
 */
@ApplicationScoped
public class Graphs {

    public record Save(String name, ModelGraph graph, String dataset) {
    }

    public record Saved(long id, String name, int version) {
    }

    public record Listed(long id, String name, int latestVersion, Instant updatedAt) {
    }

    public record VersionView(int version, ModelGraph graph, String dataset, Instant createdAt) {
    }

    public record Detail(long id, String name, String owner, List<VersionView> versions) {
    }

    private final GraphValidation validation;

    public Graphs(GraphValidation validation) {
        this.validation = validation;
    }

    @Transactional
    public Saved create(String owner, Save body) {
        if (body == null) {
            throw new BadRequest("body", "is required");
        }
        if (body.name() == null || body.name().isBlank() || body.name().length() > Limits.MAX_NAME_LENGTH) {
            throw new BadRequest("name", "is required, 1 to " + Limits.MAX_NAME_LENGTH + " characters");
        }
        validation.require(body.graph(), body.dataset());
        StoredGraph g = new StoredGraph();
        g.owner = owner;
        g.name = body.name().strip();
        g.createdAt = Instant.now();
        g.updatedAt = g.createdAt;
        g.persist();
        addVersion(g, 1, body);
        return new Saved(g.id, g.name, 1);
    }

    @Transactional
    public Saved update(String owner, long id, Save body) {
        StoredGraph g = owned(owner, id);
        if (body == null) {
            throw new BadRequest("body", "is required");
        }
        validation.require(body.graph(), body.dataset());
        int next = GraphVersion.latest(id) + 1;
        addVersion(g, next, body);
        g.updatedAt = Instant.now();
        return new Saved(g.id, g.name, next);
    }

    @Transactional
    public List<Listed> list(String owner) {
        return StoredGraph.ofOwner(owner).stream()
                .map(g -> new Listed(g.id, g.name, GraphVersion.latest(g.id), g.updatedAt)).toList();
    }

    @Transactional
    public Detail detail(String owner, long id) {
        StoredGraph g = owned(owner, id);
        List<VersionView> versions = GraphVersion.of(id).stream().map(v -> new VersionView(v.version,
                RunViews.read(v.graphJson, ModelGraph.class), v.dataset, v.createdAt)).toList();
        return new Detail(g.id, g.name, g.owner, versions);
    }

    private static void addVersion(StoredGraph g, int version, Save body) {
        GraphVersion v = new GraphVersion();
        v.graphId = g.id;
        v.version = version;
        v.graphJson = RunViews.json(body.graph());
        v.dataset = body.dataset();
        v.createdAt = Instant.now();
        v.persist();
    }

    private static StoredGraph owned(String owner, long id) {
        StoredGraph g = StoredGraph.owned(id, owner);
        if (g == null) {
            throw new NotFound("graph " + id);
        }
        return g;
    }
}
