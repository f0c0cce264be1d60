package dev.sopline.engine.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.engine.api.query.EngineReader;
import dev.sopline.engine.api.query.InstanceFilter;
import dev.sopline.engine.api.query.Page;
import dev.sopline.engine.api.query.RemoteEngineReader;
import dev.sopline.engine.runtime.Engine;
import dev.sopline.schemas.instance.HistoryEntry;
import dev.sopline.testing.SharedKafka;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** With two replicas, an instance's history lives with the instance on one of them; either replica pages it whole. */
class HistoryRoutingIT {

    private static final String WORKSPACE = "history-routing";
    private static final String PROCESS = EngineClient.oneFormStep("history-form");

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

    private static String startOne() {
        String id = UlidCreator.getMonotonicUlid().toString();
        assertThat(client.start(WORKSPACE, id, "history-form", Map.of()).orTimeout(60, TimeUnit.SECONDS).join().status()).isEqualTo(201);
        return id;
    }

    @Test
    void shouldPageTheHistoryOfEveryInstanceFromEitherReplica() {
        // given instances spread over both replicas
        assertThat(client.register(WORKSPACE, PROCESS).status()).isEqualTo(201);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            ids.add(startOne());
        }
        // Eight land all on one replica's partitions about once in 128 runs: then one more at a time, until both hold some.
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            int ownedByFirst = first.queries().instances(WORKSPACE, InstanceFilter.ANY, null, 500).items().size();
            int ownedBySecond = second.queries().instances(WORKSPACE, InstanceFilter.ANY, null, 500).items().size();
            if (ownedByFirst + ownedBySecond == ids.size() && (ownedByFirst == 0 || ownedBySecond == 0) && ids.size() < 40) {
                ids.add(startOne());
            }
            assertThat(ownedByFirst).isPositive();
            assertThat(ownedBySecond).isPositive();
            assertThat(ownedByFirst + ownedBySecond).isEqualTo(ids.size());
        });

        // when each is read two entries at a time, then from the cursor, through each kind of reader
        for (EngineReader reader : List.of(first.reader(), second.reader(), new RemoteEngineReader("http://localhost:" + portA, first::queryKey))) {
            for (String id : ids) {
                Page<HistoryEntry> page = reader.history(WORKSPACE, id, null, 2);
                Page<HistoryEntry> rest = reader.history(WORKSPACE, id, page.nextCursor(), 2);

                // then the creation, the step starting and the instance waiting, once each and in order
                assertThat(page.items()).extracting(HistoryEntry::from, HistoryEntry::to)
                        .as("instance %s", id).containsExactly(org.assertj.core.groups.Tuple.tuple(null, "running"),
                                org.assertj.core.groups.Tuple.tuple("pending", "active"));
                assertThat(page.items().get(0).at()).isNotNull();
                assertThat(rest.items()).extracting(HistoryEntry::to).containsExactly("waiting");
                assertThat(rest.nextCursor()).isNull();
            }
            assertThat(reader.history("another-workspace", ids.get(0), null, 10).items()).isEmpty();
        }
    }
}
