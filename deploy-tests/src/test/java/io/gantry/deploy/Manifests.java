package io.gantry.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/** The documents of a kustomize build (or of a plain manifest file), read with fabric8's model. */
final class Manifests {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    final List<HasMetadata> resources;

    private Manifests(List<HasMetadata> resources) {
        this.resources = resources;
    }

    /**
     * {@code kubectl kustomize deploy/overlays/<overlay>}: exactly what {@code kubectl apply -k} would send.
     * kubectl is taken from {@code $KUBECTL} or the PATH. Without it the test is skipped, except under {@code CI=true}
     * (where .ci/run installs it), so CI never passes without having read the manifests.
     */
    static Manifests kustomize(String overlay) {
        String kubectl = System.getenv().getOrDefault("KUBECTL", "kubectl");
        Path dir = ServiceSources.ROOT.resolve("deploy/overlays").resolve(overlay);
        Process process;
        try {
            process = new ProcessBuilder(kubectl, "kustomize", dir.toString())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        } catch (IOException e) {
            if ("true".equals(System.getenv("CI"))) {
                throw new AssertionError("kubectl is needed to build deploy/overlays/" + overlay + " (" + e.getMessage() + ")");
            }
            Assumptions.abort("kubectl not found (" + e.getMessage() + "): kustomize output not checked");
            throw new IllegalStateException("unreachable");
        }
        try {
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new AssertionError("kubectl kustomize " + dir + " failed (see stderr above)");
            }
            return parse(out);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Every YAML document through fabric8's deserializer: a kind fabric8 knows becomes its typed class (Deployment,
     * ClusterRole, ...); any other apiVersion/kind becomes a GenericKubernetesResource.
     */
    static Manifests parse(String yaml) throws IOException {
        List<HasMetadata> resources = new ArrayList<>();
        try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(yaml)) {
            while (docs.hasNext()) {
                JsonNode doc = docs.next();
                if (doc == null || doc.isNull() || doc.isMissingNode() || doc.isEmpty()) {
                    continue; // a document made only of comments
                }
                KubernetesResource r = SERIALIZATION.unmarshal(YAML.writeValueAsString(doc), KubernetesResource.class);
                if (!(r instanceof HasMetadata h)) {
                    throw new AssertionError("not a Kubernetes object: " + doc);
                }
                resources.add(h);
            }
        }
        return new Manifests(resources);
    }

    <T extends HasMetadata> Stream<T> all(Class<T> type) {
        return resources.stream().filter(type::isInstance).map(type::cast);
    }

    <T extends HasMetadata> T one(Class<T> type, String name) {
        List<T> found = all(type).filter(r -> name.equals(r.getMetadata().getName())).toList();
        if (found.size() != 1) {
            throw new AssertionError("expected one " + type.getSimpleName() + " " + name + ", found " + found.size());
        }
        return found.get(0);
    }

    Stream<GenericKubernetesResource> custom(String apiVersion, String kind) {
        return all(GenericKubernetesResource.class)
                .filter(r -> apiVersion.equals(r.getApiVersion()) && kind.equals(r.getKind()));
    }
}
