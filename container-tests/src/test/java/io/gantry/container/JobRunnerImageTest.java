package io.gantry.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gantry.events.EventCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The job-runner image (issue 15's runner, issue 18's image) trains a small spec on a real dataset mounted from
 * ../shared/datasets, in a container, as a pod would run it: dry run (events printed, no broker), exit 0, and a
 * JobResult for the job with a test accuracy.
 */
class JobRunnerImageTest {

    @Test
    void theImageTrainsASpecAndReportsItsResult() throws Exception {
        String engine = ComposeStack.engineOrSkip(List.of("job-runner"));
        Path datasets = Path.of(System.getProperty("gantry.shared.dir", ComposeStack.ROOT.resolve("../shared").toString()))
                .resolve("datasets").toAbsolutePath().normalize();
        assertTrue(Files.isDirectory(datasets), datasets + " is missing: the real datasets live beside the project");
        Path dir = ComposeStack.ROOT.resolve("container-tests/target/job-runner");
        Files.createDirectories(dir);
        Path spec = dir.resolve("spec.json");
        Files.writeString(spec, """
                {"model": {"layers": [{"id": "in", "type": "Input"}, {"id": "h", "type": "Linear", "params": {"units": 8}},
                                      {"id": "r", "type": "ReLU"}, {"id": "out", "type": "Output"}],
                           "edges": [{"from": "in", "to": "h"}, {"from": "h", "to": "r"}, {"from": "r", "to": "out"}]},
                 "dataset": "iris", "optimizer": "adam", "learningRate": 0.05, "batchSize": 16, "epochs": 5, "seed": 7,
                 "target": {"metric": "test_accuracy", "value": 0.99}}
                """);
        String out = ComposeStack.output(List.of(engine, "run", "--rm", "-v", datasets + ":/datasets:ro",
                "-v", spec + ":/spec.json:ro", "localhost/gantry/job-runner:" + ComposeStack.IMAGE_TAG,
                "--spec", "/spec.json", "--job-id", "image-smoke-1", "--user", "alice",
                "--checkpoint-dir", "/var/lib/gantry/image-smoke-1", "--datasets", "/datasets"));
        JsonNode result = null;
        for (String line : out.split("\n")) {
            if (line.startsWith("{") && line.contains("\"JobResult\"")) {
                result = EventCodec.mapper().readTree(line);
            }
        }
        assertTrue(result != null, "no JobResult from the container:\n" + out);
        assertEquals("image-smoke-1", result.get("jobId").asText());
        double accuracy = result.get("testAccuracy").asDouble();
        assertTrue(accuracy > 0 && accuracy <= 1, "test accuracy " + accuracy);
        assertTrue(out.contains("job-runner: done"), out);
    }
}
