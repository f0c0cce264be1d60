package dev.sopline.engine.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.engine.api.query.EngineReader;
import dev.sopline.engine.api.query.InstanceFilter;
import dev.sopline.engine.api.query.Page;
import dev.sopline.engine.api.query.PendingFilter;
import dev.sopline.engine.api.query.RemoteEngineReader;
import dev.sopline.engine.runtime.Engine;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.instance.InstanceView;
import dev.sopline.testing.SharedKafka;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** With two replicas, each owns part of the instances; a query to either one finds them all. */
class EngineQueryRoutingIT {

    private static final String PROCESS = EngineClient.oneFormStep("routed-form");

    private static int portA;
    private static Engine first;
    private static Engine second;
    private static EngineClient client;

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @BeforeAll
    static void startTwoReplicas(@TempDir Path stateDirA, @TempDir Path stateDirB) throws IOException {
        portA = freePort();
        int portB = freePort();
        first = Engine.start(EngineFailoverIT.settings(stateDirA).withAdvertisedEndpoint("localhost:" + portA));
        second = Engine.start(EngineFailoverIT.settings(stateDirB).withAdvertisedEndpoint("localhost:" + portB));
        client = new EngineClient(SharedKafka.bootstrapServers());
        await().atMost(Duration.ofSeconds(90)).until(() -> first.isRunning() && second.isRunning());
    }

    @AfterAll
    static void stopReplicas() {
        client.close();
        first.close();
        second.close();
    }

    @Test
    void shouldAnswerEveryInstanceFromEitherReplicaWhenPartitionsAreSplit() {
        String workspace = "routing";
        assertThat(client.register(workspace, PROCESS).status()).isEqualTo(201);
        List<String> ids = startInstances(workspace, 20).stream().map(started -> {
            assertThat(started.reply().orTimeout(60, TimeUnit.SECONDS).join().status()).isEqualTo(201);
            return started.id();
        }).toList();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            int ownedByFirst = first.queries().instances(workspace, InstanceFilter.ANY, null, 500).items().size();
            int ownedBySecond = second.queries().instances(workspace, InstanceFilter.ANY, null, 500).items().size();
            assertThat(ownedByFirst + ownedBySecond).isEqualTo(20);
            assertThat(ownedByFirst).isLessThan(20);
            assertThat(ownedBySecond).isLessThan(20);
        });
        assertThat(first.decidesEveryCommand()).as("a replica that shares the partitions decides every command").isFalse();
        assertThat(second.decidesEveryCommand()).as("a replica that shares the partitions decides every command").isFalse();

        for (EngineReader reader : List.of(first.reader(), second.reader(), new RemoteEngineReader("http://localhost:" + portA, first::queryKey))) {
            for (String id : ids) {
                assertThat(reader.instance(workspace, id)).as("instance %s", id).isPresent();
            }
            assertThat(reader.instance("another-workspace", ids.get(0))).isEmpty();
            assertThat(allPages(reader, workspace)).containsExactlyInAnyOrderElementsOf(ids);
            assertThat(reader.pendingSteps(workspace, PendingFilter.ANY, null, 500).items()).hasSize(20);
            assertThat(reader.counts(workspace).instances().get("waiting")).isEqualTo(20L);
            assertThat(reader.counts(workspace).stepsPending().get("form")).isEqualTo(20L);
        }
    }

    /**
     * The widest form of a replica being behind on a registration: the starts are on the log before it. Each replica
     * holds its starts until the definition reaches its global store, then starts them.
     */
    @Test
    void shouldStartInstancesWhoseStartsReachedTheReplicasBeforeTheirProcess() throws Exception {
        String workspace = "late-definition";
        List<Started> starts = startInstances(workspace, 16);
        Thread.sleep(300);
        assertThat(starts).as("no start is answered before its process exists").noneMatch(started -> started.reply().isDone());

        assertThat(client.register(workspace, PROCESS).status()).isEqualTo(201);

        for (Started started : starts) {
            assertThat(started.reply().get(30, TimeUnit.SECONDS).status()).as("start of %s", started.id()).isEqualTo(201);
        }
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(first.reader().counts(workspace).instances().get("waiting")).isEqualTo(16L));
        int ownedByFirst = first.queries().instances(workspace, InstanceFilter.ANY, null, 500).items().size();
        assertThat(ownedByFirst).as("both replicas held starts").isBetween(1, 15);
    }

    private record Started(String id, CompletableFuture<CommandReply> reply) {}

    private static List<Started> startInstances(String workspace, int count) {
        List<Started> started = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String id = UlidCreator.getMonotonicUlid().toString();
            started.add(new Started(id, client.start(workspace, id, "routed-form", Map.of())));
        }
        return started;
    }

    /** Walks the instance list seven at a time, as a client following Link headers would. */
    private static List<String> allPages(EngineReader reader, String workspace) {
        List<String> seen = new ArrayList<>();
        Set<String> unique = new HashSet<>();
        String cursor = null;
        do {
            Page<InstanceView> page = reader.instances(workspace, InstanceFilter.ANY, cursor, 7);
            for (InstanceView view : page.items()) {
                assertThat(unique.add(view.id())).as("no instance twice").isTrue();
                seen.add(view.id());
            }
            cursor = page.nextCursor();
        } while (cursor != null);
        return seen;
    }
}
