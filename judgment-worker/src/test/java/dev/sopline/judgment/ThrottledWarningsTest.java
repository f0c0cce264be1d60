package dev.sopline.judgment;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.sopline.testing.CapturedLog;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class ThrottledWarningsTest {

    private final AtomicLong now = new AtomicLong();
    private final ThrottledWarnings warnings = new ThrottledWarnings(LoggerFactory.getLogger(ThrottledWarningsTest.class), now::get);

    @Test
    void shouldWarnOncePerMinutePerKindAndCountTheWarningsLeftOut() {
        try (CapturedLog log = CapturedLog.of(ThrottledWarningsTest.class)) {
            for (int i = 0; i < 5; i++) {
                warnings.warn("timeout", "the model did not answer");
                now.addAndGet(Duration.ofSeconds(10).toNanos());
            }
            warnings.warn("refused", "the model refused the key");
            now.addAndGet(Duration.ofSeconds(20).toNanos());
            warnings.warn("timeout", "the model did not answer");

            assertThat(log.messagesAtLeast(Level.WARN)).containsExactly(
                    "the model did not answer",
                    "the model refused the key",
                    "the model did not answer (4 more like this in the last minute were not logged)");
        }
    }
}
