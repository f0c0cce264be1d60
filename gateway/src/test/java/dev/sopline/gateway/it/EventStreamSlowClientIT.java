package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.testing.SopApi;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A client that opens a workspace stream and then stops reading must not hold up anyone else's stream: the events it
 * does not read fill its socket buffers, and the reading client beside it still gets each event at once.
 */
class EventStreamSlowClientIT extends GatewayTestBase {

    private static final String BULKY = """
            engine: "0.1"
            process:
              name: stream-bulky
              version: "1.0"
              description: Carries a large input, so that each of its state changes is a large event
              owner: docs-team
              inputs:
                - name: body
                  required: true
              steps:
                - id: read
                  type: form
                  inputs:
                    body: "${inputs.body}"
                  outputs:
                    - name: verdict
            """;
    /** Each start makes two events of about this size: twenty starts make more than the socket buffers on the way hold. */
    private static final String BODY = "x".repeat(100_000);
    private static final int STARTS = 20;
    private static final Pattern SUBJECT = Pattern.compile("\"subject\":\"([^\"]+)\"");

    /** When each instance's first event reached the reading client, by instance id. */
    private final Map<String, Long> arrivedAt = new ConcurrentHashMap<>();
    private volatile boolean open;

    @Test
    void shouldKeepStreamingToAReadingClientWhileAnotherStopsReading() throws Exception {
        SopApi api = api();
        assertThat(api.register(BULKY).status()).isIn(200, 201);
        // Answers 503 while the engine starts; the starts below must not wait for that.
        await().atMost(Duration.ofSeconds(30)).until(() -> api.get("/sop/instances").status() == 200);
        try (Socket stalled = openWithoutReading()) {
            HttpResponse<Stream<String>> reading = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/sop/events"))
                            .header("Accept", "text/event-stream").header("X-SOP-Token", TOKEN).build(),
                    HttpResponse.BodyHandlers.ofLines());
            Thread reader = new Thread(() -> reading.body().forEach(this::read));
            reader.setDaemon(true);
            reader.start();
            await().atMost(Duration.ofSeconds(5)).until(() -> open);

            Map<String, Long> startedAt = new LinkedHashMap<>();
            for (int i = 0; i < STARTS; i++) {
                long now = System.nanoTime();
                startedAt.put(api.start("stream-bulky", Map.of("body", BODY)).json().path("id").asString(), now);
            }

            await().atMost(Duration.ofSeconds(10)).until(() -> arrivedAt.keySet().containsAll(startedAt.keySet()));
            startedAt.forEach((id, started) -> assertThat(Duration.ofNanos(arrivedAt.get(id) - started))
                    .as("how long the first event of %s took to arrive", id).isLessThan(Duration.ofSeconds(5)));
        }
    }

    private void read(String line) {
        open |= line.equals(":open");
        Matcher subject = SUBJECT.matcher(line);
        if (line.startsWith("data:") && subject.find()) {
            arrivedAt.putIfAbsent(subject.group(1), System.nanoTime());
        }
    }

    /** Opens the workspace stream on a socket with a small receive buffer, reads the response headers, and no more. */
    private Socket openWithoutReading() throws Exception {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(4096);
        socket.connect(new InetSocketAddress("localhost", port));
        socket.getOutputStream().write(("GET /sop/events HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n"
                + "X-SOP-Token: " + TOKEN + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream headers = new ByteArrayOutputStream();
        while (!headers.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int next = in.read();
            assertThat(next).as("the response headers end").isNotNegative();
            headers.write(next);
        }
        assertThat(headers.toString(StandardCharsets.US_ASCII)).startsWith("HTTP/1.1 200");
        return socket;
    }
}
