import java.io.FileOutputStream;
import java.io.FileReader;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
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
 * seconds it sums, per consumer group over its committed partitions, end offset minus committed offset, and appends
 * one "t_s,group,lag" line per group to OUT, t_s counted from T0 (epoch seconds): per group, because the groups off
 * the scheduling path (accounting, the studio) run nice'd and may fall behind while the path keeps up, and a sum
 * cannot tell the two apart. A look that fails writes nothing. Run in source-file mode
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
                    // One write per sample: a reader never sees half a sample.
                    StringBuilder sample = new StringBuilder();
                    lagByGroup(admin).forEach((group, lag) ->
                            sample.append(started / 1000 - t0).append(',').append(group).append(',').append(lag)
                                    .append('\n'));
                    out.print(sample);
                    out.flush();
                } catch (Exception e) {
                    System.err.println("lag sample failed: " + e);
                }
                Thread.sleep(Math.max(0, periodMs - (System.currentTimeMillis() - started)));
            }
        }
    }

    private static Map<String, Long> lagByGroup(Admin admin) throws Exception {
        Map<String, ListConsumerGroupOffsetsSpec> groups = new HashMap<>();
        for (GroupListing g : admin.listGroups(ListGroupsOptions.forConsumerGroups()).all().get(30, TimeUnit.SECONDS)) {
            groups.put(g.groupId(), new ListConsumerGroupOffsetsSpec());
        }
        Map<String, Long> lag = new TreeMap<>();
        if (groups.isEmpty()) {
            return lag;
        }
        Map<String, Map<TopicPartition, OffsetAndMetadata>> offsets =
                admin.listConsumerGroupOffsets(groups).all().get(30, TimeUnit.SECONDS);
        Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
        offsets.values().forEach(m -> m.keySet().forEach(tp -> ends.put(tp, OffsetSpec.latest())));
        Map<TopicPartition, ListOffsetsResultInfo> end = admin.listOffsets(ends).all().get(30, TimeUnit.SECONDS);
        for (Map.Entry<String, Map<TopicPartition, OffsetAndMetadata>> g : offsets.entrySet()) {
            long behind = 0;
            for (Map.Entry<TopicPartition, OffsetAndMetadata> e : g.getValue().entrySet()) {
                // A partition the group has no committed offset for comes back as null: nothing consumed, no lag known.
                if (e.getValue() != null && end.containsKey(e.getKey())) {
                    behind += Math.max(0, end.get(e.getKey()).offset() - e.getValue().offset());
                }
            }
            lag.put(g.getKey(), behind);
        }
        return lag;
    }
}
