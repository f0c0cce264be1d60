package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.gateway.auth.SignatureVerifier;
import dev.sopline.testing.SopApi;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Two workspaces made through {@code POST /workspaces}: each sees its own things and nothing of the other's. */
class WorkspaceIsolationIT extends GatewayTestBase {

    /** A workspace and its first admin token, as the platform administrator made them. */
    record Workspace(String name, String token, SopApi admin) {}

    static Workspace createWorkspace(GatewayTestBase test, String prefix) {
        String name = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        SopApi.Response created = test.api().post("/workspaces", Map.of("name", name));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(created.json().path("token").path("role").asString()).isEqualTo("admin");
        String token = created.json().path("token").path("token").asString();
        return new Workspace(name, token, test.api().withToken(token));
    }

    @Test
    void shouldKeepProcessesInstancesStepsTokensWebhooksMetricsAndStreamsInsideEachWorkspace() throws Exception {
        Workspace billing = createWorkspace(this, "billing");
        Workspace support = createWorkspace(this, "support");
        // the same process name in both, and a signed trigger in billing only
        assertThat(billing.admin().register(GatewayApiIT.REVIEW).status()).isEqualTo(201);
        assertThat(billing.admin().register(GatewayApiIT.ONBOARDING).status()).isEqualTo(201);
        assertThat(support.admin().register(GatewayApiIT.REVIEW).status()).isEqualTo(201);
        List<String> streamed = new CopyOnWriteArrayList<>();
        follow(port, "/sop/events", support, streamed);

        String billingReview = billing.admin().start("review", Map.of("title", "invoice run")).json().path("id").asString();
        String billingTriggered = trigger(billing.name()).json().path("id").asString();
        String supportReview = support.admin().start("review", Map.of("title", "angry customer")).json().path("id").asString();

        // instances and their steps
        // A fresh id another workspace holds reads as one not readable yet (503) or absent (404): never the instance.
        assertThat(support.admin().get("/sop/review/" + billingReview).status()).isIn(404, 503);
        assertThat(support.admin().submit("review", billingReview, "read", Map.of("verdict", "accept")).status()).isEqualTo(404);
        assertThat(ids(billing.admin().get("/sop/instances"))).containsExactlyInAnyOrder(billingReview, billingTriggered);
        assertThat(ids(support.admin().get("/sop/instances"))).containsExactly(supportReview);
        assertThat(SopApi.texts(billing.admin().get("/sop/steps/pending").json(), "instance_id"))
                .containsExactlyInAnyOrder(billingReview, billingTriggered);
        assertThat(SopApi.texts(support.admin().get("/sop/steps/pending").json(), "instance_id")).containsExactly(supportReview);
        // processes and signed triggers
        assertThat(SopApi.texts(support.admin().get("/sop/").json(), "name")).containsExactly("review");
        assertThat(trigger(support.name()).status()).isEqualTo(404);
        // tokens
        String billingToken = billing.admin().post("/workspace/tokens", Map.of("name", "billing-worker", "role", "worker")).json().path("id").asString();
        assertThat(SopApi.texts(support.admin().get("/workspace/tokens").json(), "id")).doesNotContain(billingToken).hasSize(1);
        assertThat(support.admin().delete("/workspace/tokens/" + billingToken).status()).isEqualTo(404);
        // outbound webhooks
        String hook = billing.admin().post("/workspace/webhooks", Map.of("url", "http://localhost:9/hook", "events", List.of("state_changed"),
                "secret", "a-receiver-secret-of-some-length")).json().path("id").asString();
        assertThat(support.admin().get("/workspace/webhooks").json().size()).isZero();
        assertThat(support.admin().delete("/workspace/webhooks/" + hook).status()).isEqualTo(404);
        // metrics
        JsonNode billingMetrics = billing.admin().get("/sop/metrics").json();
        JsonNode supportMetrics = support.admin().get("/sop/metrics").json();
        assertThat(billingMetrics.path("processes").asInt()).isEqualTo(2);
        assertThat(billingMetrics.path("steps_pending").path("form").asInt()).isEqualTo(2);
        assertThat(supportMetrics.path("processes").asInt()).isEqualTo(1);
        assertThat(supportMetrics.path("steps_pending").path("form").asInt()).isEqualTo(1);
        // event streams: support's stream sees its own completion, never billing's
        assertThat(billing.admin().submit("review", billingReview, "read", Map.of("verdict", "accept")).status()).isEqualTo(200);
        assertThat(support.admin().submit("review", supportReview, "read", Map.of("verdict", "reject")).status()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(String.join("\n", streamed))
                .contains("\"subject\":\"" + supportReview + "\"").contains("\"to\":\"completed\""));
        assertThat(String.join("\n", streamed)).doesNotContain(billingReview).doesNotContain(billingTriggered);
    }

    private SopApi.Response trigger(String workspace) {
        String body = "{\"email\":\"ada@example.com\",\"plan\":\"pro\"}";
        return api().withToken(null).postRaw("/sop/triggers/" + workspace + "/onboarding", body,
                Map.of("X-Hub-Signature-256", SignatureVerifier.sign(TRIGGER_SECRET, body.getBytes(StandardCharsets.UTF_8))));
    }

    private static List<String> ids(SopApi.Response list) {
        return SopApi.texts(list.json(), "id");
    }

    /** Opens an event stream with the workspace's admin token and collects its lines until it ends; the reader returned. */
    static Thread follow(int port, String path, Workspace workspace, List<String> lines) throws Exception {
        HttpResponse<Stream<String>> stream = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .header("Accept", "text/event-stream").header("X-SOP-Token", workspace.token()).build(), HttpResponse.BodyHandlers.ofLines());
        assertThat(stream.statusCode()).isEqualTo(200);
        Thread reader = new Thread(() -> stream.body().forEach(lines::add));
        reader.setDaemon(true);
        reader.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> lines.contains(":open"));
        return reader;
    }
}
