package dev.sopline.engine.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.engine.runtime.Engine;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.SubmitStep;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The records that used to stop the engine for good (a start with 600 KB of inputs, a third large process version)
 * on a real broker: each gets a clean answer, and the engine keeps serving, also after a restart on the same data.
 */
class PoisonRecordsIT {

    private static final String WORKSPACE = "poison";

    private static String largeVersion(String version) {
        return """
                engine: "0.1"
                process:
                  name: poison-form
                  version: "%s"
                  description: "%s"
                  inputs:
                    - name: note
                  steps:
                    - id: approve
                      type: form
                      outputs:
                        - name: comment
                """.formatted(version, "x".repeat(255 * 1000));
    }

    @Test
    void shouldAnswerPoisonRecordsCleanlyAndKeepServingAcrossARestart(@TempDir Path stateDir) throws Exception {
        String kept = UlidCreator.getMonotonicUlid().toString();
        try (EngineClient client = new EngineClient(dev.sopline.testing.SharedKafka.bootstrapServers())) {
            try (Engine engine = Engine.start(EngineFailoverIT.settings(stateDir))) {
                await().atMost(Duration.ofSeconds(90)).until(engine::isHealthy);

                for (String version : new String[] {"1.0", "1.1", "1.2"}) {
                    assertThat(client.register(WORKSPACE, largeVersion(version)).status()).isEqualTo(201);
                }
                CommandReply oversized = client.start(WORKSPACE, UlidCreator.getMonotonicUlid().toString(), "poison-form",
                        Map.of("note", "x".repeat(600 * 1024))).get(60, java.util.concurrent.TimeUnit.SECONDS);
                assertThat(oversized.status()).isEqualTo(413);
                assertThat(oversized.error()).isEqualTo("payload_too_large");

                assertThat(client.start(WORKSPACE, kept, "poison-form", Map.of("note", "x".repeat(200 * 1024)))
                        .get(60, java.util.concurrent.TimeUnit.SECONDS).status()).isEqualTo(201);
                CommandReply overBudget = client.sendAndWait(new SubmitStep(EngineClient.commandId(), WORKSPACE, kept, "poison-form", "approve",
                        Map.of("comment", "y".repeat(100 * 1024)), null));
                assertThat(overBudget.status()).isEqualTo(413);
                assertThat(engine.isHealthy()).isTrue();
            }

            try (Engine restarted = Engine.start(EngineFailoverIT.settings(stateDir))) {
                await().atMost(Duration.ofSeconds(90)).until(restarted::isHealthy);
                assertThat(client.register(WORKSPACE, largeVersion("1.10")).status()).isEqualTo(201);
                // Named as the gateway names it: a start without a version takes the latest this replica holds, and the
                // global store may not hold 1.10 yet a moment after its 201.
                CommandReply started = client.start(WORKSPACE, UlidCreator.getMonotonicUlid().toString(), "poison-form", "1.10", Map.of())
                        .get(60, java.util.concurrent.TimeUnit.SECONDS);
                assertThat(started.status()).isEqualTo(201);
                assertThat(started.body()).extracting("version").isEqualTo("1.10");
                assertThat(client.sendAndWait(new SubmitStep(EngineClient.commandId(), WORKSPACE, kept, "poison-form", "approve",
                        Map.of("comment", "fine"), null)).status()).isEqualTo(200);
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                        assertThat(restarted.queries().process(WORKSPACE, "poison-form").orElseThrow().versions()).hasSize(4));
            }
        }
    }

    @Test
    void shouldReportUnhealthyWhenTheEngineCannotProgress(@TempDir Path stateDir) throws Exception {
        Engine engine = Engine.start(EngineFailoverIT.settings(stateDir));
        try {
            await().atMost(Duration.ofSeconds(90)).until(engine::isHealthy);
        } finally {
            engine.close();
        }

        assertThat(engine.isHealthy()).isFalse();
    }
}
