package dev.sopline.engine.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.sopline.engine.query.EngineReader;
import dev.sopline.engine.query.InstanceFilter;
import dev.sopline.engine.query.Page;
import dev.sopline.engine.query.PendingFilter;
import dev.sopline.engine.query.RemoteEngineReader;
import dev.sopline.engine.runtime.Engine;
import dev.sopline.schemas.instance.InstanceView;
import dev.sopline.testing.SharedKafka;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** With two replicas, each owns part of the instances; a query to either one finds them all. */
class EngineQueryRoutingIT {

    private static final String PROCESS = """
            engine: "0.1"
            process:
              name: routed-form
              version: "1.0"
              steps:
                - id: sign
                  type: form
                  outputs:
                    - name: ok
                      type: boolean
            """;

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Test
    void shouldAnswerEveryInstanceFromEitherReplicaWhenPartitionsAreSplit() throws Exception {
        String workspace = "routing";
        int portA = freePort();
        int portB = freePort();
        Engine first = Engine.start(EngineFailoverIT.settings(Files.createTempDirectory("routing-a")).withAdvertisedEndpoint("localhost:" + portA));
        Engine second = Engine.start(EngineFailoverIT.settings(Files.createTempDirectory("routing-b")).withAdvertisedEndpoint("localhost:" + portB));
        try (EngineClient client = new EngineClient(SharedKafka.bootstrapServers())) {
            await().atMost(Duration.ofSeconds(90)).until(() -> first.isRunning() && second.isRunning());
            assertThat(client.register(workspace, PROCESS).status()).isEqualTo(201);
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                String id = UlidCreator.getMonotonicUlid().toString();
                ids.add(id);
                assertThat(client.start(workspace, id, "routed-form", Map.of()).get().status()).isEqualTo(201);
            }

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                int ownedByFirst = first.queries().instances(workspace, InstanceFilter.ANY, null, 500).items().size();
                int ownedBySecond = second.queries().instances(workspace, InstanceFilter.ANY, null, 500).items().size();
                assertThat(ownedByFirst + ownedBySecond).isEqualTo(20);
                assertThat(ownedByFirst).isLessThan(20);
                assertThat(ownedBySecond).isLessThan(20);
            });

            for (EngineReader reader : List.of(first.reader(), second.reader(), new RemoteEngineReader("http://localhost:" + portA))) {
                for (String id : ids) {
                    assertThat(reader.instance(workspace, id)).as("instance %s", id).isPresent();
                }
                assertThat(reader.instance("another-workspace", ids.get(0))).isEmpty();
                assertThat(allPages(reader, workspace)).containsExactlyInAnyOrderElementsOf(ids);
                assertThat(reader.pendingSteps(workspace, PendingFilter.ANY, null, 500).items()).hasSize(20);
                assertThat(reader.counts(workspace).instances().get("waiting")).isEqualTo(20L);
                assertThat(reader.counts(workspace).stepsPending().get("form")).isEqualTo(20L);
            }
        } finally {
            first.close();
            second.close();
        }
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
