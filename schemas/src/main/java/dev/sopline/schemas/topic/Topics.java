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

    /**
     * The copy of {@link #EVENTS} that holds one workspace's events alone, written when the engine runs with
     * {@code SOP_EVENTS_TOPIC_PER_WORKSPACE=true}: {@code sop.events.<workspace>}. Every workspace name
     * ({@code [a-z0-9][a-z0-9-]{1,62}}) is a legal topic name as it is, so the name is used unchanged.
     */
    public static String workspaceEvents(String workspace) {
        return EVENTS + "." + workspace;
    }

    /** Topic of the step-ready events of one step type, for example {@code sop.steps.automated}. */
    public static String stepReady(StepType type) {
        return STEP_READY_PREFIX + type.wireName();
    }
}
