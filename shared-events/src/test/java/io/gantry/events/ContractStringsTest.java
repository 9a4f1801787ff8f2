package io.gantry.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Strings a user gives reach log lines, metric labels and pages: bounded, and free of characters that forge a line or
 * hide text; node names (metric labels) follow one rule; an event longer than {@link Limits#MAX_EVENT_LENGTH} is
 * refused before it is parsed. No reason quotes the value.
 */
class ContractStringsTest {

    @Test
    void freeTextHasNoLineBreaksControlOrInvisibleFormatCharacters() throws Exception {
        for (Class<? extends GantryEvent> t : List.of(JobSubmitted.class, JobTuned.class)) {
            assertEquals(List.of(new Violation("jobName", "must not contain control or format characters, has U+000A at index 4")),
                    ContractBoundsTest.violations(t, n -> n.put("jobName", "swee\nINFO forged log line")));
            assertEquals(List.of(new Violation("model", "must not contain control or format characters, has U+202E at index 0")),
                    ContractBoundsTest.violations(t, n -> n.put("model", "\u202Eelif")));
            assertEquals(List.of(new Violation("jobName", "must be at most 253 characters, was 254")),
                    ContractBoundsTest.violations(t, n -> n.put("jobName", "x".repeat(254))));
            // Any letters of any script are fine, and so are spaces.
            assertEquals(List.of(), ContractBoundsTest.violations(t, n -> n.put("jobName", "résumé 训练 #7")));
        }
        assertEquals(List.of(new Violation("reason", "must not contain control or format characters, has U+000D at index 3")),
                ContractBoundsTest.violations(JobCancelRequested.class, n -> n.put("reason", "bye\r\n")));
    }

    @Test
    void nodeNamesFollowOneRuleWhereverTheyAppear() throws Exception {
        String rule = "must be 1-253 of letters, digits, '.', '_', ':', '-', starting with a letter or digit";
        assertEquals(List.of(new Violation("node", rule)), ContractBoundsTest.violations(NodeMetrics.class, n -> n.put("node", "a b")));
        assertEquals(List.of(new Violation("node", "must be at most 253 characters, was 254")),
                ContractBoundsTest.violations(NodeMetrics.class, n -> n.put("node", "n".repeat(254))));
        assertEquals(List.of(), ContractBoundsTest.violations(NodeMetrics.class, n -> n.put("node", "ip-10-0-1-7.eu-west-1.compute.internal")));
        assertEquals(List.of(new Violation("nodes[1]", rule)), ContractBoundsTest.violations(SchedulingDecision.class, n -> {
            n.remove("gpuDevices"); // one list per task: the sample's single one would not match two nodes
            ArrayNode nodes = n.putArray("nodes");
            nodes.add("sim-node-01");
            nodes.add("node\"}{");
        }));
        assertTrue(Names.isNode("sim-node-01"));
        assertFalse(Names.isNode("-lead"));
    }

    @Test
    void anEventLongerThanTheBoundIsRefusedBeforeItIsRead() {
        String huge = "{\"type\":\"JobSubmitted\",\"jobName\":\"" + "x".repeat(Limits.MAX_EVENT_LENGTH) + "\"}";
        InvalidEventException e = assertThrows(InvalidEventException.class, () -> EventCodec.decode(huge, JobSubmitted.class));
        assertEquals(List.of(new Violation("$", "is " + huge.length() + " characters, more than the 524288 an event may have")),
                e.violations());
    }
}
