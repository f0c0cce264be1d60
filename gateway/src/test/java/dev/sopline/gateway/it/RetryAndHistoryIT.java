package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.testing.SopApi;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** {@code POST /sop/:name/:id/retry} and {@code GET /sop/:name/:id/history} over HTTP, with the engine on the embedded broker. */
class RetryAndHistoryIT extends GatewayTestBase {

    private static final String FLAKY = """
            engine: "0.1"
            process:
              name: flaky-charge
              version: "1.0"
              steps:
                - id: charge
                  type: automated
                  run: billing.charge
                  retry: {max_attempts: 1}
                  outputs: [{name: receipt}]
            """;

    /** An instance whose only attempt an HTTP worker reported failed. */
    private String failedInstance(SopApi api) {
        assertThat(api.register(FLAKY).status()).isEqualTo(201);
        String id = api.start("flaky-charge", Map.of()).json().path("id").asString();
        SopApi.Response failed = api.post("/sop/flaky-charge/" + id + "/steps/charge/submit",
                Map.of("error", Map.of("code", "card_declined", "message", "The bank said no")));
        assertThat(failed.status()).isEqualTo(200);
        assertThat(api.get("/sop/flaky-charge/" + id).json().path("state").asString()).isEqualTo("failed");
        return id;
    }

    @Test
    void shouldRetryAFailedInstanceAndShowItAtOnce() {
        // given
        SopApi api = api();
        String id = failedInstance(api);

        // when
        SopApi.Response retried = api.post("/sop/flaky-charge/" + id + "/retry", null);

        // then
        assertThat(retried.status()).isEqualTo(200);
        assertThat(retried.json().path("state").asString()).isEqualTo("running");
        assertThat(retried.json().has("error")).isFalse();
        JsonNode read = api.get("/sop/flaky-charge/" + id).json();
        assertThat(read.path("state").asString()).isEqualTo("running");
        assertThat(read.path("steps").get(0).path("state").asString()).isEqualTo("active");
        assertThat(read.path("steps").get(0).path("attempt").asInt()).isEqualTo(2);
        assertThat(api.submit("flaky-charge", id, "charge", Map.of("receipt", "r-1")).status()).isEqualTo(200);
        assertThat(api.get("/sop/flaky-charge/" + id).json().path("state").asString()).isEqualTo("completed");
    }

    @Test
    void shouldRefuseToRetryAnInstanceThatIsNotFailed() {
        // given
        SopApi api = api();
        String id = failedInstance(api);
        api.post("/sop/flaky-charge/" + id + "/retry", null);

        // when
        SopApi.Response again = api.post("/sop/flaky-charge/" + id + "/retry", null);

        // then
        assertThat(again.status()).isEqualTo(422);
        assertThat(again.json().path("error").asString()).isEqualTo("invalid_transition");
        assertThat(api.post("/sop/flaky-charge/01JZZZZZZZZZZZZZZZZZZZZZZZ/retry", null).status()).isEqualTo(404);
    }

    @Test
    void shouldAnswerARepeatedRetryWithTheSameIdempotencyKeyAsTheFirst() {
        // given
        SopApi api = api();
        String id = failedInstance(api);
        Map<String, String> key = Map.of("Idempotency-Key", "retry-" + id);

        // when
        SopApi.Response first = api.postRaw("/sop/flaky-charge/" + id + "/retry", "", key);
        SopApi.Response repeat = api.postRaw("/sop/flaky-charge/" + id + "/retry", "", key);

        // then
        assertThat(first.status()).isEqualTo(200);
        assertThat(repeat.status()).isEqualTo(200);
        assertThat(repeat.json()).isEqualTo(first.json());
        assertThat(api.get("/sop/flaky-charge/" + id).json().path("steps").get(0).path("attempt").asInt()).isEqualTo(2);
    }
}
