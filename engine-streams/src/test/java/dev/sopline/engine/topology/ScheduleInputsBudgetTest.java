package dev.sopline.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.sopline.engine.decision.CallbackIds;
import dev.sopline.engine.decision.InstanceBudget;
import dev.sopline.schemas.command.CommandReply;
import dev.sopline.schemas.validation.Violation;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A schedule whose inputs alone pass the instance budget would be refused at every fire, where no sender reads the
 * answer: it is refused at registration, where someone does.
 */
class ScheduleInputsBudgetTest {

    private final EngineHarness engine = new EngineHarness(new EngineConfig(Duration.ofMillis(100), new CallbackIds(EngineHarness.SECRET),
            EngineConfig.DEFAULT_FIRES_PER_PUNCTUATION, new InstanceBudget(200)));

    @AfterEach
    void close() {
        engine.close();
    }

    @Test
    void shouldRefuseAScheduleWhoseInputsPassTheInstanceBudget() {
        CommandReply refused = engine.register("too-big", scheduled("too-big", "x".repeat(300)));
        CommandReply fits = engine.register("fits", scheduled("fits", "emea"));

        assertThat(refused.status()).isEqualTo(422);
        assertThat(refused.error()).isEqualTo("invalid_definition");
        assertThat(refused.details()).extracting(Violation::field, Violation::code).containsExactly(tuple("process.trigger.inputs", "too_large"));
        assertThat(refused.message()).contains("200 bytes");
        assertThat(fits.status()).isEqualTo(201);
        engine.advance(Duration.ofHours(1).plusMinutes(1));
        assertThat(engine.followUps()).as("the schedule that fits starts its instance").hasSize(1);
    }

    private static byte[] scheduled(String name, String region) {
        return """
                engine: "0.1"
                process:
                  name: %s
                  version: "1.0"
                  trigger:
                    type: schedule
                    cron: "@hourly"
                    inputs:
                      region: %s
                  inputs:
                    - name: region
                      required: true
                  steps:
                    - id: report
                      type: form
                """.formatted(name, region).getBytes(StandardCharsets.UTF_8);
    }
}
