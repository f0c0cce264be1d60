package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.testing.SopApi;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code POST /sop/{name}/{id}/steps/{stepId}/heartbeat}, as an HTTP worker not built on the SDK calls it. */
class HeartbeatEndpointIT {

    private final Platform platform = Platform.get();

    @Test
    void shouldAcceptAWorkersHeartbeatForTheRunningAttemptAndRefuseOthers() {
        platform.register(Platform.oneStepProcess("beating", "beats.work"));
        String id = platform.start("beating", Map.of("n", 1));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(platform.instance("beating", id).path("steps").get(0).path("state").asString()).isEqualTo("active"));
        SopApi worker = platform.api().withToken(token("beating-worker", "worker"));
        SopApi viewer = platform.api().withToken(token("beating-viewer", "viewer"));

        SopApi.Response accepted = worker.post("/sop/beating/" + id + "/steps/work/heartbeat", Map.of("attempt", 1));
        assertThat(accepted.status()).isEqualTo(202);
        assertThat(accepted.json().path("attempt").asInt()).isEqualTo(1);
        assertThat(viewer.post("/sop/beating/" + id + "/steps/work/heartbeat", Map.of()).status()).isEqualTo(403);
        assertThat(worker.post("/sop/beating/01JAAAAAAAAAAAAAAAAAAAAAAA/steps/work/heartbeat", Map.of()).status()).isEqualTo(404);
        assertThat(worker.post("/sop/beating/" + id + "/steps/nope/heartbeat", Map.of()).status()).isEqualTo(404);
        // A step no longer active: 422 invalid_transition, as a submit to it gets.
        assertThat(platform.api().post("/sop/beating/" + id + "/cancel", Map.of()).status()).isEqualTo(200);
        SopApi.Response late = worker.post("/sop/beating/" + id + "/steps/work/heartbeat", Map.of());
        assertThat(late.status()).isEqualTo(422);
        assertThat(late.json().path("error").asString()).isEqualTo("invalid_transition");
    }

    private String token(String name, String role) {
        SopApi.Response created = platform.api().post("/workspace/tokens", Map.of("name", name, "role", role));
        assertThat(created.status()).isEqualTo(201);
        return created.json().path("token").asString();
    }
}
