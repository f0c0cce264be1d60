package dev.sopline.judgment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.testing.SharedKafka;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** The judgment worker as its own service: what its health endpoint, which orchestrators poll, answers. */
class JudgmentWorkerApplicationIT {

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void shouldAnswerDownOnceTheWorkerHasStoppedTakingSteps() throws Exception {
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(JudgmentWorkerApplication.class)
                .properties("spring.config.name=judgment-worker")
                .run("--server.port=0", "--KAFKA_BOOTSTRAP_SERVERS=" + SharedKafka.bootstrapServers(), "--SOP_JUDGMENT_CONCURRENCY=1",
                        // A chat provider, so no model loads; no step reaches it here.
                        "--SOP_LLM_PROVIDER=openai", "--SOP_LLM_BASE_URL=http://localhost:9/v1")) {
            assertThat(LoggerFactory.getLogger("dev.langchain4j.internal.RetryUtils").isWarnEnabled())
                    .as("langchain4j's retry warnings, which quote the provider's answer, are left to the worker's own").isFalse();
            URI health = URI.create("http://localhost:" + app.getEnvironment().getProperty("local.server.port") + "/actuator/health");
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(get(health).statusCode()).isEqualTo(200));

            // What a Kafka error the worker cannot recover from, or a fence, does: its thread ends, the service runs on.
            app.getBean(JudgmentWorkerApplication.RunningJudgmentWorker.class).current().close();

            HttpResponse<String> down = get(health);
            assertThat(down.statusCode()).isEqualTo(503);
            assertThat(down.body()).contains("DOWN");
        }
    }

    @Test
    void shouldJoinAsADynamicMemberAndKeepNoIdWithoutADataDirectory() throws Exception {
        try (ConfigurableApplicationContext app = start()) {
            await().atMost(Duration.ofSeconds(30)).until(() -> dynamicMembers() > 0);
            assertThat(Path.of(JudgmentWorker.MEMBER_ID_FILE)).doesNotExist();
            assertThat(Path.of("data", JudgmentWorker.MEMBER_ID_FILE)).doesNotExist();
        }
    }

    @Test
    void shouldRejoinAsTheMemberKeptInItsDataDirectory(@TempDir Path dataDir) throws Exception {
        String kept;
        try (ConfigurableApplicationContext app = start("--SOP_DATA_DIR=" + dataDir)) {
            kept = Files.readString(dataDir.resolve(JudgmentWorker.MEMBER_ID_FILE)).strip();
            await().atMost(Duration.ofSeconds(30)).until(() -> members().contains(kept));
        }
        try (ConfigurableApplicationContext again = start("--SOP_DATA_DIR=" + dataDir)) {
            assertThat(Files.readString(dataDir.resolve(JudgmentWorker.MEMBER_ID_FILE)).strip()).isEqualTo(kept);
            URI health = URI.create("http://localhost:" + again.getEnvironment().getProperty("local.server.port") + "/actuator/health");
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(get(health).statusCode()).isEqualTo(200));
            // The same member, not a second one beside it: after a crash, no dead self's session to wait out.
            assertThat(members()).containsOnlyOnce(kept);
        }
    }

    private static ConfigurableApplicationContext start(String... more) {
        List<String> args = new ArrayList<>(List.of("--server.port=0", "--KAFKA_BOOTSTRAP_SERVERS=" + SharedKafka.bootstrapServers(),
                "--SOP_JUDGMENT_CONCURRENCY=1", "--SOP_LLM_PROVIDER=openai", "--SOP_LLM_BASE_URL=http://localhost:9/v1"));
        args.addAll(List.of(more));
        return new SpringApplicationBuilder(JudgmentWorkerApplication.class).properties("spring.config.name=judgment-worker")
                .run(args.toArray(String[]::new));
    }

    /** How many members of the judgment group joined without a static id. */
    private static long dynamicMembers() throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", SharedKafka.bootstrapServers()))) {
            return admin.describeConsumerGroups(List.of(JudgmentWorker.GROUP)).all().get().get(JudgmentWorker.GROUP).members().stream()
                    .filter(member -> member.groupInstanceId().isEmpty()).count();
        }
    }

    /** The static member ids of the judgment group. */
    private static List<String> members() throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", SharedKafka.bootstrapServers()))) {
            return admin.describeConsumerGroups(List.of(JudgmentWorker.GROUP)).all().get().get(JudgmentWorker.GROUP).members().stream()
                    .flatMap(member -> member.groupInstanceId().stream()).toList();
        }
    }

    private HttpResponse<String> get(URI uri) throws Exception {
        return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    }
}
