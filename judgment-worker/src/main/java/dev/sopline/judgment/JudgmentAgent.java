package dev.sopline.judgment;

/** Decides a judgment step, or says it cannot. */
public interface JudgmentAgent {

    /**
     * @throws UndecidableException when no usable answer can be given: the step goes to a person
     */
    AgentAnswer decide(JudgmentRequest request) throws UndecidableException;

    /** Names the model in decisions, for example {@code local/all-minilm-l6-v2}. */
    String model();
}
