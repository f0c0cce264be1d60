package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.testing.SopApi;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A gateway that can read no engine replica answers a start 503 with {@code Retry-After}, and sends nothing: a start
 * that named no version would be decided against whatever version the deciding replica held then, which a replay of
 * the command could decide otherwise.
 */
class StartWithoutEngineStateIT {

    private static final String TOKEN = "start-without-engine-state-it-token";

    @Test
    void shouldAnswerAStart503WhenNoReplicaCanTellTheLatestVersion(@TempDir Path dataDir) throws Exception {
        // A command nobody answers would be answered 503 too, after this timeout: the start's answer comes long before.
        ConfigurableApplicationContext gateway = EnginelessGateway.start(dataDir, TOKEN, "--sop.command-timeout=120s");
        try {
            SopApi api = new SopApi("http://localhost:" + EnginelessGateway.port(gateway), TOKEN);

            CompletableFuture<SopApi.Response> answered = CompletableFuture.supplyAsync(() ->
                    api.post("/sop/review/start", Map.of("inputs", Map.of("title", "Q3"))));
            SopApi.Response start = answered.get(30, TimeUnit.SECONDS);

            assertThat(start.status()).isEqualTo(503);
            assertThat(start.header("Retry-After")).isEqualTo("1");
            assertThat(start.json().path("error").asString()).isEqualTo("unavailable");
        } finally {
            gateway.close();
        }
    }
}
