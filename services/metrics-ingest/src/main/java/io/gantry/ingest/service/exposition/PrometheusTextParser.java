package io.gantry.ingest.service.exposition;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads the Prometheus text exposition format (version 0.0.4):
 * {@code metric_name{label="value",...} value [timestamp_ms]}, one sample per line; {@code #} lines are HELP,
 * TYPE or comments and are skipped; label values escape {@code \\}, {@code \"} and {@code \n}; values may be
 * {@code NaN}, {@code +Inf}, {@code -Inf}. A line that breaks the format is reported with its number and
 * skipped, so one bad line does not hide the rest.
 */
public final class PrometheusTextParser {

    /** Go's ParseFloat forms that Prometheus writes; Java's own extras ("1d", "Infinity", hex) are refused. */
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern TIMESTAMP = Pattern.compile("-?\\d+");

    private PrometheusTextParser() {
    }

    public static ParsedExposition parse(String text) {
        List<Sample> samples = new ArrayList<>();
        List<ParsedExposition.LineError> errors = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].endsWith("\r") ? lines[i].substring(0, lines[i].length() - 1) : lines[i];
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            try {
                samples.add(new LineReader(trimmed, i + 1, line).sample());
            } catch (IllegalArgumentException e) {
                errors.add(new ParsedExposition.LineError(i + 1, line, e.getMessage()));
            }
        }
        return new ParsedExposition(List.copyOf(samples), List.copyOf(errors));
    }

    /** Parses a value as Prometheus writes it: a decimal, NaN or ±Inf (any case). */
    static double value(String s) {
        switch (s.toLowerCase(java.util.Locale.ROOT)) {
            case "nan":
                return Double.NaN;
            case "+inf":
            case "inf":
                return Double.POSITIVE_INFINITY;
            case "-inf":
                return Double.NEGATIVE_INFINITY;
            default:
                if (!DECIMAL.matcher(s).matches()) {
                    throw new IllegalArgumentException("value '" + s + "' is not a number");
                }
                return Double.parseDouble(s);
        }
    }

    /** A cursor over one sample line. */
    private static final class LineReader {
        private final String s;
        private final int number;
        private final String raw;
        private int pos;

        LineReader(String s, int number, String raw) {
            this.s = s;
            this.number = number;
            this.raw = raw;
        }

        Sample sample() {
            String name = name(true);
            Map<String, String> labels = Collections.emptyMap();
            int afterName = pos;
            skipBlanks();
            if (pos < s.length() && s.charAt(pos) == '{') {
                pos++;
                labels = labels();
            } else {
                pos = afterName; // no label set: the blanks separate the name from the value
            }
            if (pos >= s.length() || !isBlank(s.charAt(pos))) {
                throw new IllegalArgumentException("expected a space and a value after " + name
                        + (pos < s.length() ? ", found '" + s.charAt(pos) + "' at column " + (pos + 1) : ""));
            }
            String[] rest = s.substring(pos).strip().split("[ \t]+");
            if (rest.length > 2) {
                throw new IllegalArgumentException("unexpected text after the timestamp: '" + rest[2] + "'");
            }
            double value = value(rest[0]);
            Long timestamp = null;
            if (rest.length == 2) {
                if (!TIMESTAMP.matcher(rest[1]).matches()) {
                    throw new IllegalArgumentException("timestamp '" + rest[1] + "' is not an integer of milliseconds");
                }
                timestamp = Long.parseLong(rest[1]);
            }
            return new Sample(name, labels, value, timestamp, number, raw);
        }

        private String name(boolean metric) {
            int start = pos;
            while (pos < s.length()) {
                char c = s.charAt(pos);
                boolean ok = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (metric && c == ':')
                        || (pos > start && c >= '0' && c <= '9');
                if (!ok) {
                    break;
                }
                pos++;
            }
            if (pos == start) {
                throw new IllegalArgumentException("expected a " + (metric ? "metric" : "label") + " name at column "
                        + (pos + 1));
            }
            return s.substring(start, pos);
        }

        private Map<String, String> labels() {
            Map<String, String> labels = new LinkedHashMap<>();
            while (true) {
                skipBlanks();
                if (pos < s.length() && s.charAt(pos) == '}') {
                    pos++;
                    return Collections.unmodifiableMap(labels);
                }
                String label = name(false);
                skipBlanks();
                expect('=');
                skipBlanks();
                expect('"');
                if (labels.put(label, quoted()) != null) {
                    throw new IllegalArgumentException("label " + label + " appears twice");
                }
                skipBlanks();
                if (pos < s.length() && s.charAt(pos) == ',') {
                    pos++;
                } else if (pos >= s.length() || s.charAt(pos) != '}') {
                    throw new IllegalArgumentException("expected ',' or '}' after label " + label);
                }
            }
        }

        private String quoted() {
            StringBuilder v = new StringBuilder();
            while (pos < s.length()) {
                char c = s.charAt(pos++);
                if (c == '"') {
                    return v.toString();
                }
                if (c == '\\') {
                    if (pos >= s.length()) {
                        break;
                    }
                    char e = s.charAt(pos++);
                    switch (e) {
                        case '\\' -> v.append('\\');
                        case '"' -> v.append('"');
                        case 'n' -> v.append('\n');
                        default -> throw new IllegalArgumentException("unknown escape '\\" + e + "' in a label value");
                    }
                } else {
                    v.append(c);
                }
            }
            throw new IllegalArgumentException("label value not closed by '\"'");
        }

        private void expect(char c) {
            if (pos >= s.length() || s.charAt(pos) != c) {
                throw new IllegalArgumentException("expected '" + c + "' at column " + (pos + 1));
            }
            pos++;
        }

        private void skipBlanks() {
            while (pos < s.length() && isBlank(s.charAt(pos))) {
                pos++;
            }
        }

        private static boolean isBlank(char c) {
            return c == ' ' || c == '\t';
        }
    }
}
