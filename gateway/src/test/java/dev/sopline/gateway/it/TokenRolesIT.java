package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.testing.SopApi;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What each token role may call, how long a new token may live, and how guessing is slowed (CONTRACT section 8). */
class TokenRolesIT extends GatewayTestBase {

    private static final List<String> ROLES = List.of("viewer", "worker", "operator", "admin");

    private SopApi admin;

    @BeforeEach
    void registerProcess() {
        admin = api();
        assertThat(admin.register(GatewayApiIT.REVIEW).status()).isEqualTo(201);
    }

    /** One call, and the least role that may make it. */
    private record Call(String name, String leastRole, Function<SopApi, SopApi.Response> send) {}

    private static final List<Call> CALLS = List.of(
            new Call("list processes", "viewer", api -> api.get("/sop/")),
            new Call("list instances", "viewer", api -> api.get("/sop/instances")),
            new Call("read metrics", "viewer", api -> api.get("/sop/metrics")),
            new Call("read the calling token", "viewer", api -> api.get("/sop/token")),
            new Call("read the pending feed", "viewer", api -> api.get("/sop/steps/pending")),
            new Call("submit a step", "worker", api -> api.submit("review", "01JZZZZZZZZZZZZZZZZZZZZZZZ", "read", Map.of("verdict", "accept"))),
            new Call("start an instance", "operator", api -> api.start("review", Map.of("title", "roles"))),
            new Call("cancel an instance", "operator", api -> api.post("/sop/review/01JZZZZZZZZZZZZZZZZZZZZZZZ/cancel", Map.of())),
            new Call("register a process", "operator", api -> api.register(GatewayApiIT.REVIEW)),
            new Call("list tokens", "admin", api -> api.get("/workspace/tokens")),
            new Call("create a token", "admin", api -> api.post("/workspace/tokens", Map.of("name", "made-by-role-test"))),
            new Call("list webhooks", "admin", api -> api.get("/workspace/webhooks")),
            new Call("revoke a token", "admin", api -> api.delete("/workspace/tokens/tok_unknown")));

    @Test
    void shouldAllowEachRoleItsCallsAndRefuseTheOthersWith403() {
        Map<String, SopApi> byRole = new LinkedHashMap<>();
        for (String role : ROLES) {
            SopApi.Response created = admin.post("/workspace/tokens", Map.of("name", "role-" + role, "role", role));
            assertThat(created.status()).isEqualTo(201);
            assertThat(created.json().path("role").asString()).isEqualTo(role);
            byRole.put(role, admin.withToken(created.json().path("token").asString()));
        }
        List<String> wrong = new ArrayList<>();
        for (Call call : CALLS) {
            for (String role : ROLES) {
                SopApi.Response response = call.send().apply(byRole.get(role));
                boolean allowed = ROLES.indexOf(role) >= ROLES.indexOf(call.leastRole());
                if (allowed ? response.status() == 403 : response.status() != 403) {
                    wrong.add("%s as %s answered %d".formatted(call.name(), role, response.status()));
                } else if (!allowed && !response.body().contains("\"error\":\"forbidden\"")) {
                    wrong.add("%s as %s answered %s".formatted(call.name(), role, response.body()));
                }
            }
        }
        assertThat(wrong).isEmpty();
    }

    /** The callback URL resolves its step without a token: only roles that may resolve steps are shown it. */
    @Test
    void shouldShowAWebhookStepsCallbackOnlyToTokensThatMayResolveSteps() throws Exception {
        WorkspaceIsolationIT.Workspace workspace = WorkspaceIsolationIT.createWorkspace(this, "callbacks");
        assertThat(workspace.admin().register(GatewayApiIT.IDENTITY).status()).isEqualTo(201);
        String viewerToken = workspace.admin().post("/workspace/tokens", Map.of("name", "viewer", "role", "viewer")).json().path("token").asString();
        String workerToken = workspace.admin().post("/workspace/tokens", Map.of("name", "worker", "role", "worker")).json().path("token").asString();
        SopApi viewer = admin.withToken(viewerToken);
        SopApi worker = admin.withToken(workerToken);
        List<String> viewerStream = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<String> workerStream = new java.util.concurrent.CopyOnWriteArrayList<>();
        WorkspaceIsolationIT.follow(port, "/sop/events", new WorkspaceIsolationIT.Workspace(workspace.name(), viewerToken, viewer), viewerStream);
        WorkspaceIsolationIT.follow(port, "/sop/events", new WorkspaceIsolationIT.Workspace(workspace.name(), workerToken, worker), workerStream);

        String id = workspace.admin().start("identity-check", Map.of()).json().path("id").asString();
        String callbackUrl = worker.get("/sop/identity-check/" + id + "/steps").json().get(0).path("callback_url").asString();
        String callbackId = callbackUrl.substring(callbackUrl.lastIndexOf('/') + 1);

        assertThat(callbackUrl).isEqualTo("http://localhost:" + port + "/sop/webhooks/" + callbackId);
        for (String path : List.of("/sop/identity-check/" + id, "/sop/identity-check/" + id + "/steps", "/sop/steps/pending")) {
            assertThat(worker.get(path).body()).as(path).contains("\"callback_url\":\"" + callbackUrl + "\"");
            SopApi.Response asViewer = viewer.get(path);
            assertThat(asViewer.status()).as(path).isEqualTo(200);
            assertThat(asViewer.body()).as(path).contains("\"verify\"").doesNotContain("callback_url").doesNotContain(callbackId);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> String.join("\n", workerStream).contains(callbackId));
        // the step's change to active, and the instance's to waiting, which lists its steps
        await().atMost(Duration.ofSeconds(10)).until(() -> String.join("\n", viewerStream).contains("\"id\":\"verify\"")
                && String.join("\n", viewerStream).contains("\"to\":\"waiting\""));
        assertThat(String.join("\n", viewerStream)).contains("\"subject\":\"" + id + "\"").doesNotContain(callbackId);
    }

    @Test
    void shouldGiveNewTokensTheOperatorRoleUnlessToldAndRefuseAnUnknownRole() {
        SopApi.Response created = admin.post("/workspace/tokens", Map.of("name", "no-role-given"));
        assertThat(created.json().path("role").asString()).isEqualTo("operator");
        assertThat(admin.get("/workspace/tokens").body()).contains("\"role\":\"operator\"");

        SopApi.Response unknown = admin.post("/workspace/tokens", Map.of("name", "bad-role", "role", "root"));
        assertThat(unknown.status()).isEqualTo(422);
        assertThat(unknown.json().path("error").asString()).isEqualTo("invalid_inputs");
        assertThat(unknown.json().path("details").get(0).path("field").asString()).isEqualTo("role");
    }

    @Test
    void shouldNotLetANewTokenOutliveTheTokenThatCreatedIt() {
        Instant creatorExpiry = Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS);
        SopApi.Response creator = admin.post("/workspace/tokens", Map.of("name", "short-lived-admin", "role", "admin",
                "expires_at", creatorExpiry.toString()));
        SopApi shortLived = admin.withToken(creator.json().path("token").asString());

        SopApi.Response forever = shortLived.post("/workspace/tokens", Map.of("name", "asked-forever"));
        SopApi.Response later = shortLived.post("/workspace/tokens", Map.of("name", "asked-later",
                "expires_at", creatorExpiry.plus(30, ChronoUnit.DAYS).toString()));
        Instant sooner = creatorExpiry.minus(10, ChronoUnit.MINUTES);
        SopApi.Response earlier = shortLived.post("/workspace/tokens", Map.of("name", "asked-sooner", "expires_at", sooner.toString()));

        assertThat(forever.status()).isEqualTo(201);
        assertThat(Instant.parse(forever.json().path("expires_at").asString())).isEqualTo(creatorExpiry);
        assertThat(Instant.parse(later.json().path("expires_at").asString())).isEqualTo(creatorExpiry);
        assertThat(Instant.parse(earlier.json().path("expires_at").asString())).isEqualTo(sooner);
    }

    @Test
    void shouldSlowDownTokenGuessingFromOneAddressButNotValidTokens() {
        SopApi guesser = admin.withToken("sop_guess");
        // Faster than the budget refills (20 a second), from several connections at once.
        List<SopApi.Response> answers = java.util.stream.IntStream.range(0, 200).parallel()
                .mapToObj(guess -> guesser.withToken("sop_guess_" + guess).get("/sop/")).toList();
        assertThat(answers).extracting(SopApi.Response::status).contains(401, 429).containsOnly(401, 429);
        SopApi.Response limited = answers.stream().filter(answer -> answer.status() == 429).findFirst().orElseThrow();
        assertThat(limited.header("Retry-After")).isNotNull();
        assertThat(limited.json().path("error").asString()).isEqualTo("rate_limited");

        assertThat(admin.get("/sop/").status()).as("a valid token keeps its own budget").isEqualTo(200);

        // The budget refills (20 a second): other tests from this address see plain 401s again.
        await().atMost(Duration.ofSeconds(10)).until(() -> guesser.get("/sop/").status() == 401);
    }

    @Test
    void shouldCountGuessesPerClientThatATrustedProxyForwards() {
        // GatewayTestBase trusts loopback as a reverse proxy: each forwarded address is a client of its own.
        SopApi guesser = admin.withToken("sop_guess_behind_proxy");
        Map<String, String> fromGuesser = Map.of("X-Forwarded-For", "203.0.113.50");
        List<Integer> statuses = java.util.stream.IntStream.range(0, 200).parallel()
                .mapToObj(guess -> guesser.withToken("sop_guess_" + guess).getWith("/sop/", fromGuesser).status()).toList();
        assertThat(statuses).contains(401, 429).containsOnly(401, 429);

        assertThat(guesser.getWith("/sop/", Map.of("X-Forwarded-For", "203.0.113.51")).status())
                .as("another client behind the same proxy, whose budget the guesser did not use").isEqualTo(401);
        assertThat(guesser.get("/sop/").status()).as("the proxy's own address").isEqualTo(401);
    }
}
