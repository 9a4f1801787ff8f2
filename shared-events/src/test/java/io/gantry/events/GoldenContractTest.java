package io.gantry.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every event type against its golden JSON file, both ways: the sample encodes to exactly the file, and the
 * file decodes to exactly the sample. A contract change fails here until the golden file is rewritten on
 * purpose with {@code -Dgolden.write=true}.
 */
class GoldenContractTest {

    private static final Path GOLDEN = Path.of("src/test/resources/golden");
    private static final ObjectMapper PLAIN = new ObjectMapper();

    @TestFactory
    Stream<DynamicTest> everyEventMatchesItsGoldenFile() {
        return SampleEvents.all().stream().map(sample -> DynamicTest.dynamicTest(sample.type(), () -> {
            Path file = GOLDEN.resolve(sample.type() + ".json");
            String encoded = EventCodec.encode(sample);
            if (Boolean.getBoolean("golden.write")) {
                Files.writeString(file, PLAIN.writerWithDefaultPrettyPrinter().writeValueAsString(PLAIN.readTree(encoded)) + "\n");
            }
            String golden = Files.readString(file);
            JsonNode expected = PLAIN.readTree(golden);
            assertEquals(expected, PLAIN.readTree(encoded), "encoding of " + sample.type() + " differs from " + file);
            assertEquals(sample.type(), expected.get("type").asText());
            assertEquals(sample, EventCodec.decode(golden), "decoding " + file);
        }));
    }

    @Test
    void everyTypeHasASampleAndAGoldenFile() throws Exception {
        Set<String> sampled = new HashSet<>();
        SampleEvents.all().forEach(e -> sampled.add(e.type()));
        Set<String> declared = new HashSet<>();
        for (var t : GantryEvent.class.getAnnotation(com.fasterxml.jackson.annotation.JsonSubTypes.class).value()) {
            declared.add(t.name());
        }
        assertEquals(declared, sampled);
        try (Stream<Path> files = Files.list(GOLDEN)) {
            Set<String> golden = new HashSet<>();
            files.forEach(f -> golden.add(f.getFileName().toString().replace(".json", "")));
            assertEquals(declared, golden);
        }
    }

    @Test
    void everyEnvelopeCarriesTheCommonFields() throws Exception {
        for (GantryEvent e : SampleEvents.all()) {
            JsonNode n = PLAIN.readTree(EventCodec.encode(e));
            for (String f : new String[]{"eventId", "type", "schemaVersion", "occurredAt"}) {
                assertTrue(n.hasNonNull(f), e.type() + " lacks " + f);
            }
            assertTrue(n.get("occurredAt").isTextual(), "timestamps are ISO-8601 strings");
        }
    }
}
