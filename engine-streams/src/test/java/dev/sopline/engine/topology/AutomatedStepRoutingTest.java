package dev.sopline.engine.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sopline.engine.decision.CallbackIds;
import dev.sopline.engine.runtime.ReplyOnlyProductionExceptionHandler;
import dev.sopline.engine.runtime.SkippingProcessingExceptionHandler;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.StepReady;
import dev.sopline.schemas.topic.Topics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Each automated step goes to the topic of its team, the namespace of its {@code run} reference. */
class AutomatedStepRoutingTest {

    private static final String ID = "01JAAAAAAAAAAAAAAAAAAAAAAA";
    private static final String OTHER_ID = "01JBBBBBBBBBBBBBBBBBBBBBBB";

    private final EngineHarness engine = new EngineHarness();

    @AfterEach
    void close() {
        engine.close();
    }

    @Test
    void shouldWriteAStepToTheTopicOfItsRunsNamespaceOnly() {
        engine.register("automated.yaml");
        engine.start(ID, "billing", Map.of("amount", 12.5));

        assertThat(engine.readyOn(Topics.automatedSteps("billing"))).extracting(StepReady::instanceId, StepReady::run)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(ID, "billing.charge"));
        assertThat(engine.readyOn(Topics.stepReady(StepType.AUTOMATED))).as("the topic of earlier releases").isEmpty();
        assertThat(engine.readyOn(Topics.automatedSteps(Topics.DEFAULT_NAMESPACE))).isEmpty();
    }

    @Test
    void shouldWriteAStepWhoseRunHasNoNamespaceToTheDefaultTopic() {
        String yaml = new String(EngineHarness.resource("automated.yaml"), StandardCharsets.UTF_8)
                .replace("name: billing", "name: plain").replace("run: billing.charge", "run: charge");
        engine.register("plain", yaml.getBytes(StandardCharsets.UTF_8));
        engine.start(OTHER_ID, "plain", Map.of("amount", 3));

        assertThat(engine.readyOn(Topics.automatedSteps(Topics.DEFAULT_NAMESPACE))).extracting(StepReady::instanceId).containsExactly(OTHER_ID);
        assertThat(engine.readyOn(Topics.automatedSteps("billing"))).isEmpty();
    }

    @Test
    void shouldFailTheTaskRatherThanKeepADecisionWhoseTeamsTopicCannotBeCreated() {
        // As the engine runs: teams' topics created on demand, and its own exception handlers. The broker is out of
        // reach, so the team's topic cannot be created, and the registration that needs it must not be kept without it.
        EngineHarness withoutBroker = new EngineHarness(new EngineConfig(Duration.ofMillis(100), new CallbackIds(EngineHarness.SECRET)), Map.of(
                AutomatedStepTopics.CREATE_CONFIG, "true",
                StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, SkippingProcessingExceptionHandler.class,
                StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG, ReplyOnlyProductionExceptionHandler.class));
        try {
            assertThatThrownBy(() -> withoutBroker.register("automated.yaml"))
                    .as("the task fails, so its transaction is aborted and the command decided again once the topic can be made")
                    .isInstanceOf(StreamsException.class)
                    .hasStackTraceContaining("Expected to create the automated steps topic sop.steps.automated.billing");
        } finally {
            withoutBroker.closeAfterTaskFailure();
        }
    }

    @Test
    void shouldNameTopicsByTheDocumentedRule() {
        assertThat(Topics.automatedStepsFor("billing.pay")).isEqualTo("sop.steps.automated.billing");
        assertThat(Topics.automatedStepsFor("billing.refunds.pay")).isEqualTo("sop.steps.automated.billing");
        assertThat(Topics.automatedStepsFor("pay")).isEqualTo("sop.steps.automated.default");
        assertThat(Topics.automatedStepsFor(".pay")).isEqualTo("sop.steps.automated.default");
        assertThat(Topics.automatedStepsFor("my team/ü.pay")).isEqualTo("sop.steps.automated.my_team__");
        assertThat(Topics.automatedStepsFor("x".repeat(300) + ".pay")).hasSize("sop.steps.automated.".length() + 200);
    }
}
