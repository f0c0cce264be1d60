package dev.sopline.gateway.it;

import dev.sopline.testing.SopApi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.gateway.auth.SignatureVerifier;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class GatewayApiIT extends GatewayTestBase {

    static final String REVIEW = """
            engine: "0.1"
            process:
              name: review
              version: "1.0"
              description: Review a document
              owner: docs-team
              inputs:
                - name: title
                  required: true
                - name: priority
                  type: enum
                  values: [low, high]
              outputs:
                - name: verdict
              steps:
                - id: read
                  type: form
                  inputs:
                    title: "${inputs.title}"
                  outputs:
                    - name: verdict
                      type: enum
                      values: [accept, reject]
            """;

    static final String IDENTITY = """
            engine: "0.1"
            process:
              name: identity-check
              version: "1.0"
              steps:
                - id: verify
                  type: webhook
                  outputs:
                    - name: status
            """;

    static final String ONBOARDING = """
            engine: "0.1"
            process:
              name: onboarding
              version: "1.0"
              trigger:
                type: webhook
                auth:
                  secret_env: ONBOARDING_SECRET
                  delivery_header: X-Delivery-Id
              inputs:
                - name: email
                  required: true
              steps:
                - id: welcome
                  type: form
                  inputs:
                    plan: "${trigger.payload.plan}"
                  outputs:
                    - name: done
            """;

    static final String MISCONFIGURED = ONBOARDING.replace("name: onboarding", "name: onboarding-unset").replace("ONBOARDING_SECRET", "NOT_SET_ANYWHERE");

    SopApi api;

    @BeforeEach
    void register() {
        api = api();
        for (String yaml : List.of(REVIEW, IDENTITY, ONBOARDING, MISCONFIGURED)) {
            assertThat(api.register(yaml).status()).isEqualTo(201);
        }
    }

    @Test
    void shouldAnswerHealthUpWithoutToken() {
        SopApi.Response health = api.withToken(null).get("/actuator/health");
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.json().path("status").asString()).isEqualTo("UP");
    }

    @Test
    void shouldRunAFormInstanceFromStartToCompletedWhenDrivenOverHttp() {
        // when
        SopApi.Response started = api.start("review", Map.of("title", "Q3 plan"));

        // then
        assertThat(started.status()).isEqualTo(201);
        JsonNode instance = started.json();
        String id = instance.path("id").asString();
        assertThat(id).hasSize(26);
        assertThat(instance.path("process").asString()).isEqualTo("review");
        assertThat(instance.path("version").asString()).isEqualTo("1.0");
        assertThat(instance.path("state").asString()).isEqualTo("running");

        SopApi.Response state = api.get("/sop/review/" + id);
        assertThat(state.status()).isEqualTo(200);
        assertThat(state.json().path("state").asString()).isEqualTo("waiting");
        assertThat(state.json().path("inputs").path("title").asString()).isEqualTo("Q3 plan");
        assertThat(state.json().path("steps").get(0).path("state").asString()).isEqualTo("active");

        SopApi.Response submitted = api.submit("review", id, "read", Map.of("verdict", "accept"));
        assertThat(submitted.status()).isEqualTo(200);
        assertThat(submitted.json().path("state").asString()).isEqualTo("completed");
        assertThat(submitted.json().path("outputs").path("verdict").asString()).isEqualTo("accept");

        SopApi.Response steps = api.get("/sop/review/" + id + "/steps");
        assertThat(steps.json().get(0).path("state").asString()).isEqualTo("completed");
        JsonNode done = api.get("/sop/review/" + id).json();
        assertThat(done.path("state").asString()).isEqualTo("completed");
        assertThat(done.path("outputs").path("verdict").asString()).isEqualTo("accept");
        assertThat(done.path("completed_at").isMissingNode()).isFalse();
    }

    @Test
    void shouldListProcessesAndServeTheirSchema() {
        JsonNode list = api.get("/sop/").json();
        assertThat(SopApi.texts(list, "name")).contains("review", "identity-check");

        SopApi.Response schema = api.get("/sop/review/schema");
        assertThat(schema.status()).isEqualTo(200);
        assertThat(schema.json().path("name").asString()).isEqualTo("review");
        assertThat(schema.json().path("description").asString()).isEqualTo("Review a document");
        assertThat(schema.json().path("inputs").size()).isEqualTo(2);
        assertThat(schema.json().path("steps").get(0).path("id").asString()).isEqualTo("read");

        assertThat(api.get("/sop/review/schema?version=9.9").status()).isEqualTo(404);
        assertThat(api.get("/sop/nothing-here/schema").json().path("error").asString()).isEqualTo("not_found");
    }

    @Test
    void shouldRefuseInvalidDefinitionWithDetailsAndPlaces() {
        SopApi.Response refused = api.register("""
                engine: "0.1"
                process:
                  name: broken
                  version: "1.0"
                  steps:
                    - id: a
                      type: robot
                """);

        assertThat(refused.status()).isEqualTo(422);
        JsonNode body = refused.json();
        assertThat(body.path("error").asString()).isEqualTo("invalid_definition");
        JsonNode detail = body.path("details").get(0);
        assertThat(detail.path("field").asString()).isEqualTo("process.steps[0].type");
        assertThat(detail.path("code").asString()).isEqualTo("not_in_enum");
        assertThat(detail.path("line").asInt()).isEqualTo(7);
        assertThat(detail.path("column").asInt()).isEqualTo(13);
        assertThat(SopApi.texts(detail.path("expected"), "x")).hasSize(4);
    }

    @Test
    void shouldRefuseStartWithContractErrors() {
        SopApi.Response unknown = api.start("no-such-process", Map.of());
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.json().path("error").asString()).isEqualTo("not_found");

        SopApi.Response invalid = api.start("review", Map.of("priority", "urgent"));
        assertThat(invalid.status()).isEqualTo(422);
        assertThat(invalid.json().path("error").asString()).isEqualTo("invalid_inputs");
        assertThat(SopApi.texts(invalid.json().path("details"), "field")).containsExactlyInAnyOrder("inputs.title", "inputs.priority");

        SopApi.Response malformed = api.postRaw("/sop/review/start", "{\"inputs\": ", Map.of());
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.json().path("error").asString()).isEqualTo("invalid_payload");

        SopApi.Response noInputs = api.post("/sop/review/start", Map.of("title", "x"));
        assertThat(noInputs.status()).isEqualTo(422);
        assertThat(noInputs.json().path("error").asString()).isEqualTo("invalid_inputs");
    }

    /**
     * Bodies within the 1 MiB HTTP limit whose command is over the limit of one record: 413, as data over a limit is,
     * where the producer's refusal was answered 503 and a client retried it for ever.
     */
    @Test
    void shouldAnswer413ToAStartWhoseCommandIsTooLargeForOneRecord() {
        // 480 KB of JSON, 1.3 MB as the command is written (Smile takes 11 bytes for a number such as 1.5). No input type
        // takes a list, but the engine never sees it: the producer refuses the record first.
        String numbers = "{\"inputs\":{\"title\":\"t\",\"readings\":[" + String.join(",", java.util.Collections.nCopies(120_000, "1.5")) + "]}}";
        // The declared text filling the whole 1 MiB: the command's other fields and the record's own make it pass.
        String prefix = "{\"inputs\":{\"title\":\"";
        String text = prefix + "x".repeat(1024 * 1024 - prefix.length() - 3) + "\"}}";
        for (String body : List.of(numbers, text)) {
            SopApi.Response tooLarge = api.postRaw("/sop/review/start", body, Map.of("Content-Type", "application/json"));
            assertThat(tooLarge.status()).as("a body of %d bytes", body.length()).isEqualTo(413);
            assertThat(tooLarge.json().path("error").asString()).isEqualTo("payload_too_large");
            assertThat(tooLarge.header("Retry-After")).isNull();
        }
    }

    @Test
    void shouldRefuseRequestsWithoutAValidToken() {
        assertThat(api.withToken(null).get("/sop/").status()).isEqualTo(401);
        SopApi.Response wrong = api.withToken("not-a-token").get("/sop/");
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(wrong.json().path("error").asString()).isEqualTo("unauthorized");
    }

    @Test
    void shouldCreateListAndRevokeTokensWhenManagedThroughTheApi() {
        // given
        SopApi.Response created = api.post("/workspace/tokens", Map.of("name", "ci"));
        assertThat(created.status()).isEqualTo(201);
        String secret = created.json().path("token").asString();
        String id = created.json().path("id").asString();
        SopApi ci = api.withToken(secret);

        // then
        assertThat(ci.get("/sop/").status()).isEqualTo(200);
        JsonNode listed = api.get("/workspace/tokens").json();
        assertThat(SopApi.texts(listed, "id")).contains(id);
        assertThat(listed.toString()).doesNotContain(secret);

        // when
        assertThat(api.delete("/workspace/tokens/" + id).status()).isEqualTo(204);

        // then
        await().atMost(Duration.ofSeconds(1)).untilAsserted(() -> assertThat(ci.get("/sop/").status()).isEqualTo(401));
        assertThat(api.delete("/workspace/tokens/" + id).status()).isEqualTo(404);
        assertThat(api.delete("/workspace/tokens/tok_unknown").status()).isEqualTo(404);
    }

    @Test
    void shouldHideInstancesOfOtherWorkspaces() {
        // given an instance in workspace default
        String id = api.start("review", Map.of("title", "secret plan")).json().path("id").asString();
        // and a token of another workspace, made through the same registry the API writes
        SopApi other = api.withToken(OtherWorkspace.token(this));

        // then
        // Not there for the other workspace: an id minted moments ago answers 503 "not readable yet" (it may be an
        // instance still being replayed after a failover), an older one 404; never the instance.
        SopApi.Response hidden = other.get("/sop/review/" + id);
        assertThat(hidden.status()).isIn(404, 503);
        assertThat(hidden.body()).doesNotContain("\"state\"");
        assertThat(other.submit("review", id, "read", Map.of("verdict", "accept")).status()).isEqualTo(404);
        assertThat(other.post("/sop/review/" + id + "/cancel", Map.of()).status()).isEqualTo(404);
        assertThat(other.get("/sop/").json().size()).isZero();
        assertThat(api.get("/sop/review/" + id).json().path("state").asString()).isEqualTo("waiting");
    }

    @Test
    void shouldGiveOne200AndOne422WhenTwoSubmitsRace() throws Exception {
        String id = api.start("review", Map.of("title", "race")).json().path("id").asString();

        CompletableFuture<SopApi.Response> first = CompletableFuture.supplyAsync(() -> api.submit("review", id, "read", Map.of("verdict", "accept")));
        CompletableFuture<SopApi.Response> second = CompletableFuture.supplyAsync(() -> api.submit("review", id, "read", Map.of("verdict", "reject")));

        List<Integer> statuses = new ArrayList<>(List.of(first.get().status(), second.get().status()));
        assertThat(statuses).containsExactlyInAnyOrder(200, 422);
        SopApi.Response loser = first.get().status() == 422 ? first.get() : second.get();
        assertThat(loser.json().path("error").asString()).isEqualTo("invalid_transition");
    }

    @Test
    void shouldRefuseSubmitsThatDoNotFit() {
        String id = api.start("review", Map.of("title", "t")).json().path("id").asString();

        SopApi.Response badValue = api.submit("review", id, "read", Map.of("verdict", "maybe"));
        assertThat(badValue.status()).isEqualTo(422);
        assertThat(badValue.json().path("error").asString()).isEqualTo("invalid_outputs");
        assertThat(badValue.json().path("details").get(0).path("expected").size()).isEqualTo(2);

        assertThat(api.submit("review", id, "nope", Map.of()).status()).isEqualTo(404);
        assertThat(api.submit("review", "01JZZZZZZZZZZZZZZZZZZZZZZZ", "read", Map.of("verdict", "accept")).status()).isEqualTo(404);

        assertThat(api.post("/sop/review/" + id + "/cancel", Map.of()).json().path("state").asString()).isEqualTo("cancelled");
        SopApi.Response afterCancel = api.submit("review", id, "read", Map.of("verdict", "accept"));
        assertThat(afterCancel.status()).isEqualTo(422);
        assertThat(afterCancel.json().path("error").asString()).isEqualTo("invalid_transition");
        assertThat(api.post("/sop/review/" + id + "/cancel", Map.of()).status()).isEqualTo(422);
    }

    @Test
    void shouldTakeASubmitOnlyForTheAttemptItNames() {
        String id = api.start("review", Map.of("title", "t")).json().path("id").asString();
        String submit = "/sop/review/" + id + "/steps/read/submit";

        SopApi.Response notANumber = api.post(submit, Map.of("attempt", "first", "outputs", Map.of("verdict", "accept")));
        assertThat(notANumber.status()).isEqualTo(400);
        assertThat(notANumber.json().path("error").asString()).isEqualTo("invalid_request");

        SopApi.Response another = api.post(submit, Map.of("attempt", 2, "outputs", Map.of("verdict", "accept")));
        assertThat(another.status()).as("the step is on attempt 1").isEqualTo(422);
        assertThat(another.json().path("error").asString()).isEqualTo("invalid_transition");
        assertThat(another.json().path("message").asString()).contains("attempt 2");

        SopApi.Response current = api.post(submit, Map.of("attempt", 1, "outputs", Map.of("verdict", "accept")));
        assertThat(current.status()).isEqualTo(200);
        assertThat(current.json().path("state").asString()).isEqualTo("completed");
    }

    @Test
    void shouldResolveWebhookStepOnceThroughItsCallbackUrl() {
        String id = api.start("identity-check", Map.of()).json().path("id").asString();
        String callbackUrl = api.get("/sop/identity-check/" + id + "/steps").json().get(0).path("callback_url").asString();
        assertThat(callbackUrl).startsWith("http://localhost:" + port + "/sop/webhooks/");
        String path = callbackUrl.substring(("http://localhost:" + port).length());
        SopApi anonymous = api.withToken(null);

        SopApi.Response first = anonymous.post(path, Map.of("status", "verified"));
        SopApi.Response replay = anonymous.post(path, Map.of("status", "verified"));

        assertThat(first.status()).isEqualTo(200);
        assertThat(first.json().path("received").asBoolean()).isTrue();
        assertThat(first.json().path("step_id").asString()).isEqualTo("verify");
        assertThat(replay.status()).isEqualTo(409);
        assertThat(replay.json().path("error").asString()).isEqualTo("callback_already_resolved");
        assertThat(anonymous.post("/sop/webhooks/01JZZZZZZZZZZZZZZZZZZZZZZZ", Map.of()).status()).isEqualTo(404);
        assertThat(anonymous.post("/sop/webhooks/not-a-ulid", Map.of()).status()).isEqualTo(404);
        assertThat(api.get("/sop/identity-check/" + id).json().path("state").asString()).isEqualTo("completed");
    }

    @Test
    void shouldStartAnInstanceFromASignedTrigger() {
        String body = "{\"email\":\"ada@example.com\",\"plan\":\"pro\"}";
        String signature = SignatureVerifier.sign(TRIGGER_SECRET, body.getBytes(StandardCharsets.UTF_8));
        SopApi anonymous = api.withToken(null);

        SopApi.Response started = anonymous.postRaw("/sop/triggers/onboarding", body, Map.of("X-Hub-Signature-256", signature));

        assertThat(started.status()).isEqualTo(201);
        assertThat(started.json().path("state").asString()).isEqualTo("running");
        String id = started.json().path("id").asString();
        JsonNode instance = api.get("/sop/onboarding/" + id).json();
        assertThat(instance.path("inputs").path("email").asString()).isEqualTo("ada@example.com");
        JsonNode pending = api.get("/sop/steps/pending?process=onboarding").json();
        assertThat(pending.toString()).contains("\"plan\":\"pro\"");
    }

    @Test
    void shouldRefuseTriggersWithBadSignaturesOrMissingSecrets() {
        String body = "{\"email\":\"ada@example.com\"}";
        SopApi anonymous = api.withToken(null);

        SopApi.Response bad = anonymous.postRaw("/sop/triggers/onboarding", body, Map.of("X-Hub-Signature-256", "sha256=" + "0".repeat(64)));
        SopApi.Response missing = anonymous.postRaw("/sop/triggers/onboarding", body, Map.of());
        SopApi.Response tampered = anonymous.postRaw("/sop/triggers/onboarding", body.replace("ada", "eve"),
                Map.of("X-Hub-Signature-256", SignatureVerifier.sign(TRIGGER_SECRET, body.getBytes(StandardCharsets.UTF_8))));
        SopApi.Response unset = anonymous.postRaw("/sop/triggers/onboarding-unset", body, Map.of());
        SopApi.Response unknown = anonymous.postRaw("/sop/triggers/review", body, Map.of());

        assertThat(bad.status()).isEqualTo(401);
        assertThat(bad.json().path("error").asString()).isEqualTo("invalid_signature");
        assertThat(missing.status()).isEqualTo(401);
        assertThat(tampered.status()).isEqualTo(401);
        assertThat(unset.status()).isEqualTo(500);
        assertThat(unset.json().path("error").asString()).isEqualTo("trigger_misconfigured");
        assertThat(unset.body()).as("the variable's name, to a caller without a token").doesNotContain("NOT_SET_ANYWHERE");
        assertThat(unknown.status()).isEqualTo(404);
    }

    @Test
    void shouldListInstancesWithFiltersAndLinkPagination() {
        for (int i = 0; i < 3; i++) {
            api.start("review", Map.of("title", "page " + i));
        }

        SopApi.Response firstPage = api.get("/sop/instances?process=review&limit=2");
        assertThat(firstPage.status()).isEqualTo(200);
        assertThat(firstPage.json().size()).isEqualTo(2);
        String link = firstPage.header("Link");
        assertThat(link).contains("rel=\"next\"").contains("cursor=");
        String next = link.substring(link.indexOf("/sop/instances"), link.indexOf('>'));
        SopApi.Response secondPage = api.get(next);
        assertThat(secondPage.json().size()).isPositive();
        assertThat(SopApi.texts(secondPage.json(), "id")).doesNotContainAnyElementsOf(SopApi.texts(firstPage.json(), "id"));
        assertThat(SopApi.texts(api.get("/sop/instances?state=waiting&process=review&limit=500").json(), "state")).containsOnly("waiting");
        assertThat(api.get("/sop/instances?state=exploded").status()).isEqualTo(400);
    }

    @Test
    void shouldShowPendingStepsAndMetrics() {
        api.start("review", Map.of("title", "pending"));

        JsonNode pending = api.get("/sop/steps/pending?type=form&process=review").json();
        assertThat(pending.size()).isPositive();
        JsonNode entry = pending.get(0);
        assertThat(entry.path("step_id").asString()).isEqualTo("read");
        assertThat(entry.path("assignee").asString()).isEqualTo("human");
        assertThat(entry.path("outputs").get(0).path("values").size()).isEqualTo(2);

        JsonNode metrics = api.get("/sop/metrics").json();
        assertThat(metrics.path("processes").asInt()).isGreaterThanOrEqualTo(3);
        assertThat(metrics.path("instances").path("waiting").asInt()).isPositive();
        assertThat(metrics.path("steps_pending").path("form").asInt()).isPositive();
    }

    @Test
    void shouldAnswerJsonErrorsForHostileRequests() {
        Map<String, Integer> cases = new java.util.LinkedHashMap<>();
        cases.put("GET /nowhere", 404);
        cases.put("GET /sop/review/01JZZZZZZZZZZZZZZZZZZZZZZZ", 404);
        cases.put("GET /sop/review/../../etc/passwd", 400);
        cases.put("DELETE /sop/review/start", 405);
        cases.put("GET /sop/steps/pending?limit=0", 400);
        cases.put("GET /sop/steps/pending?limit=abc", 400);
        cases.put("GET /sop/steps/pending?type=robot", 400);
        for (var entry : cases.entrySet()) {
            String[] parts = entry.getKey().split(" ", 2);
            SopApi.Response response = parts[0].equals("GET") ? api.get(parts[1]) : api.delete(parts[1]);
            assertThat(response.status()).as(entry.getKey()).isEqualTo(entry.getValue());
            assertThat(response.json().path("error").isString()).as(entry.getKey()).isTrue();
        }
        List<String> badBodies = List.of("", "null", "[]", "42", "\"text\"", "{", "{\"inputs\": []}", "{\"inputs\": \"x\"}",
                "{\"inputs\": {\"title\": 5}}", "{\"inputs\": {\"title\": \"x\", \"extra\": 1}}", "\u0000\u0001", "{\"inputs\": {}} trailing");
        for (String body : badBodies) {
            SopApi.Response response = api.postRaw("/sop/review/start", body, Map.of());
            assertThat(response.status()).as(body).isBetween(400, 499);
            assertThat(response.json().path("error").isString()).as(body).isTrue();
        }
        List<String[]> otherBadRequests = List.of(
                new String[] {"/sop/review/01JZZZZZZZZZZZZZZZZZZZZZZZ/steps/read/submit", "{\"outputs\": 5}"},
                new String[] {"/sop/review/01JZZZZZZZZZZZZZZZZZZZZZZZ/steps/read/submit", "{\"error\": {\"code\": 7}}"},
                new String[] {"/sop/review/01JZZZZZZZZZZZZZZZZZZZZZZZ/steps/read/submit", "not json"},
                new String[] {"/workspace/tokens", "{\"name\": \"\"}"},
                new String[] {"/workspace/tokens", "{\"name\": \"x\", \"expires_at\": \"tomorrow\"}"},
                new String[] {"/workspace/tokens", "{\"name\": \"x\", \"expires_at\": \"2001-01-01T00:00:00Z\"}"},
                new String[] {"/workspace/webhooks", "{\"url\": \"not a url\"}"},
                new String[] {"/workspace/webhooks", "{\"url\": \"https://example.com\", \"events\": [\"everything\"]}"},
                new String[] {"/sop/webhooks/01JZZZZZZZZZZZZZZZZZZZZZZZ", "{\"broken\""});
        for (String[] request : otherBadRequests) {
            SopApi.Response response = api.postRaw(request[0], request[1], Map.of());
            assertThat(response.status()).as(request[0] + " " + request[1]).isBetween(400, 499);
            assertThat(response.json().path("error").isString()).as(request[0] + " " + request[1]).isTrue();
        }
        assertThat(api.withToken("x".repeat(600)).get("/sop/").status()).isEqualTo(401);
        SopApi.Response wrongType = api.postRaw("/sop/review/start", "inputs=x", Map.of("Content-Type", "text/plain"));
        assertThat(wrongType.status()).isBetween(400, 499);
        SopApi.Response tooLarge = api.postRaw("/sop/review/start", "{\"inputs\":{\"title\":\"" + "x".repeat(1_100_000) + "\"}}", Map.of());
        assertThat(tooLarge.status()).isEqualTo(413);
        assertThat(tooLarge.json().path("error").asString()).isEqualTo("payload_too_large");
        SopApi.Response hugeFile = api.register("# " + "x".repeat(300 * 1024));
        assertThat(hugeFile.status()).isEqualTo(413);
        SopApi.Response notMultipart = api.post("/sop/processes/register", Map.of("file", "x"));
        assertThat(notMultipart.status()).isBetween(400, 499);
        assertThat(notMultipart.json().path("error").isString()).isTrue();
    }

    @Test
    void shouldServeOpenApiAndPrometheus() {
        SopApi.Response openapi = api.withToken(null).get("/openapi.json");
        assertThat(openapi.status()).isEqualTo(200);
        JsonNode document = openapi.json();
        assertThat(document.path("paths").has("/sop/{name}/start")).isTrue();
        assertThat(document.path("paths").has("/workspace/webhooks")).isTrue();
        assertThat(document.path("components").path("schemas").path("Error").path("properties").has("error")).isTrue();
        assertThat(document.path("components").path("securitySchemes").path("token").path("name").asString()).isEqualTo("X-SOP-Token");
        JsonNode start = document.path("paths").path("/sop/{name}/start").path("post");
        assertThat(start.path("responses").path("422").path("content").path("application/json").path("schema").path("$ref").asString())
                .isEqualTo("#/components/schemas/Error");
        assertThat(document.path("paths").path("/sop/triggers/{process}").path("post").path("responses").has("500")).isTrue();
        // Metrics span every workspace: only the platform administrator (admin of default) reads them.
        assertThat(api.withToken(null).get("/actuator/prometheus").status()).isEqualTo(401);
        String operator = api.post("/workspace/tokens", Map.of("name", "not-for-metrics")).json().path("token").asString();
        SopApi.Response refused = api.withToken(operator).get("/actuator/prometheus");
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.body()).doesNotContain("http_server_requests");
        assertThat(api.withToken(null).get("/actuator/prometheus/").status()).isIn(401, 404);
        assertThat(api.withToken(null).postRaw("/actuator/prometheus", "", Map.of()).status()).as("nor another method").isEqualTo(401);
        SopApi.Response prometheus = api.withToken(null).getWith("/actuator/prometheus", Map.of("Authorization", "Bearer " + TOKEN));
        assertThat(prometheus.status()).as("a scraper's bearer token").isEqualTo(200);
        assertThat(prometheus.body()).contains("http_server_requests_seconds_count");
        assertThat(prometheus.body()).as("no long task timer per request").doesNotContain("http_server_requests_active");
        assertThat(prometheus.body()).contains("sop_gateway_command_round_trip");
    }

    @Test
    void shouldAnswerTheFirstAnswerAndStartOneInstanceWhenAStartIsRetriedWithItsKey() {
        String key = "retry-" + java.util.UUID.randomUUID();
        String body = "{\"inputs\": {\"title\": \"idempotent\"}}";

        SopApi.Response first = api.postRaw("/sop/review/start", body, Map.of("Idempotency-Key", key));
        SopApi.Response retry = api.postRaw("/sop/review/start", body, Map.of("Idempotency-Key", key));
        SopApi.Response changed = api.postRaw("/sop/review/start", "{\"inputs\": {\"title\": \"other\"}}", Map.of("Idempotency-Key", key));

        assertThat(first.status()).isEqualTo(201);
        assertThat(retry.status()).isEqualTo(201);
        assertThat(retry.json()).isEqualTo(first.json());
        assertThat(changed.status()).isEqualTo(422);
        assertThat(changed.json().path("error").asString()).isEqualTo("idempotency_key_reused");
        long sameTitle = java.util.stream.StreamSupport.stream(api.get("/sop/instances?process=review&limit=500").json().spliterator(), false)
                .map(summary -> api.get("/sop/review/" + summary.path("id").asString()).json())
                .filter(instance -> instance.path("inputs").path("title").asString().equals("idempotent"))
                .count();
        assertThat(sameTitle).isEqualTo(1);
    }

    @Test
    void shouldRepeatTheFirstAnswerWhenASubmitIsRetriedWithItsKey() {
        String id = api.start("review", Map.of("title", "submit twice")).json().path("id").asString();
        String body = "{\"outputs\": {\"verdict\": \"accept\"}}";
        String path = "/sop/review/" + id + "/steps/read/submit";

        SopApi.Response first = api.postRaw(path, body, Map.of("Idempotency-Key", "submit-" + id));
        SopApi.Response retry = api.postRaw(path, body, Map.of("Idempotency-Key", "submit-" + id));
        SopApi.Response unkeyed = api.postRaw(path, body, Map.of());

        assertThat(first.status()).isEqualTo(200);
        assertThat(retry.status()).isEqualTo(200);
        assertThat(retry.json()).isEqualTo(first.json());
        assertThat(unkeyed.status()).isEqualTo(422);
        assertThat(api.postRaw(path, body, Map.of("Idempotency-Key", "bad key with spaces")).status()).isEqualTo(400);
    }

    @Test
    void shouldStartOneInstanceWhenAProviderRedeliversATrigger() {
        String body = "{\"email\":\"redelivered@example.com\",\"plan\":\"pro\"}";
        Map<String, String> headers = Map.of("X-Hub-Signature-256", SignatureVerifier.sign(TRIGGER_SECRET, body.getBytes(StandardCharsets.UTF_8)),
                "X-Delivery-Id", "delivery-" + java.util.UUID.randomUUID());
        SopApi anonymous = api.withToken(null);

        SopApi.Response first = anonymous.postRaw("/sop/triggers/onboarding", body, headers);
        SopApi.Response again = anonymous.postRaw("/sop/triggers/onboarding", body, headers);

        assertThat(first.status()).isEqualTo(201);
        assertThat(again.status()).isEqualTo(201);
        assertThat(again.json().path("id").asString()).isEqualTo(first.json().path("id").asString());
        // A replay that adds an Idempotency-Key of its own (not signed) is still the same delivery.
        Map<String, String> replayed = new java.util.HashMap<>(headers);
        replayed.put("Idempotency-Key", "fresh-" + java.util.UUID.randomUUID());
        SopApi.Response replay = anonymous.postRaw("/sop/triggers/onboarding", body, replayed);
        assertThat(replay.json().path("id").asString()).isEqualTo(first.json().path("id").asString());
    }

    @Test
    void shouldTakeEachBodyOnceWhenTheProcessDedupesBodiesWhateverTheDeliveryId() {
        String once = ONBOARDING.replace("name: onboarding", "name: onboarding-once")
                .replace("delivery_header: X-Delivery-Id", "delivery_header: X-Delivery-Id\n      dedupe_body: true");
        assertThat(api.register(once).status()).isEqualTo(201);
        String body = "{\"email\":\"captured@example.com\",\"plan\":\"pro\",\"sent\":\"" + java.util.UUID.randomUUID() + "\"}";
        String signature = SignatureVerifier.sign(TRIGGER_SECRET, body.getBytes(StandardCharsets.UTF_8));
        SopApi anonymous = api.withToken(null);

        SopApi.Response first = anonymous.postRaw("/sop/triggers/onboarding-once", body,
                Map.of("X-Hub-Signature-256", signature, "X-Delivery-Id", "delivery-1"));
        // The captured call sent again with another delivery id: only the body is signed.
        SopApi.Response replayed = anonymous.postRaw("/sop/triggers/onboarding-once", body,
                Map.of("X-Hub-Signature-256", signature, "X-Delivery-Id", "delivery-2"));
        String other = body.replace("captured@", "another@");
        SopApi.Response another = anonymous.postRaw("/sop/triggers/onboarding-once", other,
                Map.of("X-Hub-Signature-256", SignatureVerifier.sign(TRIGGER_SECRET, other.getBytes(StandardCharsets.UTF_8)), "X-Delivery-Id", "delivery-2"));

        assertThat(first.status()).as(first.body()).isEqualTo(201);
        assertThat(replayed.status()).isEqualTo(201);
        assertThat(replayed.json().path("id").asString()).isEqualTo(first.json().path("id").asString());
        assertThat(another.status()).isEqualTo(201);
        assertThat(another.json().path("id").asString()).isNotEqualTo(first.json().path("id").asString());
    }
}
