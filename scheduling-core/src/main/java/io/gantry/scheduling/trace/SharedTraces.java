package io.gantry.scheduling.trace;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the shared, read-only traces live. Never copied into the repository: tests and the bench read
 * them in place. Order: the caller's setting (a service's config, the command line's environment: the core reads no
 * environment), system property {@code gantry.shared.dir} (surefire sets it), then {@code ../shared} next to the
 * project root.
 */
public final class SharedTraces {

    private SharedTraces() {
    }

    public static Path sharedDir() {
        return sharedDir(null);
    }

    /** {@code configured}: the caller's own setting, or null/blank to fall back to the property and the default. */
    public static Path sharedDir(String configured) {
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        String prop = System.getProperty("gantry.shared.dir");
        if (prop != null && !prop.isBlank()) {
            return Path.of(prop);
        }
        Path dir = Path.of("").toAbsolutePath();
        // Walk up to the project root (the directory holding mvnw), then to its sibling "shared".
        for (Path p = dir; p != null; p = p.getParent()) {
            if (Files.exists(p.resolve("mvnw")) && Files.isDirectory(p.resolveSibling("shared"))) {
                return p.resolveSibling("shared");
            }
        }
        return dir.resolve("../shared").normalize();
    }

    public static Path tracesDir() {
        return sharedDir().resolve("traces");
    }
}
