package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.gateway.command.CommandBus;
import dev.sopline.gateway.engine.LocalDecisions;
import dev.sopline.gateway.stream.InstanceWaits;
import dev.sopline.testing.SopApi;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The engine in the gateway's JVM is the only replica here, so it decides every command and tells the gateway of every
 * reply and change itself: the gateway reads neither the replies nor the changes from the broker, and answers starts
 * and waiting reads all the same.
 */
class LocalDecisionsIT extends GatewayTestBase {

    private static final String ONE_MACHINE_STEP = """
            engine: "0.1"
            process:
              name: told-here
              version: "1.0"
              steps:
                - id: compute
                  type: automated
                  run: told-here.compute
                  outputs:
                    - name: total
            """;

    @Autowired
    LocalDecisions localDecisions;
    @Autowired
    CommandBus commands;
    @Autowired
    InstanceWaits waits;

    @Test
    void shouldAnswerStartsAndWaitingReadsWithoutReadingRepliesOrChangesFromTheBroker() throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(localDecisions::getAsBoolean);
        await().atMost(Duration.ofSeconds(10)).until(() -> !commands.readsRepliesTopic() && !waits.readsEventsTopic());
        SopApi api = api();
        assertThat(api.register(ONE_MACHINE_STEP).status()).isEqualTo(201);

        SopApi.Response started = api.start("told-here", Map.of());
        assertThat(started.status()).isEqualTo(201);
        String id = started.json().path("id").asString();
        CompletableFuture<SopApi.Response> held = CompletableFuture.supplyAsync(() -> api.get("/sop/told-here/" + id + "?wait=20"));
        Thread.sleep(500);
        assertThat(api.submit("told-here", id, "compute", Map.of("total", "3")).status()).isEqualTo(200);

        SopApi.Response settled = held.get(15, TimeUnit.SECONDS);
        assertThat(settled.status()).isEqualTo(200);
        assertThat(settled.json().path("state").asString()).isEqualTo("completed");
        assertThat(commands.readsRepliesTopic()).as("reading the replies topic").isFalse();
        assertThat(waits.readsEventsTopic()).as("reading the changes as written").isFalse();
    }
}
