package io.gantry.kafka;

import io.gantry.events.Topics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
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
    /** Interface the client listener(s) bind to, and the host the client listener advertises. */
    private String bindHost = "localhost";
    private String advertisedHost = "localhost";
    /** A second client listener (0 = none), e.g. the port a container publishes, advertised as {@link #externalAdvertised}. */
    private int externalPort;
    private String externalAdvertised;
    /** Null: the quick start's plaintext listener, open to any local process. */
    private BrokerSecurity security;
    private KafkaRaftServer server;

    /**
     * @param dataDir    log directory; formatted on first start, reused (state kept) when already formatted
     * @param port       client port, 0 for any free port
     * @param partitions default partitions of auto-created and Gantry topics
     */
    public EmbeddedKafkaBroker(Path dataDir, int port, int partitions) {
        this.dataDir = dataDir;
        this.port = port == 0 ? FreePorts.one() : port;
        this.controllerPort = FreePorts.one();
        this.partitions = partitions;
    }

    /**
     * Where the broker listens and what it tells clients, for a broker in a container: {@code bindHost} (e.g.
     * {@code 0.0.0.0}) and {@code advertisedHost} (e.g. the compose service name {@code kafka}) for the client port;
     * {@code externalPort} > 0 adds a second client listener on that port, advertised as {@code externalAdvertised}
     * ({@code host:port}, e.g. the port published on the host). Call before {@link #start()}.
     */
    public EmbeddedKafkaBroker listeners(String bindHost, String advertisedHost, int externalPort, String externalAdvertised) {
        this.bindHost = bindHost;
        this.advertisedHost = advertisedHost;
        this.externalPort = externalPort;
        this.externalAdvertised = externalAdvertised;
        return this;
    }

    /** Clients must authenticate (SCRAM) and are held to {@link BrokerAcls}. Call before {@link #start()}. */
    public EmbeddedKafkaBroker secured(BrokerSecurity security) {
        this.security = security;
        return this;
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
            if (security != null) {
                security.createCredentialsAndAcls(bootstrapServers());
            }
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
        String bootstrapServers = bootstrapServers();
        Map<String, Object> adminConfig = security == null
                ? Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers)
                : security.adminClientConfig(bootstrapServers);
        List<NewTopic> topics = new ArrayList<>();
        for (String name : Topics.all()) {
            NewTopic t = new NewTopic(name, partitions, (short) 1);
            if (name.equals(Topics.USERS_PRIORITY)) {
                t.configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
            }
            topics.add(t);
        }
        try (Admin admin = Admin.create(adminConfig)) {
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
        // Listener names are their protocols, so each name maps to itself and the controller's to the same protocol.
        String client = security == null ? "PLAINTEXT" : BrokerSecurity.clientProtocol();
        String listeners = client + "://" + bindHost + ":" + port + ",CONTROLLER://localhost:" + controllerPort;
        String advertised = client + "://" + advertisedHost + ":" + port;
        String protocols = client + ":" + client + ",CONTROLLER:" + client;
        if (externalPort > 0) {
            listeners += ",EXTERNAL://" + bindHost + ":" + externalPort;
            advertised += ",EXTERNAL://" + externalAdvertised;
            protocols += ",EXTERNAL:" + client;
        }
        p.put("listeners", listeners);
        p.put("advertised.listeners", advertised);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", client);
        if (security != null) {
            security.addServerProperties(p, externalPort > 0 ? List.of(client, "EXTERNAL") : List.of(client));
        }
        p.put("listener.security.protocol.map", protocols);
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
                List<String> argv = new ArrayList<>(List.of("format", "-t", Uuid.randomUuid().toString(), "-c", config.toString()));
                if (security != null) {
                    argv.addAll(security.formatArguments());
                }
                rc = StorageTool.execute(argv.toArray(String[]::new), out);
            } catch (Exception e) {
                throw new IllegalStateException("formatting the Kafka log directory failed: " + buf, e);
            }
            if (rc != 0) {
                throw new IllegalStateException("formatting the Kafka log directory failed (" + rc + "): " + buf);
            }
        }
    }

    /**
     * Runs the broker as a process until it is terminated: {@code --dir DIR --port PORT [--partitions N]}, and in a
     * container {@code --bind HOST --advertised-host HOST [--external-port P --external-advertised HOST:PORT]} (see
     * {@link #listeners}). Prints {@code READY <bootstrap>} once the broker is up and the Gantry topics exist, and then
     * writes {@code --ready-file F} if given (deleted first: a container's health check tests it). {@code --scram-users
     * FILE} secures the broker ({@link BrokerSecurity#read}); without it the listener is plaintext, and the broker says
     * so.
     */
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(".gantry/kafka");
        int port = 9092;
        int partitions = 3;
        String bind = "localhost";
        String advertisedHost = "localhost";
        int externalPort = 0;
        String externalAdvertised = null;
        Path readyFile = null;
        BrokerSecurity security = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--dir" -> dir = Path.of(args[++i]);
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--partitions" -> partitions = Integer.parseInt(args[++i]);
                case "--bind" -> bind = args[++i];
                case "--advertised-host" -> advertisedHost = args[++i];
                case "--external-port" -> externalPort = Integer.parseInt(args[++i]);
                case "--external-advertised" -> externalAdvertised = args[++i];
                case "--ready-file" -> readyFile = Path.of(args[++i]);
                case "--scram-users" -> security = BrokerSecurity.read(Path.of(args[++i]));
                default -> {
                    System.err.println("usage: EmbeddedKafkaBroker [--dir DIR] [--port PORT] [--partitions N] [--bind HOST]"
                            + " [--advertised-host HOST] [--external-port P --external-advertised HOST:PORT] [--ready-file F] [--scram-users FILE]; unknown: " + args[i]);
                    System.exit(2);
                }
            }
        }
        if (externalPort > 0 && externalAdvertised == null) {
            System.err.println("--external-port needs --external-advertised HOST:PORT (what clients outside are told)");
            System.exit(2);
        }
        if (readyFile != null) {
            Files.deleteIfExists(readyFile);
        }
        EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(dir, port, partitions)
                .listeners(bind, advertisedHost, externalPort, externalAdvertised).secured(security).start();
        System.out.println(security == null
                ? "SECURITY plaintext listener: any process that reaches port " + port + " may read and write every topic;"
                        + " for the quick start only (--scram-users FILE: SASL/SCRAM and ACLs)"
                : "SECURITY SASL/SCRAM-SHA-512 on every listener, ACLs for " + BrokerAcls.principals());
        Runtime.getRuntime().addShutdownHook(new Thread(broker::close, "kafka-shutdown"));
        broker.createGantryTopics();
        System.out.println("READY " + broker.bootstrapServers());
        System.out.flush();
        if (readyFile != null) {
            Files.writeString(readyFile, broker.bootstrapServers() + "\n");
        }
        Thread.currentThread().join();
    }
}
