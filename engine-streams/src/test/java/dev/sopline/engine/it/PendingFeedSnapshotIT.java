package dev.sopline.engine.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.engine.api.topic.EngineTopics;
import dev.sopline.engine.query.EngineQueries;
import dev.sopline.engine.runtime.EngineSettings;
import dev.sopline.engine.state.PendingStepStore;
import dev.sopline.engine.topology.EngineTopology;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.command.SubmitStep;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.PendingStep;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A page of the pending feed is one point in time: a step resolved before the page was read is not on it, even when
 * the engine commits while the page is being read. The engine commits once a second here, so that a step can be
 * resolved and read in between two commits, and the reader holds the page open across the next one.
 */
class PendingFeedSnapshotIT {

    private static final String PROCESS = EngineClient.oneFormStep("pending-snapshot");
    private static final String WORKSPACE = "pending-snapshot";

    @Test
    void shouldLeaveAStepResolvedBeforeThePageOffItWhenTheEngineCommitsWhileThePageIsRead(@TempDir Path stateDir) throws Exception {
        EngineSettings settings = SharedKafkaEngine.settings(stateDir, Map.of("SOP_ENGINE_COMMIT_INTERVAL_MS", "1000"));
        int partitions = SharedKafkaEngine.commandPartitions(settings);
        // The engine's topology and settings, in the engine's group: it goes on from the commands other tests decided.
        KafkaStreams streams = new KafkaStreams(SharedKafkaEngine.topology(settings), settings.streamsProperties());
        try (EngineClient client = new EngineClient(settings.bootstrapServers())) {
            streams.start();
            await().atMost(Duration.ofSeconds(90)).until(() -> streams.state() == KafkaStreams.State.RUNNING);
            EngineQueries queries = new EngineQueries(streams);
            assertThat(client.register(WORKSPACE, PROCESS).status()).isEqualTo(201);

            // Two instances on one partition, so that one page reads both from one store: the kept one first.
            String kept = UlidCreator.getMonotonicUlid().toString();
            int partition = EngineTopics.partitionOf(kept, partitions);
            String resolved;
            do {
                resolved = UlidCreator.getMonotonicUlid().toString();
            } while (EngineTopics.partitionOf(resolved, partitions) != partition);
            // Replies are read committed: once both are in, both entries are past a commit, in the store's files. Started
            // in this order, the kept one's entry comes first (ready no later, and its id is the smaller).
            CompletableFuture<CommandReply> keptStart = client.start(WORKSPACE, kept, "pending-snapshot", Map.of());
            CompletableFuture<CommandReply> resolvedStart = client.start(WORKSPACE, resolved, "pending-snapshot", Map.of());
            assertThat(keptStart.get(60, TimeUnit.SECONDS).status()).isEqualTo(201);
            assertThat(resolvedStart.get(60, TimeUnit.SECONDS).status()).isEqualTo(201);

            CompletableFuture<CommandReply> submitted = client.send(new SubmitStep(EngineClient.commandId(), WORKSPACE, resolved,
                    "pending-snapshot", "sign", Map.of("ok", true), null));
            String resolvedId = resolved;
            // Decided, not yet committed: the instance reads completed, its reply is not out.
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(2)).until(() ->
                    queries.instance(WORKSPACE, resolvedId).map(view -> view.state() == InstanceState.COMPLETED).orElse(false));
            // The commit comes up to a second after the decision, and its reply a fetch later: seldom before this line.
            assumeFalse(submitted.isDone(), "the engine committed before the page could be opened between decision and commit");

            ReadOnlyKeyValueStore<String, PendingStep> store = streams.store(StoreQueryParameters
                    .fromNameAndType(EngineTopology.PENDING_STORE, QueryableStoreTypes.<String, PendingStep>keyValueStore())
                    .withPartition(partition));
            // The page is opened now and read on after the engine's next commit.
            List<PendingStep> page = PendingStepStore.oldest(store, WORKSPACE, step -> {
                if (step.instanceId().equals(kept)) {
                    assertThat(submitted.join().status()).isEqualTo(200);
                }
                return true;
            }, null, 10);

            assertThat(page).extracting(PendingStep::instanceId).containsExactly(kept);
        } finally {
            streams.close(Duration.ofSeconds(10));
        }
    }
}
