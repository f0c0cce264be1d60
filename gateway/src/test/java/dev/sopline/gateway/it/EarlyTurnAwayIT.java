package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.gateway.command.CommandsInFlightFullException;
import dev.sopline.testing.SopApi;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A running gateway whose room for writes waiting on the engine is taken answers the next write 503 before it parses
 * its body: a start whose body is not JSON gets the turn-away, not its 400.
 */
class EarlyTurnAwayIT {

    private static final String TOKEN = "early-turn-away-it-token";

    @Test
    void shouldAnswerAWriteWithABodyThatIsNotJson503WhileTheRoomIsTakenAnd400OnceItIsFree(@TempDir Path dataDir) throws Exception {
        // An engine secret no engine has: any engine reading the topic refuses its commands unanswered, so the one write
        // let in holds the room until its command timeout.
        ConfigurableApplicationContext gateway = EnginelessGateway.start(dataDir, TOKEN,
                "--sop.engine.secret=a-secret-no-engine-has",
                "--sop.commands-in-flight=1",
                "--sop.command-timeout=5s");
        try {
            int port = EnginelessGateway.port(gateway);
            SopApi api = new SopApi("http://localhost:" + port, TOKEN);
            assertThat(notJsonStart(api).status()).as("with room: the body's own error").isEqualTo(400);

            CompletableFuture<SopApi.Response> holding = CompletableFuture.supplyAsync(() ->
                    api.post("/sop/anything/01JZZZZZZZZZZZZZZZZZZZZZZZ/cancel", Map.of()));
            AtomicReference<SopApi.Response> turnedAway = new AtomicReference<>();
            await().atMost(Duration.ofSeconds(4)).pollInterval(Duration.ofMillis(20)).until(() -> {
                turnedAway.set(notJsonStart(api));
                return turnedAway.get().status() == 503;
            });

            assertThat(turnedAway.get().header("Retry-After")).isEqualTo("1");
            assertThat(turnedAway.get().json().path("error").asString()).isEqualTo("unavailable");
            assertThat(turnedAway.get().json().path("message").asString()).isEqualTo(CommandsInFlightFullException.ANSWER);
            assertThat(holding.get().status()).as("the write let in, never answered by an engine").isEqualTo(503);
            assertThat(notJsonStart(api).status()).as("with the room free again").isEqualTo(400);
        } finally {
            gateway.close();
        }
    }

    private static SopApi.Response notJsonStart(SopApi api) {
        return api.postRaw("/sop/anything/start", "not json at all", Map.of());
    }
}
