package io.gantry.browser;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.Rectangle;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/** The studio page as a user drives it: mouse drags from the palette, port-to-port drags, typed parameters. */
final class StudioPage {

    private final ChromeDriver driver;
    private final Path screenshots;

    StudioPage(ChromeDriver driver, Path screenshots) {
        this.driver = driver;
        this.screenshots = screenshots;
    }

    /** Opens the page and returns the Navigation Timing entry of that load (durations in ms from navigation start). */
    @SuppressWarnings("unchecked")
    Map<String, Object> open(String url) {
        driver.get(url);
        await(Duration.ofSeconds(30), d -> !d.findElements(By.cssSelector("#palette .palette-item")).isEmpty());
        return (Map<String, Object>) driver.executeScript("const n = performance.getEntriesByType('navigation')[0];"
                + "return {domContentLoaded: n.domContentLoadedEventEnd, load: n.loadEventEnd,"
                + " transferBytes: n.transferSize, responseEnd: n.responseEnd};");
    }

    void signIn(String user) {
        signIn(user, user);
    }

    /** Signs in with {@code typed} (a user name, or a token of {@code user}); waits until the page shows the user. */
    void signIn(String typed, String user) {
        typeSignIn(typed);
        await(Duration.ofSeconds(20), d -> d.findElement(By.id("me")).getText().startsWith(user));
    }

    /** Types a user name or pastes a token into the sign-in box and presses Enter; waits for nothing. */
    void typeSignIn(String text) {
        WebElement name = driver.findElement(By.id("user-name"));
        name.clear();
        name.sendKeys(text, Keys.ENTER);
    }

    /** What the sign-in box's neighbour says about the user: their standing, or that no one is signed in. */
    String me() {
        return driver.findElement(By.id("me")).getText();
    }

    /** The message under the header (a refused sign-in, a service not answering); empty when there is none. */
    String mainError() {
        return driver.findElement(By.id("main-error")).getText();
    }

    /** The run ids the job list shows now (read in one script: the list redraws every 2 s). */
    @SuppressWarnings("unchecked")
    List<String> listedRuns() {
        return (List<String>) driver.executeScript("return [...document.querySelectorAll("
                + "'#jobs-table tr[data-run-id]')].map(r => r.dataset.runId)");
    }

    /** Drags a palette item onto the canvas at (x, y) from the canvas's top left; returns the new layer's id. */
    String dragLayer(String type, int x, int y) {
        List<String> before = nodeIds();
        WebElement item = driver.findElement(By.cssSelector("#palette [data-layer='" + type + "']"));
        Rectangle canvas = driver.findElement(By.id("canvas")).getRect();
        new Actions(driver).clickAndHold(item).moveByOffset(8, 8)
                .moveToLocation(canvas.getX() + x, canvas.getY() + y).pause(Duration.ofMillis(50))
                .moveToLocation(canvas.getX() + x + 1, canvas.getY() + y).release().perform();
        await(Duration.ofSeconds(5), d -> nodeIds().size() == before.size() + 1);
        List<String> after = new ArrayList<>(nodeIds());
        after.removeAll(before);
        return after.get(0);
    }

    /** Drags from {@code from}'s output port (bottom) to {@code to}'s input port (top). */
    void connect(String from, String to) {
        int edges = edgeCount();
        WebElement out = port(from, "out");
        WebElement in = port(to, "in");
        new Actions(driver).clickAndHold(out).moveByOffset(0, 20).pause(Duration.ofMillis(50))
                .moveToElement(in).pause(Duration.ofMillis(50)).release().perform();
        // A rewired single-input layer drops its old input: the count may stay the same, never fall.
        await(Duration.ofSeconds(5), d -> edgeCount() >= edges && hasEdge(from, to));
    }

    /** Goes to one of the page's views by its hash (the page stays loaded, the designer keeps its network). */
    void go(String hash) {
        driver.executeScript("location.hash = arguments[0]", hash);
    }

    void click(String css) {
        driver.findElement(By.cssSelector(css)).click();
    }

    void clickTemplate(String name) {
        click("#templates [data-template='" + name + "']");
    }

    /** Presses an export button and returns the code the dialog shows, then closes it. */
    String exportCode(String kind) {
        click("#export-" + kind);
        String code = await(Duration.ofSeconds(10), d -> {
            List<WebElement> pre = d.findElements(By.id("export-" + kind + "-code"));
            return pre.isEmpty() ? null : pre.get(0).getText();
        });
        click("dialog.modal .close");
        await(Duration.ofSeconds(5), d -> d.findElements(By.cssSelector("dialog.modal")).isEmpty());
        return code;
    }

    /** Clicks an empty spot of the canvas: nothing selected. */
    void deselect() {
        Rectangle canvas = driver.findElement(By.id("canvas")).getRect();
        new Actions(driver).moveToLocation(canvas.getX() + canvas.getWidth() - 40, canvas.getY() + 40).click().perform();
    }

    /** Selects the layer and types a parameter in the side panel. */
    void setParam(String layer, String param, String value) {
        driver.findElement(By.cssSelector("g[data-cell-id='" + layer + "'] [data-role='title']")).click();
        WebElement input = await(Duration.ofSeconds(5), d -> d.findElement(By.cssSelector(
                "#inspector input[data-param='" + param + "']")));
        input.clear();
        input.sendKeys(value, Keys.TAB);
    }

    /** The validation's verdict drawn on a node: "ok", "error" or "pending". */
    String status(String layer) {
        return detail(layer).getAttribute("data-status");
    }

    /** What the node shows under its name: its output shape, or its error (the full text, even when wrapped). */
    String detailText(String layer) {
        return detail(layer).getAttribute("data-message");
    }

    String validationStatus() {
        return driver.findElement(By.id("validation-status")).getAttribute("data-status");
    }

    void fillRunForm(String dataset, int epochs, boolean stopAtTarget) {
        new Select(driver.findElement(By.id("dataset"))).selectByValue(dataset);
        WebElement e = driver.findElement(By.id("epochs"));
        e.clear();
        e.sendKeys(String.valueOf(epochs));
        WebElement target = driver.findElement(By.id("target-on"));
        if (target.isSelected() != stopAtTarget) {
            target.click();
        }
    }

    /** Presses "Train it" and waits for the run page; returns the run id. */
    String submit() {
        await(Duration.ofSeconds(10), d -> d.findElement(By.id("submit-run")).isEnabled());
        driver.findElement(By.id("submit-run")).click();
        await(Duration.ofSeconds(20), d -> !d.findElements(By.id("run-id")).isEmpty()
                && d.findElement(By.id("view-run")).isDisplayed());
        return driver.findElement(By.id("run-id")).getText();
    }

    /** The run page's state badge (read in one script: the page redraws it as events arrive). */
    String runState() {
        Object state = driver.executeScript(
                "const b = document.querySelector('#run-state [data-state]'); return b ? b.dataset.state : ''");
        return String.valueOf(state);
    }

    /** How many progress points the loss chart draws now. */
    int chartPoints() {
        Object points = driver.executeScript("return document.getElementById('chart-loss')?.dataset.points || '0'");
        return Integer.parseInt(String.valueOf(points));
    }

    List<String> nodeIds() {
        @SuppressWarnings("unchecked")
        List<String> ids = (List<String>) ((JavascriptExecutor) driver).executeScript(
                "return [...document.querySelectorAll('#canvas g.x6-node')].map(g => g.getAttribute('data-cell-id'))");
        return ids;
    }

    Path screenshot(String name) throws Exception {
        Files.createDirectories(screenshots);
        Path file = screenshots.resolve(name + ".png");
        Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
        return file;
    }

    /** A screenshot tall enough for the whole page (the run page's confusion matrix sits below the fold). */
    Path screenshotWhole(String name) throws Exception {
        Dimension before = driver.manage().window().getSize();
        Number height = (Number) driver.executeScript("return document.documentElement.scrollHeight");
        driver.manage().window().setSize(new Dimension(before.getWidth(),
                before.getHeight() + Math.max(0, height.intValue() - viewportHeight())));
        try {
            return screenshot(name);
        } finally {
            driver.manage().window().setSize(before);
        }
    }

    private int viewportHeight() {
        return ((Number) driver.executeScript("return window.innerHeight")).intValue();
    }

    <T> T await(Duration timeout, Function<WebDriver, T> condition) {
        return new WebDriverWait(driver, timeout, Duration.ofMillis(100)).until(condition);
    }

    /** Runs a script in the page (one call reads a part the page may redraw at any moment). */
    Object script(String js) {
        return driver.executeScript(js);
    }

    private WebElement detail(String layer) {
        return driver.findElement(By.cssSelector("g[data-cell-id='" + layer + "'] [data-role='detail']"));
    }

    private WebElement port(String layer, String group) {
        return driver.findElement(By.cssSelector("g[data-cell-id='" + layer + "'] [data-port='" + group + "']"));
    }

    private int edgeCount() {
        return driver.findElements(By.cssSelector("#canvas g.x6-edge")).size();
    }

    private boolean hasEdge(String from, String to) {
        return Boolean.TRUE.equals(((JavascriptExecutor) driver).executeScript(
                "return window.gantryStudio.model().edges.some(e => e.from === arguments[0] && e.to === arguments[1])", from, to));
    }
}
