package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.gateway.auth.Role;
import dev.sopline.gateway.auth.TokenIds;
import dev.sopline.gateway.auth.TokenRecord;
import dev.sopline.gateway.it.WorkspaceIsolationIT.Workspace;
import java.time.Instant;
import dev.sopline.testing.SopApi;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * What one workspace may hold of the things every gateway replica keeps in memory (tokens, webhooks), how the token
 * list pages (CONTRACT section 3), and cursors no page gave.
 */
class WorkspaceBoundsIT extends GatewayTestBase {

    private static final Pattern NEXT = Pattern.compile("<([^>]+)>; rel=\"next\"");

    @Test
    void shouldRefuseTheWebhookPastTwentyInAWorkspaceUntilOneIsDeleted() {
        Workspace workspace = WorkspaceIsolationIT.createWorkspace(this, "hooks");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            SopApi.Response created = workspace.admin().post("/workspace/webhooks", Map.of("url", "http://93.184.216.34/hook/" + i));
            assertThat(created.status()).as(created.body()).isEqualTo(201);
            ids.add(created.json().path("id").asString());
        }

        SopApi.Response refused = workspace.admin().post("/workspace/webhooks", Map.of("url", "http://93.184.216.34/hook/20"));

        assertThat(refused.status()).isEqualTo(422);
        assertThat(refused.json().path("error").asString()).isEqualTo("invalid_request");
        assertThat(refused.json().path("details").get(0).path("code").asString()).isEqualTo("limit_reached");
        assertThat(refused.json().path("message").asString()).contains("at most 20 webhooks");
        assertThat(workspace.admin().get("/workspace/webhooks").json().size()).isEqualTo(20);
        // Another workspace is not held back by this one's.
        SopApi other = WorkspaceIsolationIT.createWorkspace(this, "other-hooks").admin();
        assertThat(other.post("/workspace/webhooks", Map.of("url", "http://93.184.216.34/other")).status()).isEqualTo(201);
        assertThat(workspace.admin().delete("/workspace/webhooks/" + ids.get(0)).status()).isEqualTo(204);
        assertThat(workspace.admin().post("/workspace/webhooks", Map.of("url", "http://93.184.216.34/hook/20")).status()).isEqualTo(201);
    }

    @Test
    void shouldRefuseTheScheduledProcessPastTheLimitInAWorkspaceButNotOtherProcessesOrNewVersions() throws Exception {
        SopApi admin = WorkspaceIsolationIT.createWorkspace(this, "schedules").admin();
        // SOP_MAX_SCHEDULED_PROCESSES is 10 here (GatewayTestBase)
        List<Integer> statuses = inParallel(10, i -> admin.register(scheduled("nightly-" + i, "1.0", "@daily")).status());
        assertThat(statuses).containsOnly(201);

        SopApi.Response refused = admin.register(scheduled("nightly-10", "1.0", "@daily"));

        assertThat(refused.status()).as(refused.body()).isEqualTo(422);
        assertThat(refused.json().path("error").asString()).isEqualTo("invalid_request");
        assertThat(refused.json().path("details").get(0).path("code").asString()).isEqualTo("limit_reached");
        assertThat(refused.json().path("message").asString()).contains("at most 10 processes with a schedule");
        assertThat(admin.get("/sop/").json().size()).isEqualTo(10);
        assertThat(admin.register(scheduled("nightly-7", "2.0", "@hourly")).status()).as("a new version of a scheduled process").isEqualTo(201);
        assertThat(admin.register("""
                engine: "0.1"
                process:
                  name: by-hand
                  version: "1.0"
                  steps:
                    - id: report
                      type: form
                """).status()).as("a process without a schedule").isEqualTo(201);
        SopApi other = WorkspaceIsolationIT.createWorkspace(this, "other-schedules").admin();
        assertThat(other.register(scheduled("nightly-10", "1.0", "@daily")).status()).isEqualTo(201);
    }

    private static String scheduled(String name, String version, String cron) {
        return """
                engine: "0.1"
                process:
                  name: %s
                  version: "%s"
                  trigger:
                    type: schedule
                    cron: "%s"
                  steps:
                    - id: report
                      type: form
                """.formatted(name, version, cron);
    }

    @Test
    void shouldEndAPageOfLargeInstancesOrStepsAtAMebibyteAndReachEveryOneByItsLinks() {
        SopApi admin = WorkspaceIsolationIT.createWorkspace(this, "large").admin();
        assertThat(admin.register("""
                engine: "0.1"
                process:
                  name: large
                  version: "1.0"
                  inputs:
                    - name: document
                  steps:
                    - id: read
                      type: form
                      inputs:
                        document: "${inputs.document}"
                      outputs:
                        - name: done
                """).status()).isEqualTo(201);
        List<String> started = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            // About 100 KiB of data each: a mebibyte holds about ten.
            SopApi.Response start = admin.start("large", Map.of("document", String.valueOf(i).repeat(100 * 1024)));
            assertThat(start.status()).as(start.body()).isEqualTo(201);
            started.add(start.json().path("id").asString());
        }

        SopApi.Response firstPage = admin.get("/sop/instances?limit=500");
        List<String> instances = allPages(admin, "/sop/instances?limit=500");
        SopApi.Response firstSteps = admin.get("/sop/steps/pending?limit=500");
        List<String> steps = allPages(admin, "/sop/steps/pending?limit=500", "instance_id");

        assertThat(firstPage.json().size()).as("instances on the first page of 500").isBetween(1, 11);
        assertThat(firstPage.header("Link")).contains("rel=\"next\"");
        assertThat(instances).containsExactlyInAnyOrderElementsOf(started).doesNotHaveDuplicates();
        assertThat(firstSteps.json().size()).as("steps on the first page of 500").isBetween(1, 11);
        assertThat(steps).containsExactlyInAnyOrderElementsOf(started).doesNotHaveDuplicates();
        // An instance's page asks for its own steps alone, however far down the feed they are.
        SopApi.Response own = admin.get("/sop/steps/pending?instance_id=" + started.get(11));
        assertThat(SopApi.texts(own.json(), "instance_id")).containsExactly(started.get(11));
    }

    @Test
    void shouldLetNoMoreThanTwentyWebhooksThroughWhenAskedAllAtOnce() throws Exception {
        SopApi admin = WorkspaceIsolationIT.createWorkspace(this, "burst").admin();

        List<Integer> statuses = inParallel(48, i -> admin.post("/workspace/webhooks", Map.of("url", "http://93.184.216.34/burst/" + i)).status());

        assertThat(statuses).filteredOn(status -> status == 201).hasSize(20);
        assertThat(statuses).filteredOn(status -> status == 422).hasSize(28);
        assertThat(admin.get("/workspace/webhooks").json().size()).isEqualTo(20);
    }

    @Test
    void shouldRefuseATokenOnceTheWorkspaceHoldsFiveThousandRecordsEndedOnesIncluded() throws Exception {
        Workspace workspace = WorkspaceIsolationIT.createWorkspace(this, "churn");
        Instant now = Instant.now();
        // As a loop of tokens made and revoked, or made to expire at once, leaves them: held until forgotten.
        inParallel(4_999, i -> {
            tokens.save(new TokenRecord(TokenIds.next(), workspace.name(), "churned-" + i, "%064x".formatted(i), now, null, now, Role.WORKER));
            return i;
        });

        SopApi.Response refused = workspace.admin().post("/workspace/tokens", Map.of("name", "one-more"));

        assertThat(refused.status()).isEqualTo(422);
        assertThat(refused.json().path("details").get(0).path("code").asString()).isEqualTo("limit_reached");
        assertThat(refused.json().path("message").asString()).contains("at most 5000 tokens");
        assertThat(SopApi.texts(workspace.admin().get("/workspace/tokens").json(), "id")).hasSize(1);
    }

    @Test
    void shouldRefuseAWebhookUrlOrSecretTooLongToStore() {
        SopApi.Response longUrl = api().post("/workspace/webhooks", Map.of("url", "http://93.184.216.34/" + "a".repeat(600_000)));
        SopApi.Response longSecret = api().post("/workspace/webhooks", Map.of("url", "http://93.184.216.34/x", "secret", "s".repeat(600_000)));

        assertThat(longUrl.status()).isEqualTo(422);
        assertThat(longUrl.json().path("error").asString()).isEqualTo("invalid_webhook_url");
        assertThat(longUrl.json().path("details").get(0).path("code").asString()).isEqualTo("too_large");
        assertThat(longSecret.status()).isEqualTo(422);
        assertThat(longSecret.json().path("details").get(0).path("field").asString()).isEqualTo("secret");
    }

    @Test
    void shouldPageTheTokenListAndRefuseTheTokenPastAThousandActiveOnes() throws Exception {
        Workspace workspace = WorkspaceIsolationIT.createWorkspace(this, "tokens");
        SopApi admin = workspace.admin();
        // The workspace's first admin token, 989 stored as token creation stores them, and ten made through the API.
        Instant now = Instant.now();
        List<String> made = new ArrayList<>(inParallel(989, i -> {
            TokenRecord record = new TokenRecord(TokenIds.next(), workspace.name(), "worker-" + i, "%064x".formatted(i), now, null, null, Role.WORKER);
            tokens.save(record);
            return record.id();
        }));
        for (int i = 0; i < 10; i++) {
            SopApi.Response created = admin.post("/workspace/tokens", Map.of("name", "made-" + i, "role", "worker"));
            assertThat(created.status()).as(created.body()).isEqualTo(201);
            made.add(created.json().path("id").asString());
        }

        SopApi.Response refused = admin.post("/workspace/tokens", Map.of("name", "one-too-many"));

        assertThat(refused.status()).isEqualTo(422);
        assertThat(refused.json().path("details").get(0).path("code").asString()).isEqualTo("limit_reached");
        assertThat(refused.json().path("message").asString()).contains("at most 1000 active tokens");
        List<String> listed = allPages(admin, "/workspace/tokens?limit=300");
        assertThat(listed).hasSize(1000).doesNotHaveDuplicates().containsAll(made);
        assertThat(listed).isSorted();
        // Revoking one makes room for one.
        assertThat(admin.delete("/workspace/tokens/" + made.get(0)).status()).isEqualTo(204);
        assertThat(admin.post("/workspace/tokens", Map.of("name", "in-its-place")).status()).isEqualTo(201);
        assertThat(allPages(admin, "/workspace/tokens?limit=500")).hasSize(1000).doesNotContain(made.get(0));
    }

    @Test
    void shouldRefuseACursorNoPageGave() {
        for (String path : List.of("/sop/instances?cursor=zzz", "/sop/instances?cursor=01JZZZZZZZZZZZZZZZZZZZZZZZ%7C",
                "/sop/steps/pending?cursor=~~~", "/sop/steps/pending?cursor=01JZZZZZZZZZZZZZZZZZZZZZZZ",
                "/workspace/tokens?cursor=zzz", "/workspace/tokens?cursor=tok_")) {
            SopApi.Response answer = api().get(path);
            assertThat(answer.status()).as(path).isEqualTo(400);
            assertThat(answer.json().path("error").asString()).as(path).isEqualTo("invalid_parameter");
        }
    }

    /** Runs {@code task} for 0 to count - 1 on eight threads; its answers in that order. */
    private static <T> List<T> inParallel(int count, java.util.function.IntFunction<T> task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<T>> futures = IntStream.range(0, count).mapToObj(i -> pool.submit(() -> task.apply(i))).toList();
            List<T> answers = new ArrayList<>();
            for (Future<T> future : futures) {
                answers.add(future.get());
            }
            return answers;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Follows the {@code Link: rel="next"} headers from the first page to the last, collecting the ids. */
    private List<String> allPages(SopApi admin, String first) {
        return allPages(admin, first, "id");
    }

    private List<String> allPages(SopApi admin, String first, String idField) {
        List<String> ids = new ArrayList<>();
        String path = first;
        while (path != null) {
            SopApi.Response page = admin.get(path);
            assertThat(page.status()).as(page.body()).isEqualTo(200);
            ids.addAll(SopApi.texts(page.json(), idField));
            String link = page.header("Link");
            Matcher next = link == null ? null : NEXT.matcher(link);
            path = next != null && next.find() ? next.group(1).substring(("http://localhost:" + port).length()) : null;
        }
        return ids;
    }
}
