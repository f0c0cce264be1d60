package dev.sopline.engine.topology;

import dev.sopline.engine.api.view.ProcessVersions;
import dev.sopline.schemas.definition.StepDefinition;
import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.event.StepReady;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Sends each automated step to its team's topic, {@code sop.steps.automated.<namespace of run>} (the sink picks the
 * topic), so that a team's workers read its own steps only. Also sees each published process version, and creates
 * the topics of its automated steps' namespaces then, before the first step: a team's workers can subscribe as soon
 * as the process is registered.
 */
final class AutomatedStepsRouter implements Processor<String, Object, String, Object> {

    private ProcessorContext<String, Object> context;
    private Optional<AutomatedStepTopics> topics;

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.topics = AutomatedStepTopics.from(context.appConfigs());
    }

    @Override
    public void process(Record<String, Object> record) {
        if (record.value() instanceof StepReady ready) {
            topics.ifPresent(created -> created.ensureFor(ready.run()));
            context.forward(record, EngineTopology.AUTOMATED_STEPS_SINK);
        } else if (record.value() instanceof ProcessVersions published) {
            topics.ifPresent(created -> published.versions().values().forEach(version -> version.definition().steps().stream()
                    .filter(step -> step.type() == StepType.AUTOMATED).map(StepDefinition::run).forEach(created::ensureFor)));
        }
    }

    @Override
    public void close() {
        topics.ifPresent(AutomatedStepTopics::close);
    }
}
