package dev.sopline.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A healthy start and a stop of the standalone jar as a user runs it, with an event stream open as an inbox tab keeps
 * one: the banner says where everything is, the stop is quick, and the log has no warning or error on the way.
 */
class StartupLogIT {

    private static final String TOKEN = "startup-log-it-token";

    @Test
    void shouldStartAndStopWithTheBannerAndWithoutWarningsWhileAnEventStreamIsOpen() throws Exception {
        // Under the build's directory, not the system's temp directory, of which Kafka Streams rightly warns.
        Path dataDir = Files.createTempDirectory(Files.createDirectories(Path.of("target", "startup-log-it")).toAbsolutePath(), "run")
                .resolve("data");
        int httpPort = StandaloneProcess.freePort();
        Map<String, String> env = Map.of(
                "SOP_HTTP_PORT", String.valueOf(httpPort),
                "SOP_KAFKA_PORT", String.valueOf(StandaloneProcess.freePort()),
                "SOP_KAFKA_CONTROLLER_PORT", String.valueOf(StandaloneProcess.freePort()),
                "SOP_BOOTSTRAP_TOKEN", TOKEN);
        String baseUrl = "http://localhost:" + httpPort;

        try (StandaloneProcess platform = new StandaloneProcess(dataDir, env)) {
            platform.start();
            platform.awaitHealthy(baseUrl, Duration.ofSeconds(120));
            HttpResponse<InputStream> events = HttpClient.newHttpClient().sendAsync(
                    HttpRequest.newBuilder(URI.create(baseUrl + "/sop/events")).header("X-SOP-Token", TOKEN).build(),
                    HttpResponse.BodyHandlers.ofInputStream()).get(30, TimeUnit.SECONDS);
            assertThat(events.statusCode()).as("event stream open").isEqualTo(200);

            long stopping = System.nanoTime();
            OptionalInt exit = platform.stopWithin(Duration.ofSeconds(15));
            Duration stop = Duration.ofNanos(System.nanoTime() - stopping);
            System.out.println("Standalone stopped in " + stop.toMillis() + " ms with an event stream open");

            assertThat(exit).as("stopped within 15 s with an event stream open").isPresent();
            assertThat(exit.getAsInt()).isIn(0, 130, 143);
            String log = platform.output();
            assertThat(log).contains(
                    "Task inbox:  " + baseUrl + "/ui/",
                    "API:         " + baseUrl + "/sop/",
                    "API docs:    " + baseUrl + "/openapi.json",
                    "Admin token: the value of SOP_BOOTSTRAP_TOKEN");
            assertThat(log).as("the web server's own log lines in the platform's format, through the same logger")
                    .containsPattern("\\d{4}-\\d{2}-\\d{2}T\\S+ INFO  \\[main\\] o\\.a\\.coyote\\.http11\\.Http11NioProtocol - Starting ProtocolHandler");
            // The JVM's own, as it prints them: "[warning][cds,dynamic] Unable to use shared archive ..." for one that
            // does not fit the jar.
            List<String> warnings = log.lines()
                    .filter(line -> line.matches(".*\\b(WARN|ERROR)\\b.*") || line.matches(".*\\[(warning|error)\\].*"))
                    .toList();
            assertThat(warnings).as("warnings and errors in the log of a healthy start and stop").isEmpty();
        }
    }
}
