package io.gantry.priority.service;

import io.gantry.events.Events;
import io.gantry.events.GantryEvent;
import io.gantry.events.UserPriority;
import io.gantry.priority.config.PriorityConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Every known user's priority. For now a user's priority is the base priority an administrator set (or the
 * default); usage-based fair share changes {@link #priorityOf} and nothing else.
 */
@ApplicationScoped
public class PriorityBook {

    private final PriorityConfig config;
    private final Map<String, UserPriority> published = new TreeMap<>();

    public PriorityBook(PriorityConfig config) {
        this.config = config;
    }

    /** Priorities of every configured user, to publish at start-up so a scheduler knows them before any job. */
    public synchronized List<UserPriority> configuredUsers() {
        List<UserPriority> out = new ArrayList<>();
        config.users().keySet().forEach(u -> out.add(record(u)));
        return out;
    }

    /** The priority to publish for {@code user}, or empty when the published value is still current. */
    public synchronized Optional<UserPriority> observe(String user) {
        if (published.containsKey(user)) {
            return Optional.empty();
        }
        return Optional.of(record(user));
    }

    public synchronized List<UserPriority> all() {
        return List.copyOf(published.values());
    }

    private UserPriority record(String user) {
        double base = config.users().getOrDefault(user, config.defaultBasePriority());
        boolean configured = config.users().containsKey(user);
        UserPriority p = new UserPriority(Events.newId(), GantryEvent.SCHEMA_VERSION, Instant.now(), user, base, base,
                config.defaultWeight(), configured ? "base priority set by an administrator"
                : "default base priority: no administrator setting for this user");
        published.put(user, p);
        return p;
    }
}
