package dev.sopline.schemas.definition;

/**
 * Settings of a judgment step.
 *
 * @param allowAgent whether an agent may decide; when false a person always does
 * @param confidenceThreshold in [0,1]; an agent answer below it escalates
 * @param escalateTo who takes over an escalation; {@code human} is the only value today
 * @param instructions optional guidance passed to the agent and shown to the person
 */
public record JudgmentSettings(boolean allowAgent, double confidenceThreshold, String escalateTo, String instructions) {

    public static final double DEFAULT_CONFIDENCE_THRESHOLD = 0.8;
    public static final String HUMAN = "human";
}
