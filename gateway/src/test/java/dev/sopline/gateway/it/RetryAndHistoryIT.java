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

    @Test
    void shouldShowWhoDidWhatInTheHistoryOldestFirst() {
        // given a failed instance retried and completed by the same token
        SopApi api = api();
        String id = failedInstance(api);
        api.post("/sop/flaky-charge/" + id + "/retry", null);
        api.submit("flaky-charge", id, "charge", Map.of("receipt", "r-1"));

        // when a viewer reads the history
        String viewerToken = api.post("/workspace/tokens", Map.of("name", "auditor", "role", "viewer")).json().path("token").asString();
        SopApi.Response history = api.withToken(viewerToken).get("/sop/flaky-charge/" + id + "/history");

        // then
        assertThat(history.status()).isEqualTo(200);
        assertThat(lines(history.json())).containsExactly(
                "instance null->running by token",
                "charge#1 pending->active by engine",
                "charge#1 active->failed by worker",
                "instance running->failed by engine",
                "charge#2 failed->active by token",
                "instance failed->running by token",
                "charge#2 active->completed by worker",
                "instance running->completed by engine");
        JsonNode created = history.json().get(0);
        assertThat(created.has("from")).as("creation shows from: null").isTrue();
        assertThat(created.path("from").isNull()).isTrue();
        assertThat(created.path("by").path("name").asString()).isEqualTo("bootstrap");
        assertThat(created.path("by").path("id").asString()).isNotEmpty();
        assertThat(created.has("seq")).isFalse();
        assertThat(history.json().get(2).path("detail").path("error").path("code").asString()).isEqualTo("card_declined");
        assertThat(history.body()).doesNotContain(TOKEN);
    }

    @Test
    void shouldPageTheHistoryWithALinkToTheNextPage() {
        // given
        SopApi api = api();
        String id = failedInstance(api);

        // when
        SopApi.Response first = api.get("/sop/flaky-charge/" + id + "/history?limit=3");
        String link = first.header("Link");
        String next = link.substring(link.indexOf('<') + 1, link.indexOf('>'));
        SopApi.Response second = api.get(next.substring(next.indexOf("/sop/")));

        // then
        assertThat(first.json().size()).isEqualTo(3);
        assertThat(link).contains("rel=\"next\"");
        assertThat(lines(second.json())).containsExactly("instance running->failed by engine");
        assertThat(second.header("Link")).isNull();
        assertThat(api.get("/sop/flaky-charge/01ARZ3NDEKTSV4RRFFQ69G5FAV/history").status()).isEqualTo(404);
    }

    private static java.util.List<String> lines(JsonNode entries) {
        java.util.List<String> lines = new java.util.ArrayList<>();
        entries.forEach(entry -> {
            String what = entry.path("kind").asString().equals("instance") ? "instance"
                    : entry.path("step_id").asString() + "#" + entry.path("attempt").asInt();
            String from = entry.path("from").isNull() ? "null" : entry.path("from").asString();
            lines.add("%s %s->%s by %s".formatted(what, from, entry.path("to").asString(), entry.path("by").path("type").asString()));
        });
        return lines;
    }
}
