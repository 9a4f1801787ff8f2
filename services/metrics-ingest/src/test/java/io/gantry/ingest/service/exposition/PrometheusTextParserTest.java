package io.gantry.ingest.service.exposition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.ingest.service.NodeReading;
import io.gantry.ingest.service.SourceReading;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusTextParserTest {

    @Test
    void readsLabelsWithEscapesSpecialValuesAndTimestamps() {
        ParsedExposition p = PrometheusTextParser.parse("""
                # HELP x_total A counter.
                # TYPE x_total counter
                x_total{path="a\\"b\\\\c\\nd",code="200",} 1.5e3 1700000000000
                up 1
                  weird:name_2 { a = "1" , b="" } +Inf
                nan_metric NaN
                neg{} -Inf
                """);
        assertEquals(List.of(), p.errors());
        assertEquals(5, p.samples().size());
        Sample x = p.samples().get(0);
        assertEquals("x_total", x.name());
        assertEquals(Map.of("path", "a\"b\\c\nd", "code", "200"), x.labels());
        assertEquals(1500.0, x.value());
        assertEquals(1_700_000_000_000L, x.timestampMs());
        assertEquals(3, x.line());
        assertEquals(Map.of(), p.samples().get(1).labels());
        assertNull(p.samples().get(1).timestampMs());
        assertEquals(Map.of("a", "1", "b", ""), p.samples().get(2).labels());
        assertEquals(Double.POSITIVE_INFINITY, p.samples().get(2).value());
        assertTrue(Double.isNaN(p.samples().get(3).value()));
        assertEquals(Double.NEGATIVE_INFINITY, p.samples().get(4).value());
    }

    @Test
    void reportsEachBrokenLineWithItsNumberAndKeepsTheRest() {
        ParsedExposition p = PrometheusTextParser.parse(String.join("\n",
                "good 1",
                "no_value{a=\"1\"}",
                "bad_escape{a=\"\\x\"} 1",
                "java_suffix 1d",
                "unclosed{a=\"1} 2",
                "dup{a=\"1\",a=\"2\"} 3",
                "{a=\"1\"} 4",
                "two_timestamps 1 2 3",
                "also_good{le=\"0.5\"} 0.25"));
        assertEquals(2, p.samples().size());
        assertEquals(List.of(2, 3, 4, 5, 6, 7, 8), p.errors().stream().map(ParsedExposition.LineError::line).toList());
        assertTrue(p.errors().get(1).reason().contains("unknown escape"), p.errors().get(1).reason());
        assertTrue(p.errors().get(2).reason().contains("'1d' is not a number"), p.errors().get(2).reason());
        assertTrue(p.errors().get(4).reason().contains("appears twice"), p.errors().get(4).reason());
    }

    @Test
    void cpuRateNeedsTwoScrapesAndIsUnknownAfterACounterReset() {
        ExpositionInterpreter interpreter = new ExpositionInterpreter();
        assertNull(read(interpreter, 100, 50).cpuUtilisation(), "first scrape");
        assertEquals(0.75, read(interpreter, 110, 52.5).cpuUtilisation(), "2.5 idle seconds of 10: 75 % busy");
        assertNull(read(interpreter, 120, 1).cpuUtilisation(), "idle counter went back: a reboot, no rate");
        assertEquals(0.0, read(interpreter, 130, 11).cpuUtilisation());
    }

    private static NodeReading read(ExpositionInterpreter interpreter, double time, double idle) {
        SourceReading r = interpreter.interpret(PrometheusTextParser.parse("""
                kube_node_status_capacity{node="n1",resource="cpu"} 1
                node_cpu_seconds_total{cpu="0",instance="n1:9100",mode="idle"} %s
                node_time_seconds{instance="n1:9100"} %s
                """.formatted(idle, time)));
        assertEquals(List.of(), r.rejections());
        assertEquals("n1", r.nodes().get(0).node(), "instance n1:9100 is node n1");
        return r.nodes().get(0);
    }
}
