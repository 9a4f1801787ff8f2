package io.gantry.tuner;

import static io.gantry.service.support.security.EndpointSecurity.as;
import static io.gantry.service.support.security.EndpointSecurity.channelSwitchesNeedAnAdmin;
import static io.gantry.service.support.security.EndpointSecurity.healthAndMetricsStayOpen;

import io.gantry.kafka.KafkaBrokerTestResource;
import io.gantry.service.support.security.TestTokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** Who may do what on job-tuner, with real bearer tokens. */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class SecurityTest {

    @Test
    void switchesAreForAdminsAndAPreviewForAnyGantryToken() {
        channelSwitchesNeedAnAdmin("submitted");
        as(null).body("{}").post("/tuner/preview").then().statusCode(401);
        // Any role may ask; this body is refused for what it is, not for who sent it.
        as(TestTokens.user("alice")).body("{}").post("/tuner/preview").then().statusCode(400);
        healthAndMetricsStayOpen();
    }
}
