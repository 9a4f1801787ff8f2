package io.gantry.monitoring;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** grafana/dashboards/*.json and the PromQL of every target of every panel. */
final class Dashboards {

    private static final ObjectMapper JSON = new ObjectMapper();
    static final Path DIR = Tools.ROOT.resolve("grafana/dashboards");

    record Query(String dashboard, String panel, String expr) {
        @Override
        public String toString() {
            return dashboard + " / " + panel + ": " + expr;
        }
    }

    private Dashboards() {
    }

    static List<JsonNode> all() throws IOException {
        List<JsonNode> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(DIR)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                out.add(JSON.readTree(f.toFile()));
            }
        }
        return out;
    }

    static List<Query> queries() throws IOException {
        List<Query> out = new ArrayList<>();
        for (JsonNode d : all()) {
            for (JsonNode p : d.path("panels")) {
                for (JsonNode t : p.path("targets")) {
                    out.add(new Query(d.path("title").asText(), p.path("title").asText(), t.path("expr").asText()));
                }
            }
        }
        return out;
    }
}
