package dev.sopline.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class HttpWorkerIT {

    private final Platform platform = Platform.get();

    @Test
    void shouldResolveStepsThroughTheGatewayWhenRunningInHttpMode() {
        platform.register(Platform.oneStepProcess("over-http", "it.http"));
        SopWorker worker = SopWorker.builder().http(platform.baseUrl(), Platform.TOKEN)
                .handle("it.http", step -> Map.of("result", "n=" + step.input("n")))
                .start();
        try {
            String id = platform.start("over-http", Map.of("n", 7));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(platform.instance("over-http", id).path("state").asString()).isEqualTo("completed"));
            JsonNode step = platform.instance("over-http", id).path("steps").get(0);
            assertThat(step.path("outputs").path("result").asString()).isEqualTo("n=7");
        } finally {
            worker.close();
        }
    }

    @Test
    void shouldReportHandlerFailuresAsErrorsWhenRunningInHttpMode() {
        platform.register(Platform.oneStepProcess("over-http-failing", "it.http.failing"));
        SopWorker worker = SopWorker.builder().http(platform.baseUrl(), Platform.TOKEN)
                .handle("it.http.failing", step -> {
                    throw new StepFailure("not_today", "Refused");
                })
                .start();
        try {
            String id = platform.start("over-http-failing", Map.of("n", 1));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(platform.instance("over-http-failing", id).path("state").asString()).isEqualTo("failed"));
            assertThat(platform.instance("over-http-failing", id).path("error").path("code").asString()).isEqualTo("not_today");
        } finally {
            worker.close();
        }
    }
}
