package io.gantry.deploy;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * What a service really serves, read from its own sources (pom.xml and application.properties), so the deployment
 * files are checked against the code and not against a second copy of the same assumptions.
 */
final class ServiceSources {

    static final Path ROOT = Path.of(System.getProperty("gantry.root", "..")).toAbsolutePath().normalize();

    /** The environment variable a service's own default for its data directory reads ({@code ${GANTRY_DATA_DIR:…}}). */
    static final String DATA_DIR_ENV = "GANTRY_DATA_DIR";

    final String name;
    final Properties properties = new Properties();
    final String pom;

    private ServiceSources(String name) {
        this.name = name;
        Path dir = ROOT.resolve("services").resolve(name);
        try (Reader r = Files.newBufferedReader(dir.resolve("src/main/resources/application.properties"))) {
            properties.load(r);
            pom = Files.readString(dir.resolve("pom.xml"));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the sources of service " + name + " under " + dir, e);
        }
    }

    static ServiceSources of(String service) {
        return new ServiceSources(service);
    }

    /** A property as Quarkus would see it with {@code profile} active (null: the default profile). */
    Optional<String> property(String key, String profile) {
        String value = profile == null ? null : properties.getProperty("%" + profile + "." + key);
        if (value == null) {
            value = properties.getProperty(key);
        }
        return Optional.ofNullable(value).map(String::trim);
    }

    int httpPort() {
        return Integer.parseInt(property("quarkus.http.port", null)
                .orElseThrow(() -> new AssertionError(name + ": quarkus.http.port not set")));
    }

    /** A source file of the service, relative to its {@code src/main/java}. */
    String javaSource(String relativePath) {
        Path file = ROOT.resolve("services").resolve(name).resolve("src/main/java").resolve(relativePath);
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
    }

    boolean hasDependency(String artifactId) {
        return pom.contains("<artifactId>" + artifactId + "</artifactId>");
    }

    /**
     * Where Quarkus serves a management path: under {@code quarkus.http.non-application-root-path} (default {@code q})
     * unless the path itself is absolute, as the Quarkus guides describe for SmallRye Health and Micrometer.
     */
    private String nonApplication(String path) {
        if (path.startsWith("/")) {
            return path;
        }
        String root = property("quarkus.http.non-application-root-path", null).orElse("q");
        root = root.startsWith("/") ? root : "/" + root;
        return root.replaceAll("/+$", "") + "/" + path;
    }

    /** SmallRye Health's endpoint for {@code kind} (live, ready, started), with every override the service makes. */
    String healthPath(String kind) {
        String root = nonApplication(property("quarkus.smallrye-health.root-path", null).orElse("health"));
        String sub = property("quarkus.smallrye-health." + switch (kind) {
            case "live" -> "liveness-path";
            case "ready" -> "readiness-path";
            case "started" -> "startup-path";
            default -> throw new IllegalArgumentException(kind);
        }, null).orElse(kind);
        return sub.startsWith("/") ? sub : root.replaceAll("/+$", "") + "/" + sub;
    }

    /** Micrometer's Prometheus endpoint. */
    String metricsPath() {
        return nonApplication(property("quarkus.micrometer.export.prometheus.path", null).orElse("metrics"));
    }

    /** The image Quarkus' container-image extension (Jib) names for this service when built with {@code profile}. */
    String image(String profile) {
        String group = property("quarkus.container-image.group", profile)
                .orElseThrow(() -> new AssertionError(name + ": quarkus.container-image.group not set: Quarkus would"
                        + " use the build machine's user name, which no deployment file can know"));
        String image = property("quarkus.container-image.name", profile)
                .orElse(property("quarkus.application.name", profile).orElseThrow());
        String tag = property("quarkus.container-image.tag", profile).orElse("${quarkus.application.version}")
                .replace("${quarkus.application.version}", projectVersion());
        return group + "/" + image + ":" + tag;
    }

    /** The version every module inherits from the root pom (Quarkus' quarkus.application.version). */
    static String projectVersion() {
        try {
            Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(ROOT.resolve("pom.xml").toFile());
            NodeList children = doc.getDocumentElement().getChildNodes();
            for (int i = 0; i < children.getLength(); i++) {
                if (children.item(i) instanceof Element e && e.getTagName().equals("version")) {
                    return e.getTextContent().trim();
                }
            }
            throw new AssertionError("root pom.xml has no <version>");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
