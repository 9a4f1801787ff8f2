package io.gantry.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.service.support.security.TestTokens;
import io.gantry.system.GantryProcesses;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The studio's token sign-in as a user meets it (README "Security"), in headless Chromium against the broker and the
 * studio as processes, the studio trusting no {@code X-Gantry-User} header: each user pastes their own bearer token
 * and trains a network; alice's token lists alice's run and not bob's; a typed name lists nothing; an expired token
 * and a token signed with another key are each refused with a message that says which, and sign the tab out.
 */
class StudioTokenSignInTest {

    private static final Path ROOT = Path.of(System.getProperty("gantry.root", "..")).toAbsolutePath().normalize();
    private static final Path SHARED =
            Path.of(System.getProperty("gantry.shared.dir", ROOT.resolve("../shared").toString()));
    private static final Path SCREENSHOTS = Path.of(System.getProperty("gantry.screenshots", "target/screenshots"));
    private static final Duration LIST_WAIT = Duration.ofSeconds(20);

    @Test
    void ownRunsWithOwnTokenAndAnExpiredOrForeignTokenIsRefusedWithItsReason() throws Exception {
        Chromium.require();
        Path studioJar = ROOT.resolve("services/studio/target/quarkus-app/quarkus-run.jar");
        if (!Files.exists(studioJar)) {
            throw new IllegalStateException(studioJar + " is missing: build first (./mvnw -B -DskipTests package)");
        }
        try (GantryProcesses system = new GantryProcesses()) {
            system.startBroker();
            // The studio alone: runs stay submitted (no pipeline), which is all a list of one's runs needs. The
            // scheduler and priority-accounting are a closed port, answered with reasons on the page.
            system.startService("studio", Map.of("GANTRY_SCHEDULER_URL", "http://localhost:1",
                    "GANTRY_PRIORITY_URL", "http://localhost:1", "GANTRY_SHARED_DIR", SHARED.toString(),
                    "GANTRY_STUDIO_TRUST_USER_HEADER", "false"));
            ChromeDriver driver = Chromium.start(Files.createTempDirectory("gantry-chromium"),
                    system.logs().resolve("chromedriver-token.log"));
            StudioPage page = new StudioPage(driver, SCREENSHOTS);
            try {
                run(page, "http://localhost:" + system.port("studio") + "/");
            } catch (Throwable t) {
                page.screenshot("token-failure");
                throw new AssertionError(t.getMessage() + " (logs in " + system.logs() + ", screenshot in "
                        + SCREENSHOTS + ")", t);
            } finally {
                driver.quit();
            }
        }
    }

    private void run(StudioPage page, String url) throws Exception {
        page.open(url);
        page.signIn(TestTokens.user("bob"), "bob");
        String bobsRun = trainTheMlp(page);
        page.signIn(TestTokens.user("alice"), "alice");
        String alicesRun = trainTheMlp(page);

        page.go("#/jobs");
        double leftRunPage = ((Number) page.script("return performance.now()")).doubleValue();
        assertEquals(List.of(alicesRun), listed(page), "alice's token lists her run, not bob's " + bobsRun);
        page.screenshot("token-1-own-runs");

        // A typed name is no sign-in where the studio trusts no header: nothing listed, and the page says why.
        page.typeSignIn("bob");
        String notSignedIn = message(page, "Not signed in");
        assertTrue(notSignedIn.contains("bearer token"), notSignedIn);
        page.await(LIST_WAIT, d -> page.listedRuns().isEmpty());

        String expired = refused(page, TestTokens.expired("alice"));
        assertTrue(expired.startsWith("Token refused: your token expired at 20"), expired);
        page.screenshot("token-2-expired");
        String foreign = refused(page, TestTokens.signedWithAnotherKey("alice"));
        assertTrue(foreign.startsWith("Token refused: the studio did not accept your token: it was not signed with "
                + "this Gantry's key"), foreign);

        // The run page polls its run every 2 s; once left it calls nothing (a timer set before it was left used to fire
        // once more, as whoever the tab was by then: its 401 wrote "Not signed in" over a refused token's reason).
        assertEquals(0L, page.script("return performance.getEntriesByType('resource').filter(e => e.startTime > "
                + leftRunPage + " && e.name.endsWith('/api/runs/" + alicesRun + "')).length"),
                "the run page, left, polls no more");

        // Her own token again: the refusals left nothing behind.
        page.signIn(TestTokens.user("alice"), "alice");
        assertEquals("", page.mainError(), "a good sign-in clears the refusal");
        page.go("#/jobs");
        assertEquals(List.of(alicesRun), listed(page));
    }

    /** Pastes a token the studio must refuse (on the job list); returns the page's message once it has signed out. */
    private static String refused(StudioPage page, String token) {
        page.go("#/jobs");
        page.typeSignIn(token);
        String message = message(page, "Token refused");
        page.await(LIST_WAIT, d -> page.me().startsWith("Not signed in"));
        assertEquals(List.of(), page.listedRuns(), "a refused token lists no runs");
        assertTrue((Boolean) page.script("return document.getElementById('view-jobs').textContent.includes('Sign in')"),
                "the job list asks to sign in");
        assertEquals("", page.script("return sessionStorage.getItem('gantry.token') || ''"), "the token is dropped");
        return message;
    }

    /** The job list once it shows a run. */
    private static List<String> listed(StudioPage page) {
        return page.await(LIST_WAIT, d -> page.listedRuns().isEmpty() ? null : page.listedRuns());
    }

    /** The message under the header once it starts with {@code start}. */
    private static String message(StudioPage page, String start) {
        return page.await(LIST_WAIT, d -> page.mainError().startsWith(start) ? page.mainError() : null);
    }

    /** The MLP template on iris, one epoch, submitted from the designer; returns the run id. */
    private static String trainTheMlp(StudioPage page) {
        page.go("#/design");
        page.clickTemplate("mlp");
        page.await(Duration.ofSeconds(10), d -> "valid".equals(page.validationStatus()));
        page.fillRunForm("iris", 1, false);
        return page.submit();
    }
}
