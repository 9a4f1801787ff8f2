package io.gantry.priority;

import io.gantry.kafka.KafkaBrokerTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/** The accounting contract on the default database: an H2 file. */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
class H2AccountingTest extends AccountingContract {
}
