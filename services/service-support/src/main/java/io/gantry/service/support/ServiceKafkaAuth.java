package io.gantry.service.support;

import io.gantry.events.KafkaClientAuth;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The service's Kafka credentials for its own plain Kafka clients ({@link TopicHistory}, readers outside any channel):
 * the same {@code kafka.security.protocol}, {@code kafka.sasl.mechanism} and {@code kafka.sasl.jaas.config} its
 * channels and health check take from the {@code kafka.} defaults (application.properties reads them from
 * {@code KAFKA_SECURITY_PROTOCOL}, {@code KAFKA_SASL_MECHANISM}, {@code KAFKA_SASL_JAAS_CONFIG}).
 */
@Singleton
public class ServiceKafkaAuth {

    /** Singleton, not a normal scope: a record cannot be proxied. */
    @Produces
    @Singleton
    KafkaClientAuth kafkaClientAuth(@ConfigProperty(name = "kafka.security.protocol") Optional<String> protocol,
                                           @ConfigProperty(name = "kafka.sasl.mechanism") Optional<String> mechanism,
                                           @ConfigProperty(name = "kafka.sasl.jaas.config") Optional<String> jaasConfig) {
        return new KafkaClientAuth(protocol.orElse(null), mechanism.orElse(null), jaasConfig.orElse(null));
    }
}
