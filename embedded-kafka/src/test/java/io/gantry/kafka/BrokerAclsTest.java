package io.gantry.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.events.Topics;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The ACL table against the code: every topic a service's outgoing channel writes is one the service may write. */
class BrokerAclsTest {

    @Test
    void everyOutgoingChannelOfEveryServiceIsAllowedByTheTable() throws Exception {
        List<String> services = new ArrayList<>(Topics.SERVICES);
        services.add(Topics.STUDIO);
        int channels = 0;
        for (String service : services) {
            Path file = Path.of("..", "services", service, "src", "main", "resources", "application.properties");
            Properties p = new Properties();
            try (Reader in = Files.newBufferedReader(file)) {
                p.load(in);
            }
            for (String key : p.stringPropertyNames()) {
                if (key.startsWith("mp.messaging.outgoing.") && key.endsWith(".topic")) {
                    String topic = p.getProperty(key);
                    assertTrue(BrokerAcls.writers(topic).contains(service),
                            service + " writes " + topic + " (" + key + ") but the ACL table does not allow it");
                    channels++;
                }
            }
            assertTrue(BrokerAcls.writers(Topics.deadLetter(service)).contains(service), service + "'s dead letters");
        }
        // 14 outgoing channels in this tree: a file format change that hid them would pass the loop silently.
        assertTrue(channels >= 14, "the services' outgoing channels were read: " + channels);
    }

    @Test
    void theDecisionsAndPrioritiesHaveOneWriterEach() {
        assertEquals(Set.of("sac-scheduler"), BrokerAcls.writers(Topics.SCHEDULING_DECISIONS));
        assertEquals(Set.of("priority-accounting"), BrokerAcls.writers(Topics.USERS_PRIORITY));
        assertFalse(BrokerAcls.writers(Topics.JOBS_TUNED).contains(BrokerAcls.SUBMITTER), "users cannot forge tuning");
        assertTrue(Topics.all().stream().allMatch(t -> !BrokerAcls.writers(t).isEmpty()), "every topic has a writer");
    }
}
