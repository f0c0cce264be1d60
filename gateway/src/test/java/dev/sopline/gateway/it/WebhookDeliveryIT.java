package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.sopline.gateway.auth.SignatureVerifier;
import dev.sopline.schemas.json.Json;
import dev.sopline.testing.SharedKafka;
import dev.sopline.testing.SopApi;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class WebhookDeliveryIT extends GatewayTestBase {

    private record Delivery(String id, String signature, byte[] body) {}

    private HttpServer receiver;
    private final List<Delivery> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger failuresLeft = new AtomicInteger(2);

    @BeforeEach
    void startReceiver() throws IOException {
        receiver = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
        receiver.createContext("/hook", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            received.add(new Delivery(exchange.getRequestHeaders().getFirst("X-SOP-Delivery"),
                    exchange.getRequestHeaders().getFirst("X-SOP-Signature-256"), body));
            int status = failuresLeft.getAndDecrement() > 0 ? 500 : 204;
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        receiver.start();
    }

    @AfterEach
    void stopReceiver() {
        receiver.stop(0);
    }

    @Test
    void shouldDeliverSignedStateChangesAndRetryFailedDeliveries() throws Exception {
        SopApi api = api();
        assertThat(api.register(GatewayApiIT.REVIEW).status()).isEqualTo(201);
        awaitDispatcherAssigned();
        String secret = "a-receiver-secret-of-some-length";
        SopApi.Response created = api.post("/workspace/webhooks",
                Map.of("url", "http://localhost:" + receiver.getAddress().getPort() + "/hook", "events", List.of("state_changed"), "secret", secret));
        assertThat(created.status()).isEqualTo(201);
        String webhookId = created.json().path("id").asString();
        assertThat(api.get("/workspace/webhooks").body()).contains(webhookId).doesNotContain(secret);

        String id = api.start("review", Map.of("title", "hooked")).json().path("id").asString();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(types(received.stream().filter(delivery -> subject(delivery).equals(id)).toList()))
                        .contains("sop.instance.state_changed", "sop.step.state_changed"));
        List<Delivery> forInstance = received.stream().filter(delivery -> subject(delivery).equals(id)).toList();
        for (Delivery delivery : forInstance) {
            assertThat(delivery.signature()).isEqualTo(SignatureVerifier.sign(secret, delivery.body()));
            assertThat(delivery.id()).endsWith(":" + webhookId);
        }
        assertThat(received.stream().map(Delivery::id).distinct().count())
                .as("the failed first deliveries were retried under the same delivery id").isLessThan(received.size());

        assertThat(api.delete("/workspace/webhooks/" + webhookId).status()).isEqualTo(204);
        assertThat(api.delete("/workspace/webhooks/" + webhookId).status()).isEqualTo(404);
        SopApi.Response notHttp = api.post("/workspace/webhooks", Map.of("url", "ftp://example.com"));
        assertThat(notHttp.status()).isEqualTo(422);
        assertThat(notHttp.json().path("error").asString()).isEqualTo("invalid_webhook_url");
        assertThat(notHttp.json().path("details").path(0).path("field").asString()).isEqualTo("url");
    }

    private static String subject(Delivery delivery) {
        return Json.mapper().readTree(delivery.body()).path("subject").asString();
    }

    private static List<String> types(List<Delivery> deliveries) {
        return deliveries.stream().map(delivery -> Json.mapper().readTree(delivery.body())).map(JsonNode.class::cast)
                .map(node -> node.path("type").asString()).toList();
    }

    static void awaitDispatcherAssigned() {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", SharedKafka.bootstrapServers()))) {
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                var description = admin.describeConsumerGroups(List.of("sop-webhook-delivery")).all().get().get("sop-webhook-delivery");
                assertThat(description.members()).isNotEmpty();
                assertThat(description.members().iterator().next().assignment().topicPartitions()).isNotEmpty();
            });
        }
    }
}
