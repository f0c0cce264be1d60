package dev.sopline.engine.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.engine.runtime.Engine;
import dev.sopline.schemas.command.SubmitStep;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.InstanceView;
import dev.sopline.schemas.instance.StepState;
import dev.sopline.testing.SharedKafka;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An engine restarted on the same state directory finds every process, instance and pending step. */
class EngineRestartIT {

    private static final String PROCESS = """
            engine: "0.1"
            process:
              name: restart-form
              version: "1.0"
              steps:
                - id: approve
                  type: form
                  timeout: 1h
                  outputs:
                    - name: ok
                      type: boolean
            """;

    @Test
    void shouldFindEverythingWhenRestartedOnTheSameStateDirectory(@TempDir Path stateDir) throws Exception {
        String workspace = "restart";
        String id = UlidCreator.getMonotonicUlid().toString();
        try (EngineClient client = new EngineClient(SharedKafka.bootstrapServers())) {
            try (Engine engine = Engine.start(EngineFailoverIT.settings(stateDir))) {
                await().atMost(Duration.ofSeconds(90)).until(engine::isRunning);
                assertThat(client.register(workspace, PROCESS).status()).isEqualTo(201);
                assertThat(client.start(workspace, id, "restart-form", Map.of()).get().status()).isEqualTo(201);
            }

            try (Engine restarted = Engine.start(EngineFailoverIT.settings(stateDir))) {
                await().atMost(Duration.ofSeconds(90)).until(restarted::isRunning);
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                    InstanceView view = restarted.queries().instance(workspace, id).orElseThrow();
                    assertThat(view.state()).isEqualTo(InstanceState.WAITING);
                    assertThat(view.steps().get(0).state()).isEqualTo(StepState.ACTIVE);
                    assertThat(restarted.queries().process(workspace, "restart-form")).isPresent();
                    assertThat(restarted.queries().pendingSteps(workspace, dev.sopline.engine.api.query.PendingFilter.ANY, null, 10).items())
                            .extracting(step -> step.instanceId()).containsExactly(id);
                });

                var reply = client.sendAndWait(new SubmitStep(EngineClient.commandId(), workspace, id, "restart-form", "approve",
                        Map.of("ok", true), null));
                assertThat(reply.status()).isEqualTo(200);
                await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                        assertThat(restarted.queries().instance(workspace, id).orElseThrow().state()).isEqualTo(InstanceState.COMPLETED));
            }
        }
    }
}
