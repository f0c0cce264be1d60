package dev.sopline.gateway.stream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.InstanceStateChanged;
import dev.sopline.schemas.event.StateChangeEvents;
import dev.sopline.schemas.event.StepStateChanged;
import dev.sopline.schemas.instance.InstanceState;
import dev.sopline.schemas.instance.InstanceView;
import dev.sopline.schemas.instance.StepState;
import dev.sopline.schemas.instance.StepView;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which records on {@code sop.events} wake a waiting read: the instance's own changes, as the engine writes them. */
class InstanceWaitsWakeUpTest {

    private static final Instant NOW = Instant.parse("2026-11-27T08:00:00Z");
    private static final StepView STEP = new StepView("work", null, StepType.AUTOMATED, StepState.ACTIVE, 1, null, null, null, null, null,
            null, null, null);
    private static final InstanceView INSTANCE = new InstanceView("01JW0000000000000000000001", "default", "p", "1.0", InstanceState.COMPLETED,
            Map.of(), Map.of(), null, NOW, NOW, List.of(STEP));

    @Test
    void shouldWakeForTheInstancesOwnChangeAndNotForAStepsChange() {
        byte[] instanceChange = StateChangeEvents.instanceChanged(new InstanceStateChanged(InstanceState.RUNNING, InstanceState.COMPLETED, INSTANCE), NOW);
        byte[] stepChange = StateChangeEvents.stepChanged(new StepStateChanged("default", INSTANCE.id(), "p", "1.0", StepState.PENDING,
                StepState.ACTIVE, STEP), NOW);

        assertThat(InstanceWaits.mayChangeInstanceState(instanceChange)).isTrue();
        assertThat(InstanceWaits.mayChangeInstanceState(stepChange)).isFalse();
    }

    @Test
    void shouldWakeForWhatItCannotRead() {
        assertThat(InstanceWaits.mayChangeInstanceState(null)).isTrue();
        assertThat(InstanceWaits.mayChangeInstanceState("not json".getBytes(StandardCharsets.UTF_8))).isTrue();
        assertThat(InstanceWaits.mayChangeInstanceState("[1]".getBytes(StandardCharsets.UTF_8))).isTrue();
        assertThat(InstanceWaits.mayChangeInstanceState("{\"id\":\"x\"}".getBytes(StandardCharsets.UTF_8))).isTrue();
    }
}
