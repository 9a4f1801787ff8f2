package io.gantry.events;

import java.util.List;

/** An event that could not be read or broke a rule; {@link #violations()} names each field and reason. */
public class InvalidEventException extends RuntimeException {

    private final List<Violation> violations;

    public InvalidEventException(List<Violation> violations) {
        super(describe(violations));
        this.violations = List.copyOf(violations);
    }

    public InvalidEventException(String field, String reason) {
        this(List.of(new Violation(field, reason)));
    }

    public List<Violation> violations() {
        return violations;
    }

    private static String describe(List<Violation> violations) {
        StringBuilder sb = new StringBuilder("invalid event: ");
        for (int i = 0; i < violations.size(); i++) {
            sb.append(i == 0 ? "" : "; ").append(violations.get(i));
        }
        return sb.toString();
    }
}
