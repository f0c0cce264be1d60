package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.testing.SopApi;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class EventStreamIT extends GatewayTestBase {

    private final List<String> lines = new CopyOnWriteArrayList<>();

    private HttpResponse<Stream<String>> open(String path, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).header("Accept", "text/event-stream");
        if (token != null) {
            request.header("X-SOP-Token", token);
        }
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofLines());
    }

    @Test
    void shouldStreamAnInstancesStateChangesUntilItCompletes() throws Exception {
        SopApi api = api();
        assertThat(api.register(GatewayApiIT.REVIEW).status()).isEqualTo(201);
        String id = api.start("review", Map.of("title", "live")).json().path("id").asString();

        HttpResponse<Stream<String>> stream = open("/sop/review/" + id + "/events", TOKEN);
        assertThat(stream.statusCode()).isEqualTo(200);
        assertThat(stream.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
        Thread reader = new Thread(() -> stream.body().forEach(lines::add));
        reader.setDaemon(true);
        reader.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> lines.contains(":open"));

        assertThat(api.submit("review", id, "read", Map.of("verdict", "accept")).status()).isEqualTo(200);

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(String.join("\n", lines))
                .contains("event:state_changed")
                .contains("\"subject\":\"" + id + "\"")
                .contains("\"to\":\"completed\""));
    }

    @Test
    void shouldRefuseStreamsOfUnknownInstancesAndWithoutAToken() throws Exception {
        assertThat(open("/sop/review/01JZZZZZZZZZZZZZZZZZZZZZZZ/events", TOKEN).statusCode()).isEqualTo(404);
        assertThat(open("/sop/events", null).statusCode()).isEqualTo(401);
    }
}
