package io.gantry.priority;

import io.gantry.kafka.KafkaBrokerTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * The accounting contract on a real PostgreSQL, at {@code GANTRY_TEST_PG_URL} (user {@code GANTRY_TEST_PG_USER},
 * password {@code GANTRY_TEST_PG_PASSWORD}); {@code .ci/run} installs PostgreSQL from Debian and sets them. Skipped on
 * a developer machine without that variable; under {@code CI=true} it runs regardless, so a CI without PostgreSQL
 * fails here instead of skipping silently.
 */
@QuarkusTest
@QuarkusTestResource(KafkaBrokerTestResource.class)
@TestProfile(PostgresAccountingTest.Postgres.class)
@EnabledIf("postgresExpected")
class PostgresAccountingTest extends AccountingContract {

    static boolean postgresExpected() {
        return System.getenv("GANTRY_TEST_PG_URL") != null || "true".equals(System.getenv("CI"));
    }

    public static class Postgres implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            String url = System.getenv("GANTRY_TEST_PG_URL");
            if (url == null) {
                if ("true".equals(System.getenv("CI"))) {
                    throw new IllegalStateException("CI=true but GANTRY_TEST_PG_URL is not set: .ci/run must install "
                            + "and start PostgreSQL before the tests");
                }
                // Quarkus builds the profile during discovery even though @EnabledIf then skips the class.
                return Map.of();
            }
            return Map.of(
                    "quarkus.datasource.db-kind", "postgresql",
                    "quarkus.datasource.jdbc.url", url,
                    "quarkus.datasource.username", System.getenv().getOrDefault("GANTRY_TEST_PG_USER", "gantry"),
                    "quarkus.datasource.password", System.getenv().getOrDefault("GANTRY_TEST_PG_PASSWORD", "gantry"));
        }
    }
}
