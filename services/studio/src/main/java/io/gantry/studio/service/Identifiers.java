package io.gantry.studio.service;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Layer ids ({@code [A-Za-z0-9][A-Za-z0-9_.-]*}) as identifiers of generated code: {@code .} and {@code -} become
 * {@code _}, a leading digit gets an {@code l} in front, and a name taken by the language or by the generated code
 * itself, or by another layer, gets a {@code _} or a number after it. One instance per generated file.
 */
final class Identifiers {

    private final Set<String> reserved;
    private final Set<String> used = new HashSet<>();
    private final Map<String, String> byId = new HashMap<>();

    Identifiers(Set<String> reserved) {
        this.reserved = reserved;
    }

    String of(String layerId) {
        return byId.computeIfAbsent(layerId, id -> {
            String base = id.replaceAll("[^A-Za-z0-9_]", "_");
            if (Character.isDigit(base.charAt(0))) {
                base = "l" + base;
            }
            if (reserved.contains(base)) {
                base = base + "_";
            }
            String name = base;
            for (int n = 2; !used.add(name); n++) {
                name = base + n;
            }
            return name;
        });
    }
}
