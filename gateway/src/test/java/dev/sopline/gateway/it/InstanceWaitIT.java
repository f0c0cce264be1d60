package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.testing.SopApi;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code GET /sop/:name/:id?wait=}: a read held until the instance settles, on the shared embedded broker. */
class InstanceWaitIT extends GatewayTestBase {

    /** An automated step nobody works on (the test submits its result), then a form. */
    static final String MACHINE_THEN_PERSON = """
            engine: "0.1"
            process:
              name: machine-then-person
              version: "1.0"
              steps:
                - id: compute
                  type: automated
                  run: wait-it.compute
                  outputs:
                    - name: total
                - id: confirm
                  type: form
                  outputs:
                    - name: ok
                      type: boolean
            """;

    static final String MACHINE_ONLY = """
            engine: "0.1"
            process:
              name: machine-only
              version: "1.0"
              outputs:
                - name: total
              steps:
                - id: compute
                  type: automated
                  run: wait-it.compute
                  outputs:
                    - name: total
            """;

    SopApi api;

    @org.springframework.beans.factory.annotation.Autowired
    HeardDecisions heard;

    @org.springframework.beans.factory.annotation.Autowired
    io.micrometer.core.instrument.MeterRegistry meters;

    @BeforeEach
    void register() {
        api = api();
        for (String yaml : List.of(MACHINE_THEN_PERSON, MACHINE_ONLY)) {
            assertThat(api.register(yaml).status()).isEqualTo(201);
        }
    }

    @Test
    void shouldHoldTheReadUntilTheInstanceWaitsOnAPersonAndAnswerThen() throws Exception {
        String id = api.start("machine-then-person", Map.of()).json().path("id").asString();
        CompletableFuture<SopApi.Response> held = CompletableFuture.supplyAsync(() -> api.get("/sop/machine-then-person/" + id + "?wait=20"));

        Thread.sleep(1_500);
        assertThat(held).as("a read of a running instance, held").isNotDone();

        long submittedAt = System.nanoTime();
        assertThat(api.submit("machine-then-person", id, "compute", Map.of("total", "3")).status()).isEqualTo(200);
        SopApi.Response answer = held.get(15, TimeUnit.SECONDS);
        Duration afterSubmit = Duration.ofNanos(System.nanoTime() - submittedAt);

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.json().path("state").asString()).isEqualTo("waiting");
        assertThat(answer.json().path("steps").get(1).path("state").asString()).isEqualTo("active");
        // Woken by the change, not by its wait running out (20 s) nor by the once-a-second read alone.
        assertThat(afterSubmit).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void shouldAnswerAHeldRead401WhenItsTokenIsRevokedDuringTheWait() throws Exception {
        SopApi.Response created = api.post("/workspace/tokens", Map.of("name", "revoked-while-waiting", "role", "viewer"));
        SopApi viewer = api.withToken(created.json().path("token").asString());
        String id = api.start("machine-only", Map.of()).json().path("id").asString();
        CompletableFuture<SopApi.Response> held = CompletableFuture.supplyAsync(() -> viewer.get("/sop/machine-only/" + id + "?wait=20"));
        Thread.sleep(700);
        assertThat(held).as("held").isNotDone();

        assertThat(api.delete("/workspace/tokens/" + created.json().path("id").asString()).status()).isEqualTo(204);
        Thread.sleep(300);
        api.submit("machine-only", id, "compute", Map.of("total", "3"));

        SopApi.Response answer = held.get(15, TimeUnit.SECONDS);
        assertThat(answer.status()).isEqualTo(401);
        assertThat(answer.json().path("error").asString()).isEqualTo("unauthorized");
        assertThat(answer.body()).doesNotContain("\"outputs\"");
    }

    @Test
    void shouldTimeAHeldReadInTheRequestMetricsOnceItIsAnswered() throws Exception {
        String id = api.start("machine-only", Map.of()).json().path("id").asString();
        long before = heldReadsTimed();
        CompletableFuture<SopApi.Response> held = CompletableFuture.supplyAsync(() -> api.get("/sop/machine-only/" + id + "?wait=20"));
        Thread.sleep(500);

        api.submit("machine-only", id, "compute", Map.of("total", "3"));

        assertThat(held.get(15, TimeUnit.SECONDS).json().path("state").asString()).isEqualTo("completed");
        // Answered outside Spring MVC's async dispatch: the request's observation still ends when the request does.
        org.awaitility.Awaitility.await("the held read timed").atMost(Duration.ofSeconds(5)).until(() -> heldReadsTimed() > before);
    }

    private long heldReadsTimed() {
        return meters.find("http.server.requests").tag("uri", "/sop/{name}/{id}").tag("status", "200").timers().stream()
                .mapToLong(io.micrometer.core.instrument.Timer::count).sum();
    }

    @Test
    void shouldBeToldByTheEngineInItsJvmOfTheStartsReplyAndTheInstancesChanges() {
        String id = api.start("machine-only", Map.of()).json().path("id").asString();
        api.submit("machine-only", id, "compute", Map.of("total", "3"));

        // The gateway's own listeners (its command bus, these waits) are told alike, beside the replies topic and sop.events.
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> heard.heardReply(201, id) && heard.heardChangeOf(id));
    }

    @Test
    void shouldAnswerAtOnceWhenTheInstanceHasAlreadySettled() {
        String id = api.start("machine-only", Map.of()).json().path("id").asString();
        api.submit("machine-only", id, "compute", Map.of("total", "3"));

        long askedAt = System.nanoTime();
        SopApi.Response answer = api.get("/sop/machine-only/" + id + "?wait=20");

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.json().path("state").asString()).isEqualTo("completed");
        assertThat(answer.json().path("outputs").path("total").asString()).isEqualTo("3");
        assertThat(Duration.ofNanos(System.nanoTime() - askedAt)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void shouldAnswerTheInstanceAsItIsWhenTheWaitRunsOut() {
        String id = api.start("machine-only", Map.of()).json().path("id").asString();

        long askedAt = System.nanoTime();
        SopApi.Response answer = api.get("/sop/machine-only/" + id + "?wait=2");

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.json().path("state").asString()).isEqualTo("running");
        assertThat(Duration.ofNanos(System.nanoTime() - askedAt)).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void shouldAnswerWithoutWaitingForZero() {
        String id = api.start("machine-only", Map.of()).json().path("id").asString();

        SopApi.Response answer = api.get("/sop/machine-only/" + id + "?wait=0");

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.json().path("state").asString()).isEqualTo("running");
    }

    @Test
    void shouldRefuseAWaitOutsideItsRangeAndAnUnknownInstanceAsAPlainReadDoes() {
        String id = api.start("machine-only", Map.of()).json().path("id").asString();

        for (String wait : List.of("31", "-1", "soon", "")) {
            SopApi.Response refused = api.get("/sop/machine-only/" + id + "?wait=" + wait);
            assertThat(refused.status()).as("wait=%s", wait).isEqualTo(400);
            assertThat(refused.json().path("error").asString()).isEqualTo("invalid_parameter");
        }
        SopApi.Response unknown = api.get("/sop/machine-only/01JZZZZZZZZZZZZZZZZZZZZZZZ?wait=5");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.json().path("error").asString()).isEqualTo("not_found");
    }

    @Test
    void shouldNotShowAnotherWorkspacesInstanceToAWaitingRead() {
        String id = api.start("machine-only", Map.of()).json().path("id").asString();
        SopApi other = api.withToken(OtherWorkspace.token(this));

        SopApi.Response answer = other.get("/sop/machine-only/" + id + "?wait=5");

        // As for a plain read: an id minted moments ago answers 503 "not readable yet", an older one 404; never the instance.
        assertThat(answer.status()).isIn(404, 503);
        assertThat(answer.body()).doesNotContain("\"state\"");
    }
}
