package dev.sopline.engine.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.engine.runtime.Engine;
import dev.sopline.engine.runtime.EngineSettings;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.event.InstanceStateChanged;
import dev.sopline.schemas.event.StateChangeEvents;
import dev.sopline.schemas.event.StepStateChanged;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.StepState;
import dev.sopline.testing.SharedKafka;
import io.cloudevents.CloudEvent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two engine replicas share the partitions; one goes away in the middle of a batch. */
class EngineFailoverIT {

    static final String PROCESS = """
            engine: "0.1"
            process:
              name: %s
              version: "1.0"
              inputs:
                - name: n
                  type: integer
                  required: true
              steps:
                - id: first
                  type: automated
                  run: it.first
                  outputs:
                    - name: done
                - id: second
                  type: automated
                  run: it.second
                  outputs:
                    - name: done
            """;

    static EngineSettings settings(Path stateDir) {
        return EngineSettings.fromEnvironment(Map.of())
                .withBootstrapServers(SharedKafka.bootstrapServers())
                .withStateDir(stateDir);
    }

    @Test
    void shouldCompleteEveryInstanceExactlyOnceWhenOneReplicaIsClosedMidBatch(@TempDir Path stateDirA, @TempDir Path stateDirB) throws Exception {
        String workspace = "failover";
        String process = "two-automated";
        Engine first = Engine.start(settings(stateDirA));
        Engine second = Engine.start(settings(stateDirB));
        try (EngineClient client = new EngineClient(SharedKafka.bootstrapServers())) {
            await().atMost(Duration.ofSeconds(90)).until(() -> first.isRunning() && second.isRunning());
            assertThat(client.register(workspace, PROCESS.formatted(process)).status()).isEqualTo(201);
            client.startWorker("failover-workers", Map.of("done", "yes"));

            List<String> ids = new ArrayList<>();
            List<CompletableFuture<CommandReply>> starts = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                String id = UlidCreator.getMonotonicUlid().toString();
                ids.add(id);
                starts.add(client.start(workspace, id, process, Map.of("n", i)));
                if (i == 30) {
                    second.close();
                }
            }
            for (CompletableFuture<CommandReply> start : starts) {
                assertThat(start.get(90, java.util.concurrent.TimeUnit.SECONDS).status()).isEqualTo(201);
            }

            await().atMost(Duration.ofSeconds(90)).untilAsserted(() ->
                    assertThat(completedIds(client.events())).containsAll(ids));
            // The replica left alone has every partition: it decides every command, and so tells its JVM of every reply.
            await().atMost(Duration.ofSeconds(30)).until(first::decidesEveryCommand);

            Map<String, List<CloudEvent>> byInstance = client.events().stream()
                    .filter(event -> ids.contains(event.getSubject()))
                    .collect(Collectors.groupingBy(CloudEvent::getSubject));
            for (String id : ids) {
                List<String> transitions = byInstance.get(id).stream().map(EngineFailoverIT::describe).toList();
                assertThat(transitions).as("events of %s", id).containsExactly(
                        "instance null->running",
                        "step first pending->active",
                        "step first active->completed",
                        "step second pending->active",
                        "step second active->completed",
                        "instance running->completed");
            }
        } finally {
            first.close();
            second.close();
        }
        assertThat(first.decidesEveryCommand()).as("a closed replica decides every command").isFalse();
    }

    static List<String> completedIds(List<CloudEvent> events) {
        return events.stream()
                .filter(event -> event.getType().equals(StateChangeEvents.INSTANCE_STATE_CHANGED))
                .filter(event -> StateChangeEvents.data(event, InstanceStateChanged.class).to() == InstanceState.COMPLETED)
                .map(CloudEvent::getSubject)
                .toList();
    }

    static String describe(CloudEvent event) {
        if (event.getType().equals(StateChangeEvents.INSTANCE_STATE_CHANGED)) {
            InstanceStateChanged changed = StateChangeEvents.data(event, InstanceStateChanged.class);
            return "instance " + changed.from() + "->" + changed.to();
        }
        StepStateChanged changed = StateChangeEvents.data(event, StepStateChanged.class);
        return "step " + changed.step().id() + " " + changed.from() + "->" + changed.to();
    }
}
