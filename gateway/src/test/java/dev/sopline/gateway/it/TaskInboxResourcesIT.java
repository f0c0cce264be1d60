package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.testing.SopApi;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The task inbox's files as the gateway serves them, and the live streams it uses as the OpenAPI file documents them. */
class TaskInboxResourcesIT extends GatewayTestBase {

    @Test
    void shouldServeTheInboxWithoutATokenAndLockedDownToTheGateway() {
        SopApi anonymous = api().withToken(null);
        SopApi.Response page = anonymous.get("/ui/");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.header("Content-Type")).startsWith("text/html");
        assertThat(page.body()).contains("<script type=\"module\" src=\"js/app.js\"></script>");
        assertThat(page.header("Content-Security-Policy")).contains("default-src 'none'", "script-src 'self'", "connect-src 'self'",
                "frame-ancestors 'none'");
        assertThat(page.header("X-Content-Type-Options")).isEqualTo("nosniff");

        SopApi.Response script = anonymous.get("/ui/js/app.js");
        assertThat(script.status()).isEqualTo(200);
        assertThat(script.header("Content-Type")).contains("javascript");
        assertThat(script.body()).contains("signInView");

        SopApi.Response missing = anonymous.get("/ui/js/missing.js");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.json().path("error").asString()).isEqualTo("not_found");
        assertThat(anonymous.get("/sop/steps/pending").status()).isEqualTo(401);
    }

    @Test
    void shouldSendPeopleOpeningTheGatewayToTheInbox() throws Exception {
        HttpResponse<Void> root = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/")).build(), HttpResponse.BodyHandlers.discarding());
        assertThat(root.statusCode()).isEqualTo(302);
        assertThat(root.headers().firstValue("Location").orElse("")).endsWith("/ui/");
    }

    @Test
    void shouldDocumentTheLiveStreamsAsAnAlternativeToPolling() {
        JsonNode paths = api().withToken(null).get("/openapi.json").json().path("paths");
        for (String path : new String[] {"/sop/events", "/sop/{name}/{id}/events"}) {
            JsonNode operation = paths.path(path).path("get");
            assertThat(operation.path("description").asString()).as(path).contains("polling", "state_changed", "reconnect");
            assertThat(operation.path("responses").path("200").path("content").has("text/event-stream")).as(path).isTrue();
            assertThat(operation.path("responses").has("401")).as(path).isTrue();
        }
    }
}
