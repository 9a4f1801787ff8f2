package io.gantry.kafka;

import io.gantry.events.KafkaClientAuth;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;

/**
 * The secured broker: clients authenticate with SASL/SCRAM-SHA-512 and are authorised by KRaft's
 * {@code StandardAuthorizer} against {@link BrokerAcls}; no listener accepts an unauthenticated client. The broker's
 * own connections (inter-broker on the client listener, broker to controller) authenticate as the super user
 * {@code admin}: SCRAM on the client listener (its credential is written at format time, because SCRAM credentials
 * live in the metadata log the broker needs first), PLAIN on the controller listener (a KRaft controller cannot
 * authenticate with SCRAM, whose credentials it serves itself). The other principals' credentials are created through
 * the Admin API once the broker is up ({@link #createCredentialsAndAcls}).
 *
 * @param adminPassword the super user's password
 * @param passwords     each Gantry principal's password ({@link BrokerAcls#principals()}); one missing is not created,
 *                      so that principal cannot connect
 */
public record BrokerSecurity(String adminPassword, Map<String, String> passwords) {

    public static final String ADMIN = "admin";
    public static final String MECHANISM = KafkaClientAuth.SCRAM_SHA_512;
    private static final int ITERATIONS = 4096;

    /** Passwords go into JAAS lines and the storage tool's SCRAM argument, so none may hold quotes or separators. */
    private static final Pattern PASSWORD = Pattern.compile("[A-Za-z0-9._~-]{8,128}");

    public BrokerSecurity {
        if (adminPassword == null || !PASSWORD.matcher(adminPassword).matches()) {
            throw new IllegalArgumentException("adminPassword: 8 to 128 of A-Z a-z 0-9 . _ ~ -");
        }
        passwords = Map.copyOf(passwords);
        passwords.forEach((user, password) -> {
            if (!BrokerAcls.principals().contains(user)) {
                throw new IllegalArgumentException("passwords: " + user + " is not a Gantry principal " + BrokerAcls.principals());
            }
            if (password == null || !PASSWORD.matcher(password).matches()) {
                throw new IllegalArgumentException("passwords: " + user + "'s password must be 8 to 128 of A-Z a-z 0-9 . _ ~ -");
            }
        });
    }

    /** The client listener's security protocol. */
    static String clientProtocol() {
        return "SASL_PLAINTEXT";
    }

    /** What a secured broker adds to its server properties; {@code clientListeners} are its client listeners' names. */
    void addServerProperties(Properties p, List<String> clientListeners) {
        p.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        p.put("super.users", "User:" + ADMIN);
        p.put("allow.everyone.if.no.acl.found", "false");
        p.put("sasl.enabled.mechanisms", MECHANISM);
        p.put("sasl.mechanism.inter.broker.protocol", MECHANISM);
        for (String listener : clientListeners) {
            p.put("listener.name." + listener.toLowerCase() + ".scram-sha-512.sasl.jaas.config", KafkaClientAuth.scramJaasConfig(ADMIN, adminPassword));
        }
        p.put("sasl.mechanism.controller.protocol", "PLAIN");
        p.put("listener.name.controller.sasl.enabled.mechanisms", "PLAIN");
        p.put("listener.name.controller.plain.sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + ADMIN
                        + "\" password=\"" + adminPassword + "\" user_" + ADMIN + "=\"" + adminPassword + "\";");
    }

    /** Extra arguments of {@code kafka-storage format}: the super user's SCRAM credential. */
    List<String> formatArguments() {
        return List.of("--add-scram", MECHANISM + "=[name=" + ADMIN + ",password=" + adminPassword + "]");
    }

    /**
     * Reads {@code admin=PASSWORD} and {@code PRINCIPAL=PASSWORD} lines (a properties file, kept readable by its owner
     * only: it holds every password).
     */
    public static BrokerSecurity read(Path file) throws IOException {
        Properties p = new Properties();
        try (var in = Files.newBufferedReader(file)) {
            p.load(in);
        }
        Map<String, String> passwords = new HashMap<>();
        p.stringPropertyNames().stream().filter(k -> !k.equals(ADMIN)).forEach(k -> passwords.put(k, p.getProperty(k)));
        return new BrokerSecurity(p.getProperty(ADMIN), passwords);
    }

    /** Creates every principal's SCRAM credential and the ACLs of {@link BrokerAcls}, as the super user. */
    void createCredentialsAndAcls(String bootstrapServers) {
        try (Admin admin = Admin.create(adminClientConfig(bootstrapServers))) {
            List<UserScramCredentialAlteration> creds = new ArrayList<>();
            passwords.forEach((user, password) -> creds.add(new UserScramCredentialUpsertion(user,
                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, ITERATIONS), password)));
            admin.alterUserScramCredentials(creds).all().get(30, TimeUnit.SECONDS);
            admin.createAcls(BrokerAcls.bindings()).all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot create the principals' credentials and ACLs on " + bootstrapServers, e);
        }
    }

    /** The super user's client settings (topic creation, credentials, ACLs). */
    Map<String, Object> adminClientConfig(String bootstrapServers) {
        Map<String, Object> c = new HashMap<>(clientConfig(ADMIN, adminPassword));
        c.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return c;
    }

    /** A Kafka client's settings to authenticate as {@code user} ({@link KafkaClientAuth#scram}). */
    public static Map<String, Object> clientConfig(String user, String password) {
        return KafkaClientAuth.scram(user, password).clientConfig();
    }
}
