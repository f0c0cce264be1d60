package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.testing.SharedKafka;
import dev.sopline.testing.SopApi;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The repository's parallel example, {@code examples/account-opening.yaml}, over HTTP on the embedded broker: its
 * account branch is run by an SDK worker in Kafka mode, its identity branch by a third party's callback and then a
 * person. The identity branch finishes first while the worker is still busy, so the step after the block waits for the
 * slower branch, and starts only once both have completed.
 */
class ParallelExampleIT {

    private static final String PROCESS = "account-opening";

    @Test
    void shouldRunTheExamplesBranchesSideBySideAndJoinWhenTheSlowerOneCompletes() throws Exception {
        Platform platform = Platform.get();
        SopApi api = new SopApi(platform.baseUrl(), Platform.TOKEN);
        platform.register(Files.readString(Path.of("..", "examples", "account-opening.yaml")));
        CountDownLatch accountMayFinish = new CountDownLatch(1);
        CountDownLatch accountStarted = new CountDownLatch(1);

        try (SopWorker worker = SopWorker.builder().kafka(SharedKafka.bootstrapServers()).group("account-opening-it").workerId("accounts")
                .handle("accounts.create", step -> {
                    accountStarted.countDown();
                    accountMayFinish.await();
                    return Map.of("account_id", "acct-" + step.input("email"));
                })
                .start()) {
            String id = platform.start(PROCESS, Map.of("email", "ada@example.com", "country", "NL"));

            // Both branches start at once: the worker has the account step while the provider's callback is open.
            assertThat(accountStarted.await(60, java.util.concurrent.TimeUnit.SECONDS)).as("the worker got its step").isTrue();
            JsonNode provider = await().atMost(Duration.ofSeconds(30)).until(() -> step(api, id, "identity-provider"),
                    step -> step.path("callback_url").isString());
            assertThat(states(api, id)).containsExactly("create-account:active", "identity-provider:active",
                    "identity-review:pending", "activate:pending");

            String callback = provider.path("callback_url").asString();
            assertThat(api.withToken(null).post(callback.substring(callback.indexOf("/sop/webhooks/")), Map.of("status", "verified"))
                    .status()).isEqualTo(200);
            await().atMost(Duration.ofSeconds(30)).until(() -> "active".equals(step(api, id, "identity-review").path("state").asString()));
            assertThat(api.submit(PROCESS, id, "identity-review", Map.of("approved", "yes")).status()).isEqualTo(200);

            // The identity branch is done, the account branch is not: the step after the block waits for it.
            assertThat(states(api, id)).containsExactly("create-account:active", "identity-provider:completed",
                    "identity-review:completed", "activate:pending");

            accountMayFinish.countDown();
            await().atMost(Duration.ofSeconds(30)).until(() -> "active".equals(step(api, id, "activate").path("state").asString()));
            JsonNode activate = step(api, id, "activate");
            assertThat(api.submit(PROCESS, id, "activate", Map.of("active", true)).status()).isEqualTo(200);

            JsonNode instance = await().atMost(Duration.ofSeconds(30)).until(() -> platform.instance(PROCESS, id),
                    found -> "completed".equals(found.path("state").asString()));
            assertThat(instance.path("outputs").path("account_id").asString()).isEqualTo("acct-ada@example.com");
            assertThat(instance.path("outputs").path("active").asBoolean()).isTrue();
            assertThat(activate.path("block").isMissingNode()).as("the step after the block is outside it").isTrue();
        } finally {
            accountMayFinish.countDown();
        }
    }

    private static List<String> states(SopApi api, String id) {
        List<String> states = new ArrayList<>();
        for (JsonNode step : api.get("/sop/" + PROCESS + "/" + id + "/steps").json()) {
            states.add(step.path("id").asString() + ":" + step.path("state").asString());
        }
        return states;
    }

    private static JsonNode step(SopApi api, String id, String stepId) {
        for (JsonNode step : api.get("/sop/" + PROCESS + "/" + id + "/steps").json()) {
            if (step.path("id").asString().equals(stepId)) {
                return step;
            }
        }
        throw new AssertionError("no step " + stepId);
    }
}
