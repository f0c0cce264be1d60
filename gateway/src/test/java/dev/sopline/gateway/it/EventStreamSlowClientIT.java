package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.schemas.topic.Topics;
import dev.sopline.testing.SharedKafka;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
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

            List<String> started = new ArrayList<>();
            try (CommittedEvents committed = new CommittedEvents()) {
                for (int i = 0; i < STARTS; i++) {
                    started.add(api.start("stream-bulky", Map.of("body", BODY)).json().path("id").asString());
                }

                await().atMost(Duration.ofSeconds(15)).until(() -> arrivedAt.keySet().containsAll(started) && committed.sawAll(started));
                // Measured from when the event was committed, so that how fast the engine works does not count.
                for (String id : started) {
                    assertThat(Duration.ofNanos(arrivedAt.get(id) - committed.seenAt(id)))
                            .as("how long the first event of %s took to reach the reading client", id).isLessThan(Duration.ofSeconds(3));
                }
            }
        }
    }

    /** When each instance's first event became readable on {@code sop.events}, read as the gateway reads it. */
    private static final class CommittedEvents implements AutoCloseable {
        private final Map<String, Long> seenAt = new ConcurrentHashMap<>();
        private final CountDownLatch positioned = new CountDownLatch(1);
        private volatile boolean running = true;
        private final Thread thread = new Thread(this::follow);

        CommittedEvents() throws InterruptedException {
            thread.setDaemon(true);
            thread.start();
            assertThat(positioned.await(30, TimeUnit.SECONDS)).isTrue();
        }

        private void follow() {
            try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers(),
                    ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new StringDeserializer(), new ByteArrayDeserializer())) {
                List<TopicPartition> partitions = consumer.partitionsFor(Topics.EVENTS).stream()
                        .map(info -> new TopicPartition(Topics.EVENTS, info.partition())).toList();
                consumer.assign(partitions);
                consumer.seekToEnd(partitions);
                partitions.forEach(consumer::position);
                positioned.countDown();
                while (running) {
                    consumer.poll(Duration.ofMillis(20)).forEach(record -> seenAt.putIfAbsent(record.key(), System.nanoTime()));
                }
            }
        }

        boolean sawAll(List<String> instanceIds) {
            return seenAt.keySet().containsAll(instanceIds);
        }

        long seenAt(String instanceId) {
            return seenAt.get(instanceId);
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            thread.join(5_000);
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
