package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.testing.SharedKafka;
import dev.sopline.testing.SopApi;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@code GET /sop/workers}: a team's worker group, its namespace, its member and the steps it has not finished; and the
 * steps its members run now, the gauge {@code sop_workers_in_flight}.
 */
class WorkerGroupsIT {

    private final Platform platform = Platform.get();

    @Test
    void shouldListAWorkerGroupWithItsTeamMemberStepsInFlightAndLag() {
        platform.register(Platform.oneStepProcess("visible-flow", "visible.work"));
        CountDownLatch release = new CountDownLatch(1);
        try (SopWorker worker = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("visible-workers").workerId("visible-1")
                .handle("visible.work", step -> {
                    release.await();
                    return Map.of("result", "seen");
                }).start()) {
            for (int n = 1; n <= 3; n++) {
                platform.start("visible-flow", Map.of("n", n));
            }

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                JsonNode group = group("visible-workers");
                assertThat(group.path("namespaces")).extracting(JsonNode::asString).containsExactly("visible");
                assertThat(group.path("members")).singleElement()
                        .satisfies(member -> assertThat(member.path("client_id").asString()).isEqualTo("visible-1"));
                assertThat(group.path("lag").asLong()).as("the running steps").isGreaterThanOrEqualTo(3);
                assertThat(inFlight("visible-workers")).as("the steps blocked in handlers").isEqualTo(3);
                assertThat(group.path("in_flight").asLong()).as("the steps blocked in handlers, in the list").isEqualTo(3);
            });
            // Another workspace sees the group once one of its processes names the team, and not before.
            SopApi other = workspace("workers-" + UUID.randomUUID().toString().substring(0, 8));
            assertThat(groupNames(other)).doesNotContain("visible-workers");
            assertThat(other.register(Platform.oneStepProcess("also-visible", "visible.other")).status()).isEqualTo(201);
            assertThat(groupNames(other)).contains("visible-workers");
            release.countDown();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                JsonNode group = group("visible-workers");
                assertThat(inFlight("visible-workers")).as("steps in flight once done").isZero();
                assertThat(group.path("in_flight").asLong()).as("steps in flight once done, in the list").isZero();
                assertThat(group.path("lag").asLong()).as("lag once done, the transaction markers after the steps included").isZero();
            });
        } finally {
            release.countDown();
        }
    }

    /** The group's {@code sop_workers_in_flight} gauge on the Prometheus endpoint. */
    private double inFlight(String group) {
        String metrics = platform.api().get("/actuator/prometheus").body();
        Matcher gauge = Pattern.compile("(?m)^sop_workers_in_flight\\{group=\"" + Pattern.quote(group) + "\",?} (\\S+)$").matcher(metrics);
        if (!gauge.find()) {
            throw new AssertionError("no sop_workers_in_flight gauge for " + group);
        }
        return Double.parseDouble(gauge.group(1));
    }

    /** A new workspace's first admin token, as the platform administrator makes it. */
    private SopApi workspace(String name) {
        SopApi.Response created = platform.api().post("/workspaces", Map.of("name", name));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return platform.api().withToken(created.json().path("token").path("token").asString());
    }

    private static java.util.List<String> groupNames(SopApi api) {
        SopApi.Response answer = api.get("/sop/workers");
        assertThat(answer.status()).isEqualTo(200);
        return SopApi.texts(answer.json(), "group");
    }

    private JsonNode group(String name) {
        JsonNode groups = platform.get("/sop/workers");
        return StreamSupport.stream(groups.spliterator(), false).filter(group -> group.path("group").asString().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(name + " not listed in " + groups));
    }
}
