package io.gantry.monitoring;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric families of one Prometheus text exposition ({@code /q/metrics}): name, type and the label names its
 * samples carry. A counter is named with its {@code _total}, as it is queried; histogram and summary samples
 * ({@code _bucket}, {@code _count}, {@code _sum}) belong to their family, {@code le} and {@code quantile} are not labels.
 */
record MetricsExposition(Map<String, Family> families) {

    record Family(String name, String type, Set<String> labels) {
    }

    private static final Pattern TYPE = Pattern.compile("^# TYPE (\\S+) (\\S+)$");
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)})?\\s+\\S+.*$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"(?:[^\"\\\\]|\\\\.)*\"");

    static MetricsExposition parse(String text) {
        Map<String, Family> families = new TreeMap<>();
        Map<String, String> typeByName = new TreeMap<>();
        for (String line : text.split("\n")) {
            Matcher t = TYPE.matcher(line);
            if (t.matches()) {
                String name = t.group(2).equals("counter") && !t.group(1).endsWith("_total")
                        ? t.group(1) + "_total" : t.group(1);
                typeByName.put(name, t.group(2));
                families.put(name, new Family(name, t.group(2), new LinkedHashSet<>()));
                continue;
            }
            if (line.startsWith("#") || line.isBlank()) {
                continue;
            }
            Matcher s = SAMPLE.matcher(line);
            if (!s.matches()) {
                throw new IllegalArgumentException("not a sample line: " + line);
            }
            // A sample no # TYPE line announces (e.g. Micrometer's long-task timers' _active_count) is its own
            // family of unknown type: a gantry_ one then fails the type comparison instead of passing unseen.
            Family f = families.computeIfAbsent(familyOf(s.group(1), typeByName),
                    name -> new Family(name, "unknown", new LinkedHashSet<>()));
            if (s.group(3) != null) {
                Matcher l = LABEL.matcher(s.group(3));
                while (l.find()) {
                    if (!l.group(1).equals("le") && !l.group(1).equals("quantile")) {
                        f.labels().add(l.group(1));
                    }
                }
            }
        }
        return new MetricsExposition(families);
    }

    private static String familyOf(String sample, Map<String, String> typeByName) {
        if (typeByName.containsKey(sample)) {
            return sample;
        }
        for (String suffix : new String[] {"_bucket", "_count", "_sum", "_created"}) {
            String base = sample.endsWith(suffix) ? sample.substring(0, sample.length() - suffix.length()) : null;
            if (base != null && typeByName.containsKey(base)) {
                return base;
            }
        }
        return sample;
    }
}
