package io.gantry.events;

import java.util.regex.Pattern;

/**
 * The one rule for user names and job ids, shared by every event and by the REST APIs that create users, so a name
 * that arrives over Kafka is held to the same rule as one typed into the admin API. Both start with a letter or digit
 * and use only letters, digits, {@code .}, {@code _}, {@code @} and {@code -}: safe in a URL path, a file name, a
 * Kubernetes label value (after shortening), a log line and an HTML page, with no path traversal and no control
 * characters.
 */
public final class Names {

    /** A user: 1-200 characters ({@link Limits#MAX_USER_LENGTH}). */
    public static final Pattern USER = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@-]{0,199}");

    /**
     * A job id: a name as for users, or {@code namespace/name} for a job of pods made outside Gantry (how the dispatcher
     * names those); at most {@link Limits#MAX_JOB_ID_LENGTH} characters.
     */
    public static final Pattern JOB_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@-]*(/[A-Za-z0-9][A-Za-z0-9._@-]*)?");

    /**
     * A node: 1-253 characters of letters, digits, {@code .}, {@code _}, {@code :} and {@code -}, starting with a letter
     * or digit. Every Kubernetes node name (a DNS subdomain) and every simulated one fits; it becomes a metric label and
     * a log field, so nothing else may.
     */
    public static final Pattern NODE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,252}");

    static final String NODE_RULE = "1-" + Limits.MAX_NODE_NAME_LENGTH + " of letters, digits, '.', '_', ':', '-', "
            + "starting with a letter or digit";

    /** What a user name must look like, in words, for a 400 answer or a dead-letter reason. */
    public static final String USER_RULE = "1-200 of letters, digits, '.', '_', '@', '-', starting with a letter or digit";

    static final String JOB_ID_RULE = "1-" + Limits.MAX_JOB_ID_LENGTH + " of letters, digits, '.', '_', '@', '-', "
            + "starting with a letter or digit, optionally as namespace/name";

    private Names() {
    }

    /** True when {@code name} is a valid user name. */
    public static boolean isUser(String name) {
        return name != null && name.length() <= Limits.MAX_USER_LENGTH && USER.matcher(name).matches();
    }

    /** True when {@code node} is a valid node name. */
    public static boolean isNode(String node) {
        return node != null && node.length() <= Limits.MAX_NODE_NAME_LENGTH && NODE.matcher(node).matches();
    }

    /** True when {@code id} is a valid job id. */
    public static boolean isJobId(String id) {
        return id != null && id.length() <= Limits.MAX_JOB_ID_LENGTH && JOB_ID.matcher(id).matches();
    }
}
