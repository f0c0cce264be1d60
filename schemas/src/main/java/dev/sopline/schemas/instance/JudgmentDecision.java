package dev.sopline.schemas.instance;

/**
 * Who decided a judgment step and how sure they were.
 *
 * @param by {@code agent} or {@code human}
 * @param confidence the agent's confidence in [0,1]; null for a person
 * @param rationale the agent's reasoning in a few sentences
 * @param model the model that answered, for example {@code local/all-minilm-l6-v2}
 */
public record JudgmentDecision(String by, Double confidence, String rationale, String model) {

    public static final String AGENT = "agent";
    public static final String HUMAN = "human";
}
