package dev.sopline.standalone;

import dev.sopline.testing.TemporaryDirectories;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A headless Chromium driven through the machine's own chromedriver (Debian's {@code chromium} and
 * {@code chromium-driver}), so no browser or driver is ever downloaded. Screenshots go to
 * {@code target/ui-screenshots}.
 */
final class Browser implements AutoCloseable {

    static final Path SCREENSHOTS = Path.of("target", "ui-screenshots");

    private final ChromeDriver driver;
    private final WebDriverWait wait;
    /** The browser's profile, deleted once it has quit. */
    private final Path profile;

    private Browser(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
        // Pages that follow a live stream render again when it opens and on every change, which can replace an element
        // while a wait reads it: the wait then looks again.
        this.wait = new WebDriverWait(driver, Duration.ofSeconds(20));
        this.wait.ignoring(StaleElementReferenceException.class);
    }

    /** The executables, when this machine has them. */
    static Optional<Path[]> installed() {
        Optional<Path> chromium = onPath("chromium", "chromium-browser", "google-chrome");
        Optional<Path> chromedriver = onPath("chromedriver");
        return chromium.isPresent() && chromedriver.isPresent()
                ? Optional.of(new Path[] {chromium.get(), chromedriver.get()})
                : Optional.empty();
    }

    static Browser open(Path[] executables) {
        Path profile = temporaryDirectory();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(executables[0].toFile());
        // Headless without a sandbox (tests may run as root), and without the background calls to Google's
        // services that a closed network refuses.
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic",
                "--no-first-run", "--window-size=1280,1000", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(executables[1].toFile())
                .usingAnyFreePort()
                .build();
        return new Browser(new ChromeDriver(service, options), profile);
    }

    ChromeDriver driver() {
        return driver;
    }

    void open(String url) {
        driver.get(url);
    }

    WebElement visible(By locator) {
        return wait.until(ExpectedConditions.visibilityOfElementLocated(locator));
    }

    /** The text of the element the locator finds, read again if the page replaced the element while it was read. */
    String textOf(By locator) {
        return wait.until(page -> page.findElement(locator).getText());
    }

    void waitForText(By locator, String text) {
        wait.until(ExpectedConditions.textToBePresentInElementLocated(locator, text));
    }

    void waitUntilGone(By locator) {
        wait.until(ExpectedConditions.invisibilityOfElementLocated(locator));
    }

    /** Marks the loaded page; the mark survives everything but a reload. */
    void markPage() {
        ((JavascriptExecutor) driver).executeScript("window.__sopPageMark = 'unchanged';");
    }

    boolean stillMarked() {
        return "unchanged".equals(((JavascriptExecutor) driver).executeScript("return window.__sopPageMark;"));
    }

    /** Cuts this tab off from the live streams, as a proxy that buffers responses would: the page sees no change. */
    void blockLiveStreams() {
        driver.executeCdpCommand("Network.enable", Map.of());
        driver.executeCdpCommand("Network.setBlockedURLs", Map.of("urls", List.of("*/events")));
    }

    void resize(int width, int height) {
        driver.manage().window().setSize(new Dimension(width, height));
    }

    void screenshot(String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            Files.write(SCREENSHOTS.resolve(name + ".png"), driver.getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            TemporaryDirectories.deleteNow(profile);
        }
    }

    private static Optional<Path> onPath(String... names) {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin");
        return Stream.of(names)
                .flatMap(name -> Stream.of(path.split(File.pathSeparator)).map(directory -> Path.of(directory, name)))
                .filter(Files::isExecutable)
                .findFirst();
    }

    private static Path temporaryDirectory() {
        try {
            return Files.createTempDirectory("chromium-profile");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
