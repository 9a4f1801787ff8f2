package io.gantry.monitoring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The comparison {@link EmbeddedSystemMonitoringTest} makes, on expositions written from the README's own table:
 * they agree, and every kind of drift (a row removed, a metric not exposed, other labels, another type, an
 * undocumented metric) is reported.
 */
class ReadmeMetricsTableTest {

    private static final List<String> SERVICES =
            List.of("metrics-ingest", "job-tuner", "priority-accounting", "sac-scheduler", "pod-dispatcher");

    private static String readme() throws Exception {
        return Files.readString(Tools.ROOT.resolve("README.md"));
    }

    /** What each service would expose if the table were exactly right (one sample per family). */
    private static Map<String, StringBuilder> expositions(ReadmeMetricsTable table) {
        Map<String, StringBuilder> out = new TreeMap<>();
        SERVICES.forEach(s -> out.put(s, new StringBuilder("# TYPE jvm_threads_live_threads gauge\n"
                + "jvm_threads_live_threads 12.0\n")));
        for (ReadmeMetricsTable.Row row : table.rows().values()) {
            StringBuilder labels = new StringBuilder();
            row.labels().forEach(l -> labels.append(labels.isEmpty() ? "" : ",").append(l).append("=\"x\""));
            String sample = switch (row.type()) {
                case "histogram" -> row.metric() + "_bucket{" + labels + (labels.isEmpty() ? "" : ",") + "le=\"1.0\"} 1.0";
                case "summary" -> row.metric() + "_count{" + labels + "} 1.0";
                default -> row.metric() + "{" + labels + "} 1.0";
            };
            for (String s : row.services()) {
                out.get(s).append("# TYPE ").append(row.metric()).append(' ').append(row.type()).append('\n')
                        .append(sample).append('\n');
                if (!row.type().equals("counter") && !row.type().equals("gauge")) {
                    out.get(s).append("# TYPE ").append(row.metric()).append("_max gauge\n")
                            .append(row.metric()).append("_max 1.0\n");
                }
            }
        }
        return out;
    }

    private static Map<String, MetricsExposition> parse(Map<String, StringBuilder> texts) {
        Map<String, MetricsExposition> out = new TreeMap<>();
        texts.forEach((s, t) -> out.put(s, MetricsExposition.parse(t.toString())));
        return out;
    }

    @Test
    void anExpositionWrittenFromTheTableMatchesIt() throws Exception {
        ReadmeMetricsTable table = ReadmeMetricsTable.parse(readme(), SERVICES);
        assertEquals(List.of(), table.differences(parse(expositions(table))));
    }

    @Test
    void aRemovedRowIsReportedAsAnUndocumentedMetric() throws Exception {
        String readme = readme();
        ReadmeMetricsTable full = ReadmeMetricsTable.parse(readme, SERVICES);
        String row = readme.lines().filter(l -> l.startsWith("| `gantry_job_completion_seconds` |")).findFirst()
                .orElseThrow();
        ReadmeMetricsTable withoutRow = ReadmeMetricsTable.parse(readme.replace(row + "\n", ""), SERVICES);
        assertEquals(List.of("gantry_job_completion_seconds is exposed by pod-dispatcher but the README's table does"
                + " not list it for pod-dispatcher", "gantry_job_completion_seconds_max is exposed by pod-dispatcher"
                + " but the README's table does not list it for pod-dispatcher"),
                withoutRow.differences(parse(expositions(full))));
    }

    @Test
    void aMissingMetricOtherLabelsAnotherTypeAndAnExtraMetricAreReported() throws Exception {
        ReadmeMetricsTable table = ReadmeMetricsTable.parse(readme(), SERVICES);
        Map<String, StringBuilder> texts = expositions(table);
        String dispatcher = texts.get("pod-dispatcher").toString()
                .replace("gantry_jobs{state=\"x\"}", "gantry_jobs{state=\"x\",user=\"alice\"}")
                .replace("# TYPE gantry_dispatcher_bind_latency_seconds histogram",
                        "# TYPE gantry_dispatcher_bind_latency_seconds summary")
                .replaceAll("(?m)^.*gantry_dispatcher_stale_decisions_total.*\n", "")
                + "# TYPE gantry_dispatcher_secret_total counter\ngantry_dispatcher_secret_total 1.0\n";
        texts.put("pod-dispatcher", new StringBuilder(dispatcher));
        List<String> differences = table.differences(parse(texts));
        assertEquals(4, differences.size(), String.join("\n", differences));
        assertTrue(differences.contains("gantry_jobs on pod-dispatcher has labels [state, user], documented [state]"));
        assertTrue(differences.contains("gantry_dispatcher_bind_latency_seconds on pod-dispatcher is a summary,"
                + " documented as histogram"), String.join("\n", differences));
        assertTrue(differences.contains("gantry_dispatcher_stale_decisions_total is documented for pod-dispatcher"
                + " but not exposed there"), String.join("\n", differences));
        assertTrue(differences.contains("gantry_dispatcher_secret_total is exposed by pod-dispatcher but the README's"
                + " table does not list it for pod-dispatcher"), String.join("\n", differences));
    }
}
