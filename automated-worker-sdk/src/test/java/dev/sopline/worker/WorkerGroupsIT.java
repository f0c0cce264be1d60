package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.testing.SharedKafka;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** {@code GET /sop/workers}: a team's worker group, its namespace, its member and the steps it has not finished. */
class WorkerGroupsIT {

    private final Platform platform = Platform.get();

    @Test
    void shouldListAWorkerGroupWithItsTeamMemberAndLag() {
        platform.register(Platform.oneStepProcess("visible-flow", "visible.work"));
        CountDownLatch release = new CountDownLatch(1);
        try (SopWorker worker = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("visible-workers").workerId("visible-1")
                .handle("visible.work", step -> {
                    release.await();
                    return Map.of("result", "seen");
                }).start()) {
            platform.start("visible-flow", Map.of("n", 1));

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                JsonNode group = group("visible-workers");
                assertThat(group.path("namespaces")).extracting(JsonNode::asString).containsExactly("visible");
                assertThat(group.path("members")).singleElement()
                        .satisfies(member -> assertThat(member.path("client_id").asString()).isEqualTo("visible-1"));
                assertThat(group.path("lag").asLong()).as("the running step").isGreaterThanOrEqualTo(1);
            });
            release.countDown();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(group("visible-workers").path("lag").asLong()).as("lag once done, give or take a transaction marker").isLessThanOrEqualTo(1));
        } finally {
            release.countDown();
        }
    }

    private JsonNode group(String name) {
        JsonNode groups = platform.get("/sop/workers");
        return StreamSupport.stream(groups.spliterator(), false).filter(group -> group.path("group").asString().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(name + " not listed in " + groups));
    }
}
