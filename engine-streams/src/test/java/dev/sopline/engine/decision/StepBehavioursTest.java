package dev.sopline.engine.decision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sopline.engine.decision.step.StepBehaviour;
import dev.sopline.engine.decision.step.StepBehaviours;
import dev.sopline.engine.state.StepRun;
import dev.sopline.schemas.definition.JudgmentSettings;
import dev.sopline.schemas.definition.StepDefinition;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.instance.Assignee;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What each step type is, as a table; and that the engine cannot run with a step type it has no behaviour for. */
class StepBehavioursTest {

    private static final StepBehaviours STANDARD = StepBehaviours.standard();

    private static StepDefinition step(StepType type, JudgmentSettings judgment) {
        return new StepDefinition("s", null, type, null, "work", Map.of(), List.of(), judgment, null);
    }

    static Stream<Arguments> table() {
        JudgmentSettings agent = new JudgmentSettings(true, 0.8, JudgmentSettings.HUMAN, null);
        JudgmentSettings noAgent = new JudgmentSettings(false, 0.8, JudgmentSettings.HUMAN, null);
        return Stream.of(
                // step | assignee when active | callback URL | submit may report an error | takes worker results
                Arguments.of(step(StepType.FORM, null), Assignee.HUMAN, false, false, false),
                Arguments.of(step(StepType.AUTOMATED, null), Assignee.WORKER, false, true, true),
                Arguments.of(step(StepType.JUDGMENT, agent), Assignee.AGENT, false, false, true),
                Arguments.of(step(StepType.JUDGMENT, noAgent), Assignee.HUMAN, false, false, false),
                Arguments.of(step(StepType.WEBHOOK, null), Assignee.THIRD_PARTY, true, false, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void shouldGiveEachStepTypeItsBehaviour(StepDefinition declared, Assignee assignee, boolean callback, boolean submittedErrors,
                                            boolean results) {
        StepBehaviour behaviour = STANDARD.of(declared.type());
        Assignee assigned = behaviour.assignee(declared);
        StepRun active = StepRun.pending("s", null, declared.type()).activate(assigned, 1, Map.of(), null, java.time.Instant.EPOCH, null);

        assertThat(assigned).isEqualTo(assignee);
        assertThat(behaviour.issuesCallback()).isEqualTo(callback);
        assertThat(behaviour.acceptsSubmittedErrors()).isEqualTo(submittedErrors);
        assertThat(behaviour.acceptsResult(active)).isEqualTo(results);
    }

    @Test
    void shouldRefuseToStartWithoutABehaviourForEveryStepType() {
        List<StepBehaviour> withoutWebhook = Arrays.stream(StepType.values()).filter(type -> type != StepType.WEBHOOK)
                .map(STANDARD::of).toList();

        assertThatThrownBy(() -> new StepBehaviours(withoutWebhook))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("webhook");
    }

    @Test
    void shouldRefuseTwoBehavioursForOneStepType() {
        List<StepBehaviour> formTwice = Stream.concat(Arrays.stream(StepType.values()).map(STANDARD::of), Stream.of(STANDARD.of(StepType.FORM)))
                .toList();

        assertThatThrownBy(() -> new StepBehaviours(formTwice)).isInstanceOf(IllegalStateException.class).hasMessageContaining("form");
    }
}
