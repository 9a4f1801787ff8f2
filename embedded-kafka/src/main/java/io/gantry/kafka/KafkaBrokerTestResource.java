package io.gantry.kafka;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Map;

/**
 * A real KRaft broker for {@code @QuarkusTest}s, one per test JVM, shared by every test class of a module
 * ({@code @QuarkusTestResource(KafkaBrokerTestResource.class)}). Gantry's topics exist before the app starts.
 */
public class KafkaBrokerTestResource implements QuarkusTestResourceLifecycleManager {

    private static EmbeddedKafkaBroker broker;

    /** The running broker of this JVM, started on first use. */
    public static synchronized EmbeddedKafkaBroker broker() {
        if (broker == null) {
            try {
                broker = new EmbeddedKafkaBroker(Files.createTempDirectory("gantry-kafka-test"), 0, 1).start();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            broker.createGantryTopics();
            Runtime.getRuntime().addShutdownHook(new Thread(broker::close, "kafka-test-shutdown"));
        }
        return broker;
    }

    @Override
    public Map<String, String> start() {
        return Map.of("kafka.bootstrap.servers", broker().bootstrapServers());
    }

    @Override
    public void stop() {
        // Kept for the next test class of this JVM; the shutdown hook stops it.
    }
}
