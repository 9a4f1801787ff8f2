package io.gantry.ingest;

import static io.gantry.service.support.security.EndpointSecurity.healthAndMetricsStayOpen;
import static io.gantry.service.support.security.EndpointSecurity.operatorRead;

import io.gantry.kafka.KafkaBrokerTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** metrics-ingest changes nothing over REST; its reads need an operator token, health and metrics stay open. */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
@QuarkusTestResource(FakeExporterResource.class)
class SecurityTest {

    @Test
    void readsNeedAnOperatorToken() {
        operatorRead("/ingest/status");
        operatorRead("/admin/status");
        healthAndMetricsStayOpen();
    }
}
