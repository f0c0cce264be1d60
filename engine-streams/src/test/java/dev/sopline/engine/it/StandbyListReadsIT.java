package dev.sopline.engine.it;

import dev.sopline.engine.api.query.StateUnavailableException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.engine.api.query.InstanceFilter;
import dev.sopline.engine.api.query.Page;
import dev.sopline.engine.api.query.PendingFilter;
import dev.sopline.engine.api.query.WorkspaceCounts;
import dev.sopline.engine.runtime.Engine;
import dev.sopline.engine.runtime.EngineSettings;
import dev.sopline.schemas.instance.InstanceView;
import dev.sopline.schemas.instance.PendingStep;
import dev.sopline.testing.SharedKafka;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two replicas share the partitions; one dies without leaving the group. Until the group notices (its session
 * timeout, 6 s) the survivor answers lists, the pending feed and counts for the dead replica's partitions from its
 * standby copies, marked stale, and fails the read when it holds no copy.
 */
class StandbyListReadsIT {

    private static final String PROCESS = EngineClient.oneFormStep("standby-form");
    private static final int INSTANCES = 12;
    private static final List<Integer> EVERY_PARTITION = IntStream.range(0, 6).boxed().toList();

    /** Where each replica of a test has its own state directory. */
    @TempDir
    Path stateDirs;

    @Test
    void shouldListTheDeadReplicasInstancesFromTheStandbyCopyBeforeTheGroupMovesItsPartitions() throws Exception {
        String workspace = "standby-lists";
        Engine first = start("1");
        Engine second = start("1");
        try (EngineClient client = new EngineClient(SharedKafka.bootstrapServers())) {
            List<String> ids = startInstances(client, first, second, workspace);
            // The survivor's copies, active and standby, hold every instance before the other replica dies.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                    second.queries().instances(workspace, InstanceFilter.ANY, null, 500, EVERY_PARTITION, true).items()).hasSize(INSTANCES));

            first.closeAbruptly();

            Page<InstanceView> instances = second.reader().instances(workspace, InstanceFilter.ANY, null, 500);
            Page<PendingStep> pending = second.reader().pendingSteps(workspace, PendingFilter.ANY, null, 500);
            WorkspaceCounts counts = second.reader().counts(workspace);

            assertThat(instances.items()).extracting(InstanceView::id).containsExactlyInAnyOrderElementsOf(ids);
            assertThat(instances.stale()).as("partly read from a standby copy").isTrue();
            assertThat(pending.items()).hasSize(INSTANCES);
            assertThat(pending.stale()).isTrue();
            assertThat(counts.instances().get("waiting")).isEqualTo((long) INSTANCES);
            assertThat(counts.stepsPending().get("form")).isEqualTo((long) INSTANCES);
        } finally {
            first.closeAbruptly();
            second.close();
            awaitStopped(first);
        }
    }

    @Test
    void shouldFailTheListWhenNoCopyOfTheDeadReplicasPartitionsIsLeft() throws Exception {
        String workspace = "no-standby-lists";
        Engine first = start("0");
        Engine second = start("0");
        try (EngineClient client = new EngineClient(SharedKafka.bootstrapServers())) {
            startInstances(client, first, second, workspace);

            first.closeAbruptly();

            assertThatThrownBy(() -> second.reader().instances(workspace, InstanceFilter.ANY, null, 500))
                    .as("no partial list").isInstanceOf(StateUnavailableException.class);
            assertThatThrownBy(() -> second.reader().counts(workspace)).isInstanceOf(StateUnavailableException.class);
        } finally {
            first.closeAbruptly();
            second.close();
            awaitStopped(first);
        }
    }

    /** An abrupt close returns at once and its threads stop after it; their state directory is deleted only once they have. */
    private static void awaitStopped(Engine engine) {
        Set<KafkaStreams.State> stopped = Set.of(KafkaStreams.State.NOT_RUNNING, KafkaStreams.State.ERROR);
        await("the abruptly closed engine's threads stopped").atMost(Duration.ofSeconds(30))
                .until(() -> stopped.contains(engine.state()) && stopped.contains(engine.relayState()));
    }

    private Engine start(String standbyReplicas) throws IOException {
        EngineSettings settings = EngineSettings.fromEnvironment(Map.of("SOP_ENGINE_STANDBY_REPLICAS", standbyReplicas))
                .withBootstrapServers(SharedKafka.bootstrapServers())
                .withStateDir(Files.createTempDirectory(stateDirs, "standby-lists"))
                .withAdvertisedEndpoint("localhost:" + freePort());
        return Engine.start(settings);
    }

    /** Starts instances until both replicas own some: then each holds partitions the other would have to answer for. */
    private static List<String> startInstances(EngineClient client, Engine first, Engine second, String workspace) {
        await().atMost(Duration.ofSeconds(90)).until(() -> first.isRunning() && second.isRunning());
        assertThat(client.register(workspace, PROCESS).status()).isEqualTo(201);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < INSTANCES; i++) {
            String id = UlidCreator.getMonotonicUlid().toString();
            assertThat(client.start(workspace, id, "standby-form", Map.of()).orTimeout(60, TimeUnit.SECONDS).join().status()).isEqualTo(201);
            ids.add(id);
        }
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            int ownedByFirst = first.queries().instances(workspace, InstanceFilter.ANY, null, 500).items().size();
            int ownedBySecond = second.queries().instances(workspace, InstanceFilter.ANY, null, 500).items().size();
            assertThat(ownedByFirst + ownedBySecond).isEqualTo(INSTANCES);
            assertThat(ownedByFirst).as("the replica to be killed owns some").isPositive();
            assertThat(ownedBySecond).isPositive();
        });
        return ids;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
