package dev.sopline.engine.topology;

import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.topic.Topics;
import java.util.Map;
import java.util.Optional;

/**
 * The automated steps topics of the teams, {@code sop.steps.automated.<namespace>}: created when a process that runs
 * steps of a new namespace is registered, or at the first step of it (a process registered before topics were per
 * team), with the partition count of {@code sop.steps.automated} ({@link TopicsOnDemand}); namespaces come and go
 * while the engine runs.
 */
public final class AutomatedStepTopics implements AutoCloseable {

    /** The Kafka Streams property that turns creation on; off under the topology test driver, which has no broker. */
    public static final String CREATE_CONFIG = "sop.steps.topics.create";

    private final TopicsOnDemand topics;

    private AutomatedStepTopics(TopicsOnDemand topics) {
        this.topics = topics;
    }

    /** Topic creation as the application's config asks, or empty when the topics are left to the operator. */
    public static Optional<AutomatedStepTopics> from(Map<String, Object> appConfigs) {
        if (!Boolean.parseBoolean(String.valueOf(appConfigs.getOrDefault(CREATE_CONFIG, "false")))) {
            return Optional.empty();
        }
        return Optional.of(new AutomatedStepTopics(new TopicsOnDemand("automated steps topic",
                name -> Topics.AUTOMATED_STEPS.matcher(name).matches(), Topics.stepReady(StepType.AUTOMATED), appConfigs,
                "sop-automated-step-topics")));
    }

    /** The topic of the run's namespace, created first if this task has not seen it yet. */
    public String ensureFor(String run) {
        return topics.ensure(Topics.automatedStepsFor(run));
    }

    @Override
    public void close() {
        topics.close();
    }
}
