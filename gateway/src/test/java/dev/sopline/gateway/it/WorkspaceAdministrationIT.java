package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.gateway.auth.SignatureVerifier;
import dev.sopline.gateway.engine.EngineAccess;
import dev.sopline.gateway.it.WorkspaceIsolationIT.Workspace;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.InstanceView;
import dev.sopline.testing.SopApi;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** Who may manage workspaces, the names they may have, and what deleting one does (CONTRACT section 12). */
class WorkspaceAdministrationIT extends GatewayTestBase {

    @Autowired
    EngineAccess engine;

    @Test
    void shouldLetOnlyAdminsOfDefaultManageWorkspaces() {
        Workspace acme = WorkspaceIsolationIT.createWorkspace(this, "acme");
        SopApi acmeOperator = api().withToken(acme.admin().post("/workspace/tokens", Map.of("name", "ops")).json().path("token").asString());
        SopApi defaultOperator = api().withToken(api().post("/workspace/tokens", Map.of("name", "ops", "role", "operator")).json().path("token").asString());
        SopApi secondPlatformAdmin = api().withToken(api().post("/workspace/tokens", Map.of("name", "deputy", "role", "admin")).json().path("token").asString());

        List<String> wrong = new ArrayList<>();
        for (SopApi refused : List.of(acme.admin(), acmeOperator, defaultOperator)) {
            for (SopApi.Response response : List.of(refused.get("/workspaces"), refused.post("/workspaces", Map.of("name", "sneaky")),
                    refused.delete("/workspaces/" + acme.name()))) {
                if (response.status() != 403 || !response.body().contains("\"error\":\"forbidden\"")) {
                    wrong.add(response.status() + " " + response.body());
                }
            }
        }
        assertThat(wrong).isEmpty();
        assertThat(api().withToken(null).get("/workspaces").status()).isEqualTo(401);
        SopApi.Response listed = secondPlatformAdmin.get("/workspaces");
        assertThat(listed.status()).isEqualTo(200);
        assertThat(SopApi.texts(listed.json(), "name")).contains("default", acme.name()).doesNotContain("sneaky");
        assertThat(listed.json().get(0).path("created_at").asString()).isNotBlank();
        assertThat(acme.admin().get("/sop/token").json().path("workspace").asString()).isEqualTo(acme.name());
    }

    @Test
    void shouldRefuseBadTakenAndProtectedNames() {
        Workspace taken = WorkspaceIsolationIT.createWorkspace(this, "taken");
        for (Object name : List.of("a", "-leading-dash", "Upper", "under_score", "x".repeat(64), 42)) {
            SopApi.Response refused = api().post("/workspaces", Map.of("name", name));
            assertThat(refused.status()).as("name %s", name).isEqualTo(422);
            assertThat(refused.json().path("error").asString()).isEqualTo("invalid_inputs");
            assertThat(refused.json().path("details").path(0).path("field").asString()).isEqualTo("name");
        }
        assertThat(api().post("/workspaces", Map.of()).status()).isEqualTo(422);
        SopApi.Response again = api().post("/workspaces", Map.of("name", taken.name()));
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.json().path("error").asString()).isEqualTo("workspace_exists");
        assertThat(api().post("/workspaces", Map.of("name", "default")).status()).isEqualTo(409);
        assertThat(api().delete("/workspaces/default").status()).isEqualTo(422);
        assertThat(api().delete("/workspaces/never-made").status()).isEqualTo(404);
    }

    @Test
    void shouldRevokeEveryTokenAndCancelEveryInstanceOfADeletedWorkspace() throws Exception {
        Workspace doomed = WorkspaceIsolationIT.createWorkspace(this, "doomed");
        assertThat(doomed.admin().register(GatewayApiIT.REVIEW).status()).isEqualTo(201);
        assertThat(doomed.admin().register(GatewayApiIT.ONBOARDING).status()).isEqualTo(201);
        SopApi worker = api().withToken(doomed.admin().post("/workspace/tokens", Map.of("name", "w", "role", "worker")).json().path("token").asString());
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(doomed.admin().start("review", Map.of("title", "to cancel " + i)).json().path("id").asString());
        }
        String completed = ids.remove(2);
        assertThat(worker.submit("review", completed, "read", Map.of("verdict", "accept")).status()).isEqualTo(200);
        Thread stream = WorkspaceIsolationIT.follow(port, "/sop/events", doomed, new CopyOnWriteArrayList<>());

        assertThat(api().delete("/workspaces/" + doomed.name()).status()).isEqualTo(204);

        assertThat(doomed.admin().get("/sop/").status()).isEqualTo(401);
        assertThat(worker.get("/sop/steps/pending").status()).isEqualTo(401);
        await("the open stream ends").atMost(Duration.ofSeconds(2)).until(() -> !stream.isAlive());
        for (String id : ids) {
            assertThat(engine.queries().instance(doomed.name(), id)).get().extracting(InstanceView::state).isEqualTo(InstanceState.CANCELLED);
        }
        assertThat(engine.queries().instance(doomed.name(), completed)).get().extracting(InstanceView::state).isEqualTo(InstanceState.COMPLETED);
        String body = "{\"email\":\"ada@example.com\"}";
        assertThat(api().withToken(null).postRaw("/sop/triggers/" + doomed.name() + "/onboarding", body,
                Map.of("X-Hub-Signature-256", SignatureVerifier.sign(TRIGGER_SECRET, body.getBytes(StandardCharsets.UTF_8)))).status()).isEqualTo(404);
        assertThat(SopApi.texts(api().get("/workspaces").json(), "name")).doesNotContain(doomed.name());
        assertThat(api().post("/workspaces", Map.of("name", doomed.name())).status()).as("a deleted name is not reused").isEqualTo(409);
        assertThat(api().delete("/workspaces/" + doomed.name()).status()).isEqualTo(404);
    }

    @Test
    void shouldDocumentTheWorkspaceOperationsInOpenApi() {
        JsonNode paths = api().withToken(null).get("/openapi.json").json().path("paths");

        JsonNode create = paths.path("/workspaces").path("post");
        assertThat(create.path("operationId").asString()).isEqualTo("createWorkspace");
        assertThat(create.path("summary").asString()).isNotBlank();
        assertThat(create.path("description").asString()).contains("platform administrator", "Needs a token with role `admin`");
        assertThat(create.path("responses").propertyNames()).contains("201", "401", "403", "409", "422");
        assertThat(paths.path("/workspaces").path("get").path("operationId").asString()).isEqualTo("listWorkspaces");
        JsonNode delete = paths.path("/workspaces/{name}").path("delete");
        assertThat(delete.path("operationId").asString()).isEqualTo("deleteWorkspace");
        assertThat(delete.path("responses").propertyNames()).contains("204", "401", "403", "404", "422");
    }
}
