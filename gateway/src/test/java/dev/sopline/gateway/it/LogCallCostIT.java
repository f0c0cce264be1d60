package dev.sopline.gateway.it;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import dev.sopline.testing.SopApi;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A log call below the logger's level costs one level check on every thread of the platform: no turbo filter (such as
 * Micrometer's counter of log events) runs in front of it. The Kafka clients and the broker make thousands of such
 * calls a second under load.
 */
class LogCallCostIT extends GatewayTestBase {

    @Test
    void shouldRunNoTurboFilterInFrontOfLogCalls() {
        LoggerContext logging = (LoggerContext) LoggerFactory.getILoggerFactory();

        assertThat(logging.getTurboFilterList()).as("turbo filters of the gateway's logging").isEmpty();
    }

    @Test
    void shouldServeTheMetricsScrapeWithoutALogEventCounter() {
        SopApi.Response scrape = api().get("/actuator/prometheus");

        assertThat(scrape.status()).isEqualTo(200);
        assertThat(scrape.body()).contains("jvm_memory_used_bytes").doesNotContain("logback_events");
    }
}
