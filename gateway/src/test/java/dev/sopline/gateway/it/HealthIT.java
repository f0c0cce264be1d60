package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.gateway.webhook.WebhookDispatcher;
import dev.sopline.testing.SopApi;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Health answers DOWN while a background reader the platform needs is not working (CONTRACT section 8). */
class HealthIT extends GatewayTestBase {

    @Autowired
    WebhookDispatcher webhooks;

    @Test
    void shouldAnswerDownWhileTheWebhookDispatcherIsNotReadingAndUpOnceItIs() {
        SopApi anonymous = api().withToken(null);
        await().atMost(Duration.ofSeconds(60)).until(() -> anonymous.get("/actuator/health").status() == 200);

        webhooks.stop();
        try {
            SopApi.Response down = anonymous.get("/actuator/health");
            assertThat(down.status()).isEqualTo(503);
            assertThat(down.json().path("status").asString()).isEqualTo("DOWN");
        } finally {
            webhooks.start();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> anonymous.get("/actuator/health").status() == 200);
    }
}
