package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.schemas.topic.Topics;
import dev.sopline.testing.SharedKafka;
import dev.sopline.testing.SopApi;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class EventStreamIT extends GatewayTestBase {

    private final List<String> lines = new CopyOnWriteArrayList<>();

    private HttpResponse<Stream<String>> open(String path, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).header("Accept", "text/event-stream");
        if (token != null) {
            request.header("X-SOP-Token", token);
        }
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofLines());
    }

    @Test
    void shouldStreamAnInstancesStateChangesUntilItCompletes() throws Exception {
        SopApi api = api();
        assertThat(api.register(GatewayApiIT.REVIEW).status()).isEqualTo(201);
        String id = api.start("review", Map.of("title", "live")).json().path("id").asString();

        HttpResponse<Stream<String>> stream = open("/sop/review/" + id + "/events", TOKEN);
        assertThat(stream.statusCode()).isEqualTo(200);
        assertThat(stream.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
        Thread reader = new Thread(() -> stream.body().forEach(lines::add));
        reader.setDaemon(true);
        reader.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> lines.contains(":open"));

        assertThat(api.submit("review", id, "read", Map.of("verdict", "accept")).status()).isEqualTo(200);

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(String.join("\n", lines))
                .contains("event:state_changed")
                .contains("\"subject\":\"" + id + "\"")
                .contains("\"to\":\"completed\""));
    }

    @Test
    void shouldEndAStreamWithinASecondWhenTheTokenThatOpenedItIsRevoked() throws Exception {
        SopApi.Response created = api().post("/workspace/tokens", Map.of("name", "stream-revocation"));
        assertThat(created.status()).isEqualTo(201);
        HttpResponse<Stream<String>> stream = open("/sop/events", created.json().path("token").asString());
        assertThat(stream.statusCode()).isEqualTo(200);
        Thread reader = new Thread(() -> stream.body().forEach(lines::add));
        reader.setDaemon(true);
        reader.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> lines.contains(":open"));

        assertThat(api().delete("/workspace/tokens/" + created.json().path("id").asString()).status()).isEqualTo(204);

        await("the stream ends").atMost(Duration.ofSeconds(2)).until(() -> !reader.isAlive());
    }

    @Test
    void shouldKeepStreamingAfterRecordsThatAreNotStateChanges() throws Exception {
        SopApi api = api();
        assertThat(api.register(GatewayApiIT.REVIEW).status()).isEqualTo(201);
        HttpResponse<Stream<String>> stream = open("/sop/events", TOKEN);
        Thread reader = new Thread(() -> stream.body().forEach(lines::add));
        reader.setDaemon(true);
        reader.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> lines.contains(":open"));

        // On every partition, so that whichever one the next real event lands on has them before it.
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers()), new StringSerializer(), new ByteArraySerializer())) {
            for (PartitionInfo partition : producer.partitionsFor(Topics.EVENTS)) {
                for (byte[] garbage : List.of("not json".getBytes(StandardCharsets.UTF_8),
                        "{\"specversion\":\"1.0\",\"id\":\"x\",\"source\":\"urn:no-workspace\",\"type\":\"sop.instance.state_changed\"}"
                                .getBytes(StandardCharsets.UTF_8))) {
                    producer.send(new ProducerRecord<>(Topics.EVENTS, partition.partition(), "garbage", garbage)).get();
                }
                producer.send(new ProducerRecord<>(Topics.EVENTS, partition.partition(), "garbage", null)).get();
            }
        }
        String id = api.start("review", Map.of("title", "after garbage")).json().path("id").asString();

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(String.join("\n", lines))
                .contains("\"subject\":\"" + id + "\""));
    }

    @Test
    void shouldRefuseAStreamPastATokensBoundWithRateLimitedAsJson() throws Exception {
        SopApi.Response created = api().post("/workspace/tokens", Map.of("name", "many-streams", "role", "viewer"));
        String token = created.json().path("token").asString();
        List<HttpResponse<Stream<String>>> open = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < dev.sopline.gateway.stream.EventStream.PER_TOKEN; i++) {
                HttpResponse<Stream<String>> stream = open("/sop/events", token);
                assertThat(stream.statusCode()).as("stream %d", i).isEqualTo(200);
                open.add(stream);
            }

            HttpResponse<Stream<String>> refused = open("/sop/events", token);

            assertThat(refused.statusCode()).isEqualTo(429);
            assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
            assertThat(refused.body().collect(java.util.stream.Collectors.joining())).contains("\"error\":\"rate_limited\"");
            // Another token of the workspace still opens one.
            HttpResponse<Stream<String>> other = open("/sop/events", TOKEN);
            assertThat(other.statusCode()).isEqualTo(200);
            open.add(other);
        } finally {
            open.forEach(stream -> stream.body().close());
            // Revoked, its streams end within a second: none is left to the tests after this one.
            api().delete("/workspace/tokens/" + created.json().path("id").asString());
        }
    }

    @Test
    void shouldRefuseStreamsOfUnknownInstancesAndWithoutAToken() throws Exception {
        // 503 while the engine starts and cannot yet tell whether the instance exists.
        await().atMost(Duration.ofSeconds(30)).until(() -> open("/sop/review/01JZZZZZZZZZZZZZZZZZZZZZZZ/events", TOKEN).statusCode() == 404);
        assertThat(open("/sop/events", null).statusCode()).isEqualTo(401);
    }
}
