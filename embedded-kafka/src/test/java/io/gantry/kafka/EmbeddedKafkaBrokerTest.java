package io.gantry.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class EmbeddedKafkaBrokerTest {

    @Test
    void carriesRecordsKeepsThemAcrossARestartAndCompactsPriorities() throws Exception {
        Path dir = Files.createTempDirectory("gantry-kafka-unit");
        String bootstrap;
        int port;
        try (EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(dir, 0, 1).start()) {
            broker.createGantryTopics();
            bootstrap = broker.bootstrapServers();
            port = Integer.parseInt(bootstrap.substring(bootstrap.lastIndexOf(':') + 1));
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                assertTrue(admin.listTopics().names().get().containsAll(Topics.all()));
                ConfigResource prio = new ConfigResource(ConfigResource.Type.TOPIC, Topics.USERS_PRIORITY);
                String policy = admin.describeConfigs(List.of(prio)).all().get(30, TimeUnit.SECONDS)
                        .get(prio).get("cleanup.policy").value();
                assertEquals("compact", policy);
            }
            try (KafkaProducer<String, String> p = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                    ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                    ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
                p.send(new ProducerRecord<>(Topics.JOBS_SUBMITTED, "job-1", "hello")).get();
            }
        }
        // Same directory, same port: the formatted log is reused and the record is still there.
        try (EmbeddedKafkaBroker again = new EmbeddedKafkaBroker(dir, port, 1).start();
             KafkaConsumer<String, String> c = new KafkaConsumer<>(Map.of(
                     ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, again.bootstrapServers(),
                     ConsumerConfig.GROUP_ID_CONFIG, "t",
                     ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                     ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                     ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class))) {
            c.subscribe(List.of(Topics.JOBS_SUBMITTED));
            String seen = null;
            long deadline = System.currentTimeMillis() + 30_000;
            while (seen == null && System.currentTimeMillis() < deadline) {
                ConsumerRecords<String, String> rs = c.poll(Duration.ofMillis(500));
                for (var r : rs) {
                    seen = r.key() + "=" + r.value();
                }
            }
            assertEquals("job-1=hello", seen);
        }
    }
}
