import java.io.FileOutputStream;
import java.io.FileReader;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * `./gantry soak`'s consumer-lag sampler: one JVM and one Admin client for the whole run, instead of a
 * ConsumerGroupCommand JVM per look (two per sample took over a minute on a loaded 2-core machine). Every PERIOD_S
 * seconds it sums, over every consumer group's committed partitions, end offset minus committed offset, and appends
 * "t_s,lag" to OUT, t_s counted from T0 (epoch seconds). A look that fails writes nothing. Run in source-file mode
 * until killed: java -cp 'embedded-kafka/target/lib/*' bench/LagSampler.java BOOTSTRAP CLIENT_CONFIG|- PERIOD_S T0 OUT
 * (CLIENT_CONFIG: a Kafka client config file, the login on a secured broker).
 */
public final class LagSampler {

    private LagSampler() {
    }

    public static void main(String[] args) throws Exception {
        Properties config = new Properties();
        if (!args[1].equals("-")) {
            try (FileReader r = new FileReader(args[1])) {
                config.load(r);
            }
        }
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        long periodMs = (long) (Double.parseDouble(args[2]) * 1000);
        long t0 = Long.parseLong(args[3]);
        try (Admin admin = Admin.create(config);
             PrintStream out = new PrintStream(new FileOutputStream(args[4], true), false, "UTF-8")) {
            while (true) {
                long started = System.currentTimeMillis();
                try {
                    // One write per sample: a reader never sees half a line.
                    out.print((started / 1000 - t0) + "," + totalLag(admin) + "\n");
                    out.flush();
                } catch (Exception e) {
                    System.err.println("lag sample failed: " + e);
                }
                Thread.sleep(Math.max(0, periodMs - (System.currentTimeMillis() - started)));
            }
        }
    }

    private static long totalLag(Admin admin) throws Exception {
        Map<String, ListConsumerGroupOffsetsSpec> groups = new HashMap<>();
        for (GroupListing g : admin.listGroups(ListGroupsOptions.forConsumerGroups()).all().get(30, TimeUnit.SECONDS)) {
            groups.put(g.groupId(), new ListConsumerGroupOffsetsSpec());
        }
        if (groups.isEmpty()) {
            return 0;
        }
        Map<String, Map<TopicPartition, OffsetAndMetadata>> offsets =
                admin.listConsumerGroupOffsets(groups).all().get(30, TimeUnit.SECONDS);
        Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
        offsets.values().forEach(m -> m.keySet().forEach(tp -> ends.put(tp, OffsetSpec.latest())));
        Map<TopicPartition, ListOffsetsResultInfo> end = admin.listOffsets(ends).all().get(30, TimeUnit.SECONDS);
        long lag = 0;
        for (Map<TopicPartition, OffsetAndMetadata> m : offsets.values()) {
            for (Map.Entry<TopicPartition, OffsetAndMetadata> e : m.entrySet()) {
                // A partition the group has no committed offset for comes back as null: nothing consumed, no lag known.
                if (e.getValue() != null && end.containsKey(e.getKey())) {
                    lag += Math.max(0, end.get(e.getKey()).offset() - e.getValue().offset());
                }
            }
        }
        return lag;
    }
}
