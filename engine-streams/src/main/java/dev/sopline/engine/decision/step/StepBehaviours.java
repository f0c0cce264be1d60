package dev.sopline.engine.decision.step;

import dev.sopline.schemas.definition.StepType;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The one table from step type to its behaviour. */
public final class StepBehaviours {

    private final Map<StepType, StepBehaviour> byType = new EnumMap<>(StepType.class);

    /**
     * @throws IllegalStateException when a step type has no behaviour or two: a file could declare a step the engine
     *     would then not know how to run, so the engine does not start at all
     */
    public StepBehaviours(List<StepBehaviour> behaviours) {
        for (StepBehaviour behaviour : behaviours) {
            if (byType.put(behaviour.type(), behaviour) != null) {
                throw new IllegalStateException("Expected one behaviour for %s steps, but two are registered".formatted(behaviour.type().wireName()));
            }
        }
        List<StepType> missing = Arrays.stream(StepType.values()).filter(type -> !byType.containsKey(type)).toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException("Expected a behaviour for every step type, but none is registered for " + missing);
        }
    }

    public static StepBehaviours standard() {
        return new StepBehaviours(List.of(
                new FormStep(),
                new AutomatedStep(),
                new JudgmentStep(),
                new WebhookStep()));
    }

    public StepBehaviour of(StepType type) {
        StepBehaviour behaviour = byType.get(type);
        if (behaviour == null) {
            throw new IllegalArgumentException("Expected a known step type, but got " + type);
        }
        return behaviour;
    }
}
