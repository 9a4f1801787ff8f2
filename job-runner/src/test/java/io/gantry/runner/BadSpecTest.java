package io.gantry.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gantry.events.EventCodec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each kind of bad spec fails before any training, with exit code 2 and a reason naming the layer or field. */
class BadSpecTest {

    @TempDir
    Path tmp;

    private String failure(Consumer<ObjectNode> breakIt) throws Exception {
        ObjectNode spec = (ObjectNode) EventCodec.mapper().valueToTree(Specs.digitsCnn(2, null, 1L));
        breakIt.accept(spec);
        Path file = tmp.resolve("spec.json");
        Files.writeString(file, spec.toString());
        Path dir = tmp.resolve("ckpt-" + System.nanoTime());
        EventSink.Collecting sink = new EventSink.Collecting(null);
        int code = JobRunner.run(new JobRunner.Args(file, "bad-1", "bob", 1, dir, Specs.datasets(), null, null, null),
                sink, () -> false, new PrintStream(new ByteArrayOutputStream()));
        assertEquals(JobRunner.EXIT_BAD_SPEC, code);
        assertTrue(sink.events.isEmpty(), "nothing trained, nothing reported");
        return Files.readString(dir.resolve("failure.txt")).trim();
    }

    private static ObjectNode layer(ObjectNode spec, int i) {
        return (ObjectNode) spec.get("model").get("layers").get(i);
    }

    @Test
    void unknownLayer() throws Exception {
        String why = failure(s -> layer(s, 3).put("type", "Swish"));
        assertTrue(why.startsWith("training.model.layers[3].type:") && why.contains("layer 'relu1'"), why);
    }

    @Test
    void shapeMismatchNamesTheLayerAndBothShapes() throws Exception {
        // The Flatten made a ReLU: the Linear layer gets the [8, 4, 4] feature maps.
        String why = failure(s -> layer(s, 5).put("type", "ReLU"));
        assertTrue(why.contains("layer 'fc' (Linear) needs a flat input") && why.contains("[8, 4, 4]"), why);
        String kernel = failure(s -> ((ObjectNode) layer(s, 1).get("params")).put("kernel", 11));
        assertTrue(kernel.contains("layer 'conv1' (Conv2d)") && kernel.contains("kernel 11")
                && kernel.contains("[1, 8, 8]"), kernel);
    }

    @Test
    void unknownDataset() throws Exception {
        String why = failure(s -> s.put("dataset", "cifar10"));
        assertTrue(why.startsWith("training.dataset:") && why.contains("digits, iris, wine, breast-cancer"), why);
    }

    @Test
    void absurdHyperParameters() throws Exception {
        assertTrue(failure(s -> s.put("learningRate", 1e6)).startsWith("training.learningRate:"));
        assertTrue(failure(s -> s.put("batchSize", 0)).startsWith("training.batchSize:"));
        assertTrue(failure(s -> s.put("epochs", 1_000_000)).startsWith("training.epochs:"));
        assertTrue(failure(s -> ((ObjectNode) layer(s, 6).get("params")).put("rate", 3.0))
                .startsWith("training.model.layers[6].params.rate:"));
    }

    @Test
    void unreadableSpec() throws Exception {
        Path file = tmp.resolve("spec.json");
        Files.writeString(file, "{\"model\": ");
        int code = JobRunner.run(new JobRunner.Args(file, "bad-2", "bob", 1, tmp.resolve("c"), Specs.datasets(), null,
                null, null), new EventSink.Collecting(null), () -> false, new PrintStream(new ByteArrayOutputStream()));
        assertEquals(JobRunner.EXIT_BAD_SPEC, code);
        assertTrue(Files.readString(tmp.resolve("c/failure.txt")).startsWith("training: cannot read the spec"));
    }
}
