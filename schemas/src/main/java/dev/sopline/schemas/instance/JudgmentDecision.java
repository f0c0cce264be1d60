package dev.sopline.schemas.instance;

/**
 * Who decided a judgment step and how sure they were. An agent's proposal, when it escalates, is not part of the
 * decision: it travels as the step result's outputs and stays on the step as its {@code proposal}.
 *
 * @param by {@code agent} or {@code human}
 * @param confidence the agent's confidence in [0,1]; null for a person
 * @param rationale the agent's reasoning in a few sentences
 * @param model the model that answered, for example {@code local/all-minilm-l6-v2}
 * @param promptSha256 lowercase hex SHA-256 of exactly what the model read, so an auditor can tell which prompt a
 *     decision came from without the record holding the case's data twice; null for a person and in records written
 *     before the field existed
 */
public record JudgmentDecision(String by, Double confidence, String rationale, String model, String promptSha256) {

    public static final String AGENT = "agent";
    public static final String HUMAN = "human";

    /** A decision without a prompt hash: a person's, or one reported before agents hashed their prompts. */
    public JudgmentDecision(String by, Double confidence, String rationale, String model) {
        this(by, confidence, rationale, model, null);
    }

    /** The same decision with another rationale, for example the reason the engine escalated it; the hash stays. */
    public JudgmentDecision withRationale(String newRationale) {
        return new JudgmentDecision(by, confidence, newRationale, model, promptSha256);
    }

    /** The longest rationale kept. */
    public static final int MAX_RATIONALE_CHARS = 4_096;
    /** The longest of the short fields ({@code by}, {@code model}, {@code prompt_sha256}) kept. */
    public static final int MAX_NAME_CHARS = 256;

    /** This decision with its texts cut to their bounds, as {@link StepError#bounded()} does for errors. */
    public JudgmentDecision bounded() {
        String boundedBy = Texts.cut(by, MAX_NAME_CHARS);
        String boundedRationale = Texts.cut(rationale, MAX_RATIONALE_CHARS);
        String boundedModel = Texts.cut(model, MAX_NAME_CHARS);
        String boundedHash = Texts.cut(promptSha256, MAX_NAME_CHARS);
        return boundedBy == by && boundedRationale == rationale && boundedModel == model && boundedHash == promptSha256
                ? this : new JudgmentDecision(boundedBy, confidence, boundedRationale, boundedModel, boundedHash);
    }
}
