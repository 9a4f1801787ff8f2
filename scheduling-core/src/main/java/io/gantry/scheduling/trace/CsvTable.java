package io.gantry.scheduling.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A small CSV reader: header by name, double quotes honoured, 1-based file line numbers kept for error reports. */
public final class CsvTable {

    /** One data row. {@link #get} throws {@link IllegalArgumentException} with a readable reason. */
    public record Row(long line, Map<String, Integer> columns, List<String> cells) {
        public String get(String column) {
            Integer i = columns.get(column);
            if (i == null) {
                throw new IllegalArgumentException("no column '" + column + "'");
            }
            if (i >= cells.size()) {
                throw new IllegalArgumentException("row has " + cells.size() + " cells, '" + column + "' is column " + (i + 1));
            }
            return cells.get(i).trim();
        }

        public double number(String column) {
            String v = get(column);
            try {
                double d = Double.parseDouble(v);
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    throw new NumberFormatException();
                }
                return d;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(column + " is not a number: '" + v + "'");
            }
        }
    }

    private CsvTable() {
    }

    /** Reads a file whose first line is a header, checking that {@code required} columns exist. */
    public static List<Row> read(Path file, String... required) {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String header = in.readLine();
            if (header == null) {
                throw new IllegalArgumentException(file + " is empty");
            }
            List<String> names = split(header.replace("\uFEFF", ""));
            Map<String, Integer> columns = new HashMap<>();
            for (int i = 0; i < names.size(); i++) {
                columns.put(names.get(i).trim(), i);
            }
            for (String r : required) {
                if (!columns.containsKey(r)) {
                    throw new IllegalArgumentException(file + ": header lacks column '" + r + "' (has " + names + ")");
                }
            }
            List<Row> rows = new ArrayList<>();
            long line = 1;
            String s;
            while ((s = in.readLine()) != null) {
                line++;
                if (!s.isBlank()) {
                    rows.add(new Row(line, columns, split(s)));
                }
            }
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    static List<String> split(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cur.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    cur.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        out.add(cur.toString());
        return out;
    }
}
