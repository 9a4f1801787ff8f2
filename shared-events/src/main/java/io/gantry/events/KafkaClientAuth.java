package io.gantry.events;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * How a Gantry Kafka client authenticates to the broker: the three client settings a secured broker (SASL/SCRAM,
 * embedded-kafka's {@code BrokerSecurity}) needs, under the names every Gantry process reads them from. A service takes
 * them as {@code kafka.security.protocol}, {@code kafka.sasl.mechanism} and {@code kafka.sasl.jaas.config} (its
 * application.properties reads the environment variables below); its own plain Kafka clients, the job runner and the
 * replay CLI take them from the same environment variables ({@link #fromEnvironment}). Unset, a client speaks
 * plaintext, as to the quick start's broker.
 *
 * <p>Plain strings, no Kafka types: the keys are Kafka's client configuration names.
 *
 * @param securityProtocol {@code PLAINTEXT} (default) or a SASL protocol ({@code SASL_PLAINTEXT}, {@code SASL_SSL})
 * @param saslMechanism    with a SASL protocol: {@code SCRAM-SHA-512} unless given; null otherwise
 * @param saslJaasConfig   with a SASL protocol: the login module line with the user and password; null otherwise
 */
public record KafkaClientAuth(String securityProtocol, String saslMechanism, String saslJaasConfig) {

    public static final String PROTOCOL_ENV = "KAFKA_SECURITY_PROTOCOL";
    public static final String MECHANISM_ENV = "KAFKA_SASL_MECHANISM";
    public static final String JAAS_CONFIG_ENV = "KAFKA_SASL_JAAS_CONFIG";
    public static final String SCRAM_SHA_512 = "SCRAM-SHA-512";
    public static final KafkaClientAuth PLAINTEXT = new KafkaClientAuth(null, null, null);

    private static final String PROTOCOL_KEY = "security.protocol";
    private static final String MECHANISM_KEY = "sasl.mechanism";
    private static final String JAAS_CONFIG_KEY = "sasl.jaas.config";

    /** Blank values count as unset (an environment variable set to nothing, a Quarkus property defaulting to ""). */
    public KafkaClientAuth {
        securityProtocol = blankToNull(securityProtocol);
        securityProtocol = securityProtocol == null ? "PLAINTEXT" : securityProtocol.toUpperCase(Locale.ROOT);
        boolean sasl = securityProtocol.startsWith("SASL_");
        saslMechanism = sasl ? orDefault(blankToNull(saslMechanism), SCRAM_SHA_512) : null;
        saslJaasConfig = sasl ? blankToNull(saslJaasConfig) : null;
        if (sasl && saslJaasConfig == null) {
            // Without it Kafka would try the JVM-wide JAAS file and fail with a message that names neither setting.
            throw new IllegalArgumentException(securityProtocol + " needs credentials: " + JAAS_CONFIG_ENV
                    + " (kafka.sasl.jaas.config) is not set");
        }
    }

    /** From {@link #PROTOCOL_ENV}, {@link #MECHANISM_ENV} and {@link #JAAS_CONFIG_ENV} (e.g. {@code System.getenv()}). */
    public static KafkaClientAuth fromEnvironment(Map<String, String> env) {
        return new KafkaClientAuth(env.get(PROTOCOL_ENV), env.get(MECHANISM_ENV), env.get(JAAS_CONFIG_ENV));
    }

    /** SCRAM-SHA-512 over {@code SASL_PLAINTEXT} as {@code user}: what a Gantry principal uses on the secured broker. */
    public static KafkaClientAuth scram(String user, String password) {
        return new KafkaClientAuth("SASL_PLAINTEXT", SCRAM_SHA_512, scramJaasConfig(user, password));
    }

    /**
     * The SCRAM login module line; {@code user} and {@code password} are put between quotes as they are (the broker's
     * passwords are restricted to characters that need no escaping).
     */
    public static String scramJaasConfig(String user, String password) {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user
                + "\" password=\"" + password + "\";";
    }

    public boolean sasl() {
        return saslJaasConfig != null;
    }

    /** The same protocol and mechanism with other credentials (a child process that has a principal of its own). */
    public KafkaClientAuth withJaasConfig(String jaasConfig) {
        return new KafkaClientAuth(securityProtocol, saslMechanism, jaasConfig);
    }

    /** The Kafka client configuration entries: {@code security.protocol}, and the SASL ones when authenticating. */
    public Map<String, Object> clientConfig() {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put(PROTOCOL_KEY, securityProtocol);
        if (sasl()) {
            c.put(MECHANISM_KEY, saslMechanism);
            c.put(JAAS_CONFIG_KEY, saslJaasConfig);
        }
        return c;
    }

    /**
     * The environment variables that give a child process these settings ({@link #fromEnvironment} reads them back);
     * unused ones are set blank, so a child never inherits other credentials from its parent's environment.
     */
    public Map<String, String> environment() {
        Map<String, String> e = new LinkedHashMap<>();
        e.put(PROTOCOL_ENV, securityProtocol);
        e.put(MECHANISM_ENV, saslMechanism == null ? "" : saslMechanism);
        e.put(JAAS_CONFIG_ENV, saslJaasConfig == null ? "" : saslJaasConfig);
        return e;
    }

    /** Never the JAAS line: it holds the password. */
    @Override
    public String toString() {
        return sasl() ? securityProtocol + " " + saslMechanism + " as " + user() : securityProtocol;
    }

    private String user() {
        int from = saslJaasConfig.indexOf("username=\"");
        if (from < 0) {
            return "(a JAAS login without username)";
        }
        int start = from + "username=\"".length();
        int end = saslJaasConfig.indexOf('"', start);
        return end < 0 ? "(unreadable username)" : saslJaasConfig.substring(start, end);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    private static String orDefault(String s, String fallback) {
        return s == null ? fallback : s;
    }
}
