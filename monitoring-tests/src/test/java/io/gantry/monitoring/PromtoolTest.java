package io.gantry.monitoring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** prometheus/ as Prometheus' own tool reads it. */
class PromtoolTest {

    @Test
    void theConfigurationAndItsRuleFilesAreValid() throws Exception {
        Tools.Result r = Tools.run(List.of(Tools.require(Tools.PROMTOOL).toString(), "check", "config",
                "prometheus/prometheus.yml"));
        assertEquals(0, r.exitCode(), r.output());
        // The alert rules must be loaded by the configuration, not only exist beside it.
        assertTrue(r.output().contains("alerts.yml") && r.output().contains("4 rules found"), r.output());
    }

    @Test
    void everyAlertRulePassesItsUnitTests() throws Exception {
        Tools.Result r = Tools.run(List.of(Tools.require(Tools.PROMTOOL).toString(), "test", "rules",
                "prometheus/alerts_test.yml"));
        assertEquals(0, r.exitCode(), r.output());
        assertTrue(r.output().contains("SUCCESS"), r.output());
    }

    @Test
    void everyAlertRuleHasAUnitTest() throws Exception {
        Set<String> rules = names(Files.readString(Tools.ROOT.resolve("prometheus/alerts.yml")),
                Pattern.compile("(?m)^\\s*- alert: (\\S+)"));
        Set<String> tested = names(Files.readString(Tools.ROOT.resolve("prometheus/alerts_test.yml")),
                Pattern.compile("(?m)^\\s*alertname: (\\S+)"));
        assertTrue(rules.size() >= 4, "rules: " + rules);
        assertEquals(rules, tested, "every rule, and only those, has alert_rule_test cases");
        // Each tested rule must have a case where it fires (not only empty expectations).
        String tests = Files.readString(Tools.ROOT.resolve("prometheus/alerts_test.yml"));
        for (String rule : rules) {
            Matcher m = Pattern.compile("alertname: " + rule + "\\s+exp_alerts:\\s+- exp_labels").matcher(tests);
            assertTrue(m.find(), rule + " has no test case in which it fires");
        }
    }

    private static Set<String> names(String text, Pattern p) {
        Set<String> out = new HashSet<>();
        Matcher m = p.matcher(text);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }
}
