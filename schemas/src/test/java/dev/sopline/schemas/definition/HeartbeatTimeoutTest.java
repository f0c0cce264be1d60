package dev.sopline.schemas.definition;

import static dev.sopline.schemas.definition.ProcessFilesTest.violations;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.schemas.validation.Violation;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code heartbeat_timeout}: a duration, on an automated step that also has a {@code timeout}. */
class HeartbeatTimeoutTest {

    private static String file(String type, String extra) {
        return """
                engine: "0.1"
                process:
                  name: p
                  version: "1.0"
                  steps:
                    - id: a
                      type: %s
                      run: reports.build
                %s""".formatted(type, extra);
    }

    @Test
    void shouldAcceptAHeartbeatTimeoutOnAnAutomatedStepWithATimeout() {
        String yaml = file("automated", "      timeout: 5s\n      heartbeat_timeout: 30s\n");
        ProcessFiles.LoadResult result = ProcessFiles.load(yaml.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(result).isInstanceOf(ProcessFiles.Loaded.class);
        assertThat(((ProcessFiles.Loaded) result).file().process().steps().get(0).heartbeatTimeoutDuration()).contains(Duration.ofSeconds(30));
    }

    @Test
    void shouldRefuseAHeartbeatTimeoutThatIsNoDuration() {
        assertThat(violations(file("automated", "      timeout: 5s\n      heartbeat_timeout: soon\n")))
                .extracting(Violation::field, Violation::code).containsExactly(org.assertj.core.groups.Tuple.tuple("process.steps[0].heartbeat_timeout", "invalid_duration"));
    }

    @Test
    void shouldRefuseAHeartbeatTimeoutWithoutATimeoutToExtend() {
        assertThat(violations(file("automated", "      heartbeat_timeout: 30s\n")))
                .extracting(Violation::field, Violation::code).containsExactly(org.assertj.core.groups.Tuple.tuple("process.steps[0].timeout", "required"));
    }

    @Test
    void shouldRefuseAHeartbeatTimeoutOnAStepNoWorkerRuns() {
        List<Violation> violations = violations(file("form", "      timeout: 5s\n      heartbeat_timeout: 30s\n"));
        assertThat(violations).extracting(Violation::field).contains("process.steps[0].heartbeat_timeout");
    }
}
