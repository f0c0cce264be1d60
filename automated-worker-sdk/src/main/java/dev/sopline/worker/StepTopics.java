package dev.sopline.worker;

import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.topic.Topics;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.Consumer;

/**
 * The step-ready topics a Kafka worker reads: for handlers, the topics of their {@code run} references' namespaces
 * ({@code billing.pay} → {@code sop.steps.automated.billing}) and, while steps written by earlier releases may
 * still wait there, {@code sop.steps.automated}; for a resolver of every step of a type, that type's topic or, for
 * automated steps, every team's topic.
 */
record StepTopics(List<String> names, Pattern pattern) {

    static StepTopics forHandlers(Collection<String> runs, boolean readPreviousTopic) {
        TreeSet<String> names = new TreeSet<>();
        runs.forEach(run -> names.add(Topics.automatedStepsFor(run)));
        if (readPreviousTopic) {
            names.add(Topics.stepReady(StepType.AUTOMATED));
        }
        return new StepTopics(List.copyOf(names), null);
    }

    static StepTopics forType(StepType type) {
        return type == StepType.AUTOMATED ? new StepTopics(List.of(), Topics.AUTOMATED_STEPS) : new StepTopics(List.of(Topics.stepReady(type)), null);
    }

    void subscribe(Consumer<?, ?> consumer, org.apache.kafka.clients.consumer.ConsumerRebalanceListener rebalance) {
        if (pattern != null) {
            consumer.subscribe(pattern, rebalance);
        } else {
            consumer.subscribe(names, rebalance);
        }
    }

    @Override
    public String toString() {
        return pattern != null ? pattern.pattern() : String.join(", ", names);
    }
}
