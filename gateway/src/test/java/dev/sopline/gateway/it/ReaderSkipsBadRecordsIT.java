package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.testing.SharedKafka;
import dev.sopline.testing.SopApi;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * A record on the token or webhook table that is not what the gateway wrote does not stop it reading the table: a
 * token or webhook subscription created after it still works (creating one waits until the gateway has read it back).
 */
class ReaderSkipsBadRecordsIT extends GatewayTestBase {

    @Test
    void shouldStillCreateAndUseTokensAfterAnUnreadableTokenRecord() throws Exception {
        writeGarbage(EngineTopics.TOKENS);

        SopApi.Response created = api().post("/workspace/tokens", Map.of("name", "after-garbage"));

        assertThat(created.status()).isEqualTo(201);
        SopApi withNewToken = api().withToken(created.json().path("token").asString());
        // 503 while the engine starts, 401 if the token were unknown.
        await().atMost(Duration.ofSeconds(30)).until(() -> withNewToken.get("/sop/instances").status() == 200);
    }

    @Test
    void shouldStillCreateAndDeleteWebhooksAfterAnUnreadableWebhookRecord() throws Exception {
        writeGarbage(EngineTopics.WEBHOOKS);

        SopApi.Response created = api().post("/workspace/webhooks", Map.of("url", "http://127.0.0.1:9/after-garbage"));

        assertThat(created.status()).isEqualTo(201);
        String id = created.json().path("id").asString();
        assertThat(api().get("/workspace/webhooks").body()).contains(id);
        assertThat(api().delete("/workspace/webhooks/" + id).status()).isEqualTo(204);
    }

    /** Not JSON, and JSON of another shape, under keys of their own. */
    private static void writeGarbage(String topic) throws Exception {
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers()), new StringSerializer(), new ByteArraySerializer())) {
            for (String garbage : List.of("not json", "[1, 2, 3]")) {
                producer.send(new ProducerRecord<>(topic, "garbage-" + UlidCreator.getMonotonicUlid(), garbage.getBytes(StandardCharsets.UTF_8))).get();
            }
        }
    }
}
