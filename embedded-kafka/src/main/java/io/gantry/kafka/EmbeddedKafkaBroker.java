package io.gantry.kafka;

import io.gantry.events.Topics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.utils.Time;

/**
 * Kafka's own KRaft broker (combined broker + controller, one node) started in this JVM: a real broker,
 * without containers. Used by the tests of every service and, through {@link #main}, as the local broker
 * process of the embedded run.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

    private final Path dataDir;
    private final int port;
    private final int controllerPort;
    private final int partitions;
    private KafkaRaftServer server;

    /**
     * @param dataDir    log directory; formatted on first start, reused (state kept) when already formatted
     * @param port       client port, 0 for any free port
     * @param partitions default partitions of auto-created and Gantry topics
     */
    public EmbeddedKafkaBroker(Path dataDir, int port, int partitions) {
        this.dataDir = dataDir;
        this.port = port == 0 ? freePort() : port;
        this.controllerPort = freePort();
        this.partitions = partitions;
    }

    public synchronized EmbeddedKafkaBroker start() {
        if (server != null) {
            return this;
        }
        try {
            Files.createDirectories(dataDir);
            Path config = dataDir.resolve("server.properties");
            Properties props = serverProperties();
            try (Writer w = Files.newBufferedWriter(config)) {
                props.store(w, "written by Gantry's EmbeddedKafkaBroker");
            }
            if (!Files.exists(dataDir.resolve("logs").resolve("meta.properties"))) {
                format(config);
            }
            server = new KafkaRaftServer(new KafkaConfig(props, false), Time.SYSTEM);
            server.startup();
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String bootstrapServers() {
        return "localhost:" + port;
    }

    /** Creates every Gantry topic (compaction for user priorities); existing topics are left as they are. */
    public void createGantryTopics() {
        createGantryTopics(bootstrapServers(), partitions);
    }

    public static void createGantryTopics(String bootstrapServers, int partitions) {
        List<NewTopic> topics = new ArrayList<>();
        for (String name : Topics.all()) {
            NewTopic t = new NewTopic(name, partitions, (short) 1);
            if (name.equals(Topics.USERS_PRIORITY)) {
                t.configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
            }
            topics.add(t);
        }
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            Set<String> existing = admin.listTopics().names().get(30, TimeUnit.SECONDS);
            List<NewTopic> missing = topics.stream().filter(t -> !existing.contains(t.name())).toList();
            admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create Gantry topics on " + bootstrapServers, e.getCause());
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot create Gantry topics on " + bootstrapServers, e);
        }
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            server.shutdown();
            server.awaitShutdown();
            server = null;
        }
    }

    private Properties serverProperties() {
        Properties p = new Properties();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        p.put("controller.quorum.voters", "1@localhost:" + controllerPort);
        p.put("listeners", "PLAINTEXT://localhost:" + port + ",CONTROLLER://localhost:" + controllerPort);
        p.put("advertised.listeners", "PLAINTEXT://localhost:" + port);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("log.dirs", dataDir.resolve("logs").toString());
        p.put("num.partitions", String.valueOf(partitions));
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "5");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        // Consumers in tests and in the embedded run join at once instead of waiting 3 s for peers.
        p.put("group.initial.rebalance.delay.ms", "0");
        // Two cores: a small broker.
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "2");
        p.put("log.cleaner.dedupe.buffer.size", String.valueOf(8 * 1024 * 1024));
        return p;
    }

    private void format(Path config) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
            // execute(), never main(): main calls System.exit.
            int rc;
            try {
                rc = StorageTool.execute(new String[]{"format", "-t", Uuid.randomUuid().toString(), "-c", config.toString()}, out);
            } catch (Exception e) {
                throw new IllegalStateException("formatting the Kafka log directory failed: " + buf, e);
            }
            if (rc != 0) {
                throw new IllegalStateException("formatting the Kafka log directory failed (" + rc + "): " + buf);
            }
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Runs the broker as a process until it is terminated: {@code --dir DIR --port PORT [--partitions N]}.
     * Prints {@code READY <bootstrap>} once the broker is up and the Gantry topics exist.
     */
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(".gantry/kafka");
        int port = 9092;
        int partitions = 3;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--dir" -> dir = Path.of(args[++i]);
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--partitions" -> partitions = Integer.parseInt(args[++i]);
                default -> {
                    System.err.println("usage: EmbeddedKafkaBroker [--dir DIR] [--port PORT] [--partitions N]; unknown: " + args[i]);
                    System.exit(2);
                }
            }
        }
        EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(dir, port, partitions).start();
        Runtime.getRuntime().addShutdownHook(new Thread(broker::close, "kafka-shutdown"));
        broker.createGantryTopics();
        System.out.println("READY " + broker.bootstrapServers());
        System.out.flush();
        Thread.currentThread().join();
    }
}
