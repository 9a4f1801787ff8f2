package io.gantry.browser;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's headless Chromium and its chromedriver, used as installed: the driver and browser paths are given, so
 * Selenium Manager never looks for (or downloads) either. Missing locally: the test is skipped; under CI=true: a
 * failure (.ci/run installs the packages), as monitoring-tests do for Prometheus.
 */
final class Chromium {

    static final Path BROWSER = Path.of("/usr/bin/chromium");
    static final Path DRIVER = Path.of("/usr/bin/chromedriver");

    private Chromium() {
    }

    static void require() {
        boolean installed = Files.isExecutable(BROWSER) && Files.isExecutable(DRIVER);
        String what = BROWSER + " and " + DRIVER;
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            assertTrue(installed, what + " missing under CI=true: .ci/run installs Debian's chromium and chromium-driver");
        }
        assumeTrue(installed, what + " not installed (apt-get install -y chromium chromium-driver): browser test skipped");
    }

    /** A fresh headless browser with its own profile directory, 1600×1200, nothing phoning home. */
    static ChromeDriver start(Path profile, Path driverLog) throws IOException {
        Files.createDirectories(profile);
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BROWSER.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1600,1200", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort()
                .withLogFile(new File(driverLog.toString()))
                .build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(10));
        return driver;
    }
}
