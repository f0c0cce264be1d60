package dev.sopline.schemas.topic;

import dev.sopline.schemas.definition.StepType;
import java.util.regex.Pattern;

/** The one place the names of the public topics live. Every public topic is keyed by instance id. */
public final class Topics {

    /** Every instance and step state change, as CloudEvents 1.0 JSON. */
    public static final String EVENTS = "sop.events";
    /** Results that workers and agents publish. */
    public static final String STEP_RESULTS = "sop.step-results";
    /**
     * The engine's command topic. Its records are the engine's to design, but SDK workers write their results to it
     * (the engine takes an unsigned record there only as a worker's result), so its name is shared here.
     */
    public static final String COMMANDS = "sop.commands";

    private static final String STEP_READY_PREFIX = "sop.steps.";
    /** Namespace of a {@code run} reference with no dot, such as {@code charge}. */
    public static final String DEFAULT_NAMESPACE = "default";
    /** Longest namespace kept in a topic name: Kafka allows 249 characters and the prefix takes 20. */
    static final int MAX_NAMESPACE_LENGTH = 200;
    /** Every automated steps topic, the namespaced ones and the single one of earlier releases. */
    public static final Pattern AUTOMATED_STEPS = Pattern.compile("sop\\.steps\\.automated(\\..+)?");
    private static final Pattern NOT_IN_TOPIC_NAMES = Pattern.compile("[^A-Za-z0-9_-]");

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

    /**
     * The namespace of a {@code run} reference, which names the team that runs it: the part before the first dot
     * ({@code billing.pay} → {@code billing}). A reference with no dot, or starting with one, is in {@link #DEFAULT_NAMESPACE}.
     * Characters a topic name cannot hold after the prefix (anything but ASCII letters, digits, {@code _} and {@code -})
     * become {@code _}, and the namespace is cut at {@value #MAX_NAMESPACE_LENGTH} characters; so {@code my team.x} and
     * {@code my_team.x} share the topic {@code sop.steps.automated.my_team} (workers still take only the runs they handle).
     */
    public static String namespaceOf(String run) {
        int dot = run == null ? -1 : run.indexOf('.');
        if (dot <= 0) {
            return DEFAULT_NAMESPACE;
        }
        String namespace = NOT_IN_TOPIC_NAMES.matcher(run.substring(0, dot)).replaceAll("_");
        return namespace.length() > MAX_NAMESPACE_LENGTH ? namespace.substring(0, MAX_NAMESPACE_LENGTH) : namespace;
    }

    /** Topic of one namespace's automated steps: {@code sop.steps.automated.<namespace>}. */
    public static String automatedSteps(String namespace) {
        return stepReady(StepType.AUTOMATED) + "." + namespace;
    }

    /** Topic an automated step with this {@code run} reference goes to. */
    public static String automatedStepsFor(String run) {
        return automatedSteps(namespaceOf(run));
    }
}
