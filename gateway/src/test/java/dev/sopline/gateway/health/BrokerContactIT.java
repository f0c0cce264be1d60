package dev.sopline.gateway.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.testing.SharedKafka;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;

/** Health follows whether the Kafka cluster answers: the shared broker does, a port where nothing listens does not. */
class BrokerContactIT {

    private static final Duration EVERY = Duration.ofMillis(200);
    private static final Duration PATIENCE = Duration.ofSeconds(1);

    @Test
    void shouldStayUpWhileTheClusterAnswers() {
        try (BrokerContact contact = new BrokerContact(SharedKafka.bootstrapServers(), EVERY, PATIENCE)) {
            BrokerHealthIndicator health = new BrokerHealthIndicator(contact);
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
                    .until(() -> health.health().getStatus().equals(Status.UP));
        }
    }

    @Test
    void shouldGoDownOnceTheClusterHasNotAnsweredForItsPatience() throws Exception {
        int nobody;
        try (ServerSocket socket = new ServerSocket(0)) {
            nobody = socket.getLocalPort();
        }
        try (BrokerContact contact = new BrokerContact("localhost:" + nobody, EVERY, PATIENCE)) {
            BrokerHealthIndicator health = new BrokerHealthIndicator(contact);
            assertThat(health.health().getStatus()).as("given its patience from the start").isEqualTo(Status.UP);
            await().atMost(Duration.ofSeconds(10)).until(() -> health.health().getStatus().equals(Status.DOWN));
        }
    }
}
