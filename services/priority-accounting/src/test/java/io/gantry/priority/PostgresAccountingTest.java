package io.gantry.priority;

import io.gantry.kafka.KafkaBrokerTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * The accounting contract on a real PostgreSQL: a Testcontainers container of the image built here from Debian's
 * package ({@link PostgresContainerResource}; {@code .ci/run} builds it and points {@code DOCKER_HOST} at podman), or
 * the server at {@code GANTRY_TEST_PG_URL} when set. Skipped on a developer machine with neither; under
 * {@code CI=true} it runs regardless, so a CI without a container engine fails here instead of skipping silently.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
@TestProfile(PostgresAccountingTest.Postgres.class)
@EnabledIf("postgresExpected")
class PostgresAccountingTest extends AccountingContract {

    static boolean postgresExpected() {
        return "true".equals(System.getenv("CI")) || PostgresContainerResource.available();
    }

    public static class Postgres implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.datasource.db-kind", "postgresql");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(PostgresContainerResource.class));
        }
    }
}
