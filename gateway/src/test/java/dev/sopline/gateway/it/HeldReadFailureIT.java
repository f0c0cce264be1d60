package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.gateway.engine.EngineAccess;
import dev.sopline.testing.SopApi;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A held read ({@code GET /sop/:name/:id?wait=}) whose reads fail while it waits, on the real web server: the failure
 * goes back through the servlet container's async dispatch, the security chain and Spring MVC's error handling, and
 * the client gets the JSON error a plain read would get, not a hang, a 401 or an empty answer. The failure is real:
 * the engine in the gateway's JVM stops while the read is held, and is started again for the tests after this one.
 */
class HeldReadFailureIT extends GatewayTestBase {

    @Autowired
    EngineAccess engine;

    @Test
    void shouldAnswerAHeldReadWithTheUnavailableErrorWhenTheEngineStopsMidWait() throws Exception {
        SopApi api = api();
        assertThat(api.register(InstanceWaitIT.MACHINE_ONLY).status()).isEqualTo(201);
        String id = api.start("machine-only", Map.of()).json().path("id").asString();
        long askedAt = System.nanoTime();
        CompletableFuture<SopApi.Response> held = CompletableFuture.supplyAsync(() -> api.get("/sop/machine-only/" + id + "?wait=25"));
        Thread.sleep(700);
        assertThat(held).as("a read of a running instance, held").isNotDone();

        SopApi.Response answer;
        try {
            engine.stop();
            answer = held.get(15, TimeUnit.SECONDS);
        } finally {
            engine.start();
        }

        assertThat(answer.status()).isEqualTo(503);
        assertThat(answer.json().path("error").asString()).isEqualTo("unavailable");
        assertThat(answer.header("Retry-After")).isNotBlank();
        assertThat(answer.header("Content-Type")).startsWith("application/json");
        // Answered by the failure, well before the wait of 25 s ran out.
        assertThat(Duration.ofNanos(System.nanoTime() - askedAt)).isLessThan(Duration.ofSeconds(20));

        // Nothing is left stuck: once the engine serves again, the instance reads as it was.
        awaitEngineServing();
        assertThat(api.get("/sop/machine-only/" + id).json().path("state").asString()).isEqualTo("running");
    }
}
