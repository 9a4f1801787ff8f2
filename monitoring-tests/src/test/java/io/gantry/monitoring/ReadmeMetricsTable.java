package io.gantry.monitoring;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The README's metrics table ({@code | metric | type | labels | service | meaning |}) and its comparison with what
 * the services expose. Columns: the metric as queried (a counter with {@code _total}); {@code counter},
 * {@code gauge}, {@code histogram} or {@code summary (timer)}; label names in backticks (values in parentheses
 * are examples, {@code —} for none); {@code all} or the services, comma-separated.
 */
record ReadmeMetricsTable(Map<String, Row> rows) {

    record Row(String metric, String type, Set<String> labels, Set<String> services) {
    }

    static final String HEADER = "| metric | type | labels | service | meaning |";
    private static final Pattern BACKTICKED = Pattern.compile("`([^`]+)`");

    static ReadmeMetricsTable parse(String readme, List<String> allServices) {
        int start = readme.indexOf(HEADER);
        if (start < 0) {
            throw new IllegalArgumentException("README has no metrics table (header " + HEADER + ")");
        }
        Map<String, Row> rows = new LinkedHashMap<>();
        List<String> lines = readme.substring(start).lines().skip(2).takeWhile(l -> l.startsWith("|")).toList();
        for (String line : lines) {
            String[] cells = Arrays.stream(line.substring(1, line.length() - 1).split("\\|")).map(String::trim)
                    .toArray(String[]::new);
            if (cells.length != 5) {
                throw new IllegalArgumentException("metrics table row without 5 cells: " + line);
            }
            String metric = cells[0].replace("`", "");
            String type = cells[1].startsWith("summary") ? "summary" : cells[1];
            Set<String> labels = new TreeSet<>();
            Matcher m = BACKTICKED.matcher(cells[2].replaceAll("\\([^)]*\\)", ""));
            while (m.find()) {
                labels.add(m.group(1));
            }
            Set<String> services = cells[3].equals("all") ? new TreeSet<>(allServices)
                    : Arrays.stream(cells[3].split(",")).map(String::trim).collect(Collectors.toCollection(TreeSet::new));
            if (!allServices.containsAll(services)) {
                throw new IllegalArgumentException(metric + ": unknown service in '" + cells[3] + "'");
            }
            if (rows.put(metric, new Row(metric, type, labels, services)) != null) {
                throw new IllegalArgumentException(metric + " has two rows");
            }
        }
        return new ReadmeMetricsTable(rows);
    }

    /**
     * Every difference between the table and the expositions: a documented metric missing from a service it names,
     * of another type or with other labels, and a {@code gantry_} metric a service exposes that the table does not
     * name for it. Micrometer's {@code _max} gauge of a documented histogram or summary is part of that row.
     */
    List<String> differences(Map<String, MetricsExposition> byService) {
        List<String> out = new ArrayList<>();
        for (Row row : rows.values()) {
            for (String service : row.services()) {
                MetricsExposition.Family f = byService.get(service).families().get(row.metric());
                if (f == null) {
                    out.add(row.metric() + " is documented for " + service + " but not exposed there");
                } else if (!f.type().equals(row.type())) {
                    out.add(row.metric() + " on " + service + " is a " + f.type() + ", documented as " + row.type());
                } else if (!f.labels().equals(row.labels())) {
                    out.add(row.metric() + " on " + service + " has labels " + new TreeSet<>(f.labels())
                            + ", documented " + row.labels());
                }
            }
        }
        byService.forEach((service, exposition) -> {
            for (String name : exposition.families().keySet()) {
                if (!name.startsWith("gantry_") || isMaxOfDocumentedTimer(name)) {
                    continue;
                }
                Row row = rows.get(name);
                if (row == null || !row.services().contains(service)) {
                    out.add(name + " is exposed by " + service + " but the README's table does not list it for "
                            + service);
                }
            }
        });
        return out;
    }

    private boolean isMaxOfDocumentedTimer(String name) {
        if (!name.endsWith("_max")) {
            return false;
        }
        Row base = rows.get(name.substring(0, name.length() - "_max".length()));
        return base != null && (base.type().equals("histogram") || base.type().equals("summary"));
    }
}
