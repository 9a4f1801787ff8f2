package io.gantry.scheduling.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The core's layer rule (DESIGN, issue 14): it knows no service, no Quarkus, no Kafka, no DJL, and reads no environment
 * variable; whoever drives it passes its settings in.
 */
class CoreLayerTest {

    private static final Pattern FORBIDDEN = Pattern.compile(
            "System\\.getenv|^import (io\\.quarkus|org\\.apache\\.kafka|io\\.smallrye|ai\\.djl|io\\.gantry\\.(scheduler|dispatcher|tuner|accounting|ingest))\\.",
            Pattern.MULTILINE);

    @Test
    void theCoreReadsNoEnvironmentAndImportsNoServiceOrFramework() throws IOException {
        Path main = Path.of("src/main/java");
        assertTrue(Files.isDirectory(main), "run from scheduling-core: " + main.toAbsolutePath());
        List<String> breaches;
        try (Stream<Path> files = Files.walk(main)) {
            breaches = files.filter(f -> f.toString().endsWith(".java")).flatMap(f -> {
                try {
                    var m = FORBIDDEN.matcher(Files.readString(f));
                    return m.results().map(r -> main.relativize(f) + ": " + r.group()).toList().stream();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).toList();
        }
        assertEquals(List.of(), breaches);
    }
}
