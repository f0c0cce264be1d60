package dev.sopline.schemas.topic;

import dev.sopline.schemas.definition.StepType;

/** The one place the names of the public topics live. Every public topic is keyed by instance id. */
public final class Topics {

    /** Every instance and step state change, as CloudEvents 1.0 JSON. */
    public static final String EVENTS = "sop.events";
    /** Results that workers and agents publish. */
    public static final String STEP_RESULTS = "sop.step-results";

    private static final String STEP_READY_PREFIX = "sop.steps.";

    private Topics() {}

    /** Topic of the step-ready events of one step type, for example {@code sop.steps.automated}. */
    public static String stepReady(StepType type) {
        return STEP_READY_PREFIX + type.wireName();
    }
}
