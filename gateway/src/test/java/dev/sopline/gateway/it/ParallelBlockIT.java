package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.sopline.testing.SopApi;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * An engine 0.2 process with a parallel block, over HTTP: an automated branch (resolved by an HTTP worker through
 * submit) and a form branch run side by side, and the step after the block waits for both.
 */
class ParallelBlockIT extends GatewayTestBase {

    private static final String CHECKS = """
            engine: "0.2"
            process:
              name: parallel-checks
              version: "1.0"
              inputs:
                - name: applicant
                  required: true
              outputs:
                - name: approved
              steps:
                - parallel:
                    id: checks
                    name: Background checks
                    branches:
                      - id: credit
                        steps:
                          - id: score
                            type: automated
                            run: credit.score
                            inputs: {applicant: "${inputs.applicant}"}
                            outputs: [{name: value, type: number}]
                      - id: identity
                        steps:
                          - id: id-check
                            type: form
                            inputs: {applicant: "${inputs.applicant}"}
                            outputs: [{name: ok, type: enum, values: ["yes", "no"]}]
                - id: decide
                  type: form
                  inputs: {score: "${steps.score.outputs.value}", ok: "${steps.id-check.outputs.ok}"}
                  outputs: [{name: approved, type: boolean}]
            """;

    private static List<String> steps(JsonNode instance, String field) {
        List<String> values = new ArrayList<>();
        instance.path("steps").forEach(step -> values.add(step.path("id").asString() + ":" + step.path(field).asString()));
        return values;
    }

    @Test
    void shouldRunBothBranchesSideBySideAndJoinBeforeTheNextStep() {
        // given
        SopApi api = api();
        assertThat(api.register(CHECKS).status()).isEqualTo(201);

        // when
        SopApi.Response started = api.start("parallel-checks", Map.of("applicant", "Ada"));

        // then: both branches' first steps are active at once, and both are in the pending feed
        assertThat(started.status()).isEqualTo(201);
        String id = started.json().path("id").asString();
        JsonNode instance = api.get("/sop/parallel-checks/" + id).json();
        assertThat(instance.path("state").asString()).isEqualTo("running");
        assertThat(steps(instance, "state")).containsExactly("score:active", "id-check:active", "decide:pending");
        assertThat(steps(instance, "block")).containsExactly("score:checks", "id-check:checks", "decide:");
        assertThat(steps(instance, "branch")).containsExactly("score:credit", "id-check:identity", "decide:");
        assertThat(instance.path("steps").get(2).has("block")).as("a step outside blocks has no block field").isFalse();
        JsonNode pending = api.get("/sop/steps/pending?process=parallel-checks").json();
        List<JsonNode> entries = new ArrayList<>();
        pending.forEach(entries::add);
        assertThat(entries).filteredOn(entry -> entry.path("instance_id").asString().equals(id))
                .extracting(entry -> entry.path("step_id").asString(), entry -> entry.path("type").asString())
                .containsExactlyInAnyOrder(tuple("score", "automated"), tuple("id-check", "form"));
        assertThat(entries).filteredOn(entry -> entry.path("instance_id").asString().equals(id))
                .extracting(entry -> entry.path("step_id").asString(), entry -> entry.path("block").asString(),
                        entry -> entry.path("branch").asString())
                .as("each active step of the block in the feed, with its block and branch")
                .containsExactlyInAnyOrder(tuple("score", "checks", "credit"), tuple("id-check", "checks", "identity"));

        // when: the person's branch completes first
        assertThat(api.submit("parallel-checks", id, "id-check", Map.of("ok", "yes")).status()).isEqualTo(200);

        // then: the join waits for the worker, and the instance runs while the worker has its step
        instance = api.get("/sop/parallel-checks/" + id).json();
        assertThat(instance.path("state").asString()).isEqualTo("running");
        assertThat(steps(instance, "state")).containsExactly("score:active", "id-check:completed", "decide:pending");

        // when: the worker reports its outputs over HTTP
        assertThat(api.submit("parallel-checks", id, "score", Map.of("value", 710)).status()).isEqualTo(200);

        // then: the step after the block starts with both branches' outputs, and waits on a person
        instance = api.get("/sop/parallel-checks/" + id).json();
        assertThat(instance.path("state").asString()).isEqualTo("waiting");
        assertThat(steps(instance, "state")).containsExactly("score:completed", "id-check:completed", "decide:active");
        JsonNode decide = api.get("/sop/steps/pending?process=parallel-checks").json();
        List<JsonNode> decideEntries = new ArrayList<>();
        decide.forEach(decideEntries::add);
        assertThat(decideEntries).filteredOn(entry -> entry.path("instance_id").asString().equals(id)).singleElement()
                .satisfies(entry -> {
                    assertThat(entry.path("step_id").asString()).isEqualTo("decide");
                    assertThat(entry.path("inputs").path("score").asInt()).isEqualTo(710);
                    assertThat(entry.path("inputs").path("ok").asString()).isEqualTo("yes");
                });

        // when
        SopApi.Response done = api.submit("parallel-checks", id, "decide", Map.of("approved", true));

        // then
        assertThat(done.status()).isEqualTo(200);
        JsonNode completed = api.get("/sop/parallel-checks/" + id).json();
        assertThat(completed.path("state").asString()).isEqualTo("completed");
        assertThat(completed.path("outputs").path("approved").asBoolean()).isTrue();
    }

    @Test
    void shouldRefuseAParallelBlockInAVersion01File() {
        SopApi.Response refused = api().register(CHECKS.replace("engine: \"0.2\"", "engine: \"0.1\"").replace("parallel-checks", "old-checks"));

        assertThat(refused.status()).isEqualTo(422);
        assertThat(refused.json().path("error").asString()).isEqualTo("invalid_definition");
        JsonNode detail = refused.json().path("details").get(0);
        assertThat(detail.path("field").asString()).isEqualTo("process.steps[0].parallel");
        assertThat(detail.path("code").asString()).isEqualTo("requires_version");
        List<String> expected = new ArrayList<>();
        detail.path("expected").forEach(version -> expected.add(version.asString()));
        assertThat(expected).containsExactly("0.2");
        assertThat(detail.path("line").asInt()).isEqualTo(12);
    }
}
