package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.sopline.testing.SopApi;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** {@code GET /sop/metrics?window=} (CONTRACT section 9) and the engine's own metrics on {@code /actuator/prometheus}. */
class MetricsWindowIT extends GatewayTestBase {

    private static final String SIGN_OFF = """
            engine: "0.1"
            process:
              name: window-sign-off
              version: "1.0"
              steps:
                - id: sign
                  type: form
                  outputs:
                    - name: ok
            """;

    @Test
    void shouldAddWhatHappenedInTheWindowWhenOneIsAsked() {
        // given an instance started and completed
        SopApi api = api();
        assertThat(api.register(SIGN_OFF).status()).isIn(200, 201);
        String id = api.start("window-sign-off", Map.of()).json().path("id").asString();
        assertThat(api.submit("window-sign-off", id, "sign", Map.of("ok", "yes")).status()).isEqualTo(200);

        // when
        JsonNode windowed = await().atMost(Duration.ofSeconds(10)).until(() -> api.get("/sop/metrics?window=1h").json(),
                body -> body.path("completed").asLong() >= 1);
        JsonNode plain = api.get("/sop/metrics").json();

        // then
        assertThat(windowed.path("window").asString()).isEqualTo("1h");
        assertThat(windowed.path("started").asLong()).isPositive();
        assertThat(windowed.has("failed")).isTrue();
        assertThat(windowed.has("cancelled")).isTrue();
        assertThat(windowed.has("escalations")).isTrue();
        assertThat(windowed.path("duration_ms").path("p50").isNumber()).isTrue();
        assertThat(windowed.path("duration_ms").path("p95").isNumber()).isTrue();
        assertThat(windowed.path("duration_ms").path("max").asLong())
                .isGreaterThanOrEqualTo(windowed.path("duration_ms").path("p95").asLong());
        assertThat(windowed.path("instances").path("completed").asLong()).isPositive();
        assertThat(plain.has("window")).isFalse();
        assertThat(plain.has("started")).isFalse();
    }

    @Test
    void shouldRefuseAWindowOutsideOneMinuteToThirtyDays() {
        for (String window : new String[] {"30s", "31d", "soon", "", "-1h"}) {
            SopApi.Response response = api().get("/sop/metrics?window=" + window);

            assertThat(response.status()).as(window).isEqualTo(400);
            assertThat(response.json().path("error").asString()).isEqualTo("invalid_request");
            assertThat(response.json().path("details").get(0).path("field").asString()).isEqualTo("window");
        }
    }

    @Test
    void shouldShowTheEnginesCommandsToPrometheus() {
        // given
        SopApi api = api();
        api.register(SIGN_OFF);
        assertThat(api.start("window-sign-off", Map.of()).status()).isEqualTo(201);

        // when
        String scrape = api.get("/actuator/prometheus").body();

        // then
        assertThat(scrape).containsPattern("sop_engine_commands_total\\{[^}]*outcome=\"accepted\"[^}]*type=\"start_instance\"");
        assertThat(scrape).contains("sop_engine_decision_seconds");
        assertThat(scrape).contains("sop_engine_instances{");
        assertThat(scrape).contains("sop_engine_steps_pending{");
        assertThat(scrape).contains("kafka_stream");
    }
}
