package io.gantry.scheduler;

import static io.gantry.service.support.security.EndpointSecurity.as;
import static io.gantry.service.support.security.EndpointSecurity.channelSwitchesNeedAnAdmin;
import static io.gantry.service.support.security.EndpointSecurity.healthAndMetricsStayOpen;
import static io.gantry.service.support.security.EndpointSecurity.operatorRead;

import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.service.support.security.TestTokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** Who may do what on sac-scheduler, with real bearer tokens. */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class SecurityTest {

    @Test
    void switchesAreForAdminsTheQueueForOperatorsAndAUserSeesOnlyItsOwnPendingJob() {
        channelSwitchesNeedAnAdmin("tuned", "cancellations");
        operatorRead("/scheduler/queue");
        operatorRead("/scheduler/nodes");
        as(null).get("/scheduler/queue/some-job").then().statusCode(401);
        // Not its own (no such pending job of alice's): the same 404 as for an unknown job, so ids are not probed.
        as(TestTokens.user("alice")).get("/scheduler/queue/some-job").then().statusCode(404);
        as(TestTokens.operator()).get("/scheduler/queue/some-job").then().statusCode(404);
        healthAndMetricsStayOpen();
    }
}
