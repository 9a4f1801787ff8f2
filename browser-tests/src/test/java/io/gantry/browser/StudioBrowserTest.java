package io.gantry.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gantry.system.GantryProcesses;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * A user designs a small CNN for the digits in the studio page, makes and fixes a wiring mistake, trains it on the
 * cluster and watches it learn: headless Chromium against the broker and all six services as processes, with the
 * dispatcher running the real job runner.
 */
class StudioBrowserTest {

    private static final Path ROOT = Path.of(System.getProperty("gantry.root", "..")).toAbsolutePath().normalize();
    private static final Path RUNNER = ROOT.resolve("job-runner/target/job-runner-0.1.0-SNAPSHOT.jar");
    private static final Path SHARED = Path.of(System.getProperty("gantry.shared.dir", ROOT.resolve("../shared").toString()));
    private static final Path SCREENSHOTS = Path.of(System.getProperty("gantry.screenshots", "target/screenshots"));
    /** Where the README's Studio section takes its picture from; rewritten only when asked (-Dgantry.updateScreenshot). */
    private static final Path README_SCREENSHOT = ROOT.resolve("services/studio/docs/studio.png");

    @Test
    void designTrainAndWatchADigitsCnn() throws Exception {
        Chromium.require();
        for (Path jar : List.of(RUNNER, ROOT.resolve("services/studio/target/quarkus-app/quarkus-run.jar"))) {
            if (!Files.exists(jar)) {
                throw new IllegalStateException(jar + " is missing: build first (./mvnw -B -DskipTests package)");
            }
        }
        long t0 = System.nanoTime();
        try (GantryProcesses system = new GantryProcesses()) {
            system.startBroker();
            system.startServices(Map.of("GANTRY_SIMULATED_CLUSTER_NODES", "2",
                    "GANTRY_REAL_JOBS_RUNNER_JAR", RUNNER.toString(),
                    "GANTRY_REAL_JOBS_DATASETS_DIR", SHARED.resolve("datasets").toString(),
                    "GANTRY_REAL_JOBS_MAX_CONCURRENT", "1"));
            system.startService("studio", Map.of(
                    "GANTRY_SCHEDULER_URL", "http://localhost:" + system.port("sac-scheduler"),
                    "GANTRY_PRIORITY_URL", "http://localhost:" + system.port("priority-accounting"),
                    "GANTRY_SHARED_DIR", SHARED.toString(),
                    // The page signs in by name (X-Gantry-User), as in the quick start.
                    "GANTRY_STUDIO_TRUST_USER_HEADER", "true"));
            System.out.printf("studio browser test: broker and six services up in %.0f s%n", (System.nanoTime() - t0) / 1e9);
            ChromeDriver driver = Chromium.start(Files.createTempDirectory("gantry-chromium"),
                    system.logs().resolve("chromedriver.log"));
            try {
                run(new StudioPage(driver, SCREENSHOTS), "http://localhost:" + system.port("studio") + "/");
            } catch (Throwable t) {
                new StudioPage(driver, SCREENSHOTS).screenshot("failure");
                throw new AssertionError(t.getMessage() + " (logs in " + system.logs() + ", screenshot in "
                        + SCREENSHOTS + ")", t);
            } finally {
                driver.quit();
            }
        }
    }

    private void run(StudioPage page, String url) throws Exception {
        Map<String, Object> first = page.open(url);
        // With the services warm: the same page again, as a returning user would load it.
        Map<String, Object> warm = page.open(url);
        System.out.printf("studio page load (Navigation Timing): first %s ms, warm %s ms to the load event "
                + "(DOMContentLoaded %s ms, %s bytes transferred)%n", first.get("load"), warm.get("load"),
                warm.get("domContentLoaded"), warm.get("transferBytes"));
        page.signIn("alice");

        // The chain down one column; Flatten waits at the side until the mistake is fixed.
        String in = page.dragLayer("Input", 300, 50);
        String conv1 = page.dragLayer("Conv2d", 300, 155);
        String pool1 = page.dragLayer("MaxPool2d", 300, 260);
        String conv2 = page.dragLayer("Conv2d", 300, 365);
        String pool2 = page.dragLayer("MaxPool2d", 300, 470);
        String flatten = page.dragLayer("Flatten", 620, 575);
        String linear = page.dragLayer("Linear", 300, 680);
        String out = page.dragLayer("Output", 300, 785);
        // 3×3 convolutions keeping the size (padding 1), 2×2 pools halving it: 8×8 -> 4×4 -> 2×2.
        page.setParam(conv1, "padding", "1");
        page.setParam(pool1, "kernel", "2");
        page.setParam(pool2, "kernel", "2");
        page.setParam(conv2, "padding", "1");
        page.setParam(conv2, "filters", "16");
        page.connect(in, conv1);
        page.connect(conv1, pool1);
        page.connect(pool1, conv2);
        page.connect(conv2, pool2);
        page.connect(linear, out);

        // The mistake: a 3-D feature map straight into a Linear layer. The error appears on that node.
        page.connect(pool2, linear);
        String error = page.await(Duration.ofSeconds(10), d -> "error".equals(page.status(linear))
                && page.detailText(linear).contains("flat") ? page.detailText(linear) : null);
        assertTrue(error.contains("flat input") && error.contains("[16, 2, 2]"), "the Linear node says why: " + error);
        assertEquals("ok", page.status(pool2), "the layer before the mistake is fine: " + page.detailText(pool2));
        assertEquals("invalid", page.validationStatus());
        page.screenshot("2-shape-error");

        // The fix: Flatten in between (connecting into Linear replaces its old input).
        page.connect(pool2, flatten);
        page.connect(flatten, linear);
        page.await(Duration.ofSeconds(10), d -> "valid".equals(page.validationStatus()));
        for (String layer : List.of(in, conv1, pool1, conv2, pool2, flatten, linear, out)) {
            assertEquals("ok", page.status(layer), layer + ": " + page.detailText(layer));
        }
        assertEquals("out 64", page.detailText(flatten));
        assertEquals("digits: 1×8×8", page.detailText(in));
        page.deselect();
        Path designer = page.screenshot("1-designer");

        // 12 epochs without a target stop, so there are epochs enough to watch.
        page.fillRunForm("digits", 12, false);
        long submitted = System.nanoTime();
        String runId = page.submit();
        watchTraining(page, runId);
        afterTheRun(page, runId, List.of(in, conv1, pool1, conv2, pool2, flatten, linear, out));
        if (Boolean.getBoolean("gantry.updateScreenshot")) {
            Files.createDirectories(README_SCREENSHOT.getParent());
            Files.copy(designer, README_SCREENSHOT, StandardCopyOption.REPLACE_EXISTING);
        }
        System.out.printf("studio browser test: submitted to result on the page in %.0f s%n",
                (System.nanoTime() - submitted) / 1e9);
    }

    /** The run in the user's list; the network taken away as code; a template, undone and redone. */
    private void afterTheRun(StudioPage page, String runId, List<String> designed) {
        page.go("#/jobs");
        String row = page.await(Duration.ofSeconds(10), d -> (String) page.script("const r = document.querySelector("
                + "'#jobs-table tr[data-run-id=\"" + runId + "\"] [data-state]'); return r ? r.dataset.state : null"));
        assertEquals("COMPLETED", row, "the run in the job list");

        page.go("#/design");
        String pytorch = page.exportCode("pytorch");
        assertTrue(pytorch.contains("nn.Module") && pytorch.contains("Conv2d"), "PyTorch export: " + pytorch);
        String djl = page.exportCode("djl");
        assertTrue(djl.contains("Block build()"), "DJL export: " + djl);

        page.clickTemplate("lenet");
        page.await(Duration.ofSeconds(10), d -> "valid".equals(page.validationStatus())
                && !page.nodeIds().containsAll(designed));
        Set<String> template = Set.copyOf(page.nodeIds());
        page.click("#undo");
        page.await(Duration.ofSeconds(5), d -> Set.copyOf(page.nodeIds()).equals(Set.copyOf(designed)));
        page.click("#redo");
        page.await(Duration.ofSeconds(5), d -> Set.copyOf(page.nodeIds()).equals(template));
        page.await(Duration.ofSeconds(10), d -> "valid".equals(page.validationStatus()));
    }

    private void watchTraining(StudioPage page, String runId) throws Exception {
        List<Integer> seen = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        boolean liveShot = false;
        while (System.nanoTime() < deadline && !page.runState().equals("COMPLETED")) {
            String state = page.runState();
            assertTrue(!List.of("FAILED", "CANCELLED", "REJECTED").contains(state), runId + " ended " + state);
            int points = page.chartPoints();
            if (state.equals("RUNNING") && points > 0 && (seen.isEmpty() || points > seen.get(seen.size() - 1))) {
                seen.add(points);
                if (seen.size() == 3 && !liveShot) {
                    page.screenshot("3-live-run");
                    liveShot = true;
                }
            }
            Thread.sleep(100);
        }
        assertEquals("COMPLETED", page.runState(), runId + " did not complete within 120 s");
        assertTrue(seen.size() >= 3, "the curve grew while it trained: point counts seen " + seen);
        String accuracy = page.await(Duration.ofSeconds(10), d -> (String) page.script(
                "return document.getElementById('test-accuracy')?.textContent || null"));
        double testAccuracy = Double.parseDouble(accuracy);
        System.out.printf("studio run %s: test accuracy %s, the loss curve drew %s points as they came%n", runId,
                accuracy, seen);
        assertTrue(testAccuracy >= 0.9, "test accuracy on the page: " + testAccuracy);
        assertEquals(10L, page.script("return document.querySelectorAll('#confusion tbody tr').length"),
                "a confusion matrix row per digit");
        page.screenshotWhole("4-result");
    }
}
