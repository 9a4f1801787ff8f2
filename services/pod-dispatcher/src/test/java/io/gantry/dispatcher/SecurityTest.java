package io.gantry.dispatcher;

import static io.gantry.service.support.security.EndpointSecurity.channelSwitchesNeedAnAdmin;
import static io.gantry.service.support.security.EndpointSecurity.healthAndMetricsStayOpen;
import static io.gantry.service.support.security.EndpointSecurity.operatorRead;
import static io.restassured.RestAssured.given;

import io.gantry.kafka.KafkaBrokerTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** Who may do what on pod-dispatcher, with real bearer tokens: admin for channel switches, operator for reads. */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class SecurityTest {

    @Test
    void switchesAreForAdminsReadsForOperatorsAndTheClusterExpositionStaysOpen() {
        channelSwitchesNeedAnAdmin("decisions", "cancellations");
        operatorRead("/simulated-cluster/nodes");
        // metrics-ingest scrapes it without a token, like Prometheus scrapes /q/metrics.
        given().get("/simulated-cluster/metrics").then().statusCode(200);
        healthAndMetricsStayOpen();
    }
}
