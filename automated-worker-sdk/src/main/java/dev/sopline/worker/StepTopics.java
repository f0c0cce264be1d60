package dev.sopline.worker;

import dev.sopline.schemas.definition.StepType;
import dev.sopline.schemas.topic.Topics;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.Consumer;

/**
 * The step-ready topics a Kafka worker reads: for handlers, the topics of their {@code run} references' namespaces
 * ({@code billing.pay} → {@code sop.steps.automated.billing}) and, while steps written by earlier releases may
 * still wait there, {@code sop.steps.automated}; for a resolver of every step of a type, that type's topic or, for
 * automated steps, every team's topic.
 *
 * <p>The worker always subscribes with a pattern, even to topics it can name: a team's topic does not exist until its
 * first process is registered, and a consumer subscribed to a missing topic by name asks for it at every metadata
 * retry, with a warning from Kafka's network client each time (about one a second, for as long as the topic is
 * missing). A pattern finds the topic at the next metadata refresh instead, without a warning; the worker says once
 * that the topic is missing ({@link KafkaPreflight}). {@link #names()} are the topics it expects, for that message.
 *
 * @param names the topics named by the handlers; empty for a resolver of every automated step
 * @param pattern what the worker subscribes to
 */
record StepTopics(List<String> names, Pattern pattern) {

    static StepTopics forHandlers(Collection<String> runs, boolean readPreviousTopic) {
        TreeSet<String> names = new TreeSet<>();
        runs.forEach(run -> names.add(Topics.automatedStepsFor(run)));
        if (readPreviousTopic) {
            names.add(Topics.stepReady(StepType.AUTOMATED));
        }
        return ofNames(List.copyOf(names));
    }

    static StepTopics forType(StepType type) {
        return type == StepType.AUTOMATED ? new StepTopics(List.of(), Topics.AUTOMATED_STEPS) : ofNames(List.of(Topics.stepReady(type)));
    }

    private static StepTopics ofNames(List<String> names) {
        return new StepTopics(names, Pattern.compile(names.stream().map(Pattern::quote).collect(Collectors.joining("|"))));
    }

    void subscribe(Consumer<?, ?> consumer, org.apache.kafka.clients.consumer.ConsumerRebalanceListener rebalance) {
        consumer.subscribe(pattern, rebalance);
    }

    @Override
    public String toString() {
        return names.isEmpty() ? pattern.pattern() : String.join(", ", names);
    }
}
