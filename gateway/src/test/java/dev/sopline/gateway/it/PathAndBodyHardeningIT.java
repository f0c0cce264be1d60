package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.testing.SopApi;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Requests as an attacker or a careless client sends them: odd paths, endless or trickled bodies (CONTRACT section 8). */
class PathAndBodyHardeningIT extends GatewayTestBase {

    @Test
    void shouldRefuseAPathWithASemicolonOrDotSegmentsBeforeAnyRouteSeesIt() {
        for (String path : List.of("/sop;/instances", "/sop;x=y/instances", "/sop/%2e%2e/workspace/tokens", "/sop/../workspace/tokens",
                "/workspace/./tokens")) {
            try (RawHttp http = new RawHttp(port)) {
                RawHttp.Answer answer = http.head("GET " + path + " HTTP/1.1", "Connection: close").answer();
                assertThat(answer.status()).as(path).isEqualTo(400);
                assertThat(answer.head()).as(path).containsIgnoringCase("Content-Type: application/json");
                assertThat(answer.body()).as(path).contains("\"error\":\"invalid_request\"");
            }
        }
    }

    @Test
    void shouldRefuseAControlCharacterInAHeaderItReadsWithJsonThatDoesNotRepeatTheHeader() {
        try (RawHttp http = new RawHttp(port)) {
            // Sent as UTF-8, read as ISO-8859-1 by the container: the token ends in U+0085, a control character.
            RawHttp.Answer answer = http.head("GET /sop/instances HTTP/1.1", "X-SOP-Token: " + TOKEN + "\u0085", "Connection: close").answer();
            assertThat(answer.status()).isEqualTo(400);
            assertThat(answer.head()).containsIgnoringCase("Content-Type: application/json");
            assertThat(answer.body()).contains("\"error\":\"invalid_request\"").doesNotContain(TOKEN);
        }
        try (RawHttp http = new RawHttp(port)) {
            RawHttp.Answer answer = http.head("GET /sop/instances HTTP/1.1", "X-SOP-Token: " + TOKEN, "Accept: application/json,\t*/*",
                    "Connection: close").answer();
            assertThat(answer.status()).as("a tab in a header value").isEqualTo(200);
        }
    }

    @Test
    void shouldRefuseAControlCharacterInAHeaderAControllerReadsWith400NotAnInternalError() {
        // "ß" sent as UTF-8 is read as "Ã" and U+009F: the firewall refuses the header when the start reads its
        // Idempotency-Key, inside the controller rather than the security chain.
        assertThat(api().register("""
                engine: "0.1"
                process:
                  name: header-check
                  version: "1.0"
                  steps:
                    - id: check
                      type: form
                      outputs:
                        - name: ok
                """).status()).isEqualTo(201);
        String body = "{\"inputs\":{}}";
        try (RawHttp http = new RawHttp(port)) {
            RawHttp.Answer answer = http.whole("POST /sop/header-check/start HTTP/1.1", body, "X-SOP-Token: " + TOKEN,
                    "Content-Type: application/json", "Content-Length: " + body.length(), "Idempotency-Key: Größe-1", "Connection: close").answer();
            assertThat(answer.status()).isEqualTo(400);
            assertThat(answer.body()).contains("\"error\":\"invalid_request\"").doesNotContain("Gr");
        }
    }

    @Test
    void shouldNotCreateATokenThroughASemicolonPathWithoutAToken() {
        String body = "{\"name\":\"sneaky\"}";
        try (RawHttp http = new RawHttp(port)) {
            RawHttp.Answer answer = http.head("POST /workspace;/tokens HTTP/1.1", "Content-Type: application/json",
                    "Content-Length: " + body.length(), "Connection: close").send(body).answer();
            assertThat(answer.status()).isIn(400, 401);
            assertThat(answer.body()).doesNotContain("\"token\"");
        }
        assertThat(SopApi.texts(api().get("/workspace/tokens").json(), "name")).doesNotContain("sneaky");
    }

    @Test
    void shouldAnswerWithJsonWhatTheServletContainerRefusesItself() {
        for (String path : List.of("/sop/a%2Fb/schema", "/sop/a%5Cb/schema", "/sop/a%00b/schema", "/sop/%zz/schema")) {
            try (RawHttp http = new RawHttp(port)) {
                RawHttp.Answer answer = http.head("GET " + path + " HTTP/1.1", "X-SOP-Token: " + TOKEN, "Connection: close").answer();
                assertThat(answer.status()).as(path).isEqualTo(400);
                assertThat(answer.head()).as(path).containsIgnoringCase("Content-Type: application/json");
                assertThat(answer.body()).as(path).contains("\"error\":\"invalid_request\"").doesNotContain("<html");
            }
        }
        try (RawHttp http = new RawHttp(port)) {
            RawHttp.Answer answer = http.head("GET /sop/ HTTP/1.1", "X-SOP-Token: " + TOKEN, "X-Padding: " + "a".repeat(40_000),
                    "Connection: close").answer();
            assertThat(answer.status()).isIn(400, 431);
            assertThat(answer.body()).contains("\"error\":").doesNotContain("<html");
        }
    }

    @Test
    void shouldAnswerClientMistakesInQueriesAndBodiesWithTheirErrorNotA500() {
        for (String path : List.of("/sop/instances?process=%FF", "/actuator/health?x=%FF")) {
            try (RawHttp http = new RawHttp(port)) {
                RawHttp.Answer answer = http.head("GET " + path + " HTTP/1.1", "X-SOP-Token: " + TOKEN, "Connection: close").answer();
                assertThat(answer.status()).as(path).isEqualTo(400);
                assertThat(answer.body()).as(path).contains("\"error\":\"invalid_request\"");
            }
        }
        SopApi api = api();
        assertThat(api.register("""
                engine: "0.1"
                process:
                  name: mistakes
                  version: "1.0"
                  inputs:
                    - name: amount
                      type: number
                  steps:
                    - id: check
                      type: form
                      outputs:
                        - name: ok
                """).status()).isEqualTo(201);
        SopApi.Response infinite = api.postRaw("/sop/mistakes/start", "{\"inputs\":{\"amount\":1e400}}", Map.of("Content-Type", "application/json"));
        assertThat(infinite.status()).isEqualTo(422);
        assertThat(infinite.json().path("error").asString()).isEqualTo("invalid_inputs");
        String id = api.start("mistakes", Map.of("amount", 1)).json().path("id").asString();
        SopApi.Response cursor = api.get("/sop/mistakes/" + id + "/history?cursor=zzz");
        assertThat(cursor.status()).isEqualTo(400);
        assertThat(cursor.json().path("error").asString()).isEqualTo("invalid_parameter");
        for (Object expiry : List.of(Map.of("a", 1), "+1000000000-12-31T23:59:59.999999999Z")) {
            SopApi.Response token = api.post("/workspace/tokens", Map.of("name", "odd-expiry", "expires_at", expiry));
            assertThat(token.status()).as("expires_at %s", expiry).isEqualTo(422);
        }
        SopApi.Response webhook = api.post("/workspace/webhooks", Map.of("url", "http://93.184.216.34/x", "events", List.of(Map.of())));
        assertThat(webhook.status()).isEqualTo(422);
    }

    @Test
    void shouldOpenOnlyTheTriggerAndCallbackRoutesToCallsWithoutAToken() {
        SopApi anonymous = api().withToken(null);
        String id = "01JZZZZZZZZZZZZZZZZZZZZZZZ";
        // Under the open prefixes, what is not a trigger or a callback needs a token like any other route.
        assertThat(anonymous.post("/sop/webhooks/" + id + "/steps/form1/submit", Map.of("outputs", Map.of())).status()).isEqualTo(401);
        assertThat(anonymous.post("/sop/webhooks/" + id + "/cancel", Map.of()).status()).isEqualTo(401);
        assertThat(anonymous.get("/sop/webhooks/" + id).status()).isEqualTo(401);
        assertThat(anonymous.get("/sop/triggers/" + id + "/history").status()).isEqualTo(401);
        // The routes themselves still need none.
        assertThat(anonymous.post("/sop/webhooks/" + id, Map.of()).status()).isEqualTo(404);
        assertThat(anonymous.post("/sop/triggers/no-such-process", Map.of()).status()).isEqualTo(404);
    }

    @org.springframework.beans.factory.annotation.Autowired
    org.springframework.boot.web.server.context.WebServerApplicationContext server;

    @Test
    void shouldHoldNoMoreConnectionsAtOnceThanTheHeapCanCarry() {
        org.apache.catalina.connector.Connector connector =
                ((org.springframework.boot.tomcat.TomcatWebServer) server.getWebServer()).getTomcat().getConnector();

        assertThat(connector.getProperty("maxConnections")).isEqualTo(dev.sopline.gateway.config.TomcatConfig.MAX_CONNECTIONS);
        // and one client no more than a sixth of them (ClientLimitedNioProtocolTest shows the limit at work)
        assertThat(connector.getProtocolHandler()).isInstanceOfSatisfying(dev.sopline.gateway.web.ClientLimitedNioProtocol.class,
                protocol -> assertThat(protocol.getMaxConnectionsPerClient()).isEqualTo(500));
    }

    @Test
    void shouldAnswer413AsSoonAsAChunkedBodyPassesTheLimitWithoutWaitingForItsEnd() {
        try (RawHttp http = new RawHttp(port)) {
            http.head("POST /sop/review/start HTTP/1.1", "X-SOP-Token: " + TOKEN, "Content-Type: application/json",
                    "Transfer-Encoding: chunked");
            byte[] chunk = chunk(64 * 1024);
            // 1.5 MiB, and never the last chunk: only a server that counts the bytes it reads can answer.
            for (int sent = 0; sent < 24 && http.trySend(chunk); sent++) {
                // keeps sending until the server answers and closes, or 1.5 MiB are out
            }
            RawHttp.Answer answer = http.answer();
            assertThat(answer.status()).isEqualTo(413);
            assertThat(answer.body()).contains("\"error\":\"payload_too_large\"");
        }
    }

    @Test
    void shouldAnswer408WhenTheBodyDoesNotArriveWithinTheReadTimeout() {
        try (RawHttp http = new RawHttp(port)) {
            long started = System.nanoTime();
            RawHttp.Answer answer = http.head("POST /sop/triggers/onboarding HTTP/1.1", "Content-Type: application/json",
                    "Content-Length: 100").send("{\"email\":").answer();
            assertThat(answer.status()).isEqualTo(408);
            assertThat(answer.body()).contains("\"error\":\"request_timeout\"");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
        }
    }

    @Test
    void shouldReadABodyWhoseRestArrivesAfterItsFirstBytesWhole() throws Exception {
        String body = "{\"name\":\"split-body-token\"}";
        try (RawHttp http = new RawHttp(port)) {
            // The head and the first bytes in one write, so they arrive together and are read at once; the rest comes
            // later and is read as it arrives.
            http.send("POST /workspace/tokens HTTP/1.1\r\nHost: localhost\r\nX-SOP-Token: " + TOKEN
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length() + "\r\nConnection: close\r\n\r\n"
                    + body.substring(0, 10));
            TimeUnit.MILLISECONDS.sleep(300);
            RawHttp.Answer answer = http.send(body.substring(10)).answer();
            assertThat(answer.status()).as(answer.body()).isEqualTo(201);
            assertThat(answer.body()).contains("\"name\":\"split-body-token\"");
        }
    }

    @org.springframework.beans.factory.annotation.Autowired
    dev.sopline.gateway.web.RequestBodyFilter bodies;

    @Test
    void shouldReleaseABodysBytesWhenItsHandlerHoldsTheRequestAfterTheBodyArrived() throws Exception {
        SopApi api = api();
        assertThat(api.register("""
                engine: "0.1"
                process:
                  name: held-after-its-body
                  version: "1.0"
                  steps:
                    - id: compute
                      type: automated
                      run: held-after-its-body.compute
                      outputs:
                        - name: total
                """).status()).isEqualTo(201);
        String id = api.start("held-after-its-body", Map.of()).json().path("id").asString();
        String body = "{\"note\":\"a body a read ignores\"}";
        try (RawHttp http = new RawHttp(port)) {
            // The rest of the body comes later, so the request is dispatched again once it is in; there the read is held
            // (nobody works on the step, so the instance stays running for the wait), a second async cycle.
            http.send("GET /sop/held-after-its-body/" + id + "?wait=1 HTTP/1.1\r\nHost: localhost\r\nX-SOP-Token: " + TOKEN
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length() + "\r\nConnection: close\r\n\r\n"
                    + body.substring(0, 10));
            TimeUnit.MILLISECONDS.sleep(300);
            RawHttp.Answer answer = http.send(body.substring(10)).answer();
            assertThat(answer.status()).as(answer.body()).isEqualTo(200);
            assertThat(answer.body()).as("held, not answered at once").containsAnyOf("\"state\":\"running\"", "\"state\":\"pending\"");
        }
        // Kept for good, the bytes of such requests filled the budget, and then every body was refused 503.
        await().atMost(Duration.ofSeconds(5)).until(() -> dev.sopline.gateway.web.BufferedBodies.held(bodies) == 0);
    }

    @Test
    void shouldRefuseAMultipartBodyAnywhereButTheProcessRegistrationAtOnceWithoutReadingIt() {
        // Open to anyone and to a trigger's sender, without a token; a JSON route, with one.
        for (String path : List.of("/x", "/sop/triggers/onboarding", "/sop/review/start")) {
            List<String> headers = new ArrayList<>(List.of("Content-Type: multipart/form-data; boundary=b", "Content-Length: 1000"));
            if (path.endsWith("/start")) {
                headers.add("X-SOP-Token: " + TOKEN);
            }
            try (RawHttp http = new RawHttp(port)) {
                long started = System.nanoTime();
                // The head alone, and the body never comes: an answer and a closed connection within the read timeout
                // (2 s here) did not wait for it. Read, it would hold a request thread as long.
                RawHttp.Answer answer = http.head("POST " + path + " HTTP/1.1", headers.toArray(String[]::new)).answer();
                http.awaitClose();
                assertThat(answer.status()).as(path).isEqualTo(415);
                assertThat(answer.body()).as(path).contains("\"error\":\"unsupported_media_type\"");
                assertThat(Duration.ofNanos(System.nanoTime() - started)).as(path).isLessThan(Duration.ofSeconds(2));
            }
        }
    }

    @Test
    void shouldCloseTheConnectionOfARequestRefusedBeforeItsBodyWithoutWaitingForTheBody() {
        // Refused before anyone reads the body: by the token check (no token), by the token's role, by the path's
        // check, and for its declared size. The head alone, and the body never comes: the answer and the closed
        // connection come within the read timeout (2 s here). Were the rest of the body read after the answer, it
        // would hold a request thread that long.
        String viewer = api().post("/workspace/tokens", Map.of("name", "refused-unread", "role", "viewer")).json().path("token").asString();
        record Refused(String path, String length, String token, int status) {}
        for (Refused refused : List.of(new Refused("/sop/review/start", "1000", null, 401),
                new Refused("/sop/processes/register", "1000", null, 401),
                new Refused("/sop/review/start", "1000", viewer, 403),
                new Refused("/sop;x/review/start", "1000", TOKEN, 400),
                new Refused("/sop/review/start", "2000000", TOKEN, 413))) {
            List<String> headers = new ArrayList<>(List.of("Content-Type: application/json", "Content-Length: " + refused.length()));
            if (refused.token() != null) {
                headers.add("X-SOP-Token: " + refused.token());
            }
            try (RawHttp http = new RawHttp(port)) {
                long started = System.nanoTime();
                RawHttp.Answer answer = http.head("POST " + refused.path() + " HTTP/1.1", headers.toArray(String[]::new)).answer();
                http.awaitClose();
                assertThat(answer.status()).as(refused.toString()).isEqualTo(refused.status());
                assertThat(Duration.ofNanos(System.nanoTime() - started)).as(refused.toString()).isLessThan(Duration.ofSeconds(2));
            }
        }
    }

    @Test
    void shouldKeepTheConnectionOfARequestRefusedWhoseBodyCameWhole() {
        // A client without a usable token that sent its whole body with its head: the body is read, the answer clean,
        // the connection kept for the next request. (A body still on its way when the token is refused is not waited
        // for: that connection is closed, as the test above shows.)
        String body = "{\"inputs\":{}}";
        try (RawHttp http = new RawHttp(port)) {
            RawHttp.Answer refused = http.whole("POST /sop/review/start HTTP/1.1", body, "Content-Type: application/json",
                    "Content-Length: " + body.length()).answer();
            assertThat(refused.status()).isEqualTo(401);
            assertThat(refused.head()).doesNotContainIgnoringCase("Connection: close");

            RawHttp.Answer next = http.head("GET /actuator/health HTTP/1.1").answer();
            assertThat(next.status()).as("answered on the same connection").isEqualTo(200);
        }
    }

    @Test
    void shouldKeepAnsweringOtherClientsWhileManyConnectionsTrickleTheirBodies() throws Exception {
        List<RawHttp> slow = new ArrayList<>();
        await().atMost(Duration.ofSeconds(60)).until(() -> api().withToken(null).get("/actuator/health").status() == 200);
        try {
            // More slow bodies than Tomcat has request threads (200): read blocking, they would take every one.
            for (int i = 0; i < 250; i++) {
                slow.add(new RawHttp(port).head("POST /sop/triggers/onboarding HTTP/1.1", "Content-Type: application/json",
                        "Content-Length: 1000").send("{"));
            }
            SopApi api = api();
            long slowest = 0;
            for (int round = 0; round < 8; round++) {
                slow.forEach(connection -> connection.trySend(" ".getBytes(StandardCharsets.UTF_8)));
                long started = System.nanoTime();
                assertThat(api.get("/sop/").status()).isEqualTo(200);
                SopApi.Response health = api.withToken(null).get("/actuator/health");
                assertThat(health.status()).as(health.body()).isEqualTo(200);
                slowest = Math.max(slowest, System.nanoTime() - started);
                TimeUnit.MILLISECONDS.sleep(100);
            }
            assertThat(Duration.ofNanos(slowest)).isLessThan(Duration.ofSeconds(1));
        } finally {
            slow.forEach(RawHttp::close);
        }
    }

    private static byte[] chunk(int size) {
        String header = Integer.toHexString(size) + "\r\n";
        byte[] bytes = new byte[header.length() + size + 2];
        System.arraycopy(header.getBytes(StandardCharsets.US_ASCII), 0, bytes, 0, header.length());
        java.util.Arrays.fill(bytes, header.length(), header.length() + size, (byte) ' ');
        bytes[bytes.length - 2] = '\r';
        bytes[bytes.length - 1] = '\n';
        return bytes;
    }
}
