package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.sopline.gateway.webhook.WebhookDispatcher;
import dev.sopline.schemas.event.StateChangeEvents;
import dev.sopline.schemas.json.Json;
import dev.sopline.schemas.topic.Topics;
import dev.sopline.testing.SharedKafka;
import dev.sopline.testing.SopApi;
import io.cloudevents.core.builder.CloudEventBuilder;
import io.cloudevents.jackson.JsonFormat;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** CONTRACT section 8: a receiver that hangs, or a record that is not an event, stops no one else's deliveries. */
class WebhookResilienceIT extends GatewayTestBase {

    /** Far below what one hanging attempt takes (10 s), let alone its retries. */
    private static final Duration PROMPTLY = Duration.ofSeconds(8);

    @Autowired
    WebhookDispatcher dispatcher;

    private final List<Receiver> receivers = new ArrayList<>();
    private final List<Runnable> unsubscribes = new ArrayList<>();

    @AfterEach
    void unsubscribeAndStopReceivers() {
        unsubscribes.forEach(Runnable::run);
        receivers.forEach(Receiver::stop);
    }

    @Test
    void shouldKeepDeliveringToOtherSubscriptionsWhileOneReceiverHangs() {
        // given a receiver that never answers, subscribed first, beside a healthy one in the same workspace and one in another
        SopApi api = api();
        SopApi acme = api.withToken(OtherWorkspace.token(this));
        assertThat(api.register(GatewayApiIT.REVIEW).status()).isEqualTo(201);
        assertThat(acme.register(GatewayApiIT.REVIEW).status()).isEqualTo(201);
        WebhookDeliveryIT.awaitDispatcherAssigned();
        Receiver hanging = subscribe(api, Receiver.hanging());
        Receiver healthy = subscribe(api, Receiver.answering());
        Receiver healthyElsewhere = subscribe(acme, Receiver.answering());

        for (int round = 1; round <= 3; round++) {
            // when
            String id = api.start("review", Map.of("title", "round " + round)).json().path("id").asString();
            String acmeId = acme.start("review", Map.of("title", "round " + round)).json().path("id").asString();
            // then
            await().atMost(PROMPTLY).until(() -> healthy.instanceStates(id).contains("waiting"));
            await().atMost(PROMPTLY).until(() -> healthyElsewhere.instanceStates(acmeId).contains("waiting"));

            // when
            assertThat(api.post("/sop/review/" + id + "/cancel", Map.of()).status()).isEqualTo(200);
            // then
            await().atMost(PROMPTLY).until(() -> healthy.instanceStates(id).contains("cancelled"));
        }
        assertThat(hanging.requests()).as("the hanging receiver was called, and is still holding its request").isPositive();
    }

    @Test
    void shouldKeepDeliveringAfterRecordsThatAreNotStateChangeEvents() throws Exception {
        // given
        SopApi api = api();
        assertThat(api.register(GatewayApiIT.REVIEW).status()).isEqualTo(201);
        WebhookDeliveryIT.awaitDispatcherAssigned();
        Receiver receiver = subscribe(api, Receiver.answering());

        // when records that no dispatcher can deliver land on sop.events: bytes that are not JSON, and a CloudEvent of no workspace
        byte[] elsewhere = new JsonFormat().serialize(CloudEventBuilder.v1().withId("not-ours").withType(StateChangeEvents.INSTANCE_STATE_CHANGED)
                .withSource(URI.create("urn:elsewhere")).build());
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers", SharedKafka.bootstrapServers()),
                new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(Topics.EVENTS, "garbage", new byte[] {0, (byte) 0xff, '{', 1})).get();
            producer.send(new ProducerRecord<>(Topics.EVENTS, "elsewhere", elsewhere)).get();
        }
        String id = api.start("review", Map.of("title", "after garbage")).json().path("id").asString();
        await().atMost(Duration.ofSeconds(30)).until(() -> receiver.instanceStates(id).contains("waiting"));
        assertThat(api.post("/sop/review/" + id + "/cancel", Map.of()).status()).isEqualTo(200);

        // then the state changes after them are still delivered
        await().atMost(Duration.ofSeconds(30)).until(() -> receiver.instanceStates(id).contains("cancelled"));
        assertThat(dispatcher.isHealthy()).isTrue();
    }

    private Receiver subscribe(SopApi api, Receiver receiver) {
        receivers.add(receiver);
        SopApi.Response created = api.post("/workspace/webhooks", Map.of("url", receiver.url(), "events", List.of("state_changed")));
        assertThat(created.status()).isEqualTo(201);
        String webhookId = created.json().path("id").asString();
        unsubscribes.add(() -> api.delete("/workspace/webhooks/" + webhookId));
        return receiver;
    }

    /** A webhook receiver on loopback that answers 204, or that takes each request and never answers it. */
    private static final class Receiver {

        private final HttpServer server;
        private final CountDownLatch released = new CountDownLatch(1);
        private final AtomicInteger requests = new AtomicInteger();
        private final List<JsonNode> events = new CopyOnWriteArrayList<>();

        private Receiver(boolean hang) {
            try {
                server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            server.setExecutor(Executors.newCachedThreadPool());
            server.createContext("/hook", exchange -> {
                requests.incrementAndGet();
                if (hang) {
                    awaitRelease();
                    exchange.close();
                    return;
                }
                events.add(Json.mapper().readTree(exchange.getRequestBody().readAllBytes()));
                exchange.sendResponseHeaders(204, -1);
                exchange.close();
            });
            server.start();
        }

        static Receiver answering() {
            return new Receiver(false);
        }

        static Receiver hanging() {
            return new Receiver(true);
        }

        String url() {
            return "http://localhost:" + server.getAddress().getPort() + "/hook";
        }

        int requests() {
            return requests.get();
        }

        /** The states an instance went to, in the order its instance state changes arrived. */
        List<String> instanceStates(String instanceId) {
            return events.stream()
                    .filter(event -> event.path("subject").asString().equals(instanceId))
                    .filter(event -> event.path("type").asString().equals(StateChangeEvents.INSTANCE_STATE_CHANGED))
                    .map(event -> event.path("data").path("to").asString())
                    .toList();
        }

        private void awaitRelease() {
            try {
                released.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void stop() {
            released.countDown();
            server.stop(0);
        }
    }
}
